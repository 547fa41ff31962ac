// mysqlx::string's conversions between UTF-8 and UTF-16 / UTF-32 / wide
// text, and the Value constructors that take such text.
#include "cdk/json/json_string.h"
#include "devapi/throw_error.h"

#include <cstdint>
#include <mysqlx/string.h>
#include <mysqlx/value.h>
#include <string>
#include <string_view>

MYSQLX_NAMESPACE_BEGIN

namespace {

[[noreturn]] void bad_text(const std::string& what) {
  detail::throw_error(cdk::error::client(cdk::client_errc::usage, what));
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

bool is_surrogate(char32_t cp) noexcept {
  return cp >= 0xd800 && cp <= 0xdfff;
}

std::string from_utf16(std::u16string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char32_t cp = text[i];
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.size() && text[i + 1] >= 0xdc00 &&
        text[i + 1] <= 0xdfff) {
      cp = 0x10000 + ((cp - 0xd800) << 10) + (text[++i] - 0xdc00);
    } else if (is_surrogate(cp)) {
      bad_text("UTF-16 text with a lone surrogate at unit " + std::to_string(i + 1));
    }
    append_utf8(out, cp);
  }
  return out;
}

std::string from_utf32(std::u32string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (is_surrogate(text[i]) || text[i] > 0x10ffff) {
      bad_text("UTF-32 text with an invalid code point at character " + std::to_string(i + 1));
    }
    append_utf8(out, text[i]);
  }
  return out;
}

std::string from_wide(std::wstring_view text) {
  if constexpr (sizeof(wchar_t) == 2) {
    return from_utf16(std::u16string(text.begin(), text.end()));
  } else {
    return from_utf32(std::u32string(text.begin(), text.end()));
  }
}

// The code points of valid UTF-8 text; bad UTF-8 throws.
std::u32string to_utf32(std::string_view text) {
  const std::size_t bad = cdk::json::find_invalid_utf8(text);
  if (bad != std::string_view::npos) {
    bad_text("the text is not valid UTF-8 (at byte " + std::to_string(bad + 1) + ")");
  }
  std::u32string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = c < 0x80 ? 0 : c < 0xe0 ? 1 : c < 0xf0 ? 2 : 3;
    char32_t cp = n == 0 ? c : c & (0x3f >> n);
    for (std::size_t k = 1; k <= n; ++k) cp = (cp << 6) | (text[i + k] & 0x3f);
    out += cp;
    i += n + 1;
  }
  return out;
}

} // namespace

string::string(const char16_t* text)
    : std::string(text != nullptr ? from_utf16(text) : std::string()) {}
string::string(const std::u16string& text) : std::string(from_utf16(text)) {}
string::string(const wchar_t* text)
    : std::string(text != nullptr ? from_wide(text) : std::string()) {}
string::string(const std::wstring& text) : std::string(from_wide(text)) {}
string::string(const char32_t* text)
    : std::string(text != nullptr ? from_utf32(text) : std::string()) {}
string::string(const std::u32string& text) : std::string(from_utf32(text)) {}

bool operator==(const string& a, const char16_t* b) {
  return a == string(b);
}
bool operator!=(const string& a, const char16_t* b) {
  return a != string(b);
}
bool operator==(const char16_t* a, const string& b) {
  return string(a) == b;
}
bool operator!=(const char16_t* a, const string& b) {
  return string(a) != b;
}
bool operator==(const string& a, const wchar_t* b) {
  return a == string(b);
}
bool operator!=(const string& a, const wchar_t* b) {
  return a != string(b);
}
bool operator==(const wchar_t* a, const string& b) {
  return string(a) == b;
}
bool operator!=(const wchar_t* a, const string& b) {
  return string(a) != b;
}

std::u32string string::to_u32string() const {
  return to_utf32(*this);
}

std::u16string string::to_u16string() const {
  std::u16string out;
  out.reserve(size());
  for (const char32_t cp : to_utf32(*this)) {
    if (cp < 0x10000) {
      out += static_cast<char16_t>(cp);
    } else {
      out += static_cast<char16_t>(0xd800 + ((cp - 0x10000) >> 10));
      out += static_cast<char16_t>(0xdc00 + ((cp - 0x10000) & 0x3ff));
    }
  }
  return out;
}

std::wstring string::to_wstring() const {
  if constexpr (sizeof(wchar_t) == 2) {
    const std::u16string u = to_u16string();
    return std::wstring(u.begin(), u.end());
  } else {
    const std::u32string u = to_u32string();
    return std::wstring(u.begin(), u.end());
  }
}

// Null pointers are null Values, as for `const char*`.
Value::Value(const char16_t* str) : Value(str != nullptr ? Value(string(str)) : Value()) {}
Value::Value(const std::u16string& str) : Value(std::string(string(str))) {}
Value::Value(const wchar_t* str) : Value(str != nullptr ? Value(string(str)) : Value()) {}
Value::Value(const std::wstring& str) : Value(std::string(string(str))) {}
Value::Value(const char32_t* str) : Value(str != nullptr ? Value(string(str)) : Value()) {}
Value::Value(const std::u32string& str) : Value(std::string(string(str))) {}

MYSQLX_NAMESPACE_END
