// The connection-string grammar. Single pass, no recursion, no backtracking
// beyond one look-ahead; every allocation is bounded by the input length,
// which is bounded by max_uri_length.
//
//   uri        ::= [scheme "://"] [userinfo "@"] host-part ["/" schema] ["?" query]
//   scheme     ::= "mysqlx" | "mysqlx+srv"                       (case-insensitive)
//   userinfo   ::= user [":" password]       user non-empty; ':' only as separator
//   host-part  ::= entry | "[" list-entry ("," list-entry)* "]"
//   list-entry ::= "(" "address=" entry "," "priority=" DIGIT+ ")" | entry
//   entry      ::= "[" IPv6 ["%25" zone] "]" [":" port]
//                | "(" socket-path ")"                  path starts with '/' or '.'
//                | host-chars [":" port]     decoded text starting with '/' or '.'
//                                            is a socket path (%2Ftmp%2Fx.sock)
//   schema     ::= db-char*                                  may be empty
//   query      ::= pair ("&" pair)*
//   pair       ::= name ["=" ( "[" [value ("," value)*] "]" | value )]
//
// Facts taken from the official connectors (no code copied):
// - The user info ends at the first '@' and may only hold unreserved
//   characters, escapes, '(' ')' ',' and ':'; the first ':' separates the
//   password; an empty user before '@' is an error
//   (Connector/C++ cdk/parser/uri_parser.cc, parse_userinfo/parse_connection).
// - Socket paths: a parenthesised path, or a host that percent-decodes to text
//   starting with '/' or '.', so "./relative.sock" forms are accepted
//   (Connector/C++ report_address; Connector/Node.js parsePlainAddress.js).
// - '[' starts an IPv6 literal when the bracket holds only hex digits and ':',
//   otherwise a host list (Connector/C++ parse_connection / parse_ip_address).
// - "(address=...,priority=N)", keywords case-insensitive, address first
//   (Connector/C++ parse_list_entry).
// - Ports 0..65535 (Connector/C++ convert_val; Node.js "between 0 and 65536").
// - '#' is never valid unencoded (Connector/C++ token table).
//
// Passwords and error text: grammar errors never quote the input. They say
// what was expected and give the byte position. A mistyped password (an
// unencoded '@', '/', '?' or ':' in it, or a missing '@') is otherwise parsed
// as a host, port, schema or even an option, and quoting any of those could
// leak it. Only option names and values are quoted, through uri_text::quoter,
// which refuses text containing the password and text that starts before the
// URI's last '@' (where an unrecognised password can sit, as in
// "user?secret@host" read as the option "secret@host").

#include "cdk/parser/uri_parser.h"

#include "cdk/parser/uri_query.h"
#include "cdk/parser/uri_text.h"

#include <algorithm>
#include <arpa/inet.h>
#include <utility>

namespace cdk {
namespace {

using namespace uri_text;

constexpr std::size_t max_socket_path = 107; // sockaddr_un::sun_path minus NUL
constexpr std::size_t max_host_name = 255;   // RFC 1035 limit on a full name

bool is_host_char(char c) noexcept {
  return char_classes(static_cast<unsigned char>(c)) & (cc_unreserved | cc_pct);
}

bool is_scheme_text(std::string_view s) noexcept {
  if (s.empty() || !(char_classes(static_cast<unsigned char>(s[0])) & cc_unreserved) ||
      is_digit(s[0]))
    return false;
  for (char c : s) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c);
    if (!alnum && c != '+' && c != '-' && c != '.') return false;
  }
  return true;
}

class grammar {
public:
  explicit grammar(std::string_view uri) : m_uri(uri) {}

  result<uri_parts> run() {
    if (m_uri.size() > max_uri_length) {
      return parse_error("longer than " + std::to_string(max_uri_length) + " bytes",
                         max_uri_length);
    }
    m_quote.uri = m_uri;
    if (!check_characters() || !scheme() || !userinfo() || !host_part() || !schema() || !query())
      return std::move(m_error);
    if (m_pos != m_uri.size()) {
      return parse_error("unexpected character after the host (expected '/', '?' or the end)",
                         m_pos);
    }
    return std::move(m_parts);
  }

private:
  std::string_view m_uri;
  std::size_t m_pos = 0;
  uri_parts m_parts;
  error m_error;
  quoter m_quote;

  bool fail(error e) {
    m_error = std::move(e);
    return false;
  }
  bool fail(const std::string& what, std::size_t pos) { return fail(parse_error(what, pos)); }
  bool at_end() const noexcept { return m_pos >= m_uri.size(); }
  char peek() const noexcept { return at_end() ? '\0' : m_uri[m_pos]; }

  bool decode(std::string_view text, std::size_t base, std::string& out) {
    return pct_decode(text, base, out, m_error);
  }

