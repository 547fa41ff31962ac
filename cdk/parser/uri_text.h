// Small text helpers shared by the URI grammar (uri_parser.cc) and the option
// rules (uri_options.cc): character classes, percent-decoding, ASCII case
// folding, and the two error shapes.
#pragma once

#include "cdk/foundation/error.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cdk::uri_text {

// Character classes of the connection-string grammar (see uri_parser.cc).
enum char_class : std::uint8_t {
  cc_unreserved = 1,  // ALPHA DIGIT - . _ ~ ! $ & ' * + ; = and bytes >= 0x80
  cc_paren_comma = 2, // ( ) ,
  cc_gen_delim = 4,   // : / ? @ [ ]
  cc_pct = 8,         // %
};

namespace detail {
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

inline constexpr std::array<std::uint8_t, 256> k_table = make_table();

} // namespace detail

inline std::uint8_t char_classes(unsigned char c) noexcept {
  return detail::k_table[c];
}

inline bool is_digit(char c) noexcept {
  return c >= '0' && c <= '9';
}
inline bool is_hex(char c) noexcept {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
inline char to_lower(char c) noexcept {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string lower(std::string_view s);
inline bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (to_lower(a[i]) != to_lower(b[i])) return false;
  }
  return true;
}
bool istarts_with(std::string_view s, std::string_view prefix) noexcept;

// Decodes the %XX escapes of `text`, which starts at offset `base` of the URI,
// into `out`. A bad escape or %00 sets `err` to a parse error at its position
// (never quoting `text`) and returns false.
bool pct_decode(std::string_view text, std::size_t base, std::string& out, error& err);

// Errors. `what` must not contain user text from the host part or the user
// info; option names and values go through a quoter.
error parse_error(const std::string& what, std::size_t pos);
error option_error(const std::string& what);

// Quotes an option name or value for an error message: shortened when long,
// control bytes escaped. Replaced by a placeholder when it shares a piece of
// 4 characters (any case) with the password or with the URI text before the
// URI's last '@' (raw or decoded), or when it starts before that '@': a
// mistyped password may sit there unrecognised, or be split so that part of
// it lands in an option (see uri_parser.cc, "Passwords and error text").
struct quoter {
  std::string_view secret; // the password, when known
  std::string_view uri;    // the whole URI, when the option came from one
  std::string operator()(std::string_view text, std::size_t pos) const;
};

} // namespace cdk::uri_text
