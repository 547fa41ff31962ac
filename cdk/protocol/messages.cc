#include "cdk/protocol/messages.h"

#include "cdk/protocol/message.h"
#include "cdk/protocol/value_pb.h"
#include "mysqlx.pb.h"
#include "mysqlx_connection.pb.h"
#include "mysqlx_expect.pb.h"
#include "mysqlx_session.pb.h"
#include "mysqlx_sql.pb.h"

namespace cdk::protocol {

namespace {
// Messages with no fields need no protobuf object: the payload is empty.
void append_empty(std::string& out, client_msg type) {
  append_frame(out, type_byte(type), {});
}
} // namespace

void encode_capabilities_get(std::string& out) {
  append_empty(out, client_msg::con_capabilities_get);
}

status encode_capabilities_set(std::string& out, const std::vector<value_field>& caps) {
  Mysqlx::Connection::CapabilitiesSet msg;
  auto* list = msg.mutable_capabilities();
  for (const value_field& c : caps) {
    auto* cap = list->add_capabilities();
    cap->set_name(c.key);
    to_any(c.val, *cap->mutable_value());
  }
  return append_message(out, client_msg::con_capabilities_set, msg);
}

void encode_connection_close(std::string& out) {
  append_empty(out, client_msg::con_close);
}

result<std::vector<value_field>> decode_capabilities(const frame& f) {
  auto msg =
      expect_server_message<Mysqlx::Connection::Capabilities>(f, server_msg::conn_capabilities);
  if (!msg) return std::move(msg).err();
  std::vector<value_field> caps;
  for (const auto& c : msg.value().capabilities()) caps.push_back({c.name(), from_any(c.value())});
  return caps;
}

status encode_authenticate_start(std::string& out, std::string_view mech,
                                 std::string_view auth_data) {
  Mysqlx::Session::AuthenticateStart msg;
  msg.set_mech_name(std::string(mech));
  if (!auth_data.empty()) msg.set_auth_data(std::string(auth_data));
  return append_message(out, client_msg::sess_authenticate_start, msg);
}

status encode_authenticate_continue(std::string& out, std::string_view auth_data) {
  Mysqlx::Session::AuthenticateContinue msg;
  msg.set_auth_data(std::string(auth_data));
  return append_message(out, client_msg::sess_authenticate_continue, msg);
}

void encode_session_reset(std::string& out, bool keep_open) {
  Mysqlx::Session::Reset msg;
  if (keep_open) msg.set_keep_open(true);
  (void)append_message(out, client_msg::sess_reset, msg); // tiny: can't exceed a frame
}

void encode_session_close(std::string& out) {
  append_empty(out, client_msg::sess_close);
}

result<std::string> decode_authenticate_continue(const frame& f) {
  auto msg = expect_server_message<Mysqlx::Session::AuthenticateContinue>(
      f, server_msg::sess_authenticate_continue);
  if (!msg) return std::move(msg).err();
  return msg.value().auth_data();
}

status encode_expect_open(std::string& out, bool empty_context,
                          const std::vector<expect_condition>& conditions) {
  Mysqlx::Expect::Open msg;
  if (empty_context) msg.set_op(Mysqlx::Expect::Open::EXPECT_CTX_EMPTY);
  for (const expect_condition& c : conditions) {
    auto* cond = msg.add_cond();
    cond->set_condition_key(c.key);
    if (c.value) cond->set_condition_value(*c.value);
    if (c.unset) cond->set_op(Mysqlx::Expect::Open::Condition::EXPECT_OP_UNSET);
  }
  return append_message(out, client_msg::expect_open, msg);
}

void encode_expect_close(std::string& out) {
  append_empty(out, client_msg::expect_close);
}

status encode_stmt_execute(std::string& out, std::string_view stmt, const std::vector<value>& args,
                           std::string_view name_space) {
  Mysqlx::Sql::StmtExecute msg;
  msg.set_stmt(std::string(stmt));
  for (const value& a : args) to_any(a, *msg.add_args());
  if (name_space != "sql") msg.set_namespace_(std::string(name_space));
  return append_message(out, client_msg::sql_stmt_execute, msg);
}

result<std::string> decode_ok(const frame& f) {
  auto msg = expect_server_message<Mysqlx::Ok>(f, server_msg::ok);
  if (!msg) return std::move(msg).err();
  return msg.value().msg();
}

} // namespace cdk::protocol
