#include "test/xserver/wire.h"

#include "cdk/protocol/message.h"
#include "mysqlx.pb.h"
#include "mysqlx_datatypes.pb.h"
#include "mysqlx_notice.pb.h"

namespace xserver {

void reply::add(server_msg type, const google::protobuf::MessageLite& msg) {
  cdk::protocol::append_message(m_buf, type, msg);
}

void reply::add_empty(server_msg type) {
  cdk::protocol::append_frame(m_buf, type_byte(type), {});
}

void reply::add_raw(server_msg type, std::string_view payload) {
  cdk::protocol::append_frame(m_buf, type_byte(type), payload);
}

void reply::ok(std::string_view msg) {
  if (msg.empty()) return add_empty(server_msg::ok);
  Mysqlx::Ok m;
  m.set_msg(std::string(msg));
  add(server_msg::ok, m);
}

void reply::error(const x_error& err) {
  Mysqlx::Error m;
  m.set_severity(err.fatal ? Mysqlx::Error::FATAL : Mysqlx::Error::ERROR);
  m.set_code(err.code);
  m.set_msg(err.message);
  m.set_sql_state(err.sql_state);
  add(server_msg::error, m);
}

void reply::notice(std::uint32_t frame_type, bool local, const std::string& payload) {
  Mysqlx::Notice::Frame f;
  f.set_type(frame_type);
  if (local) f.set_scope(Mysqlx::Notice::Frame::LOCAL);
  if (!payload.empty()) f.set_payload(payload);
  add(server_msg::notice, f);
}

void reply::notice_hello() {
  notice(Mysqlx::Notice::Frame::SERVER_HELLO, false, {});
}

void reply::notice_warning(unsigned level, std::uint32_t code, std::string_view msg, bool local) {
  Mysqlx::Notice::Warning w;
  w.set_level(static_cast<Mysqlx::Notice::Warning::Level>(level));
  w.set_code(code);
  w.set_msg(std::string(msg));
  notice(Mysqlx::Notice::Frame::WARNING, local, w.SerializeAsString());
}

void reply::notice_uint(int param, std::uint64_t value) {
  Mysqlx::Notice::SessionStateChanged s;
  s.set_param(static_cast<Mysqlx::Notice::SessionStateChanged::Parameter>(param));
  auto* v = s.add_value();
  v->set_type(Mysqlx::Datatypes::Scalar::V_UINT);
  v->set_v_unsigned_int(value);
  notice(Mysqlx::Notice::Frame::SESSION_STATE_CHANGED, true, s.SerializeAsString());
}

void reply::notice_message(std::string_view text) {
  Mysqlx::Notice::SessionStateChanged s;
  s.set_param(Mysqlx::Notice::SessionStateChanged::PRODUCED_MESSAGE);
  auto* v = s.add_value();
  v->set_type(Mysqlx::Datatypes::Scalar::V_STRING);
  v->mutable_v_string()->set_value(std::string(text));
  notice(Mysqlx::Notice::Frame::SESSION_STATE_CHANGED, true, s.SerializeAsString());
}

void reply::notice_document_ids(const std::vector<std::string>& ids) {
  Mysqlx::Notice::SessionStateChanged s;
  s.set_param(Mysqlx::Notice::SessionStateChanged::GENERATED_DOCUMENT_IDS);
  for (const auto& id : ids) {
    auto* v = s.add_value();
    v->set_type(Mysqlx::Datatypes::Scalar::V_OCTETS);
    v->mutable_v_octets()->set_value(id);
  }
  notice(Mysqlx::Notice::Frame::SESSION_STATE_CHANGED, true, s.SerializeAsString());
}

} // namespace xserver
