#include "cdk/parser/uri_text.h"

#include <array>

namespace cdk::uri_text {
namespace {

// Built once at compile time: one table lookup per character in the hot loops.
constexpr std::array<std::uint8_t, 256> make_table() {
  std::array<std::uint8_t, 256> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[c] = cc_unreserved;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = cc_unreserved;
  for (int c = '0'; c <= '9'; ++c) t[c] = cc_unreserved;
  // Connector/C++'s URI grammar (cdk/parser/uri_parser.cc) counts these
  // sub-delimiters as unreserved; so do we, so that the same strings parse.
  for (char c : std::string_view("-._~!$&'*+;=")) t[static_cast<unsigned char>(c)] = cc_unreserved;
  // Raw UTF-8 is unambiguous (no delimiter is >= 0x80), so we accept it where
  // the RFC would want it percent-encoded.
  for (int c = 0x80; c <= 0xff; ++c) t[c] = cc_unreserved;
  for (char c : std::string_view("(),")) t[static_cast<unsigned char>(c)] = cc_paren_comma;
  for (char c : std::string_view(":/?@[]")) t[static_cast<unsigned char>(c)] = cc_gen_delim;
  t['%'] = cc_pct;
  return t;
}

constexpr std::array<std::uint8_t, 256> k_table = make_table();

int hex_value(char c) noexcept {
  if (is_digit(c)) return c - '0';
  c = to_lower(c);
  return c - 'a' + 10;
}

// True when `value` holds any piece of `secret` of 4 bytes (or all of a
// shorter secret), ignoring ASCII case: a mistyped URI can split a password
// so that only part of it lands in an option value.
bool shares_piece(std::string_view value, std::string_view secret) noexcept {
  if (secret.empty()) return false;
  const std::size_t w = secret.size() < 4 ? secret.size() : 4;
  for (std::size_t s = 0; s + w <= secret.size(); ++s) {
    for (std::size_t v = 0; v + w <= value.size(); ++v) {
      if (iequals(value.substr(v, w), secret.substr(s, w))) return true;
    }
  }
  return false;
}

// Decodes the valid %XX escapes and keeps everything else as it is.
std::string lenient_decode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && is_hex(text[i + 1]) && is_hex(text[i + 2])) {
      out.push_back(static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2])));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

} // namespace

void quoter::set_uri(std::string_view uri) noexcept {
  const std::size_t at = uri.rfind('@');
  if (at == std::string_view::npos) return;
  guard = uri.substr(0, at);
  hide_before = at + 1;
}

std::uint8_t char_classes(unsigned char c) noexcept {
  return k_table[c];
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = to_lower(c);
  return out;
}

bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (to_lower(a[i]) != to_lower(b[i])) return false;
  }
  return true;
}

bool istarts_with(std::string_view s, std::string_view prefix) noexcept {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

result<std::string> pct_decode(std::string_view text, std::size_t base) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out.push_back(text[i]);
      continue;
    }
    if (i + 2 >= text.size() || !is_hex(text[i + 1]) || !is_hex(text[i + 2])) {
      return parse_error("invalid percent-escape (expected '%' and two hex digits)", base + i);
    }
    const char c = static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
    if (c == '\0') {
      return parse_error("percent-encoded NUL byte (%00) is not allowed", base + i);
    }
    out.push_back(c);
    i += 2;
  }
  return out;
}

error parse_error(std::string what, std::size_t pos) {
  return error::client(client_errc::parse, "invalid connection string: " + what + " at position " +
                                               std::to_string(pos));
}

error option_error(std::string what) {
  return error::client(client_errc::bad_option, "invalid connection string: " + what);
}

std::string quoter::operator()(std::string_view value, std::size_t pos) const {
  if (pos < hide_before) return "(not shown: it precedes an '@' and may hold a password)";
  if (shares_piece(value, secret) || shares_piece(value, guard) ||
      shares_piece(value, lenient_decode(guard))) {
    return "(not shown: it may contain part of the password)";
  }
  constexpr std::size_t max_shown = 80;
  std::string out = "'";
  const std::size_t n = value.size() < max_shown ? value.size() : max_shown;
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(value[i]);
    if (c < 0x20 || c == 0x7f) {
      static constexpr char digits[] = "0123456789ABCDEF";
      out += '%';
      out += digits[c >> 4];
      out += digits[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (n < value.size()) out += "...";
  out += '\'';
  return out;
}

} // namespace cdk::uri_text
