// Protobuf-free builders: exact bytes where the spec pins them down.
#include "cdk/protocol/messages.h"
#include "mysqlx_connection.pb.h"
#include "mysqlx_session.pb.h"
#include "mysqlx_sql.pb.h"

#include <gtest/gtest.h>

namespace cdk::protocol {
namespace {

std::string raw(std::initializer_list<int> v) {
  std::string s;
  for (int b : v) s.push_back(static_cast<char>(b));
  return s;
}

TEST(messages, docid_probe_open_bytes) {
  // Expect.Open{op=EXPECT_CTX_EMPTY(1), cond=[{condition_key=3}]}:
  // field 1 varint 1 = 08 01; field 2 len 2 = 12 02 {08 03}.
  std::string out;
  ASSERT_TRUE(encode_expect_open(out, true, {{expect_docid_generated, {}, false}}).ok());
  EXPECT_EQ(out, raw({7, 0, 0, 0, 24, 0x08, 0x01, 0x12, 0x02, 0x08, 0x03}));
}

TEST(messages, empty_messages_are_bare_headers) {
  std::string out;
  encode_expect_close(out);
  encode_capabilities_get(out);
  encode_connection_close(out);
  encode_session_close(out);
  EXPECT_EQ(out, raw({1, 0, 0, 0, 25, 1, 0, 0, 0, 1, 1, 0, 0, 0, 3, 1, 0, 0, 0, 7}));
}

TEST(messages, capabilities_set_encodes_nested_values) {
  std::string out;
  std::vector<value_field> caps;
  caps.push_back({"tls", value::of_bool(true)});
  caps.push_back(
      {"compression", value::of_object({{"algorithm", value::of_string("deflate_stream")}})});
  ASSERT_TRUE(encode_capabilities_set(out, caps).ok());
  ASSERT_GT(out.size(), 5u);
  EXPECT_EQ(out[4], 2);
  Mysqlx::Connection::CapabilitiesSet msg;
  ASSERT_TRUE(msg.ParseFromString(out.substr(5)));
  ASSERT_EQ(msg.capabilities().capabilities_size(), 2);
  const auto& tls = msg.capabilities().capabilities(0);
  EXPECT_EQ(tls.name(), "tls");
  EXPECT_TRUE(tls.value().scalar().v_bool());
  const auto& comp = msg.capabilities().capabilities(1).value();
  EXPECT_EQ(comp.obj().fld(0).key(), "algorithm");
  EXPECT_EQ(comp.obj().fld(0).value().scalar().v_string().value(), "deflate_stream");
}

TEST(messages, capabilities_decode) {
  Mysqlx::Connection::Capabilities caps;
  auto* mech = caps.add_capabilities();
  mech->set_name("authentication.mechanisms");
  mech->mutable_value()->set_type(Mysqlx::Datatypes::Any::ARRAY);
  for (const char* m : {"MYSQL41", "SHA256_MEMORY"}) {
    auto* item = mech->mutable_value()->mutable_array()->add_value();
    item->set_type(Mysqlx::Datatypes::Any::SCALAR);
    item->mutable_scalar()->set_type(Mysqlx::Datatypes::Scalar::V_STRING);
    item->mutable_scalar()->mutable_v_string()->set_value(m);
  }
  auto r = decode_capabilities(frame{2, caps.SerializeAsString()});
  ASSERT_TRUE(r.ok()) << r.err().message;
  ASSERT_EQ(r.value().size(), 1u);
  EXPECT_EQ(r.value()[0].key, "authentication.mechanisms");
  ASSERT_EQ(r.value()[0].val.items.size(), 2u);
  EXPECT_EQ(r.value()[0].val.items[1].bytes, "SHA256_MEMORY");
}

TEST(messages, authenticate_start_and_continue) {
  std::string out;
  ASSERT_TRUE(encode_authenticate_start(out, "MYSQL41", "").ok());
  Mysqlx::Session::AuthenticateStart start;
  ASSERT_TRUE(start.ParseFromString(out.substr(5)));
  EXPECT_EQ(start.mech_name(), "MYSQL41");
  EXPECT_FALSE(start.has_auth_data());

  Mysqlx::Session::AuthenticateContinue cont;
  cont.set_auth_data("01234567890123456789");
  auto salt = decode_authenticate_continue(frame{3, cont.SerializeAsString()});
  ASSERT_TRUE(salt.ok());
  EXPECT_EQ(salt.value(), "01234567890123456789");
}

TEST(messages, stmt_execute_sql_and_admin_commands) {
  std::string out;
  ASSERT_TRUE(encode_stmt_execute(out, "SELECT 1").ok());
  EXPECT_EQ(out[4], 12);
  Mysqlx::Sql::StmtExecute sql;
  ASSERT_TRUE(sql.ParseFromString(out.substr(5)));
  EXPECT_EQ(sql.stmt(), "SELECT 1");
  EXPECT_FALSE(sql.has_namespace_()); // "sql" is the default: not sent
  EXPECT_EQ(sql.args_size(), 0);

  out.clear();
  auto arg = value::of_object(
      {{"schema", value::of_string("shop")}, {"name", value::of_string("orders")}});
  ASSERT_TRUE(encode_stmt_execute(out, "create_collection", {arg}, "mysqlx").ok());
  Mysqlx::Sql::StmtExecute admin;
  ASSERT_TRUE(admin.ParseFromString(out.substr(5)));
  EXPECT_EQ(admin.namespace_(), "mysqlx");
  ASSERT_EQ(admin.args_size(), 1);
  EXPECT_EQ(admin.args(0).type(), Mysqlx::Datatypes::Any::OBJECT);
  EXPECT_EQ(admin.args(0).obj().fld(1).key(), "name");
  EXPECT_EQ(admin.args(0).obj().fld(1).value().scalar().v_string().value(), "orders");
}

TEST(messages, decode_ok_rejects_other_types) {
  EXPECT_TRUE(decode_ok(frame{0, ""}).ok());
  auto r = decode_ok(frame{2, ""});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, client_errc::malformed_packet);
}

} // namespace
} // namespace cdk::protocol
