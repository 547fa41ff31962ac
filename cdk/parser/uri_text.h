// Small text helpers shared by the URI grammar (uri_parser.cc) and the option
// rules (uri_options.cc): character classes, percent-decoding, ASCII case
// folding, and the two error shapes.
#pragma once

#include "cdk/foundation/error.h"

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

std::uint8_t char_classes(unsigned char c) noexcept;

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
bool iequals(std::string_view a, std::string_view b) noexcept;
bool istarts_with(std::string_view s, std::string_view prefix) noexcept;

// Decodes %XX escapes of `text`, which starts at offset `base` of the URI.
// A bad escape or %00 is a parse error at its position. Never quotes `text`.
result<std::string> pct_decode(std::string_view text, std::size_t base);

// Errors. `what` must not contain user text from the host part or the user
// info; option names and values go through a quoter.
error parse_error(std::string what, std::size_t pos);
error option_error(std::string what);

// Quotes an option name or value for an error message: shortened when long,
// control bytes escaped. Replaced by a placeholder when it shares a piece of
// 4 characters (any case) with the password or with the URI text before the
// URI's last '@' (raw or decoded), or when it starts before that '@': a
// mistyped password may sit there unrecognised, or be split so that part of
// it lands in an option (see uri_parser.cc, "Passwords and error text").
struct quoter {
  std::string_view secret;     // the password, when known
  std::string_view guard;      // URI text before its last '@'
  std::size_t hide_before = 0; // offset just past that '@'; 0: none
  void set_uri(std::string_view uri) noexcept;
  std::string operator()(std::string_view text, std::size_t pos) const;
};

} // namespace cdk::uri_text
