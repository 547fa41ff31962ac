// Option rules. Each rule taken from an official connector says where it comes
// from; rules marked "ours" are this connector's own choices.
#include "cdk/parser/uri_options.h"

#include "cdk/parser/uri_text.h"

#include <algorithm>
#include <array>
#include <utility>

namespace cdk {
namespace {

using namespace uri_text;
using id_t = uri_option_id;

constexpr std::array<std::string_view, static_cast<std::size_t>(id_t::count_)> k_names = {
    "ssl-mode",         "ssl-ca",
    "ssl-capath",       "ssl-crl",
    "ssl-crlpath",      "tls-versions",
    "tls-ciphersuites", "auth",
    "connect-timeout",  "connection-attributes",
    "compression",      "compression-algorithms",
    "docid-mode",       "max-message-size",
    "read-timeout",     "write-timeout",
    "max-in-flight",    "dead-peer-timeout"};

template <typename E> struct named {
  std::string_view name;
  E value;
};

// Enumerated values match case-insensitively (Connector/C++ upper-cases
// ssl-mode and auth before looking them up; Node.js lower-cases ssl-mode).
template <typename E, std::size_t N>
bool lookup(std::string_view text, const named<E> (&table)[N], E& out) {
  for (const auto& entry : table) {
    if (iequals(text, entry.name)) {
      out = entry.value;
      return true;
    }
  }
  return false;
}

constexpr named<ssl_mode> k_ssl_modes[] = {{"disabled", ssl_mode::disabled},
                                           {"required", ssl_mode::required},
                                           {"verify_ca", ssl_mode::verify_ca},
                                           {"verify_identity", ssl_mode::verify_identity}};
// EXTERNAL is taken as Connector/C++ 8 takes it ("currently not supported by
// X Plugin", common_constants.h): the option is set, the session fails when
// it is opened (cdk::session::check_connectable()).
constexpr named<auth_method> k_auths[] = {{"plain", auth_method::plain},
                                          {"mysql41", auth_method::mysql41},
                                          {"sha256_memory", auth_method::sha256_memory},
                                          {"external", auth_method::external}};
constexpr named<compression_mode> k_compressions[] = {{"disabled", compression_mode::disabled},
                                                      {"preferred", compression_mode::preferred},
                                                      {"required", compression_mode::required}};
constexpr named<docid_mode> k_docids[] = {{"auto", docid_mode::auto_select},
                                          {"server", docid_mode::server},
                                          {"client", docid_mode::client}};
// Aliases as documented for Connector/J's xdevapi.compression-algorithms.
constexpr named<std::string_view> k_algorithms[] = {{"zstd_stream", "zstd_stream"},
                                                    {"lz4_message", "lz4_message"},
                                                    {"deflate_stream", "deflate_stream"},
                                                    {"zstd", "zstd_stream"},
                                                    {"lz4", "lz4_message"},
                                                    {"deflate", "deflate_stream"}};

std::string opt_name(id_t id) {
  return "option '" + std::string(uri_option_name(id)) + "'";
}

std::size_t utf8_length(std::string_view s) noexcept {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return n;
}

// Decimal digits only: no sign, no spaces, no hex; bounded by `max`.
bool parse_number(std::string_view text, std::uint64_t max, std::uint64_t& out) {
  if (text.empty() || text.size() > 20) return false;
  std::uint64_t v = 0;
  for (char c : text) {
    if (!is_digit(c)) return false;
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (v > (max - d) / 10) return false;
    v = v * 10 + d;
  }
  out = v;
  return true;
}

// Connector/C++ splits a tls-versions or tls-ciphersuites string at commas
// and white space, and skips empty items ("TLSv1.2, TLSv1.3").
void split_tls_items(const std::string& value, std::vector<std::string>& out) {
  std::string item;
  for (char c : value) {
    if (c == ',' || c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      if (!item.empty()) out.push_back(std::move(item));
      item.clear();
    } else {
      item += c;
    }
  }
  if (!item.empty()) out.push_back(std::move(item));
}

bool is_cipher_name(const std::string& v) {
  return std::all_of(v.begin(), v.end(), [](char c) {
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-';
  });
}

std::vector<std::string> split_commas(const std::string& value) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = value.find(',', start);
    out.push_back(value.substr(start, comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

} // namespace

std::string_view uri_option_name(uri_option_id id) noexcept {
  return k_names[static_cast<std::size_t>(id)];
}

uri_option_id uri_option_of(std::string_view name) noexcept {
  // Connector/C++'s URI_OPTION_LIST takes "tls-version" for tls-versions.
  if (iequals(name, "tls-version")) return id_t::tls_versions;
  std::size_t index = 0;
  while (index < k_names.size() && !iequals(name, k_names[index])) ++index;
  return static_cast<id_t>(index);
}

status connect_options_builder::set_hosts(std::vector<uri_endpoint> hosts, bool dns_srv) {
  if (hosts.empty()) return option_error("no host given");
  std::size_t with_priority = 0;
  for (const uri_endpoint& ep : hosts) {
    if (!ep.priority) continue;
    ++with_priority;
    // Connector/C++ Setter PRIORITY: "a number between 0 and 100".
    if (*ep.priority < 0 || *ep.priority > 100) {
      return option_error("priority out of range (0..100) for the host at position " +
                          std::to_string(ep.pos));
    }
  }
  // Connector/C++ ("PRIORITY not set for all hosts in a multi-host settings")
  // and Node.js parseAddressList.js: all hosts have a priority, or none.
  if (with_priority != 0 && with_priority != hosts.size()) {
    return option_error("either every host in the list has a priority or none does");
  }
  if (dns_srv) {
    // Connector/C++ Setter::commit() and Node.js ERR_SRV_LOOKUP_*.
    const uri_endpoint& ep = hosts.front();
    if (hosts.size() > 1) {
      return option_error("mysqlx+srv:// takes exactly one host name, not a list of " +
                          std::to_string(hosts.size()));
    }
    if (!ep.socket.empty()) return option_error("mysqlx+srv:// cannot be used with a Unix socket");
    if (ep.port) return option_error("mysqlx+srv:// takes no port number: DNS SRV gives it");
    if (ep.priority) return option_error("mysqlx+srv:// takes no priority: DNS SRV gives it");
  }
  m_opts.dns_srv = dns_srv;
  m_opts.hosts.clear();
  m_opts.hosts.reserve(hosts.size());
  for (uri_endpoint& ep : hosts) {
    host_address a;
    a.host = std::move(ep.host);
    a.port = ep.port.value_or(a.port);
    a.socket = std::move(ep.socket);
    a.priority = ep.priority;
    m_opts.hosts.push_back(std::move(a));
  }
  if (with_priority != 0) {
    std::stable_sort(
        m_opts.hosts.begin(), m_opts.hosts.end(),
        [](const host_address& x, const host_address& y) { return *x.priority > *y.priority; });
  }
  return ok();
}

status connect_options_builder::set_option(const uri_option& opt) {
  const id_t id = uri_option_of(opt.name);
  if (id == id_t::count_) {
    // Quoted only when it looks like a name: text with ':', '/' or '@' in it
    // is more likely a mistyped part of the URI (and perhaps a password).
    const bool plain = std::all_of(opt.name.begin(), opt.name.end(), [](char c) {
      return is_digit(c) || (to_lower(c) >= 'a' && to_lower(c) <= 'z') || c == '-' || c == '_' ||
             c == '.';
    });
    if (!plain)
      return option_error("unknown option (its name is not shown: it is not a plain name)");
    return option_error("unknown option " + m_quote(opt.name, opt.pos));
  }
  m_pos = opt.pos;
  // An option given again replaces the earlier value: Connector/C++ 8's
  // Setter::add_option() ("ssl-mode=disabled&ssl-mode=required" is required).
  m_seen |= 1u << static_cast<unsigned>(id);
  if (!opt.has_value) {
    // Connector/C++ Setter::key_val(key): only connection-attributes may stand
    // alone (meaning "true"); every other option "requires a value".
    if (id == id_t::connection_attributes) {
      m_opts.send_connection_attributes = true;
      m_opts.connection_attributes.clear();
      return ok();
    }
    return option_error(opt_name(id) + " needs a value");
  }
  // A caller other than the grammar may hand over an inconsistent uri_option.
  if (!opt.is_list && opt.values.size() != 1) {
    return option_error(opt_name(id) + " takes exactly one value");
  }
  return apply(id, opt);
}

status connect_options_builder::apply(id_t id, const uri_option& opt) {
  switch (id) {
  case id_t::connection_attributes:
    return set_attributes(opt);
  case id_t::tls_versions:
  case id_t::tls_ciphersuites:
    set_tls_list(id, opt.values);
    return ok();
  case id_t::compression_algorithms:
    // Connector/C++ takes a comma-separated string as well as a [list].
    return set_list(id, opt.is_list ? opt.values : split_commas(opt.values.front()));
  default:
    break;
  }
  if (opt.is_list) return option_error(opt_name(id) + " takes a single value, not a [list]");
  const std::string& v = opt.values.front();
  auto bad = [&](std::string_view expected) -> status {
    return option_error(opt_name(id) + ": invalid value " + m_quote(v, m_pos) + " (expected " +
                        std::string(expected) + ")");
  };
  std::uint64_t n = 0;
  switch (id) {
  case id_t::ssl_mode:
    // "Invalid ssl mode" is Connector/C++ 8's wording, which its tests
    // (Sess.ssl_session) and so perhaps programs look for.
    if (!lookup(v, k_ssl_modes, m_opts.tls.mode)) {
      return option_error(opt_name(id) + ": Invalid ssl mode " + m_quote(v, m_pos) +
                          " (expected disabled, required, verify_ca or verify_identity)");
    }
    m_opts.tls.mode_given = true;
    return ok();
  case id_t::ssl_ca:
  case id_t::ssl_capath:
  case id_t::ssl_crl:
  case id_t::ssl_crlpath: {
    if (v.empty()) return bad("a file or directory path");
    std::string* field[] = {&m_opts.tls.ca, &m_opts.tls.capath, &m_opts.tls.crl,
                            &m_opts.tls.crlpath};
    *field[static_cast<int>(id) - static_cast<int>(id_t::ssl_ca)] = v;
    return ok();
  }
  case id_t::auth:
    if (!lookup(v, k_auths, m_opts.auth)) return bad("PLAIN, MYSQL41, SHA256_MEMORY or EXTERNAL");
    return ok();
  case id_t::connect_timeout:
    // Node.js: "a positive integer (including 0)"; Connector/C++ rejects
    // negative and non-integer text. Milliseconds; 0 waits forever.
    if (!parse_number(v, max_connect_timeout_ms, n)) {
      return bad("a whole number of milliseconds, 0.." + std::to_string(max_connect_timeout_ms));
    }
    m_opts.connect_timeout = std::chrono::milliseconds(static_cast<std::int64_t>(n));
    return ok();
  case id_t::read_timeout:
  case id_t::write_timeout:
  case id_t::dead_peer_timeout: // ours, as the two before
    // As connect-timeout: milliseconds, 0 (the default) waits forever, as
    // in the official connectors, which have no such bound at all.
    // dead-peer-timeout: 5000 by default, 0 turns it off.
    if (!parse_number(v, max_connect_timeout_ms, n)) {
      return bad("a whole number of milliseconds, 0.." + std::to_string(max_connect_timeout_ms));
    }
    (id == id_t::read_timeout    ? m_opts.read_timeout
     : id == id_t::write_timeout ? m_opts.write_timeout
                                 : m_opts.dead_peer_timeout) =
        std::chrono::milliseconds(static_cast<std::int64_t>(n));
    return ok();
  case id_t::compression:
    if (!lookup(v, k_compressions, m_opts.compression))
      return bad("disabled, preferred or required");
    return ok();
  case id_t::docid_mode: // ours
    if (!lookup(v, k_docids, m_opts.docids)) return bad("auto, server or client");
    return ok();
  case id_t::max_message_size: // ours
    if (!parse_number(v, max_message_size_limit, n) || n == 0) {
      return bad("a whole number of bytes, 1.." + std::to_string(max_message_size_limit));
    }
    m_opts.max_message_size = n;
    m_opts.max_message_size_given = true;
    m_opts.max_incoming_size = std::max<std::uint64_t>(n, connect_options{}.max_incoming_size);
    return ok();
  case id_t::max_in_flight: // ours
    if (!parse_number(v, max_in_flight_limit, n) || n == 0)
      return bad("a whole number of requests, 1.." + std::to_string(max_in_flight_limit));
    m_opts.max_in_flight = static_cast<std::size_t>(n);
    return ok();
  default:
    return option_error(opt_name(id) + " is not handled"); // unreachable: every id has a case
  }
}

// Connector/C++ Setter::key_val: "true"/"false" (any case), a bare name or an
// empty value mean the default attributes are sent; a [k=v,...] list adds the
// user's own; empty list items are skipped; names must not start with '_'.
// Name and value lengths follow performance_schema.session_connect_attrs.
status connect_options_builder::set_attributes(const uri_option& opt) {
  if (!opt.is_list) {
    const std::string& v = opt.values.front();
    // Given again, it replaces the earlier value, user attributes included.
    if (v.empty() || iequals(v, "true")) {
      m_opts.send_connection_attributes = true;
      m_opts.connection_attributes.clear();
    } else if (iequals(v, "false")) {
      m_opts.send_connection_attributes = false;
      m_opts.connection_attributes.clear();
    } else {
      return option_error("option 'connection-attributes': invalid value " + m_quote(v, m_pos) +
                          " (expected true, false or a list [name=value,...])");
    }
    return ok();
  }
  m_opts.send_connection_attributes = true;
  auto& attrs = m_opts.connection_attributes;
  attrs.clear(); // the list given last is the one sent
  for (const std::string& item : opt.values) {
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    std::string name = item.substr(0, eq);
    std::string value = eq == std::string::npos ? std::string() : item.substr(eq + 1);
    const std::string what = "option 'connection-attributes': attribute " + m_quote(name, m_pos);
    if (name.empty()) {
      return option_error("option 'connection-attributes': an attribute has no name");
    }
    if (name[0] == '_') return option_error(what + ": names starting with '_' are reserved");
    if (utf8_length(name) > max_attribute_name) {
      return option_error(what + ": name longer than " + std::to_string(max_attribute_name) +
                          " characters");
    }
    if (utf8_length(value) > max_attribute_value) {
      return option_error(what + ": value longer than " + std::to_string(max_attribute_value) +
                          " characters");
    }
    for (const auto& kv : attrs) {
      if (kv.first == name) return option_error(what + " is given more than once");
    }
    attrs.emplace_back(std::move(name), std::move(value));
  }
  return ok();
}

// tls-versions and tls-ciphersuites as Connector/C++ 8 takes them: names it
// cannot use are dropped, not refused, and a list left with none fails the
// connection (tls_client.cc), not the setting: with ssl-mode=disabled they
// are never used. Dropping never adds a version: only TLSv1.2 and TLSv1.3
// are kept, so TLSv1 and TLSv1.1 stay off whatever the list says.
void connect_options_builder::set_tls_list(id_t id, const std::vector<std::string>& values) {
  std::vector<std::string> items;
  for (const std::string& v : values) split_tls_items(v, items);
  std::vector<std::string> out;
  for (const std::string& v : items) {
    std::string item;
    if (id == id_t::tls_versions) {
      if (!iequals(v, "tlsv1.2") && !iequals(v, "tlsv1.3")) continue;
      item = "TLSv1." + std::string(1, v.back());
    } else {
      // Only names reach OpenSSL's cipher list syntax, never its operators
      // (':', '!', '+', '@') that would change what the list allows.
      if (!is_cipher_name(v)) continue;
      item = v;
    }
    // Connector/C++ keeps the versions in a set: a repeat changes nothing.
    if (std::find(out.begin(), out.end(), item) == out.end()) out.push_back(std::move(item));
  }
  if (id == id_t::tls_versions) {
    m_opts.tls.versions = std::move(out);
    m_opts.tls.versions_given = true;
  } else {
    m_opts.tls.ciphersuites = std::move(out);
    m_opts.tls.ciphersuites_given = true;
  }
}

status connect_options_builder::set_list(id_t /*compression_algorithms*/,
                                         const std::vector<std::string>& values) {
  // As Connector/C++ 8 reads the list: names it does not know are dropped,
  // and so are repeats (the first place counts), so that a list written for
  // a newer connector or server still connects; a list left empty is as an
  // empty one (below): compression off, or with compression=required a
  // session that fails when it is opened, naming what was dropped
  // (finish(), cdk::session::check_connectable()).
  std::vector<std::string> out;
  out.reserve(values.size());
  m_unknown_algorithms.clear();
  for (const std::string& v : values) {
    std::string_view canonical;
    if (!lookup(v, k_algorithms, canonical)) {
      if (!v.empty())
        m_unknown_algorithms += (m_unknown_algorithms.empty() ? "" : ", ") + m_quote(v, m_pos);
      continue;
    }
    std::string item(canonical);
    if (std::find(out.begin(), out.end(), item) == out.end()) out.push_back(std::move(item));
  }
  // Connector/J: an explicitly empty algorithm list disables compression.
  m_empty_algorithms = out.empty();
  m_opts.compression_algorithms = std::move(out);
  return ok();
}

status connect_options_builder::finish() {
  // TLS options that the ssl-mode does not use are ignored, not refused, as
  // Connector/C++ 8 does: ssl-ca with ssl-mode=required, or tls-versions with
  // ssl-mode=disabled. Without ssl-mode, ssl-ca or ssl-capath mean verify_ca,
  // as Connector/C++'s documentation and MySQL's clients have it: a CA the
  // user gives is for checking the server. (Connector/C++ 8.3's code leaves
  // required; a program relying on an unused CA gives ssl-mode=required.)
  if (!seen(id_t::ssl_mode) && (seen(id_t::ssl_ca) || seen(id_t::ssl_capath)))
    m_opts.tls.mode = ssl_mode::verify_ca;
  m_opts.unknown_compression_algorithms.reset();
  if (m_empty_algorithms) {
    // As Connector/C++ 8: REQUIRED stays, and the session fails when it is
    // opened; the names are kept for that error.
    if (m_opts.compression == compression_mode::required)
      m_opts.unknown_compression_algorithms = m_unknown_algorithms;
    else
      m_opts.compression = compression_mode::disabled;
  }
  return ok();
}

} // namespace cdk
