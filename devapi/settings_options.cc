// Setting options: URI expansion, per-option type checks, replacement rules.
//
// Only the types are checked here. Values (ssl-mode names, timeouts, TLS
// versions, attribute names...) are checked by cdk's connect_options_builder
// when the whole set is converted, so that an option set one by one and the
// same option in a connection string follow one set of rules and messages.
// No message here quotes a value: any of them could be the password.
#include "cdk/parser/uri_options.h"
#include "cdk/parser/uri_parser.h"
#include "devapi/access.h"
#include "devapi/settings_impl.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <utility>

MYSQLX_NAMESPACE_BEGIN
namespace detail {
namespace {

using SO = SessionOption;
using CO = ClientOption;

cdk::error bad_option(const std::string& message) {
  return cdk::error::client(cdk::client_errc::bad_option, message);
}

bool is_host_option(int opt) {
  return opt == SO::HOST || opt == SO::PORT || opt == SO::SOCKET || opt == SO::PRIORITY;
}

bool is_integer(const Value& v) {
  return v.getType() == Value::INT64 || v.getType() == Value::UINT64;
}

bool is_string_list(const Value& v) {
  if (v.getType() != Value::ARRAY) return false;
  return std::all_of(v.begin(), v.end(),
                     [](const Value& item) { return item.getType() == Value::STRING; });
}

// The integer value of `v` if it is an integer within [lo, hi].
bool integer_in(const Value& v, std::int64_t lo, std::uint64_t hi) {
  if (v.getType() == Value::UINT64) {
    // A JSON document's non-negative numbers may come as UINT64: "maxSize": 0
    // must still miss a lower bound of 1.
    const std::uint64_t u = v.get<std::uint64_t>();
    return u <= hi && (lo <= 0 || u >= static_cast<std::uint64_t>(lo));
  }
  if (v.getType() != Value::INT64) return false;
  const std::int64_t i = v.get<std::int64_t>();
  return i >= lo && (i < 0 || static_cast<std::uint64_t>(i) <= hi);
}

// Whether a string in `v` (a string, a list's items, a document's names and
// values) holds a NUL byte: the X Protocol carries lengths, so "db\0user"
// would reach the server whole, and C APIs below (getaddrinfo(), paths)
// would stop at the NUL and use less than the user gave.
bool has_nul(const Value& v) {
  const auto nul_in = [](const std::string& s) { return s.find('\0') != std::string::npos; };
  switch (v.getType()) {
  case Value::STRING:
    return nul_in(v.get<std::string>());
  case Value::ARRAY:
    return std::any_of(v.begin(), v.end(), [&](const Value& item) { return has_nul(item); });
  case Value::DOCUMENT: {
    const DbDoc doc = v;
    for (const Field& name : doc)
      if (nul_in(name) || has_nul(doc[name])) return true;
    return false;
  }
  default:
    return false;
  }
}

// CONNECTION_ATTRIBUTES may be a JSON object's text, whose escapes (\u0000)
// give NUL bytes only once it is read.
bool attributes_have_nul(const Value& v) {
  if (v.getType() != Value::STRING) return false;
  const std::string text = v.get<std::string>();
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string::npos && text[first] == '{' && has_nul(Value(DbDoc(text)));
}

cdk::status check_type(int opt, const Value& v) {
  const Value::Type t = v.getType();
  auto expect = [&](bool ok, const char* what) -> cdk::status {
    if (ok) return cdk::ok();
    return bad_option(option_label(opt) + ": expected " + what);
  };
  switch (opt) {
  case SO::HOST:
  case SO::SOCKET:
    return expect(t == Value::STRING && !v.get<std::string>().empty(), "a non-empty string");
  case SO::USER:
  case SO::PWD:
  case SO::DB:
  case SO::SSL_CA:
  case SO::SSL_CAPATH:
  case SO::SSL_CRL:
  case SO::SSL_CRLPATH:
    return expect(t == Value::STRING, "a string");
  case SO::SSL_MODE:
  case SO::AUTH:
  case SO::COMPRESSION:
  case SO::DOCID_MODE:
    // The enum is kept as its number (option_value()); a name is a string.
    return expect(t == Value::STRING || is_integer(v), "the option's enum or its name");
  case SO::PORT:
    return expect(integer_in(v, 0, 65535), "a port number 0..65535");
  case SO::PRIORITY:
    return expect(integer_in(v, 0, 100), "a priority 0..100");
  case SO::DNS_SRV:
    return expect(t == Value::BOOL, "true or false");
  case CO::POOLING:
    // Connector/C++ 8 takes a number too (ClientOption::POOLING, 1); kept as
    // given, so find() returns what was set.
    return expect(t == Value::BOOL || integer_in(v, 0, 1), "true or false (or 1 or 0)");
  case SO::CONNECT_TIMEOUT:
  case SO::READ_TIMEOUT:
  case SO::WRITE_TIMEOUT:
  case SO::DEAD_PEER_TIMEOUT:
  case SO::MAX_MESSAGE_SIZE:
  case SO::MAX_IN_FLIGHT:
    return expect(is_integer(v) || t == Value::STRING, "a whole number");
  case SO::COMPRESSION_ALGORITHMS:
    // A null is an empty list (no compression), as Connector/C++ 8 reads it.
    return expect(t == Value::STRING || t == Value::VNULL || is_string_list(v),
                  "a comma-separated string or a container of strings");
  case SO::TLS_VERSIONS:
  case SO::TLS_CIPHERSUITES:
    return expect(t == Value::STRING || is_string_list(v),
                  "a comma-separated string or a container of strings");
  case SO::CONNECTION_ATTRIBUTES:
    return expect(t == Value::BOOL || t == Value::STRING || t == Value::DOCUMENT ||
                      is_string_list(v),
                  "true, false, a DbDoc or a JSON object of string values");
  case CO::POOL_MAX_SIZE:
    return expect(integer_in(v, 1, SIZE_MAX), "a whole number above 0");
  case CO::POOL_QUEUE_TIMEOUT:
  case CO::POOL_MAX_IDLE_TIME:
    return expect(integer_in(v, 0, INT64_MAX),
                  "milliseconds (0 or more) or a std::chrono duration");
  default:
    return bad_option("unknown option number " + std::to_string(opt));
  }
}

// The SessionOption for a connection-string option name, or SO::LAST.
int option_for_uri_name(const std::string& name) {
  static const std::pair<cdk::uri_option_id, int> table[] = {
      {cdk::uri_option_id::ssl_mode, SO::SSL_MODE},
      {cdk::uri_option_id::ssl_ca, SO::SSL_CA},
      {cdk::uri_option_id::ssl_capath, SO::SSL_CAPATH},
      {cdk::uri_option_id::ssl_crl, SO::SSL_CRL},
      {cdk::uri_option_id::ssl_crlpath, SO::SSL_CRLPATH},
      {cdk::uri_option_id::tls_versions, SO::TLS_VERSIONS},
      {cdk::uri_option_id::tls_ciphersuites, SO::TLS_CIPHERSUITES},
      {cdk::uri_option_id::auth, SO::AUTH},
      {cdk::uri_option_id::connect_timeout, SO::CONNECT_TIMEOUT},
      {cdk::uri_option_id::connection_attributes, SO::CONNECTION_ATTRIBUTES},
      {cdk::uri_option_id::compression, SO::COMPRESSION},
      {cdk::uri_option_id::compression_algorithms, SO::COMPRESSION_ALGORITHMS},
      {cdk::uri_option_id::docid_mode, SO::DOCID_MODE},
      {cdk::uri_option_id::max_message_size, SO::MAX_MESSAGE_SIZE},
      {cdk::uri_option_id::read_timeout, SO::READ_TIMEOUT},
      {cdk::uri_option_id::write_timeout, SO::WRITE_TIMEOUT},
      {cdk::uri_option_id::max_in_flight, SO::MAX_IN_FLIGHT},
      {cdk::uri_option_id::dead_peer_timeout, SO::DEAD_PEER_TIMEOUT},
  };
  // uri_option_of() also knows the aliases ("tls-version").
  const cdk::uri_option_id id = cdk::uri_option_of(name);
  for (const auto& [uid, opt] : table) {
    if (uid == id) return opt;
  }
  return SO::LAST;
}

// A connection string as options. parse_uri() checks it completely first,
// so that its errors (with positions, never quoting the password) are the
// same as for any connection string.
cdk::result<option_list> expand_uri(const std::string& uri) {
  if (auto full = cdk::parse_uri(uri); !full) return std::move(full).err();
  auto parsed = cdk::parse_uri_parts(uri);
  if (!parsed) return std::move(parsed).err();
  const cdk::uri_parts& parts = parsed.value();
  option_list out;
  for (const cdk::uri_endpoint& ep : parts.hosts) {
    if (!ep.socket.empty()) {
      out.emplace_back(SO::SOCKET, Value(ep.socket));
    } else {
      out.emplace_back(SO::HOST, Value(ep.host));
      if (ep.port) out.emplace_back(SO::PORT, Value(unsigned{*ep.port}));
    }
    if (ep.priority) out.emplace_back(SO::PRIORITY, Value(*ep.priority));
  }
  if (parts.scheme == cdk::uri_scheme::mysqlx_srv) out.emplace_back(SO::DNS_SRV, Value(true));
  if (parts.user) out.emplace_back(SO::USER, Value(*parts.user));
  if (parts.password) out.emplace_back(SO::PWD, Value(*parts.password));
  if (parts.schema) out.emplace_back(SO::DB, Value(*parts.schema));
  for (const cdk::uri_option& o : parts.options) {
    const int opt = option_for_uri_name(o.name);
    if (opt == SO::LAST) return bad_option("unknown connection-string option"); // parse_uri said ok
    if (!o.has_value) {
      out.emplace_back(opt, Value(true)); // only connection-attributes may stand alone
    } else if (o.is_list) {
      out.emplace_back(opt,
                       access::make_array(std::vector<Value>(o.values.begin(), o.values.end())));
    } else {
      out.emplace_back(opt, Value(o.values.front()));
    }
  }
  return out;
}

void erase_option(option_list& target, int opt) {
  target.erase(std::remove_if(target.begin(), target.end(),
                              [opt](const auto& entry) { return entry.first == opt; }),
               target.end());
}

} // namespace

std::string option_label(int opt) {
  if (opt < 0) return "ClientOption::" + ClientOptionName(static_cast<CO::Enum>(opt));
  return "SessionOption::" + SessionOptionName(static_cast<SO::Enum>(opt));
}

cdk::status apply_options(option_list& target, option_list&& changes, bool allow_client) {
  for (auto& [opt, value] : changes) {
    if (opt < 0 && !allow_client) {
      return bad_option(option_label(opt) + " is a client option: use ClientSettings");
    }
    // Named, never quoted: the value could be the password.
    if (has_nul(value) || (opt == SO::CONNECTION_ATTRIBUTES && attributes_have_nul(value)))
      return bad_option(option_label(opt) + ": contains a NUL byte");
    if (opt == SO::URI) {
      if (value.getType() != Value::STRING)
        return bad_option("SessionOption::URI: expected a string");
      auto expanded = expand_uri(value.get<std::string>());
      if (!expanded) return std::move(expanded).err();
      // The URI names the whole host list, and who connects.
      for (int o :
           {SO::HOST, SO::PORT, SO::SOCKET, SO::PRIORITY, SO::DNS_SRV, SO::USER, SO::PWD, SO::DB}) {
        erase_option(target, o);
      }
      for (auto& [uri_opt, uri_value] : expanded.value()) {
        if (!is_host_option(uri_opt)) erase_option(target, uri_opt);
        target.emplace_back(uri_opt, std::move(uri_value));
      }
      continue;
    }
    if (auto st = check_type(opt, value); !st) return st;
    if (!is_host_option(opt)) erase_option(target, opt);
    target.emplace_back(opt, std::move(value));
  }
  return cdk::ok();
}

cdk::result<option_list> client_options_from_json(const DbDoc& doc) {
  static const std::pair<const char*, int> names[] = {{"enabled", CO::POOLING},
                                                      {"maxSize", CO::POOL_MAX_SIZE},
                                                      {"queueTimeout", CO::POOL_QUEUE_TIMEOUT},
                                                      {"maxIdleTime", CO::POOL_MAX_IDLE_TIME}};
  option_list out;
  for (const Field& top : doc) {
    if (top != "pooling") return bad_option("client option '" + top + "' is unknown");
    const Value& pooling = doc[top];
    if (pooling.getType() != Value::DOCUMENT) {
      return bad_option("client option 'pooling' must be an object");
    }
    const DbDoc inner = pooling;
    for (const Field& name : inner) {
      const auto it = std::find_if(std::begin(names), std::end(names),
                                   [&](const auto& n) { return name == n.first; });
      if (it == std::end(names))
        return bad_option("client option 'pooling." + name + "' is unknown");
      out.emplace_back(it->second, inner[name]);
    }
  }
  return out;
}

} // namespace detail
MYSQLX_NAMESPACE_END
