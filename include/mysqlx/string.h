// mysqlx::string: UTF-8 text that also takes and gives UTF-16 and wide text.
//
//   mysqlx::string a = u"Rafał";          // from UTF-16 (char16_t)
//   mysqlx::string b = L"Zoë";            // from wide text (UTF-32 on Linux)
//   std::u16string u = a;                 // back to UTF-16
//   if (a == u"Rafał" && a.find(u"ał") != mysqlx::string::npos) ...
//
// Connector/C++ 8's mysqlx::string is a UTF-16 string class; ours is a
// std::string holding UTF-8, which is what the server sends and what every
// other std::string in a program holds, so passing text along never
// converts it. It converts from and to char16_t, wchar_t and char32_t text,
// compares with it and finds it, so code written for the official class
// compiles and means the same. Positions (find(), size()) count UTF-8 bytes,
// not UTF-16 units. Text that is not valid Unicode (a lone surrogate, or bad
// UTF-8 when converting out) throws mysqlx::Error (errc::USAGE).
#pragma once

#include <cstddef>
#include <mysqlx/detail/export.h>
#include <string>
#include <utility>

MYSQLX_NAMESPACE_BEGIN

/// UTF-8 text: a std::string that also converts from and to UTF-16 and wide text.
class MYSQLX_EXPORT string : public std::string {
public:
  /// The std::string constructors (count and character, range, ...).
  using std::string::string;
  /// An empty string.
  string() = default;
  /// A copy of UTF-8 text.
  string(const std::string& text) : std::string(text) {} // NOLINT: implicit by design
  /// Takes UTF-8 text over.
  string(std::string&& text) noexcept : std::string(std::move(text)) {} // NOLINT
  /// UTF-8 text; null is an empty string.
  string(const char* text) : std::string(text != nullptr ? text : "") {} // NOLINT
  /// UTF-16 text; null is an empty string.
  string(const char16_t* text); // NOLINT: implicit, as in Connector/C++
  /// UTF-16 text.
  string(const std::u16string& text); // NOLINT
  /// Wide text (UTF-32 where wchar_t has 32 bits, as on Linux; else UTF-16); null is empty.
  string(const wchar_t* text); // NOLINT
  /// Wide text.
  string(const std::wstring& text); // NOLINT
  /// UTF-32 text; null is an empty string.
  string(const char32_t* text); // NOLINT
  /// UTF-32 text.
  string(const std::u32string& text); // NOLINT

  string(const string&) = default;                ///< Copies.
  string(string&&) noexcept = default;            ///< Moves.
  string& operator=(const string&) = default;     ///< Copies.
  string& operator=(string&&) noexcept = default; ///< Moves.
  ~string() = default;

  /// The text as UTF-16; throws for bad UTF-8.
  std::u16string to_u16string() const;
  /// The text as wide characters; throws for bad UTF-8.
  std::wstring to_wstring() const;
  /// The text as UTF-32; throws for bad UTF-8.
  std::u32string to_u32string() const;
  /// to_u16string().
  operator std::u16string() const { return to_u16string(); } // NOLINT: implicit by design
  /// to_wstring().
  operator std::wstring() const { return to_wstring(); } // NOLINT
  /// to_u32string().
  operator std::u32string() const { return to_u32string(); } // NOLINT

  using std::string::find;
  /// The byte position of `text` (converted to UTF-8) at or after `pos`, or npos.
  size_type find(const string& text, size_type pos = 0) const noexcept {
    return std::string::find(static_cast<const std::string&>(text), pos);
  }
  /// The same for UTF-16 text.
  size_type find(const char16_t* text, size_type pos = 0) const { return find(string(text), pos); }
  /// The same for wide text.
  size_type find(const wchar_t* text, size_type pos = 0) const { return find(string(text), pos); }

  /// Whether the texts are equal.
  friend bool operator==(const string& a, const string& b) noexcept { return eq(a, b); }
  /// Whether the texts differ.
  friend bool operator!=(const string& a, const string& b) noexcept { return !eq(a, b); }
  /// Whether the texts are equal, with a std::string (UTF-8).
  friend bool operator==(const string& a, const std::string& b) noexcept { return eq(a, b); }
  /// Whether the texts differ, with a std::string (UTF-8).
  friend bool operator!=(const string& a, const std::string& b) noexcept { return !eq(a, b); }
  /// Whether the texts are equal, with a std::string (UTF-8).
  friend bool operator==(const std::string& a, const string& b) noexcept { return eq(a, b); }
  /// Whether the texts differ, with a std::string (UTF-8).
  friend bool operator!=(const std::string& a, const string& b) noexcept { return !eq(a, b); }
  /// Whether the texts are equal, with a C string (UTF-8; null as empty).
  friend bool operator==(const string& a, const char* b) { return eq(a, string(b)); }
  /// Whether the texts differ, with a C string (UTF-8; null as empty).
  friend bool operator!=(const string& a, const char* b) { return !eq(a, string(b)); }
  /// Whether the texts are equal, with a C string (UTF-8; null as empty).
  friend bool operator==(const char* a, const string& b) { return eq(string(a), b); }
  /// Whether the texts differ, with a C string (UTF-8; null as empty).
  friend bool operator!=(const char* a, const string& b) { return !eq(string(a), b); }
  /// Whether the texts are equal, with UTF-16 text (converted to UTF-8).
  friend MYSQLX_EXPORT bool operator==(const string& a, const char16_t* b);
  /// Whether the texts differ, with UTF-16 text (converted to UTF-8).
  friend MYSQLX_EXPORT bool operator!=(const string& a, const char16_t* b);
  /// Whether the texts are equal, with UTF-16 text (converted to UTF-8).
  friend MYSQLX_EXPORT bool operator==(const char16_t* a, const string& b);
  /// Whether the texts differ, with UTF-16 text (converted to UTF-8).
  friend MYSQLX_EXPORT bool operator!=(const char16_t* a, const string& b);
  /// Whether the texts are equal, with wide text (converted to UTF-8).
  friend MYSQLX_EXPORT bool operator==(const string& a, const wchar_t* b);
  /// Whether the texts differ, with wide text (converted to UTF-8).
  friend MYSQLX_EXPORT bool operator!=(const string& a, const wchar_t* b);
  /// Whether the texts are equal, with wide text (converted to UTF-8).
  friend MYSQLX_EXPORT bool operator==(const wchar_t* a, const string& b);
  /// Whether the texts differ, with wide text (converted to UTF-8).
  friend MYSQLX_EXPORT bool operator!=(const wchar_t* a, const string& b);

private:
  static bool eq(const std::string& a, const std::string& b) noexcept {
    return a.size() == b.size() && a.compare(b) == 0;
  }
};

MYSQLX_NAMESPACE_END

namespace std {
/// Hashes as the UTF-8 std::string it holds, so it keys unordered containers.
template <> struct hash<mysqlx::string> {
  /// std::hash<std::string> of the UTF-8 text.
  std::size_t operator()(const mysqlx::string& s) const noexcept { return hash<std::string>{}(s); }
};
} // namespace std
