// session_connect_attrs reach performance_schema.session_connect_attrs of
// the client's session, as with MySQL's X Plugin, which hands exactly the
// client's attributes to performance_schema for its thread
// (capabilities/handler_connection_attributes.cc): in the client's order,
// an empty value read as NULL. xserverd answers the reads from its own
// registry (connect_attrs_table.h). 8.0 fixture.
#include "mysqlx_session.pb.h"
#include "test/xserver/tests/crud_test_util.h"
#include "test/xserver/tests/xclient.h"

#include <algorithm>
#include <chrono>
#include <gtest/gtest.h>
#include <thread>

namespace xtest {
namespace {

const char* const k_attrs_query =
    "SELECT CONCAT(ATTR_NAME, '=', ATTR_VALUE) FROM performance_schema.session_connect_attrs "
    "WHERE PROCESSLIST_ID = CONNECTION_ID()";

std::vector<frame> set_attrs(xclient& c,
                             const std::vector<std::pair<std::string, std::string>>& attrs) {
  std::vector<std::pair<std::string, Mysqlx::Datatypes::Any>> fields;
  for (const auto& [k, v] : attrs) fields.emplace_back(k, any_string(v));
  return cap_set(c, {{"session_connect_attrs", any_object(fields)}});
}

TEST(ConnectAttrs80, TheClientsAttributesAreItsSessionsOnly) {
  xclient c(env_port("XS_PORT_80"));
  ASSERT_TRUE(is(set_attrs(c, {{"_client_name", "xclient"}, {"program", "attrs test"}}).back(),
                 server_msg::ok));
  auto r = c.auth("MYSQL41", "xtest", "xtest-pw");
  ASSERT_TRUE(is(r.back(), server_msg::sess_authenticate_ok)) << describe(r);
  r = c.sql(k_attrs_query);
  EXPECT_EQ(column_strings(r),
            (std::vector<std::string>{"_client_name=xclient", "program=attrs test"}))
      << describe(r);
}

// "qux" as Connector/C++ sends `qux` and `baz=`: an empty string.
const char* const k_ordered_query =
    "SELECT CONCAT(ORDINAL_POSITION, ' ', ATTR_NAME, '=', IFNULL(ATTR_VALUE, 'NULL')) "
    "FROM performance_schema.session_connect_attrs WHERE PROCESSLIST_ID = CONNECTION_ID() "
    "ORDER BY ORDINAL_POSITION";

xclient with_attrs(const std::vector<std::pair<std::string, std::string>>& attrs,
                   const std::string& user = "xtest", const std::string& pw = "xtest-pw") {
  xclient c(env_port("XS_PORT_80"));
  auto r = set_attrs(c, attrs);
  if (!is(r.back(), server_msg::ok)) throw std::runtime_error("CapabilitiesSet: " + describe(r));
  r = c.auth("MYSQL41", user, pw);
  if (!is(r.back(), server_msg::sess_authenticate_ok))
    throw std::runtime_error("auth: " + describe(r));
  return c;
}

std::string connection_id(xclient& c) {
  return column_strings(c.sql("SELECT CAST(CONNECTION_ID() AS CHAR)")).at(0);
}

TEST(ConnectAttrs80, InTheClientsOrderWithEmptyValuesNull) {
  xclient c = with_attrs({{"zeta", "1"}, {"qux", ""}, {"alpha", "a'b\\c\"d"}, {"baz", ""}});
  auto r = c.sql(k_ordered_query);
  EXPECT_EQ(column_strings(r),
            (std::vector<std::string>{"0 zeta=1", "1 qux=NULL", "2 alpha=a'b\\c\"d", "3 baz=NULL"}))
      << describe(r);
  // MySQL's column types: BIGINT UNSIGNED, VARCHAR(32), VARCHAR(1024), INT.
  r = c.sql("SELECT CAST(COUNT(*) AS CHAR) FROM performance_schema.session_connect_attrs "
            "WHERE PROCESSLIST_ID = CONNECTION_ID() AND ATTR_VALUE IS NULL");
  EXPECT_EQ(column_strings(r), (std::vector<std::string>{"2"})) << describe(r);
}

TEST(ConnectAttrs80, OtherSessionsAndTheAccountTable) {
  const std::string user = unique_name("attrs_u");
  xclient admin = authed(env_port("XS_PORT_80"));
  ASSERT_TRUE(is(admin.sql("CREATE USER " + user + "@'%' IDENTIFIED BY 'pw'").back(),
                 server_msg::sql_stmt_execute_ok));
  ASSERT_TRUE(is(admin.sql("GRANT SELECT ON *.* TO " + user + "@'%'").back(),
                 server_msg::sql_stmt_execute_ok));
  {
    xclient mine = with_attrs({{"who", "mine"}});
    xclient same = with_attrs({{"who", "same account"}});
    xclient other = with_attrs({{"who", "other account"}}, user, "pw");
    const std::string other_id = connection_id(other);
    // Any session reads every session's attributes by its id.
    auto r = mine.sql("SELECT ATTR_VALUE FROM performance_schema.session_connect_attrs "
                      "WHERE PROCESSLIST_ID = " +
                      other_id);
    EXPECT_EQ(column_strings(r), (std::vector<std::string>{"other account"})) << describe(r);
    // session_account_connect_attrs: this account's sessions only.
    r = mine.sql("SELECT a.ATTR_VALUE FROM performance_schema.session_account_connect_attrs a "
                 "WHERE a.ATTR_NAME = 'who' ORDER BY 1");
    auto rows = column_strings(r);
    EXPECT_NE(std::find(rows.begin(), rows.end(), "mine"), rows.end()) << describe(r);
    EXPECT_NE(std::find(rows.begin(), rows.end(), "same account"), rows.end()) << describe(r);
    EXPECT_EQ(std::find(rows.begin(), rows.end(), "other account"), rows.end()) << describe(r);
    r = other.sql("SELECT ATTR_VALUE FROM performance_schema.session_account_connect_attrs");
    EXPECT_EQ(column_strings(r), (std::vector<std::string>{"other account"})) << describe(r);
    // Unqualified, with performance_schema as the default database.
    ASSERT_TRUE(is(other.sql("USE performance_schema").back(), server_msg::sql_stmt_execute_ok));
    r = other.sql("SELECT ATTR_VALUE FROM session_connect_attrs WHERE PROCESSLIST_ID = " +
                  other_id);
    EXPECT_EQ(column_strings(r), (std::vector<std::string>{"other account"})) << describe(r);
    other.send(client_msg::con_close, Mysqlx::Connection::Close());
    (void)other.reply();
    // A session that ended has no rows (its thread leaves the registry
    // just after the reply to Close: a moment's grace).
    for (int i = 0; i < 100; ++i) {
      r = mine.sql("SELECT ATTR_VALUE FROM performance_schema.session_connect_attrs "
                   "WHERE PROCESSLIST_ID = " +
                   other_id);
      if (column_strings(r).empty()) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_TRUE(column_strings(r).empty()) << describe(r);
  }
  admin.sql("DROP USER " + user + "@'%'");
}

TEST(ConnectAttrs80, APreparedReadSeesTheSessionsOfEachExecute) {
  xclient c = with_attrs({{"who", "reader"}});
  Prepared p;
  p.set_type(Prepared::STMT);
  p.mutable_stmt_execute()->set_stmt(
      "SELECT CAST(COUNT(*) AS CHAR) FROM performance_schema.session_connect_attrs "
      "WHERE ATTR_NAME = 'who' AND ATTR_VALUE = ?");
  ASSERT_TRUE(is(prepare(c, 1, p).back(), server_msg::ok));
  EXPECT_EQ(column_strings(execute(c, 1, {any_string("later")})), (std::vector<std::string>{"0"}));
  xclient later = with_attrs({{"who", "later"}});
  EXPECT_EQ(column_strings(execute(c, 1, {any_string("later")})), (std::vector<std::string>{"1"}));
}

TEST(ConnectAttrs80, NoAttributesNoRows) {
  xclient c = authed(env_port("XS_PORT_80"));
  auto r = c.sql(k_attrs_query);
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  EXPECT_TRUE(column_strings(r).empty()) << describe(r);
}

TEST(ConnectAttrs80, ANewSetAfterResetReplacesThem) {
  xclient c(env_port("XS_PORT_80"));
  ASSERT_TRUE(is(set_attrs(c, {{"first", "1"}}).back(), server_msg::ok));
  ASSERT_TRUE(is(c.auth("MYSQL41", "xtest", "xtest-pw").back(), server_msg::sess_authenticate_ok));
  c.send(client_msg::sess_reset, Mysqlx::Session::Reset());
  ASSERT_TRUE(is(c.reply().back(), server_msg::ok));
  ASSERT_TRUE(is(set_attrs(c, {{"second", "2"}}).back(), server_msg::ok));
  ASSERT_TRUE(is(c.auth("MYSQL41", "xtest", "xtest-pw").back(), server_msg::sess_authenticate_ok));
  EXPECT_EQ(column_strings(c.sql(k_attrs_query)), (std::vector<std::string>{"second=2"}));
}

} // namespace
} // namespace xtest
