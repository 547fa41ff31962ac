// Session.Reset / Session.Close, and the list_clients / kill_client admin
// commands (8.0 fixture).
#include "mysqlx_connection.pb.h"
#include "mysqlx_prepare.pb.h"
#include "mysqlx_resultset.pb.h"
#include "mysqlx_session.pb.h"
#include "mysqlx_sql.pb.h"
#include "test/xserver/tests/xclient.h"

#include <gtest/gtest.h>

namespace xtest {
namespace {

using Mysqlx::Datatypes::Any;
using Mysqlx::Datatypes::Scalar;

xclient authed() {
  return xtest::authed(env_port("XS_PORT_80"));
}

std::uint64_t client_id_of(const std::vector<frame>& auth_reply) {
  for (const auto& f : auth_reply) {
    auto n = notice_of(f);
    if (n.param == 11) return n.values.at(0).v_unsigned_int();
  }
  return 0;
}

std::uint64_t uint_field(const std::string& varint) {
  std::uint64_t v = 0;
  int shift = 0;
  for (unsigned char b : varint) {
    v |= std::uint64_t(b & 0x7f) << shift;
    shift += 7;
  }
  return v;
}

std::vector<frame> reset(xclient& c, bool keep_open) {
  Mysqlx::Session::Reset r;
  r.set_keep_open(keep_open);
  c.send(client_msg::sess_reset, r);
  return c.reply();
}

TEST(Session80, ResetKeepOpenKeepsTheUserAndClearsSessionState) {
  xclient c = authed();
  c.sql("SET @v = 42");
  ASSERT_TRUE(is(reset(c, true).back(), server_msg::ok));
  auto r = c.sql("SELECT CAST(@v AS CHAR)");
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  EXPECT_EQ(column_strings(r), (std::vector<std::string>{"<NULL>"}));
}

// MySQL 8.0 deallocates every prepared statement of the session on a reset,
// keep_open or not: a pooled session reused by the next lease starts with
// none, and its stmt_ids may be reused without clashing.
TEST(Session80, ResetKeepOpenDropsPreparedStatements) {
  xclient c = authed();
  Mysqlx::Prepare::Prepare p;
  p.set_stmt_id(1);
  p.mutable_stmt()->set_type(Mysqlx::Prepare::Prepare::OneOfMessage::STMT);
  p.mutable_stmt()->mutable_stmt_execute()->set_stmt("SELECT 'lease 1'");
  c.send(client_msg::prepare_prepare, p);
  ASSERT_TRUE(is(c.reply().back(), server_msg::ok));
  Mysqlx::Prepare::Execute e;
  e.set_stmt_id(1);
  c.send(client_msg::prepare_execute, e);
  auto before = c.reply();
  ASSERT_TRUE(is(before.back(), server_msg::sql_stmt_execute_ok)) << describe(before);
  EXPECT_EQ(column_strings(before), (std::vector<std::string>{"lease 1"}));

  ASSERT_TRUE(is(reset(c, true).back(), server_msg::ok));
  c.send(client_msg::prepare_execute, e);
  auto after = c.reply();
  ASSERT_TRUE(is(after.back(), server_msg::error)) << describe(after);
  EXPECT_EQ(error_of(after.back()).code(), 5110u);
  Mysqlx::Prepare::Deallocate d;
  d.set_stmt_id(1);
  c.send(client_msg::prepare_deallocate, d);
  EXPECT_EQ(error_of(c.reply().back()).code(), 5110u);
  // The id is free again: a new statement under it runs as itself.
  p.mutable_stmt()->mutable_stmt_execute()->set_stmt("SELECT 'lease 2'");
  c.send(client_msg::prepare_prepare, p);
  ASSERT_TRUE(is(c.reply().back(), server_msg::ok));
  c.send(client_msg::prepare_execute, e);
  EXPECT_EQ(column_strings(c.reply()), (std::vector<std::string>{"lease 2"}));
}

TEST(Session80, ResetWithoutKeepOpenNeedsANewAuthentication) {
  xclient c = authed();
  ASSERT_TRUE(is(reset(c, false).back(), server_msg::ok));
  // Only session_connect_attrs may be set now; anything else is fatal.
  Mysqlx::Connection::CapabilitiesSet set;
  auto* cap = set.mutable_capabilities()->add_capabilities();
  cap->set_name("client.interactive");
  cap->mutable_value()->set_type(Any::SCALAR);
  cap->mutable_value()->mutable_scalar()->set_type(Scalar::V_BOOL);
  cap->mutable_value()->mutable_scalar()->set_v_bool(true);
  xclient d = authed();
  ASSERT_TRUE(is(reset(d, false).back(), server_msg::ok));
  d.send(client_msg::con_capabilities_set, set);
  auto e = error_of(d.reply().back());
  EXPECT_EQ(e.code(), 5009u);
  EXPECT_EQ(e.severity(), Mysqlx::Error::FATAL);
  // c re-authenticates and works again.
  auto r = c.auth("MYSQL41", "xtest", "xtest-pw");
  EXPECT_TRUE(is(r.back(), server_msg::sess_authenticate_ok)) << describe(r);
  EXPECT_TRUE(is(c.sql("SELECT 1").back(), server_msg::sql_stmt_execute_ok));
}

TEST(Session80, ListClientsAndKillClient) {
  xclient victim(env_port("XS_PORT_80"));
  const std::uint64_t victim_id = client_id_of(victim.auth("MYSQL41", "xtest", "xtest-pw"));
  ASSERT_NE(victim_id, 0u);
  xclient c = authed();
  auto r = c.sql("list_clients", "mysqlx");
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  bool listed = false;
  for (const auto& f : r) {
    if (!is(f, server_msg::resultset_row)) continue;
    Mysqlx::Resultset::Row row;
    row.ParseFromString(f.payload);
    listed = listed ||
             (uint_field(row.field(0)) == victim_id && row.field(1) == std::string("xtest\0", 6) &&
              row.field(2) == std::string("localhost\0", 10));
  }
  EXPECT_TRUE(listed) << describe(r);

  Mysqlx::Sql::StmtExecute kill;
  kill.set_stmt("kill_client");
  kill.set_namespace_("mysqlx");
  auto* arg = kill.add_args();
  arg->set_type(Any::OBJECT);
  auto* f = arg->mutable_obj()->add_fld();
  f->set_key("id");
  f->mutable_value()->set_type(Any::SCALAR);
  f->mutable_value()->mutable_scalar()->set_type(Scalar::V_UINT);
  f->mutable_value()->mutable_scalar()->set_v_unsigned_int(victim_id);
  c.send(client_msg::sql_stmt_execute, kill);
  EXPECT_TRUE(is(c.reply().back(), server_msg::sql_stmt_execute_ok));
  EXPECT_FALSE(victim.read()); // its connection is gone
  c.send(client_msg::sql_stmt_execute, kill);
  EXPECT_EQ(error_of(c.reply().back()).code(), 1094u); // no longer exists
}

} // namespace
} // namespace xtest
