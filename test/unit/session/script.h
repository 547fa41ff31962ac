// A scripted in-process X Protocol peer for session tests: decodes what the
// client wrote and builds the server's frames with the generated classes.
#pragma once

#include "cdk/protocol/frame.h"
#include "cdk/protocol/message.h"
#include "mysqlx.pb.h"
#include "mysqlx_connection.pb.h"
#include "mysqlx_expect.pb.h"
#include "mysqlx_notice.pb.h"
#include "mysqlx_session.pb.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace cdk::session::test {

using protocol::frame;

// Client frames in one write.
inline std::vector<frame> client_frames(const std::string& bytes) {
  protocol::frame_decoder d;
  EXPECT_TRUE(d.feed(bytes).ok());
  std::vector<frame> out;
  while (auto f = d.next()) out.push_back(std::move(*f));
  EXPECT_EQ(d.buffered(), 0u) << "a partial frame was written";
  return out;
}

inline std::vector<int> types(const std::vector<frame>& frames) {
  std::vector<int> t;
  for (const auto& f : frames) t.push_back(f.type);
  return t;
}

template <typename M> M parse(const frame& f) {
  M m;
  EXPECT_TRUE(m.ParseFromString(f.payload)) << "client frame type " << int(f.type);
  return m;
}

template <typename M> frame server(protocol::server_msg type, const M& m) {
  return frame{protocol::type_byte(type), m.SerializeAsString()};
}

inline frame ok_frame() {
  return frame{0, ""};
}

inline frame error_frame(std::uint32_t code, const std::string& msg, bool fatal = false) {
  Mysqlx::Error e;
  e.set_code(code);
  e.set_msg(msg);
  e.set_sql_state("HY000");
  e.set_severity(fatal ? Mysqlx::Error::FATAL : Mysqlx::Error::ERROR);
  return server(protocol::server_msg::error, e);
}

inline Mysqlx::Datatypes::Any string_any(const std::string& s) {
  Mysqlx::Datatypes::Any a;
  a.set_type(Mysqlx::Datatypes::Any::SCALAR);
  a.mutable_scalar()->set_type(Mysqlx::Datatypes::Scalar::V_STRING);
  a.mutable_scalar()->mutable_v_string()->set_value(s);
  return a;
}

// The capabilities of an 8.0 server; with_tls: the tls capability is offered.
inline frame capabilities_frame(bool with_tls, std::vector<std::string> compression,
                                std::vector<std::string> mechanisms = {"MYSQL41",
                                                                       "SHA256_MEMORY"}) {
  Mysqlx::Connection::Capabilities caps;
  if (with_tls) {
    auto* c = caps.add_capabilities();
    c->set_name("tls");
    c->mutable_value()->set_type(Mysqlx::Datatypes::Any::SCALAR);
    c->mutable_value()->mutable_scalar()->set_type(Mysqlx::Datatypes::Scalar::V_BOOL);
    c->mutable_value()->mutable_scalar()->set_v_bool(false);
  }
  auto* m = caps.add_capabilities();
  m->set_name("authentication.mechanisms");
  m->mutable_value()->set_type(Mysqlx::Datatypes::Any::ARRAY);
  for (const auto& s : mechanisms)
    *m->mutable_value()->mutable_array()->add_value() = string_any(s);
  if (!compression.empty()) {
    auto* c = caps.add_capabilities();
    c->set_name("compression");
    c->mutable_value()->set_type(Mysqlx::Datatypes::Any::OBJECT);
    auto* fld = c->mutable_value()->mutable_obj()->add_fld();
    fld->set_key("algorithm");
    fld->mutable_value()->set_type(Mysqlx::Datatypes::Any::ARRAY);
    for (const auto& s : compression)
      *fld->mutable_value()->mutable_array()->add_value() = string_any(s);
  }
  return server(protocol::server_msg::conn_capabilities, caps);
}

inline frame challenge_frame(const std::string& salt) {
  Mysqlx::Session::AuthenticateContinue c;
  c.set_auth_data(salt);
  return server(protocol::server_msg::sess_authenticate_continue, c);
}

inline frame auth_ok_frame() {
  return frame{4, ""};
}

inline frame client_id_notice(std::uint64_t id) {
  Mysqlx::Notice::SessionStateChanged ssc;
  ssc.set_param(Mysqlx::Notice::SessionStateChanged::CLIENT_ID_ASSIGNED);
  auto* v = ssc.add_value();
  v->set_type(Mysqlx::Datatypes::Scalar::V_UINT);
  v->set_v_unsigned_int(id);
  Mysqlx::Notice::Frame f;
  f.set_type(Mysqlx::Notice::Frame::SESSION_STATE_CHANGED);
  f.set_scope(Mysqlx::Notice::Frame::LOCAL);
  f.set_payload(ssc.SerializeAsString());
  return server(protocol::server_msg::notice, f);
}

// The GLOBAL notice MySQL sends before it closes a connection
// (ngs::Client::queue_up_disconnection_notice): a Warning of level ERROR.
inline frame disconnect_notice(std::uint32_t code, const std::string& msg) {
  Mysqlx::Notice::Warning w;
  w.set_level(Mysqlx::Notice::Warning::ERROR);
  w.set_code(code);
  w.set_msg(msg);
  Mysqlx::Notice::Frame f;
  f.set_type(Mysqlx::Notice::Frame::WARNING);
  f.set_payload(w.SerializeAsString());
  return server(protocol::server_msg::notice, f);
}

inline frame server_hello() {
  return frame{11, std::string("\x08\x05", 2)};
}

inline std::string salt20() {
  return "abcdefghijklmnopqrst";
}

} // namespace cdk::session::test
