#include "printable.h"

namespace mysqlx_import {

namespace {

// The length of the valid UTF-8 character at the start of `s` (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF), or 0.
std::size_t utf8_length(std::string_view s) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char c = byte(0);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF; // the range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0; // overlong
    if (c == 0xED) hi = 0x9F; // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90; // overlong
    if (c == 0xF4) hi = 0x8F; // above U+10FFFF
  } else {
    return 0;
  }
  if (s.size() < n || byte(1) < lo || byte(1) > hi) return 0;
  for (std::size_t i = 2; i < n; ++i)
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  return n;
}

// Calls `piece(text, chars)` for each character of `text` as it is to be
// shown (`chars` characters long); stops when it returns false.
template <typename F> void for_each_piece(std::string_view text, bool escape_backslash, F piece) {
  static const char hex[] = "0123456789abcdef";
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = utf8_length(text.substr(i));
    if (n == 0 || c < 0x20 || c == 0x7F) {
      const char esc[] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
      if (!piece(std::string_view(esc, 4), 4)) return;
      ++i;
      continue;
    }
    if (c == '\\' && escape_backslash) {
      if (!piece("\\\\", 2)) return;
    } else if (!piece(text.substr(i, n), 1)) {
      return;
    }
    i += n;
  }
}

} // namespace

std::string printable(std::string_view text, bool escape_backslash) {
  std::string out;
  out.reserve(text.size());
  for_each_piece(text, escape_backslash, [&](std::string_view p, std::size_t) {
    out.append(p);
    return true;
  });
  return out;
}

std::string printable_prefix(std::string_view text, std::size_t max_chars) {
  std::size_t total = 0;
  for_each_piece(text, true, [&](std::string_view, std::size_t chars) {
    total += chars;
    return true;
  });
  if (total <= max_chars) return printable(text, true);
  // Cut: room for "..." after the last whole piece that fits.
  const std::size_t room = max_chars < 3 ? 0 : max_chars - 3;
  std::string out;
  std::size_t used = 0;
  for_each_piece(text, true, [&](std::string_view p, std::size_t chars) {
    if (used + chars > room) return false;
    out.append(p);
    used += chars;
    return true;
  });
  return out + "...";
}

} // namespace mysqlx_import