  // Control characters, space, '#', '"', '<', '>', '\\'... have no class.
  bool check_characters() {
    if (m_uri.empty()) return fail("empty string (expected at least a host)", 0);
    for (std::size_t i = 0; i < m_uri.size(); ++i) {
      if (char_classes(static_cast<unsigned char>(m_uri[i])) == 0) {
        return fail("character not allowed here (percent-encode it)", i);
      }
    }
    return true;
  }

  bool scheme() {
    const std::size_t sep = m_uri.find("://");
    if (sep == std::string_view::npos || !is_scheme_text(m_uri.substr(0, sep))) return true;
    const std::string_view name = m_uri.substr(0, sep);
    if (iequals(name, "mysqlx")) {
      m_parts.scheme = uri_scheme::mysqlx;
    } else if (iequals(name, "mysqlx+srv")) {
      m_parts.scheme = uri_scheme::mysqlx_srv;
    } else {
      return fail("unsupported scheme (expected mysqlx:// or mysqlx+srv://)", 0);
    }
    m_pos = sep + 3;
    return true;
  }

  bool userinfo() {
    const std::size_t at = m_uri.find('@', m_pos);
    if (at == std::string_view::npos) return true;
    std::size_t colon = std::string_view::npos;
    for (std::size_t i = m_pos; i < at; ++i) {
      const char c = m_uri[i];
      if (c == ':') {
        if (colon == std::string_view::npos) colon = i;
      } else if (!(char_classes(static_cast<unsigned char>(c)) &
                   (cc_unreserved | cc_pct | cc_paren_comma))) {
        return true; // not user info: the '@' belongs to a later part
      }
    }
    const std::size_t user_end = colon == std::string_view::npos ? at : colon;
    if (user_end == m_pos) return fail("empty user name before '@'", m_pos);
    std::string user;
    if (!decode(m_uri.substr(m_pos, user_end - m_pos), m_pos, user)) return false;
    m_parts.user = std::move(user);
    if (colon != std::string_view::npos) {
      std::string password;
      if (!decode(m_uri.substr(colon + 1, at - colon - 1), colon + 1, password)) return false;
      m_parts.password = std::move(password);
      m_quote.secret = *m_parts.password;
    }
    m_pos = at + 1;
    return true;
  }

  // True when the '[' at m_pos opens an IPv6 literal rather than a host list.
  bool ipv6_ahead() const noexcept {
    const std::size_t close = m_uri.find(']', m_pos);
    if (close == std::string_view::npos || close == m_pos + 1) return false;
    bool colon = false;
    for (std::size_t i = m_pos + 1; i < close; ++i) {
      const char c = m_uri[i];
      if (c == '%') break; // zone id: checked by ipv6()
      if (c == ':')
        colon = true;
      else if (!is_hex(c) && c != '.')
        return false;
    }
    return colon;
  }

  bool host_part() {
    if (at_end() || peek() == '/' || peek() == '?') return fail("missing host", m_pos);
    if (peek() == '[' && m_uri.find(']', m_pos) == std::string_view::npos) {
      return fail("unclosed '[' (no matching ']')", m_pos);
    }
    if (peek() == '[' && !ipv6_ahead()) return host_list();
    uri_endpoint ep;
    if (!entry(ep, false)) return false;
    m_parts.hosts.push_back(std::move(ep));
    if (peek() == ',') {
      return fail("several hosts must be written as a list in brackets: [host1,host2]", m_pos);
    }
    return true;
  }

  bool host_list() {
    m_parts.host_list = true;
    ++m_pos; // '['
    for (;;) {
      uri_endpoint ep;
      if (istarts_with(m_uri.substr(m_pos), "(address=")) {
        if (!priority_entry(ep)) return false;
      } else if (!entry(ep, true)) {
        return false;
      }
      m_parts.hosts.push_back(std::move(ep));
      if (peek() == ',') {
        ++m_pos;
        continue;
      }
      if (peek() == ']') {
        ++m_pos;
        return true;
      }
      return fail("expected ',' or ']' in the host list", m_pos);
    }
  }

  bool priority_entry(uri_endpoint& ep) {
    m_pos += 9; // "(address="
    if (!entry(ep, true)) return false;
    if (!istarts_with(m_uri.substr(m_pos), ",priority=")) {
      return fail("expected ',priority=' after the address", m_pos);
    }
    m_pos += 10;
    const std::size_t start = m_pos;
    int value = 0;
    while (!at_end() && is_digit(peek())) {
      value = std::min(value * 10 + (peek() - '0'), 1000); // saturate: >100 is an error
      ++m_pos;
    }
    if (m_pos == start) return fail("expected a priority number (0..100)", m_pos);
    if (peek() != ')') return fail("expected ')' after the priority", m_pos);
    ++m_pos;
    ep.priority = value;
    return true;
  }

