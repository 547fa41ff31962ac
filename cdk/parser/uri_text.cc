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

} // namespace

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

std::string quote(std::string_view value, std::string_view secret) {
  if (!secret.empty() && value.find(secret) != std::string_view::npos) {
    return "(value not shown: it contains the password)";
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
