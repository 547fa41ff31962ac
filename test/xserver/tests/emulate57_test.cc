// --emulate 5.7: no ServerHello, 5.7 capabilities, Expect keys 2 and 3
// unknown (5160, no block), no id generation (5115, nothing inserted),
// VARCHAR(32) `_id`, the xplugin admin namespace with positional arguments.
#include "mysqlx_connection.pb.h"
#include "mysqlx_expect.pb.h"
#include "mysqlx_prepare.pb.h"
#include "mysqlx_sql.pb.h"
#include "test/xserver/tests/xclient.h"

#include <gtest/gtest.h>

namespace xtest {
namespace {

using Mysqlx::Datatypes::Any;
using Mysqlx::Datatypes::Scalar;

std::uint16_t port57() {
  return env_port("XS_PORT_57");
}

xclient authed57() {
  return xtest::authed(port57(), /*hello=*/false);
}

std::vector<frame> xplugin(xclient& c, const std::string& cmd, std::vector<std::string> args) {
  Mysqlx::Sql::StmtExecute m;
  m.set_stmt(cmd);
  m.set_namespace_("xplugin");
  for (const auto& a : args) {
    Any* any = m.add_args();
    any->set_type(Any::SCALAR);
    any->mutable_scalar()->set_type(Scalar::V_STRING);
    any->mutable_scalar()->mutable_v_string()->set_value(a);
  }
  c.send(client_msg::sql_stmt_execute, m);
  return c.reply();
}

// 5.7 has no prepared statements: every Prepare message is an unknown
// message (1047), non-fatal, so connectors fall back to plain execution.
TEST(Emulate57, PrepareMessagesAreUnknown) {
  xclient c = authed57();
  Mysqlx::Prepare::Prepare p;
  p.set_stmt_id(1);
  p.mutable_stmt()->set_type(Mysqlx::Prepare::Prepare::OneOfMessage::STMT);
  p.mutable_stmt()->mutable_stmt_execute()->set_stmt("SELECT 1");
  c.send(client_msg::prepare_prepare, p);
  EXPECT_EQ(error_of(c.reply().back()).code(), 1047u);
  Mysqlx::Prepare::Execute e;
  e.set_stmt_id(1);
  c.send(client_msg::prepare_execute, e);
  EXPECT_EQ(error_of(c.reply().back()).code(), 1047u);
  Mysqlx::Prepare::Deallocate d;
  d.set_stmt_id(1);
  c.send(client_msg::prepare_deallocate, d);
  EXPECT_EQ(error_of(c.reply().back()).code(), 1047u);
  // The session goes on.
  Mysqlx::Sql::StmtExecute q;
  q.set_stmt("SELECT 1");
  c.send(client_msg::sql_stmt_execute, q);
  EXPECT_TRUE(is(c.reply().back(), server_msg::sql_stmt_execute_ok));
}

TEST(Emulate57, NoServerHelloAndPluginVersionInsteadOfNodeType) {
  xclient c(port57(), /*hello=*/false);
  c.send(client_msg::con_capabilities_get, Mysqlx::Connection::CapabilitiesGet());
  auto r = c.reply();
  ASSERT_EQ(r.size(), 1u) << describe(r); // no notice came first
  Mysqlx::Connection::Capabilities caps;
  caps.ParseFromString(r[0].payload);
  std::vector<std::string> names;
  for (const auto& cap : caps.capabilities()) names.push_back(cap.name());
  EXPECT_NE(std::find(names.begin(), names.end(), "plugin.version"), names.end());
  EXPECT_EQ(std::find(names.begin(), names.end(), "node_type"), names.end());
  EXPECT_EQ(std::find(names.begin(), names.end(), "client.interactive"), names.end());
  for (const auto& cap : caps.capabilities()) {
    if (cap.name() != "authentication.mechanisms") continue;
    for (const auto& m : cap.value().array().value())
      EXPECT_NE(m.scalar().v_string().value(), "SHA256_MEMORY");
  }
}

TEST(Emulate57, ExpectDocidGeneratedIsUnknownAndOpensNoBlock) {
  xclient c = authed57();
  for (unsigned key : {3u, 2u}) {
    Mysqlx::Expect::Open o;
    auto* cond = o.add_cond();
    cond->set_condition_key(key);
    cond->set_condition_value("18.6");
    c.send(client_msg::expect_open, o);
    auto e = error_of(c.reply().back());
    EXPECT_EQ(e.code(), 5160u);
    EXPECT_EQ(e.msg(), "Unknown condition key");
    EXPECT_EQ(e.sql_state(), "HY000");
    c.send(client_msg::expect_close, Mysqlx::Expect::Close());
    EXPECT_EQ(error_of(c.reply().back()).code(), 5158u);
  }
}

TEST(Emulate57, MissingIdGives5115AndNothingIsInserted) {
  xclient c = authed57();
  const std::string db = unique_name("v57");
  c.sql("CREATE DATABASE " + db);
  ASSERT_TRUE(
      is(xplugin(c, "create_collection", {db, "c"}).back(), server_msg::sql_stmt_execute_ok));
  auto r = c.insert_json(db, "c", {R"({"_id":"given"})", R"({"no":"id"})"});
  ASSERT_EQ(r.size(), 1u) << describe(r);
  auto e = error_of(r[0]);
  EXPECT_EQ(e.code(), 5115u);
  EXPECT_EQ(e.msg(), "Document is missing a required field");
  EXPECT_TRUE(column_strings(c.sql("SELECT _id FROM " + db + ".c")).empty());
  r = c.insert_json(db, "c", {R"({"_id":"given"})"});
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  EXPECT_TRUE(generated_ids(r).empty());
  auto type = column_strings(c.sql("SELECT DATA_TYPE FROM information_schema.COLUMNS WHERE "
                                   "TABLE_SCHEMA='" +
                                   db + "' AND COLUMN_NAME='_id'"));
  EXPECT_EQ(type, (std::vector<std::string>{"varchar"}));
}

} // namespace
} // namespace xtest
