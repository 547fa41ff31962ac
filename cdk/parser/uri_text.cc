#include "cdk/parser/uri_text.h"

#include <array>

namespace cdk::uri_text {
namespace {

int hex_value(char c) noexcept {
  if (is_digit(c)) return c - '0';
  c = to_lower(c);
  return c - 'a' + 10;
}

// True when `value` holds any piece of `secret` of 4 bytes (or all of a
// shorter secret), ignoring ASCII case: a mistyped URI can split a password
// so that only part of it lands in an option value.
bool shares_piece(std::string_view value, std::string_view secret) {
  if (secret.empty()) return false;
  const std::string v = lower(value);
  const std::string s = lower(secret);
  if (s.size() < 4) return v.find(s) != std::string::npos;
  // One search per 4-byte window of the (short, shown) value: linear in the
  // secret, which may be most of a 64 KiB URI.
  for (std::size_t i = 0; i + 4 <= v.size(); ++i) {
    if (s.find(v.data() + i, 0, 4) != std::string::npos) return true;
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

std::string quoter::operator()(std::string_view value, std::size_t pos) const {
  std::string_view guard; // the URI text before its last '@'
  if (const std::size_t at = uri.rfind('@'); at != std::string_view::npos) {
    if (pos <= at) return "(not shown: it precedes an '@' and may hold a password)";
    guard = uri.substr(0, at);
  }
  constexpr std::size_t max_shown = 80;
  const std::size_t n = value.size() < max_shown ? value.size() : max_shown;
  const std::string_view shown = value.substr(0, n);
  if (shares_piece(shown, secret) || shares_piece(shown, guard) ||
      shares_piece(shown, lenient_decode(guard))) {
    return "(not shown: it may contain part of the password)";
  }
  std::string out = "'";
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

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = to_lower(c);
  return out;
}

bool istarts_with(std::string_view s, std::string_view prefix) noexcept {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

bool pct_decode(std::string_view text, std::size_t base, std::string& out, error& err) {
  std::size_t i = text.find('%');
  if (i == std::string_view::npos) { // the common case, kept cheap
    out = std::string(text);
    return true;
  }
  out.clear();
  out.reserve(text.size());
  out.append(text.data(), i);
  for (; i < text.size(); ++i) {
    if (text[i] != '%') {
      out.push_back(text[i]);
      continue;
    }
    if (i + 2 >= text.size() || !is_hex(text[i + 1]) || !is_hex(text[i + 2])) {
      err = parse_error("invalid percent-escape (expected '%' and two hex digits)", base + i);
      return false;
    }
    const char c = static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
    if (c == '\0') {
      err = parse_error("percent-encoded NUL byte (%00) is not allowed", base + i);
      return false;
    }
    out.push_back(c);
    i += 2;
  }
  return true;
}

error parse_error(const std::string& what, std::size_t pos) {
  return error::client(client_errc::parse, "invalid connection string: " + what + " at position " +
                                               std::to_string(pos));
}

error option_error(const std::string& what) {
  return error::client(client_errc::bad_option, "invalid connection string: " + what);
}

} // namespace cdk::uri_text
