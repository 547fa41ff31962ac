#include "cdk/session/negotiate.h"

#include <algorithm>
#include <cctype>
#include <sys/utsname.h>
#include <unistd.h>

#ifndef MYSQLX_VERSION
#define MYSQLX_VERSION "0.0.0"
#endif

namespace cdk::session {
namespace {

const protocol::value* find_cap(const std::vector<protocol::value_field>& caps,
                                std::string_view name) {
  for (const auto& c : caps)
    if (c.key == name) return &c.val;
  return nullptr;
}

std::string canonical_algorithm(std::string_view name) {
  std::string s(name);
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (s == "deflate" || s == "zlib") return "deflate_stream";
  if (s == "lz4") return "lz4_message";
  if (s == "zstd") return "zstd_stream";
  return s;
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out.empty() ? "none" : out;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// The user's list (or all we support), by canonical name, in preference order.
std::vector<std::string> our_algorithms(const std::vector<std::string>& wanted,
                                        const std::vector<std::string>& supported) {
  std::vector<std::string> ours;
  for (const auto& w : wanted.empty() ? supported : wanted) ours.push_back(canonical_algorithm(w));
  return ours;
}

error external_auth_refused() {
  return error::client(client_errc::auth_plugin,
                       "EXTERNAL authentication is not supported by the X Protocol: MySQL's X "
                       "Plugin offers PLAIN, MYSQL41 and SHA256_MEMORY (give one of them, or leave "
                       "auth out)");
}

} // namespace

status check_connectable(const connect_options& opts) {
  if (opts.auth == auth_method::external) return external_auth_refused();
  if (opts.compression == compression_mode::required && opts.unknown_compression_algorithms) {
    const std::string& names = *opts.unknown_compression_algorithms;
    return error::client(
        client_errc::compression,
        "compression is REQUIRED but compression-algorithms names no algorithm "
        "this connector knows (zstd_stream, lz4_message, deflate_stream or the "
        "aliases zstd, lz4, deflate)" +
            (names.empty() ? std::string(": the list is empty") : ": it names only " + names));
  }
  return ok();
}

result<bool> decide_tls(const tls_options& tls, bool local_transport,
                        const std::vector<protocol::value_field>& server_caps) {
  if (tls.mode == ssl_mode::disabled || local_transport) return false;
  if (!find_cap(server_caps, "tls"))
    return error::client(client_errc::ssl_connection,
                         "TLS is required (ssl-mode is not DISABLED) but the server does not "
                         "offer TLS on this connection");
  return true;
}

result<std::string> decide_compression(compression_mode mode,
                                       const std::vector<std::string>& wanted,
                                       const std::vector<std::string>& supported,
                                       const std::vector<protocol::value_field>& server_caps) {
  if (mode == compression_mode::disabled) return std::string();
  std::vector<std::string> offered;
  if (const protocol::value* comp = find_cap(server_caps, "compression"))
    if (const protocol::value* algs = comp->find("algorithm")) {
      for (const auto& a : algs->items)
        if (a.is_text()) offered.push_back(canonical_algorithm(a.bytes));
      if (algs->is_text()) offered.push_back(canonical_algorithm(algs->bytes));
    }
  const std::vector<std::string> ours = our_algorithms(wanted, supported);
  for (const auto& a : ours)
    if (contains(supported, a) && contains(offered, a)) return a;
  if (mode == compression_mode::preferred) return std::string();
  return error::client(client_errc::compression,
                       "compression is REQUIRED but the client and server have no algorithm in "
                       "common (server offers: " +
                           join(offered) + "; client accepts: " + join(ours) +
                           "; client supports: " + join(supported) + ")");
}

std::string speculative_compression(compression_mode mode, const std::vector<std::string>& wanted,
                                    const std::vector<std::string>& supported) {
  if (mode == compression_mode::disabled) return {};
  for (const auto& a : our_algorithms(wanted, supported))
    if (contains(supported, a)) return a;
  return {};
}

result<std::vector<std::string>> auth_plan(auth_method method, bool secure_transport) {
  switch (method) {
  case auth_method::plain:
    if (!secure_transport)
      return error::client(client_errc::auth_plugin,
                           "authentication method PLAIN sends the password in clear text and is "
                           "only allowed over TLS or a Unix socket");
    return std::vector<std::string>{"PLAIN"};
  case auth_method::mysql41:
    return std::vector<std::string>{"MYSQL41"};
  case auth_method::sha256_memory:
    return std::vector<std::string>{"SHA256_MEMORY"};
  case auth_method::auto_select:
    if (secure_transport) return std::vector<std::string>{"PLAIN"};
    return std::vector<std::string>{"MYSQL41", "SHA256_MEMORY"};
  case auth_method::external:
    return external_auth_refused();
  }
  return error::client(client_errc::bad_option, "unknown authentication method");
}

attribute_list default_client_attributes() {
  attribute_list attrs{{"_client_name", "mysqlx"}, {"_client_version", MYSQLX_VERSION}};
  utsname u{};
  if (uname(&u) == 0) {
    attrs.emplace_back("_os", std::string(u.sysname) + "-" + u.release);
    attrs.emplace_back("_platform", u.machine);
  }
  attrs.emplace_back("_pid", std::to_string(getpid()));
  return attrs;
}

result<attribute_list> connection_attributes(const attribute_list& client_defaults,
                                             const attribute_list& user) {
  attribute_list all = client_defaults;
  for (const auto& [key, val] : user) {
    if (key.empty())
      return error::client(client_errc::bad_option, "connection attribute with an empty name");
    if (key[0] == '_')
      return error::client(client_errc::bad_option,
                           "connection attribute '" + key +
                               "': names starting with '_' are reserved for the connector");
    all.emplace_back(key, val);
  }
  return all;
}

protocol::value attributes_value(const attribute_list& attrs) {
  std::vector<protocol::value_field> fields;
  fields.reserve(attrs.size());
  for (const auto& [key, val] : attrs) fields.push_back({key, protocol::value::of_string(val)});
  return protocol::value::of_object(std::move(fields));
}

} // namespace cdk::session
