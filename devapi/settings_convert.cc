// Settings -> cdk::connect_options, through cdk's connect_options_builder:
// the same checks, defaults and messages as a connection string.
#include "cdk/parser/uri_options.h"
#include "cdk/parser/uri_parser.h"
#include "devapi/access.h"
#include "devapi/settings_impl.h"
#include "devapi/throw_error.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

MYSQLX_NAMESPACE_BEGIN
namespace detail {
namespace {

using SO = SessionOption;

cdk::error bad_option(const std::string& message) {
  return cdk::error::client(cdk::client_errc::bad_option, message);
}

// The connection-string name of a named session option, or an empty view.
std::string_view uri_name(int opt) {
  static const std::pair<int, cdk::uri_option_id> table[] = {
      {SO::SSL_MODE, cdk::uri_option_id::ssl_mode},
      {SO::SSL_CA, cdk::uri_option_id::ssl_ca},
      {SO::SSL_CAPATH, cdk::uri_option_id::ssl_capath},
      {SO::SSL_CRL, cdk::uri_option_id::ssl_crl},
      {SO::SSL_CRLPATH, cdk::uri_option_id::ssl_crlpath},
      {SO::TLS_VERSIONS, cdk::uri_option_id::tls_versions},
      {SO::TLS_CIPHERSUITES, cdk::uri_option_id::tls_ciphersuites},
      {SO::AUTH, cdk::uri_option_id::auth},
      {SO::CONNECT_TIMEOUT, cdk::uri_option_id::connect_timeout},
      {SO::CONNECTION_ATTRIBUTES, cdk::uri_option_id::connection_attributes},
      {SO::COMPRESSION, cdk::uri_option_id::compression},
      {SO::COMPRESSION_ALGORITHMS, cdk::uri_option_id::compression_algorithms},
      {SO::DOCID_MODE, cdk::uri_option_id::docid_mode},
      {SO::MAX_MESSAGE_SIZE, cdk::uri_option_id::max_message_size},
      {SO::READ_TIMEOUT, cdk::uri_option_id::read_timeout},
      {SO::WRITE_TIMEOUT, cdk::uri_option_id::write_timeout},
      {SO::MAX_IN_FLIGHT, cdk::uri_option_id::max_in_flight},
      {SO::DEAD_PEER_TIMEOUT, cdk::uri_option_id::dead_peer_timeout},
  };
  for (const auto& [o, id] : table) {
    if (o == opt) return cdk::uri_option_name(id);
  }
  return {};
}

// The name of an enum option's value kept as its number (option_value()),
// or an empty string for a number that is none of the enum's.
std::string enum_name(int opt, const Value& v) {
  // The enums are scoped with int values: any int casts safely, and
  // optionValueName() says "unknown" for one that names no value.
  if (v.getType() == Value::UINT64 && v.get<std::uint64_t>() > INT_MAX) return {};
  const std::int64_t n = v.get<std::int64_t>();
  if (n < INT_MIN || n > INT_MAX) return {};
  const auto is = [&](auto e) { return std::string(optionValueName(e)); };
  std::string name;
  switch (opt) {
  case SO::SSL_MODE:
    name = is(static_cast<SSLMode>(n));
    break;
  case SO::AUTH:
    name = is(static_cast<AuthMethod>(n));
    break;
  case SO::COMPRESSION:
    name = is(static_cast<CompressionMode>(n));
    break;
  case SO::DOCID_MODE:
    name = is(static_cast<DocIdMode>(n));
    break;
  default:
    break;
  }
  return name == "unknown" ? std::string() : name;
}

bool is_enum_option(int opt) {
  return opt == SO::SSL_MODE || opt == SO::AUTH || opt == SO::COMPRESSION || opt == SO::DOCID_MODE;
}

std::string scalar_text(const Value& v) {
  switch (v.getType()) {
  case Value::INT64:
    return std::to_string(v.get<std::int64_t>());
  case Value::UINT64:
    return std::to_string(v.get<std::uint64_t>());
  case Value::BOOL:
    return v.get<bool>() ? "true" : "false";
  default:
    return v.get<std::string>(); // check_type() allowed nothing else
  }
}

// CONNECTION_ATTRIBUTES given as a document: the [name=value,...] list of a
// connection string.
cdk::status attributes_from_doc(const DbDoc& doc, cdk::uri_option& out) {
  out.is_list = true;
  for (const Field& name : doc) {
    if (name.find_first_of("=,") != std::string::npos) {
      return bad_option("SessionOption::CONNECTION_ATTRIBUTES: names cannot contain '=' or ','");
    }
    const Value& v = doc[name];
    if (v.getType() == Value::VNULL) {
      out.values.push_back(name);
    } else if (v.getType() == Value::STRING) {
      out.values.push_back(name + "=" + v.get<std::string>());
    } else {
      return bad_option("SessionOption::CONNECTION_ATTRIBUTES: attribute values must be strings");
    }
  }
  return cdk::ok();
}

cdk::status to_uri_option(int opt, const Value& v, cdk::uri_option& out) {
  out.name = std::string(uri_name(opt));
  out.has_value = true;
  if (v.getType() == Value::ARRAY ||
      (v.getType() == Value::VNULL && opt == SO::COMPRESSION_ALGORITHMS)) {
    out.is_list = true; // a null is the empty list (check_type())
    if (v.getType() == Value::ARRAY)
      for (const Value& item : v) out.values.push_back(item.get<std::string>());
    return cdk::ok();
  }
  if (opt == SO::CONNECTION_ATTRIBUTES) {
    if (v.getType() == Value::DOCUMENT) return attributes_from_doc(v, out);
    if (v.getType() == Value::STRING) {
      const std::string text = v.get<std::string>();
      if (text.find_first_not_of(" \t\r\n") != std::string::npos &&
          text[text.find_first_not_of(" \t\r\n")] == '{') {
        return attributes_from_doc(DbDoc(text), out);
      }
    }
  }
  if (is_enum_option(opt) && v.getType() != Value::STRING) {
    const std::string name = enum_name(opt, v);
    if (name.empty()) {
      return bad_option(option_label(opt) + ": " + scalar_text(v) + " is not one of its values");
    }
    out.values.push_back(name);
    return cdk::ok();
  }
  out.values.push_back(scalar_text(v));
  return cdk::ok();
}

// HOST and SOCKET start a fail-over entry; PORT and PRIORITY complete the
// entry before them. Without any HOST or SOCKET, the host is localhost.
cdk::result<std::vector<cdk::uri_endpoint>> host_list(const option_list& options) {
  const bool any_host = std::any_of(options.begin(), options.end(), [](const auto& e) {
    return e.first == SO::HOST || e.first == SO::SOCKET;
  });
  std::vector<cdk::uri_endpoint> hosts;
  for (const auto& [opt, v] : options) {
    if (opt == SO::HOST || opt == SO::SOCKET) {
      cdk::uri_endpoint ep;
      (opt == SO::HOST ? ep.host : ep.socket) = v.get<std::string>();
      ep.pos = hosts.size();
      hosts.push_back(std::move(ep));
      continue;
    }
    if (opt != SO::PORT && opt != SO::PRIORITY) continue;
    // A PRIORITY ranks a host named by HOST or SOCKET; the implicit
    // localhost of a lone PORT has none (Connector/C++ 8: "PRIORITY without
    // prior host specification"), so set() refuses it as it is given.
    if (opt == SO::PRIORITY && !any_host)
      return bad_option(option_label(opt) + " must follow the HOST it applies to");
    if (hosts.empty()) {
      if (any_host) return bad_option(option_label(opt) + " must follow the HOST it applies to");
      hosts.emplace_back();
      hosts.back().host = "localhost";
    }
    cdk::uri_endpoint& last = hosts.back();
    if (opt == SO::PORT) {
      if (!last.socket.empty()) return bad_option("SessionOption::PORT cannot apply to a SOCKET");
      if (last.port) return bad_option("SessionOption::PORT is given twice for one host");
      last.port = static_cast<std::uint16_t>(v.get<unsigned>());
    } else {
      if (last.priority) return bad_option("SessionOption::PRIORITY is given twice for one host");
      last.priority = v.get<int>();
    }
  }
  if (hosts.empty()) {
    hosts.emplace_back();
    hosts.back().host = "localhost";
  }
  return hosts;
}

const Value* last_value(const option_list& options, int opt) {
  for (auto it = options.rbegin(); it != options.rend(); ++it) {
    if (it->first == opt) return &it->second;
  }
  return nullptr;
}

// The builder's messages are written for connection strings ("invalid
// connection string: option 'ssl-mode': ..."). Here the options were set one
// by one (a URI was checked when it was set), so say so instead.
// TODO(parser): let connect_options_builder leave the prefix to parse_uri().
cdk::error as_option_error(cdk::error err) {
  static const std::string prefix = "invalid connection string: ";
  if (err.message.compare(0, prefix.size(), prefix) == 0) {
    err.message = "invalid session option: " + err.message.substr(prefix.size());
  }
  return err;
}

} // namespace

cdk::result<cdk::connect_options> to_connect_options(const option_list& options) {
  const Value* user = last_value(options, SO::USER);
  const Value* pwd = last_value(options, SO::PWD);
  const Value* db = last_value(options, SO::DB);
  const Value* srv = last_value(options, SO::DNS_SRV);
  const std::string password = pwd ? pwd->get<std::string>() : std::string();

  auto hosts = host_list(options);
  if (!hosts) return std::move(hosts).err();
  cdk::connect_options_builder builder(password);
  if (auto st = builder.set_hosts(hosts.value(), srv && srv->get<bool>()); !st) {
    return as_option_error(std::move(st).err());
  }
  for (const auto& [opt, v] : options) {
    if (uri_name(opt).empty()) continue;
    cdk::uri_option uo;
    if (auto st = to_uri_option(opt, v, uo); !st) return std::move(st).err();
    if (auto st = builder.set_option(uo); !st) return as_option_error(std::move(st).err());
  }
  if (auto st = builder.finish(); !st) return as_option_error(std::move(st).err());
  cdk::connect_options out = builder.take();
  if (user) out.user = user->get<std::string>();
  out.password = password;
  if (db) out.schema = db->get<std::string>();
  return out;
}

PoolOptions to_pool_options(const option_list& options) {
  PoolOptions out;
  using CO = ClientOption;
  if (const Value* v = last_value(options, CO::POOLING)) {
    out.enabled = v->getType() == Value::BOOL ? v->get<bool>() : v->get<std::int64_t>() != 0;
  }
  if (const Value* v = last_value(options, CO::POOL_MAX_SIZE)) {
    out.max_size = static_cast<std::size_t>(v->get<std::uint64_t>());
  }
  if (const Value* v = last_value(options, CO::POOL_QUEUE_TIMEOUT)) {
    out.queue_timeout = std::chrono::milliseconds(v->get<std::int64_t>());
  }
  if (const Value* v = last_value(options, CO::POOL_MAX_IDLE_TIME)) {
    out.max_idle_time = std::chrono::milliseconds(v->get<std::int64_t>());
  }
  return out;
}

cdk::connect_options connect_options_of(const SessionSettings& settings) {
  return value_or_throw(to_connect_options(access::impl(settings).options));
}

cdk::connect_options connect_options_of(const ClientSettings& settings) {
  return value_or_throw(to_connect_options(access::impl(settings).options));
}

PoolOptions pool_options_of(const ClientSettings& settings) {
  return to_pool_options(access::impl(settings).options);
}

} // namespace detail
MYSQLX_NAMESPACE_END