  bool entry(uri_endpoint& ep, bool in_list) {
    ep.pos = m_pos;
    if (at_end() || (in_list && (peek() == ',' || peek() == ']'))) {
      return fail("missing host", m_pos);
    }
    if (peek() == '(') return paren_socket(ep);
    if (peek() == '[') {
      if (!ipv6(ep)) return false;
    } else {
      const std::size_t start = m_pos;
      while (!at_end() && is_host_char(peek())) ++m_pos;
      if (m_pos == start) return fail("missing host", m_pos);
      std::string text;
      if (!decode(m_uri.substr(start, m_pos - start), start, text)) return false;
      if (text[0] == '/' || text[0] == '.') {
        ep.socket = std::move(text);
        return socket_checks(ep);
      }
      if (!host_name(text, start)) return false;
      ep.host = std::move(text);
    }
    return port(ep);
  }

  bool host_name(const std::string& name, std::size_t pos) {
    if (name.size() > max_host_name) {
      return fail(option_error("host name longer than " + std::to_string(max_host_name) +
                               " bytes at position " + std::to_string(pos)));
    }
    for (char c : name) {
      const auto u = static_cast<unsigned char>(c);
      const bool ok = u >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                      is_digit(c) || c == '-' || c == '.' || c == '_' || c == '~';
      if (!ok) return fail("invalid character in the host name", pos);
    }
    return true;
  }

  bool socket_checks(const uri_endpoint& ep) {
    if (ep.socket.size() > max_socket_path) {
      return fail(option_error("Unix socket path longer than " + std::to_string(max_socket_path) +
                               " bytes at position " + std::to_string(ep.pos)));
    }
    if (peek() == ':') return fail("a Unix socket path takes no port", m_pos);
    return true;
  }

  // "(" path ")" with balanced inner parentheses, as Connector/C++ allows.
  bool paren_socket(uri_endpoint& ep) {
    const std::size_t open = m_pos++;
    const std::size_t start = m_pos;
    int depth = 1;
    for (; !at_end(); ++m_pos) {
      const char c = peek();
      if (c == '(') ++depth;
      if (c == ')' && --depth == 0) break;
    }
    if (at_end()) return fail("unclosed '(' of a socket path", open);
    std::string path;
    if (!decode(m_uri.substr(start, m_pos - start), start, path)) return false;
    ++m_pos; // ')'
    if (path.empty() || (path[0] != '/' && path[0] != '.')) {
      return fail("a socket path in parentheses must start with '/' or '.'", start);
    }
    ep.socket = std::move(path);
    return socket_checks(ep);
  }

  bool ipv6(uri_endpoint& ep) {
    const std::size_t open = m_pos;
    const std::size_t close = m_uri.find(']', open);
    if (close == std::string_view::npos) return fail("unclosed '[' of an IPv6 address", open);
    std::string_view text = m_uri.substr(open + 1, close - open - 1);
    std::string zone;
    if (const std::size_t pct = text.find('%'); pct != std::string_view::npos) {
      // RFC 6874: the zone id follows an encoded '%' ("%25").
      if (!istarts_with(text.substr(pct), "%25") || pct + 3 == text.size()) {
        return fail("invalid IPv6 zone (expected %25 and a zone name)", open + 1 + pct);
      }
      if (!decode(text.substr(pct + 3), open + 1 + pct + 3, zone)) return false;
      text = text.substr(0, pct);
    }
    const std::string addr(text);
    unsigned char buf[16];
    if (addr.empty() || inet_pton(AF_INET6, addr.c_str(), buf) != 1) {
      return fail("invalid IPv6 address", open + 1);
    }
    ep.host = zone.empty() ? addr : addr + "%" + zone;
    m_pos = close + 1;
    return true;
  }

  bool port(uri_endpoint& ep) {
    if (peek() != ':') return true;
    ++m_pos;
    const std::size_t start = m_pos;
    std::uint32_t value = 0;
    while (!at_end() && is_digit(peek())) {
      if (value <= 65535) value = value * 10 + static_cast<std::uint32_t>(peek() - '0');
      ++m_pos;
    }
    if (m_pos == start || (!at_end() && is_host_char(peek()))) {
      return fail("expected a port number (decimal digits)", start);
    }
    if (value > 65535) {
      return fail(
          option_error("port out of range (0..65535) at position " + std::to_string(start)));
    }
    ep.port = static_cast<std::uint16_t>(value);
    return true;
  }

  bool schema() {
    if (peek() != '/') return true;
    const std::size_t start = ++m_pos;
    while (!at_end() && peek() != '?') {
      const char c = peek();
      if (c == '/') return fail("unexpected '/' in the schema name (percent-encode it)", m_pos);
      ++m_pos;
    }
    std::string name;
    if (!decode(m_uri.substr(start, m_pos - start), start, name)) return false;
    m_parts.schema = std::move(name);
    return true;
  }

  bool query() {
    if (peek() != '?') return true;
    ++m_pos;
    return parse_query(m_uri, m_pos, m_parts.options, m_quote, m_error);
  }
};

} // namespace

result<uri_parts> parse_uri_parts(std::string_view uri) {
  return grammar(uri).run();
}

} // namespace cdk
