// Prepared Sql.StmtExecute statements are MariaDB server-side statements,
// as MySQL's X Plugin makes them (prepare_command_handler.cc): one row in
// performance_schema.prepared_statements_instances each, COUNT_EXECUTE
// growing per Execute, gone after Deallocate / Session.Reset / close;
// max_prepared_stmt_count exhausted -> mysqld's 1461 at Prepare. 8.0 fixture.
#include "mysqlx_session.pb.h"
#include "test/xserver/tests/crud_test_util.h"

#include <gtest/gtest.h>

namespace xtest {
namespace {

std::vector<frame> prepare(xclient& c, std::uint32_t id, const std::string& sql) {
  Prepared p;
  p.set_type(Prepared::STMT);
  p.mutable_stmt_execute()->set_stmt(sql);
  return xtest::prepare(c, id, p);
}

std::vector<frame> execute(xclient& c, std::uint32_t id, const std::string& arg) {
  return xtest::execute(c, id, {any_string(arg)});
}

TEST(PreparedServer80, OneRowPerStatementCountingExecutes) {
  xclient c = authed(env_port("XS_PORT_80"));
  ASSERT_TRUE(is(prepare(c, 1, "SELECT ?").back(), server_msg::ok));
  ASSERT_TRUE(is(prepare(c, 2, "SELECT CONCAT(?, 'b')").back(), server_msg::ok));
  EXPECT_EQ(instances(c), (std::vector<std::string>{"SELECT ?=0", "SELECT CONCAT(?, 'b')=0"}));
  EXPECT_EQ(column_strings(execute(c, 1, "x")), (std::vector<std::string>{"x"}));
  EXPECT_EQ(column_strings(execute(c, 1, "y")), (std::vector<std::string>{"y"}));
  EXPECT_EQ(column_strings(execute(c, 2, "a")), (std::vector<std::string>{"ab"}));
  EXPECT_EQ(instances(c), (std::vector<std::string>{"SELECT ?=2", "SELECT CONCAT(?, 'b')=1"}));
  ASSERT_TRUE(is(deallocate(c, 1).back(), server_msg::ok));
  EXPECT_EQ(instances(c), (std::vector<std::string>{"SELECT CONCAT(?, 'b')=1"}));
}

TEST(PreparedServer80, ResetAndCloseRemoveThem) {
  xclient c = authed(env_port("XS_PORT_80"));
  ASSERT_TRUE(is(prepare(c, 1, "SELECT ?").back(), server_msg::ok));
  Mysqlx::Session::Reset keep;
  keep.set_keep_open(true);
  c.send(client_msg::sess_reset, keep);
  ASSERT_TRUE(is(c.reply().back(), server_msg::ok));
  EXPECT_TRUE(instances(c).empty());

  ASSERT_TRUE(is(prepare(c, 7, "SELECT 'closing', ?").back(), server_msg::ok));
  c.send(client_msg::sess_close, Mysqlx::Session::Close());
  c.reply();
  xclient o = authed(env_port("XS_PORT_80"));
  auto left = column_strings(
      o.sql("SELECT CAST(COUNT(*) AS CHAR) FROM performance_schema.prepared_statements_instances "
            "WHERE SQL_TEXT = 'SELECT ''closing'', ?'"));
  EXPECT_EQ(left, (std::vector<std::string>{"0"}));
}

TEST(PreparedServer80, ExhaustedCountIsMysqldsError) {
  xclient c = authed(env_port("XS_PORT_80"));
  // The count is global: restored at once (this binary's tests run one at a
  // time on this fixture).
  auto saved = column_strings(c.sql("SELECT CAST(@@global.max_prepared_stmt_count AS CHAR)")).at(0);
  ASSERT_TRUE(
      is(c.sql("SET GLOBAL max_prepared_stmt_count = 0").back(), server_msg::sql_stmt_execute_ok));
  auto r = prepare(c, 1, "SELECT ?");
  c.sql("SET GLOBAL max_prepared_stmt_count = " + saved);
  ASSERT_TRUE(is(r.back(), server_msg::error)) << describe(r);
  EXPECT_EQ(error_of(r.back()).code(), 1461u);
  // Nothing was prepared: Execute knows no such statement.
  EXPECT_EQ(error_of(execute(c, 1, "x").back()).code(), 5110u);
}

} // namespace
} // namespace xtest
