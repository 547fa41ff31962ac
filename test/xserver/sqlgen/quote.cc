// Quoting of SQL strings, identifiers and JSON path members, and number text.
#include "test/xserver/sqlgen/detail.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

namespace xserver::sqlgen {

std::string quote_string(std::string_view text) {
  std::string out;
  detail::append_string(out, text);
  return out;
}

std::string quote_identifier(std::string_view name) {
  std::string out;
  detail::append_identifier(out, name);
  return out;
}

namespace detail {

void fail(std::uint32_t code, std::string message) {
  throw sql_error{code, std::move(message)};
}

// The escapes of mysql_real_escape_string(): safe whatever the sql_mode, as
// long as NO_BACKSLASH_ESCAPES is off (MariaDB's default, which xserverd keeps).
void append_string(std::string& out, std::string_view text) {
  out.reserve(out.size() + text.size() + 2);
  out.push_back('\'');
  for (char c : text) {
    switch (c) {
    case '\0':
      out.append("\\0");
      break;
    case '\n':
      out.append("\\n");
      break;
    case '\r':
      out.append("\\r");
      break;
    case '\\':
      out.append("\\\\");
      break;
    case '\'':
      out.append("\\'");
      break;
    case '"':
      out.append("\\\"");
      break;
    case '\x1a':
      out.append("\\Z");
      break;
    default:
      out.push_back(c);
    }
  }
  out.push_back('\'');
}

void append_hex(std::string& out, std::string_view bytes) {
  static constexpr char digits[] = "0123456789ABCDEF";
  out.append("X'");
  for (char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out.push_back(digits[b >> 4]);
    out.push_back(digits[b & 0xf]);
  }
  out.push_back('\'');
}

void check_json(std::string_view text) {
  rapidjson::Reader reader;
  rapidjson::MemoryStream stream(text.data(), text.size());
  rapidjson::BaseReaderHandler<> ignore;
  const rapidjson::ParseResult res = reader.Parse(stream, ignore);
  if (res) return;
  throw sql_error{xerr::invalid_json_text_in_param,
                  std::string("Invalid JSON text in argument 1 to function cast_as_json: \"") +
                      rapidjson::GetParseError_En(res.Code()) + "\" at position " +
                      std::to_string(res.Offset()) + ".",
                  "22032"};
}

bool is_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t len = c < 0x80           ? 1
                            : (c >> 5) == 0x6  ? 2
                            : (c >> 4) == 0xe  ? 3
                            : (c >> 3) == 0x1e ? 4
                                               : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (std::size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    i += len;
  }
  return true;
}

void append_identifier(std::string& out, std::string_view name) {
  out.push_back('`');
  for (char c : name) {
    if (c == '`') out.push_back('`');
    out.push_back(c);
  }
  out.push_back('`');
}

namespace {
bool is_alpha(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0;
}
bool is_alnum(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0;
}
} // namespace

// As the X Plugin: bare when it starts with a letter and has only letters,
// digits and '_'.
void append_identifier_if_needed(std::string& out, std::string_view name) {
  bool bare = !name.empty() && is_alpha(name[0]);
  for (std::size_t i = 1; bare && i < name.size(); ++i) bare = is_alnum(name[i]) || name[i] == '_';
  if (bare)
    out.append(name);
  else
    append_identifier(out, name);
}

// A JSON path member: bare if it is an ECMAScript-like identifier, else a
// JSON string (MySQL and MariaDB paths both accept $."a b").
std::string json_member(std::string_view name) {
  bool bare = !name.empty() && (is_alpha(name[0]) || name[0] == '_');
  for (std::size_t i = 1; bare && i < name.size(); ++i) bare = is_alnum(name[i]) || name[i] == '_';
  if (bare) return std::string(name);
  std::string out = "\"";
  for (char c : name) {
    switch (c) {
    case '"':
      out.append("\\\"");
      break;
    case '\\':
      out.append("\\\\");
      break;
    case '\b':
      out.append("\\b");
      break;
    case '\f':
      out.append("\\f");
      break;
    case '\n':
      out.append("\\n");
      break;
    case '\r':
      out.append("\\r");
      break;
    case '\t':
      out.append("\\t");
      break;
    default:
      out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

namespace {
template <typename F> std::string float_text(F v) {
  // SQL and JSON have no NaN or infinity; MySQL would reject the statement.
  if (!std::isfinite(v)) fail(xerr::expr_bad_value, "Invalid value for a floating point literal");
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v); // shortest text that reads back the same
  return std::string(buf, res.ptr);
}
} // namespace

std::string number_text(double v) {
  return float_text(v);
}
std::string number_text(float v) {
  return float_text(v);
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

} // namespace detail
} // namespace xserver::sqlgen
