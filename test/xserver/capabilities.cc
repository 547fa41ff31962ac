// CapabilitiesGet / CapabilitiesSet (facts section 7.3). Set is
// all-or-nothing: every capability is checked before any takes effect.
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
    for (const auto& a : offered_compression()) add_string(*algos->mutable_value(), a);
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
  std::optional<compression_request> compression;
  std::optional<connect_attrs> attrs;
  std::optional<bool> interactive;
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
      auto v = as_bool(value);
      if (!v) return m_out.error(prepare_failed(name));
      if (name == "client.interactive") interactive = *v;
    } else if (v80 && name == "session_connect_attrs") {
      if (!is_string_object(value)) return m_out.error(prepare_failed(name));
      attrs.emplace();
      for (const auto& f : value.obj().fld())
        attrs->emplace_back(f.key(), f.value().scalar().v_string().value());
    } else if (v80 && name == "compression") {
      compression_request req;
      if (auto err = check_compression(value, req)) return m_out.error(*err);
      compression = std::move(req);
    } else if (name == "authentication.mechanisms" || name == "doc.formats" ||
               (v80 && name == "node_type") || (!v80 && name == "plugin.version")) {
      return m_out.error(prepare_failed(name)); // read-only
    } else {
      return m_out.error(
          make_error(errc::x_capability_not_found, "Capability '" + name + "' doesn't exist"));
    }
  }
  m_out.ok();
  // Kept until authentication succeeds, when compression starts in both
  // directions; a later accepted CapabilitiesSet replaces it.
  if (compression) m_compression_request = std::move(compression);
  if (attrs) m_connect_attrs = std::move(*attrs);
  if (interactive) set_interactive(*interactive);
  if (start_tls) {
    flush();
    // Client::activate_tls: the handshake may take min(mysqlx_connect_timeout,
    // mysqlx_read_timeout); past that the connection closes.
    std::uint32_t limit = static_cast<std::uint32_t>(m_state.xvar(xvar_id::connect_timeout));
    if (m_read_timeout > 0) limit = std::min(limit, m_read_timeout);
    (void)m_io->set_io_timeout(std::chrono::seconds(limit));
    // Bytes pipelined after the CapabilitiesSet would be plaintext inside TLS.
    if (!m_io->accept_tls(*m_state.tls()).ok()) m_closing = true;
    (void)m_io->set_io_timeout(std::chrono::milliseconds(0));
    apply_write_timeout();
  }
}

} // namespace xserver
