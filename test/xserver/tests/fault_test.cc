// The xserver_test namespace: faults a reliability test switches on for its
// own connection (fault_injection.h).
#include "mysqlx_sql.pb.h"
#include "test/xserver/tests/xclient.h"

#include <chrono>
#include <gtest/gtest.h>

namespace xtest {
namespace {

using Mysqlx::Datatypes::Any;
using Mysqlx::Datatypes::Scalar;

xclient authed() {
  return xtest::authed(env_port("XS_PORT_80"));
}

std::vector<frame> fault(xclient& c, const std::string& cmd, const char* key = nullptr,
                         std::uint64_t value = 0) {
  Mysqlx::Sql::StmtExecute m;
  m.set_stmt(cmd);
  m.set_namespace_("xserver_test");
  auto* arg = m.add_args();
  arg->set_type(Any::OBJECT);
  arg->mutable_obj();
  if (key) {
    auto* f = arg->mutable_obj()->add_fld();
    f->set_key(key);
    f->mutable_value()->set_type(Any::SCALAR);
    f->mutable_value()->mutable_scalar()->set_type(Scalar::V_UINT);
    f->mutable_value()->mutable_scalar()->set_v_unsigned_int(value);
  }
  c.send(client_msg::sql_stmt_execute, m);
  return c.reply();
}

TEST(Fault, CloseAfterMessages) {
  xclient c = authed();
  ASSERT_TRUE(
      is(fault(c, "close_after_messages", "count", 2).back(), server_msg::sql_stmt_execute_ok));
  EXPECT_TRUE(is(c.sql("SELECT 1").back(), server_msg::sql_stmt_execute_ok));
  EXPECT_TRUE(is(c.sql("SELECT 2").back(), server_msg::sql_stmt_execute_ok));
  EXPECT_FALSE(c.read());
}

TEST(Fault, CloseAfterCommittingAnInsert) {
  xclient c = authed();
  const std::string db = unique_name("fault");
  c.sql("CREATE DATABASE " + db);
  c.admin("create_collection", db, "c");
  fault(c, "close_before_insert_ok");
  c.send(client_msg::crud_insert, [&] {
    Mysqlx::Crud::Insert m;
    m.mutable_collection()->set_schema(db);
    m.mutable_collection()->set_name("c");
    auto* e = m.add_row()->add_field();
    e->set_type(Mysqlx::Expr::Expr::LITERAL);
    e->mutable_literal()->set_type(Scalar::V_STRING);
    e->mutable_literal()->mutable_v_string()->set_value(R"({"_id":"kept"})");
    return m;
  }());
  EXPECT_FALSE(c.read()); // no reply at all
  xclient check = authed();
  EXPECT_EQ(column_strings(check.sql("SELECT _id FROM " + db + ".c")),
            (std::vector<std::string>{"kept"}));
}

TEST(Fault, DelayedReply) {
  xclient c = authed();
  fault(c, "delay_reply", "ms", 300);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(is(c.sql("SELECT 1").back(), server_msg::sql_stmt_execute_ok));
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(300));
}

TEST(Fault, AbsurdLengthAndTruncatedFrame) {
  xclient a = authed();
  fault(a, "send_absurd_length");
  a.send(client_msg::sql_stmt_execute, [] {
    Mysqlx::Sql::StmtExecute m;
    m.set_stmt("SELECT 1");
    return m;
  }());
  EXPECT_THROW(a.read(), std::runtime_error); // our reader refuses the length

  xclient t = authed();
  fault(t, "send_truncated_frame");
  t.send(client_msg::sql_stmt_execute, [] {
    Mysqlx::Sql::StmtExecute m;
    m.set_stmt("SELECT REPEAT('y', 100)");
    return m;
  }());
  std::vector<frame> got;
  while (auto f = t.read()) got.push_back(*f); // ends at EOF, mid-reply
  // The first half of the reply: the column metadata, not the 100-byte row.
  ASSERT_FALSE(got.empty());
  EXPECT_TRUE(is(got[0], server_msg::resultset_column_meta_data)) << describe(got);
  for (const auto& f : got) {
    EXPECT_FALSE(is(f, server_msg::resultset_row));
    EXPECT_FALSE(is(f, server_msg::sql_stmt_execute_ok));
  }
}

TEST(Fault, GarbageNoticeAndWrongTypeComeBeforeTheReply) {
  xclient g = authed();
  fault(g, "send_garbage_notice");
  const auto got = g.sql("SELECT 1");
  ASSERT_GE(got.size(), 2u);
  EXPECT_TRUE(is(got[0], server_msg::notice)) << describe(got);
  EXPECT_EQ(got[0].payload, std::string(4, '\xff'));
  EXPECT_TRUE(is(got.back(), server_msg::sql_stmt_execute_ok)) << describe(got);
  EXPECT_TRUE(is(g.sql("SELECT 2").back(), server_msg::sql_stmt_execute_ok)); // still open

  xclient w = authed();
  fault(w, "send_wrong_type");
  const auto first = w.sql("SELECT 1"); // xclient's reader stops at the AuthenticateOk
  ASSERT_EQ(first.size(), 1u) << describe(first);
  EXPECT_TRUE(is(first[0], server_msg::sess_authenticate_ok));
  EXPECT_TRUE(is(w.reply().back(), server_msg::sql_stmt_execute_ok)); // then the reply itself
  EXPECT_TRUE(is(w.sql("SELECT 2").back(), server_msg::sql_stmt_execute_ok));
}

} // namespace
} // namespace xtest
