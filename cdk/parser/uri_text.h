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
// info; quote() option values through quote().
error parse_error(std::string what, std::size_t pos);
error option_error(std::string what);

// Quotes an option name or value for an error message: shortened when long,
// non-printable bytes escaped, and replaced by a placeholder when it contains
// `secret` (the password), so that no message can ever carry the password.
std::string quote(std::string_view value, std::string_view secret);

} // namespace cdk::uri_text
