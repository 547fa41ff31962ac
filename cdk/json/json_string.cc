#include "cdk/json/json_string.h"

#include <cstdint>
#include <cstring>

namespace cdk::json {

namespace {

// Bytes a character needs in a JSON string: 1, 2 for \" \\ \n ..., 6 for \u00XX.
std::size_t escaped_size(unsigned char c) noexcept {
  if (c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t')
    return 2;
  return c < 0x20 ? 6 : 1;
}

} // namespace

bool is_valid_utf8(std::string_view text) noexcept {
  return find_invalid_utf8(text) == std::string_view::npos;
}

std::size_t find_invalid_utf8(std::string_view text) noexcept {
  const auto* begin = reinterpret_cast<const unsigned char*>(text.data());
  const auto* p = begin;
  const auto* end = p + text.size();
  const auto invalid = [&] { return static_cast<std::size_t>(p - begin); };
  while (p < end) {
    if (end - p >= 8) {
      std::uint64_t word;
      std::memcpy(&word, p, 8);
      if ((word & 0x8080'8080'8080'8080u) == 0) {
        p += 8;
        continue;
      }
    }
    const unsigned char c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    std::size_t n = 0;
    std::uint32_t cp = 0;
    std::uint32_t min = 0;
    if ((c & 0xe0) == 0xc0) {
      n = 1, cp = c & 0x1f, min = 0x80;
    } else if ((c & 0xf0) == 0xe0) {
      n = 2, cp = c & 0x0f, min = 0x800;
    } else if ((c & 0xf8) == 0xf0) {
      n = 3, cp = c & 0x07, min = 0x10000;
    } else {
      return invalid(); // a continuation byte, or 0xf8..0xff
    }
    if (static_cast<std::size_t>(end - p) <= n) return invalid();
    for (std::size_t i = 1; i <= n; ++i) {
      if ((p[i] & 0xc0) != 0x80) return invalid();
      cp = (cp << 6) | (p[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return invalid();
    p += n + 1;
  }
  return std::string_view::npos;
}

std::size_t json_string_size(std::string_view text) noexcept {
  std::size_t n = 2;
  for (const char c : text) n += escaped_size(static_cast<unsigned char>(c));
  return n;
}

void append_json_string(std::string& out, std::string_view text) {
  // JSON's two-character escapes: the character, then the letter after '\'.
  static constexpr std::string_view special("\"\\\b\f\n\r\t", 7);
  static constexpr std::string_view letter("\"\\bfnrt", 7);
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  if (json_string_size(text) == text.size() + 2) { // the usual case: nothing to escape
    out.append(text);
    out += '"';
    return;
  }
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (const std::size_t i = special.find(ch); i != std::string_view::npos) {
      out += '\\';
      out += letter[i];
    } else if (c < 0x20) {
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 0xf];
    } else {
      out += ch;
    }
  }
  out += '"';
}

} // namespace cdk::json
