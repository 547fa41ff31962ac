// CapabilitiesGet / CapabilitiesSet (facts section 7.3). Set is
// all-or-nothing: every capability is checked before any takes effect.
#include "cdk/protocol/compression.h"
#include "mysqlx_connection.pb.h"
#include "test/xserver/session.h"

#include <algorithm>
#include <set>

namespace xserver {

namespace {

using Mysqlx::Datatypes::Any;
using Mysqlx::Datatypes::Scalar;

void set_bool(Any& a, bool v) {
  a.set_type(Any::SCALAR);
  a.mutable_scalar()->set_type(Scalar::V_BOOL);
  a.mutable_scalar()->set_v_bool(v);
}

void set_string(Any& a, const std::string& v) {
  a.set_type(Any::SCALAR);
  a.mutable_scalar()->set_type(Scalar::V_STRING);
  a.mutable_scalar()->mutable_v_string()->set_value(v);
}

void add_string(Any& array, const std::string& v) {
  array.set_type(Any::ARRAY);
  set_string(*array.mutable_array()->add_value(), v);
}

std::optional<bool> as_bool(const Any& a) {
  if (a.type() != Any::SCALAR) return std::nullopt;
  const Scalar& s = a.scalar();
  switch (s.type()) {
  case Scalar::V_BOOL:
    return s.v_bool();
  case Scalar::V_SINT:
    return s.v_signed_int() != 0;
  case Scalar::V_UINT:
    return s.v_unsigned_int() != 0;
  default:
    return std::nullopt;
  }
}

bool is_string_object(const Any& a) {
  if (a.type() != Any::OBJECT) return false;
  for (const auto& f : a.obj().fld())
    if (f.value().type() != Any::SCALAR || f.value().scalar().type() != Scalar::V_STRING)
      return false;
  return true;
}

x_error prepare_failed(const std::string& name) {
  return make_error(errc::x_capabilities_prepare_failed,
                    "Capability prepare failed for '" + name + "'");
}

// The compression capability's object: algorithm (required, one of ours,
// any case), and the options MySQL accepts, which xserverd takes but ignores
// (it compresses each batch of replies as one message).
std::optional<x_error> check_compression(const Any& value, std::string& algorithm) {
  if (value.type() != Any::OBJECT) return prepare_failed("compression");
  for (const auto& f : value.obj().fld()) {
    const std::string& key = f.key();
    const Any& v = f.value();
    if (key == "algorithm") {
      if (v.type() != Any::SCALAR || v.scalar().type() != Scalar::V_STRING)
        return prepare_failed("compression");
      algorithm = v.scalar().v_string().value();
      for (auto& c : algorithm) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (key == "server_combine_mixed_messages") {
      if (!as_bool(v)) return prepare_failed("compression");
    } else if (key == "server_max_combine_messages" || key == "level") {
      if (v.type() != Any::SCALAR ||
          (v.scalar().type() != Scalar::V_SINT && v.scalar().type() != Scalar::V_UINT))
        return prepare_failed("compression");
    } else {
      return make_error(errc::x_compression_invalid_option,
                        "Invalid or unsupported option '" + key + "' for 'compression'");
    }
  }
  if (algorithm.empty())
    return make_error(errc::x_compression_missing_algorithm,
                      "Missing required field 'algorithm' for 'compression'");
  const auto& ours = cdk::protocol::supported_compression();
  if (std::find(ours.begin(), ours.end(), algorithm) == ours.end())
    return make_error(errc::x_compression_invalid_algorithm,
                      "Invalid or unsupported value for 'compression.algorithm'");
  return std::nullopt;
}

} // namespace

void session::on_capabilities_get() {
  Mysqlx::Connection::Capabilities caps;
  auto add = [&](const char* name) {
    auto* c = caps.add_capabilities();
    c->set_name(name);
    return c->mutable_value();
  };
  if (m_state.tls()) set_bool(*add("tls"), m_io->is_tls());
  Any* mechs = add("authentication.mechanisms");
  mechs->set_type(Any::ARRAY);
  mechs->mutable_array();
  add_string(*mechs, "MYSQL41");
  if (secure()) add_string(*mechs, "PLAIN");
  if (!emulate_57()) add_string(*mechs, "SHA256_MEMORY");
  set_string(*add("doc.formats"), "text");
  if (emulate_57()) {
    set_string(*add("plugin.version"), "1.0.2");
  } else {
    set_bool(*add("client.interactive"), false);
    Any* comp = add("compression");
    comp->set_type(Any::OBJECT);
    auto* algos = comp->mutable_obj()->add_fld();
    algos->set_key("algorithm");
    algos->mutable_value()->set_type(Any::ARRAY);
    algos->mutable_value()->mutable_array();
    for (const auto& a : cdk::protocol::supported_compression())
      add_string(*algos->mutable_value(), a);
    set_string(*add("node_type"), "mysql");
  }
  set_bool(*add("client.pwd_expire_ok"), false);
  m_out.add(server_msg::conn_capabilities, caps);
}

void session::on_capabilities_set(const std::string& payload) {
  Mysqlx::Connection::CapabilitiesSet msg;
  if (!msg.ParseFromString(payload))
    return fatal(make_error(errc::x_bad_message, "Invalid message"));
  std::set<std::string> seen;
  bool start_tls = false;
  std::string compression;
  const bool v80 = !emulate_57();
  for (const auto& cap : msg.capabilities().capabilities()) {
    const std::string& name = cap.name();
    if (!seen.insert(name).second)
      return m_out.error(
          make_error(errc::x_duplicated_capabilities, "Duplicated capability: '" + name + "'"));
    const Any& value = cap.value();
    if (m_after_reset && name != "session_connect_attrs")
      return fatal(
          make_error(errc::x_capability_set_not_allowed,
                     "Only session_connect_attr capability is allowed after Session.Reset"));
    if (name == "tls") {
      auto v = as_bool(value);
      if (!v || !*v || !m_state.tls() || m_io->is_tls()) return m_out.error(prepare_failed(name));
      start_tls = true;
    } else if (name == "client.pwd_expire_ok" || (v80 && name == "client.interactive")) {
      if (!as_bool(value)) return m_out.error(prepare_failed(name));
    } else if (v80 && name == "session_connect_attrs") {
      if (!is_string_object(value)) return m_out.error(prepare_failed(name));
    } else if (v80 && name == "compression") {
      auto err = check_compression(value, compression);
      if (err) return m_out.error(*err);
    } else if (name == "authentication.mechanisms" || name == "doc.formats" ||
               (v80 && name == "node_type") || (!v80 && name == "plugin.version")) {
      return m_out.error(prepare_failed(name)); // read-only
    } else {
      return m_out.error(
          make_error(errc::x_capability_not_found, "Capability '" + name + "' doesn't exist"));
    }
  }
  m_out.ok();
  if (!compression.empty()) {
    // The client may compress from now on; our replies are compressed once
    // authentication is over (flush()).
    if (!m_reader.enable_compression(compression).ok()) return fatal(prepare_failed("compression"));
    m_compression = compression;
  }
  if (start_tls) {
    flush();
    // Bytes pipelined after the CapabilitiesSet would be plaintext inside TLS.
    if (!m_io->accept_tls(*m_state.tls()).ok()) m_closing = true;
  }
}

} // namespace xserver
