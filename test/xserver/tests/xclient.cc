#include "test/xserver/tests/xclient.h"

#include "cdk/foundation/socket_stream.h"
#include "cdk/protocol/message.h"
#include "mysqlx_connection.pb.h"
#include "mysqlx_resultset.pb.h"
#include "mysqlx_session.pb.h"
#include "mysqlx_sql.pb.h"
#include "test/xserver/auth_math.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <unistd.h>

namespace xtest {

using Mysqlx::Datatypes::Any;
using Mysqlx::Datatypes::Scalar;

xclient::xclient(std::uint16_t port, bool hello)
    : m_reader(cdk::protocol::default_max_frame_size, 19), m_compressor(46) {
  auto s = cdk::connect_tcp("127.0.0.1", port, std::chrono::milliseconds(5000));
  if (!s) throw std::runtime_error("connect: " + s.err().message);
  m_stream = std::move(s).value();
  if (hello) {
    auto f = read();
    if (!f || !is(*f, server_msg::notice)) throw std::runtime_error("no ServerHello");
  }
}

void xclient::set_read_timeout(std::chrono::milliseconds timeout) {
  auto* s = dynamic_cast<cdk::socket_stream*>(m_stream.get());
  if (!s || !s->set_io_timeout(timeout).ok()) throw std::runtime_error("cannot set a read timeout");
}

std::string xclient::encode(client_msg type, const google::protobuf::MessageLite& msg) {
  std::string out;
  cdk::protocol::append_message(out, type, msg);
  return out;
}

void xclient::send(client_msg type, const google::protobuf::MessageLite& msg) {
  send_raw(encode(type, msg));
}

void xclient::send_raw(const std::string& bytes) {
  std::string out = bytes;
  if (m_compressor.enabled() && !m_compressor.wrap(out).ok())
    throw std::runtime_error("compression failed");
  if (!m_stream->write(out).ok()) throw std::runtime_error("write failed");
}

void xclient::enable_compression(bool outgoing, const std::string& algorithm) {
  if (!m_reader.enable_compression(algorithm).ok() ||
      (outgoing && !m_compressor.enable(algorithm).ok()))
    throw std::runtime_error("cannot enable compression");
}

std::optional<frame> xclient::read() {
  char buf[16384];
  for (;;) {
    auto f = m_reader.next();
    if (!f.ok()) throw std::runtime_error("bad frame from server: " + f.err().message);
    if (f.value()) return f.value();
    auto n = m_stream->read_some(buf, sizeof buf);
    if (!n.ok()) return std::nullopt;
    if (m_outer.feed({buf, n.value()}).ok())
      while (auto outer = m_outer.next()) {
        m_compressed_read += outer->type == 19;
        m_wire_frames.push_back(std::move(*outer));
      }
    if (!m_reader.feed({buf, n.value()}).ok()) throw std::runtime_error("bad frame from server");
  }
}

Mysqlx::Connection::Capabilities get_caps(xclient& c) {
  c.send(client_msg::con_capabilities_get, Mysqlx::Connection::CapabilitiesGet());
  auto r = c.reply();
  Mysqlx::Connection::Capabilities caps;
  if (!is(r.back(), server_msg::conn_capabilities) || !caps.ParseFromString(r.back().payload))
    throw std::runtime_error("no Capabilities: " + describe(r));
  return caps;
}

const Any* find_cap(const Mysqlx::Connection::Capabilities& caps, const std::string& name) {
  for (const auto& c : caps.capabilities())
    if (c.name() == name) return &c.value();
  return nullptr;
}

std::vector<frame> cap_set(xclient& c, const std::vector<std::pair<std::string, Any>>& caps) {
  Mysqlx::Connection::CapabilitiesSet set;
  for (const auto& [name, value] : caps) {
    auto* cap = set.mutable_capabilities()->add_capabilities();
    cap->set_name(name);
    *cap->mutable_value() = value;
  }
  c.send(client_msg::con_capabilities_set, set);
  return c.reply();
}

Any any_string(const std::string& value) {
  Any a;
  a.set_type(Any::SCALAR);
  a.mutable_scalar()->set_type(Mysqlx::Datatypes::Scalar::V_STRING);
  a.mutable_scalar()->mutable_v_string()->set_value(value);
  return a;
}

Any any_bool(bool value) {
  Any a;
  a.set_type(Any::SCALAR);
  a.mutable_scalar()->set_type(Scalar::V_BOOL);
  a.mutable_scalar()->set_v_bool(value);
  return a;
}

Any any_object(const std::vector<std::pair<std::string, Any>>& fields) {
  Any a;
  a.set_type(Any::OBJECT);
  for (const auto& [k, v] : fields) {
    auto* f = a.mutable_obj()->add_fld();
    f->set_key(k);
    *f->mutable_value() = v;
  }
  return a;
}

std::vector<frame> xclient::reply() {
  std::vector<frame> out;
  for (;;) {
    auto f = read();
    if (!f) throw std::runtime_error("connection closed after: " + describe(out));
    out.push_back(*f);
    switch (static_cast<server_msg>(f->type)) {
    case server_msg::ok:
    case server_msg::error:
    case server_msg::sql_stmt_execute_ok:
    case server_msg::conn_capabilities:
    case server_msg::sess_authenticate_continue:
    case server_msg::sess_authenticate_ok:
      return out;
    default:
      break;
    }
  }
}

bool xclient::start_tls(const std::string& ca_file) {
  auto r = cap_set(*this, {{"tls", any_bool(true)}});
  if (!is(r.back(), server_msg::ok)) return false;
  cdk::tls_options opts;
  opts.mode = cdk::ssl_mode::verify_identity;
  opts.ca = ca_file;
  return m_stream->start_tls(opts, "localhost").ok();
}

std::vector<frame> xclient::auth(const std::string& mech, const std::string& user,
                                 const std::string& password, const std::string& schema) {
  Mysqlx::Session::AuthenticateStart start;
  start.set_mech_name(mech);
  const std::string prefix = schema + '\0' + user + '\0';
  if (mech == "PLAIN") {
    start.set_auth_data(prefix + password);
    send(client_msg::sess_authenticate_start, start);
    return reply();
  }
  send(client_msg::sess_authenticate_start, start);
  auto r = reply();
  if (!is(r.back(), server_msg::sess_authenticate_continue)) return r;
  Mysqlx::Session::AuthenticateContinue challenge;
  challenge.ParseFromString(r.back().payload);
  const std::string& nonce = challenge.auth_data();
  Mysqlx::Session::AuthenticateContinue resp;
  resp.set_auth_data(prefix + (mech == "MYSQL41"
                                   ? xserver::auth::mysql41_response(password, nonce)
                                   : xserver::auth::sha256_memory_response(password, nonce)));
  send(client_msg::sess_authenticate_continue, resp);
  return reply();
}

std::vector<frame> xclient::sql(const std::string& stmt, const std::string& ns) {
  Mysqlx::Sql::StmtExecute m;
  m.set_stmt(stmt);
  m.set_namespace_(ns);
  send(client_msg::sql_stmt_execute, m);
  return reply();
}

std::vector<frame> xclient::admin(const std::string& cmd, const std::string& schema,
                                  const std::string& name) {
  Mysqlx::Sql::StmtExecute m;
  m.set_stmt(cmd);
  m.set_namespace_("mysqlx");
  Any* arg = m.add_args();
  arg->set_type(Any::OBJECT);
  for (auto kv : {std::make_pair("schema", schema), std::make_pair("name", name)}) {
    auto* f = arg->mutable_obj()->add_fld();
    f->set_key(kv.first);
    f->mutable_value()->set_type(Any::SCALAR);
    f->mutable_value()->mutable_scalar()->set_type(Scalar::V_STRING);
    f->mutable_value()->mutable_scalar()->mutable_v_string()->set_value(kv.second);
  }
  send(client_msg::sql_stmt_execute, m);
  return reply();
}

std::vector<frame> xclient::insert(const Mysqlx::Crud::Insert& msg) {
  send(client_msg::crud_insert, msg);
  return reply();
}

std::vector<frame> xclient::insert_json(const std::string& schema, const std::string& coll,
                                        const std::vector<std::string>& docs, bool upsert) {
  Mysqlx::Crud::Insert m;
  m.mutable_collection()->set_schema(schema);
  m.mutable_collection()->set_name(coll);
  m.set_data_model(Mysqlx::Crud::DOCUMENT);
  if (upsert) m.set_upsert(true);
  for (const auto& d : docs) {
    auto* e = m.add_row()->add_field();
    e->set_type(Mysqlx::Expr::Expr::LITERAL);
    e->mutable_literal()->set_type(Scalar::V_STRING);
    e->mutable_literal()->mutable_v_string()->set_value(d);
  }
  return insert(m);
}

Mysqlx::Error error_of(const frame& f) {
  Mysqlx::Error e;
  if (is(f, server_msg::error)) e.ParseFromString(f.payload);
  return e;
}

notice_info notice_of(const frame& f) {
  notice_info n;
  Mysqlx::Notice::Frame nf;
  if (!is(f, server_msg::notice) || !nf.ParseFromString(f.payload)) return n;
  n.frame_type = nf.type();
  n.scope = nf.has_scope() ? nf.scope() : 0; // 0: field absent (global)
  if (nf.type() == Mysqlx::Notice::Frame::SESSION_STATE_CHANGED) {
    Mysqlx::Notice::SessionStateChanged s;
    s.ParseFromString(nf.payload());
    n.param = s.param();
    n.values.assign(s.value().begin(), s.value().end());
  } else if (nf.type() == Mysqlx::Notice::Frame::WARNING) {
    n.warning.ParseFromString(nf.payload());
  }
  return n;
}

std::vector<std::string> generated_ids(const std::vector<frame>& frames) {
  std::vector<std::string> ids;
  for (const auto& f : frames) {
    auto n = notice_of(f);
    if (n.param == Mysqlx::Notice::SessionStateChanged::GENERATED_DOCUMENT_IDS)
      for (const auto& v : n.values) ids.push_back(v.v_octets().value());
  }
  return ids;
}

std::vector<std::string> column_strings(const std::vector<frame>& frames) {
  std::vector<std::string> out;
  for (const auto& f : frames) {
    if (!is(f, server_msg::resultset_row)) continue;
    Mysqlx::Resultset::Row row;
    row.ParseFromString(f.payload);
    const std::string& v = row.field(0);
    out.push_back(v.empty() ? std::string("<NULL>") : v.substr(0, v.size() - 1));
  }
  return out;
}

std::string describe(const std::vector<frame>& frames) {
  std::string s;
  for (const auto& f : frames) {
    s += cdk::protocol::server_msg_name(f.type);
    if (is(f, server_msg::error)) {
      auto e = error_of(f);
      s += "{" + std::to_string(e.code()) + " " + e.msg() + "}";
    }
    if (is(f, server_msg::notice)) {
      auto n = notice_of(f);
      s += "{type " + std::to_string(n.frame_type) + " param " + std::to_string(n.param) + "}";
    }
    s += " ";
  }
  return s;
}

std::uint16_t env_port(const char* name) {
  const char* v = std::getenv(name);
  if (!v) throw std::runtime_error(std::string("environment variable ") + name + " is not set");
  return static_cast<std::uint16_t>(std::atoi(v));
}

xclient authed(std::uint16_t port, bool hello) {
  xclient c(port, hello);
  auto r = c.auth("MYSQL41", "xtest", "xtest-pw");
  if (!is(r.back(), server_msg::sess_authenticate_ok)) throw std::runtime_error(describe(r));
  return c;
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  if (!v) throw std::runtime_error(std::string("environment variable ") + name + " is not set");
  return v;
}

std::string unique_name(const std::string& base) {
  static std::atomic<int> n{0};
  return base + "_" + std::to_string(::getpid()) + "_" + std::to_string(n++);
}

} // namespace xtest
