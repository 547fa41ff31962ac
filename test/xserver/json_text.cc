// MySQL's JSON text (json_text.h): a strict RFC 8259 parser that prints as
// it parses; only objects are buffered, to sort their members.
#include "test/xserver/json_text.h"

#include "cdk/json/json_string.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace xserver {

namespace {

// MySQL refuses documents nested deeper (JSON_DOCUMENT_MAX_DEPTH).
constexpr int max_depth = 100;

void append_utf8(std::uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | cp >> 6);
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | cp >> 12);
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | cp >> 18);
    out += static_cast<char>(0x80 | (cp >> 12 & 0x3f));
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

class printer {
public:
  printer(std::string_view in, json_dialect d) : m_in(in), m_dialect(d) {}

  bool document(std::string& out) {
    skip_ws();
    if (!value(out, 0)) return false;
    skip_ws();
    return m_pos == m_in.size();
  }

private:
  void skip_ws() {
    while (m_pos < m_in.size() && (m_in[m_pos] == ' ' || m_in[m_pos] == '\t' ||
                                   m_in[m_pos] == '\n' || m_in[m_pos] == '\r'))
      ++m_pos;
  }
  bool eat(char c) {
    skip_ws();
    if (m_pos < m_in.size() && m_in[m_pos] == c) {
      ++m_pos;
      return true;
    }
    return false;
  }
  bool literal(std::string_view word, std::string& out) {
    if (m_in.substr(m_pos, word.size()) != word) return false;
    m_pos += word.size();
    out += word;
    return true;
  }

  bool value(std::string& out, int depth) {
    skip_ws();
    if (m_pos >= m_in.size()) return false;
    switch (m_in[m_pos]) {
    case '{':
      return object(out, depth + 1);
    case '[':
      return array(out, depth + 1);
    case '"': {
      std::string raw;
      if (!string(raw)) return false;
      // MySQL's double_quote() escapes exactly as cdk::json does.
      cdk::json::append_json_string(out, raw);
      return true;
    }
    case 't':
      return literal("true", out);
    case 'f':
      return literal("false", out);
    case 'n':
      return literal("null", out);
    default:
      return number(out);
    }
  }

  bool array(std::string& out, int depth) {
    if (depth > max_depth) return false;
    ++m_pos; // '['
    out += '[';
    if (eat(']')) {
      out += ']';
      return true;
    }
    for (bool first = true;; first = false) {
      if (!first) out += ", ";
      if (!value(out, depth)) return false;
      if (eat(']')) break;
      if (!eat(',')) return false;
    }
    out += ']';
    return true;
  }

  bool object(std::string& out, int depth) {
    if (depth > max_depth) return false;
    ++m_pos;                                                  // '{'
    std::vector<std::pair<std::string, std::string>> members; // raw key, printed value
    if (!eat('}')) {
      for (;;) {
        skip_ws();
        std::string key, val;
        if (m_pos >= m_in.size() || m_in[m_pos] != '"' || !string(key)) return false;
        if (!eat(':') || !value(val, depth)) return false;
        members.emplace_back(std::move(key), std::move(val));
        if (eat('}')) break;
        if (!eat(',')) return false;
      }
    }
    // The binary format's key order: shorter keys first, then bytewise.
    std::stable_sort(members.begin(), members.end(), [](const auto& a, const auto& b) {
      return a.first.size() != b.first.size() ? a.first.size() < b.first.size() : a.first < b.first;
    });
    out += '{';
    bool first = true;
    for (std::size_t i = 0; i < members.size(); ++i) {
      const bool dup_next = i + 1 < members.size() && members[i + 1].first == members[i].first;
      const bool dup_prev = i > 0 && members[i - 1].first == members[i].first;
      // 8.0.3+: the last of equal keys wins; 5.7: the first.
      if (m_dialect == json_dialect::mysql80 ? dup_next : dup_prev) continue;
      if (!first) out += ", ";
      first = false;
      cdk::json::append_json_string(out, members[i].first);
      out += ": ";
      out += members[i].second;
    }
    out += '}';
    return true;
  }

  bool hex4(std::uint32_t& v) {
    if (m_pos + 4 > m_in.size()) return false;
    v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = m_in[m_pos++];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= static_cast<std::uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= static_cast<std::uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= static_cast<std::uint32_t>(c - 'A' + 10);
      else
        return false;
    }
    return true;
  }

  // A string literal at m_pos, unescaped into raw UTF-8.
  bool string(std::string& raw) {
    ++m_pos; // '"'
    while (m_pos < m_in.size()) {
      const char c = m_in[m_pos++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        raw += c;
        continue;
      }
      if (m_pos >= m_in.size()) return false;
      const char e = m_in[m_pos++];
      switch (e) {
      case '"':
      case '\\':
      case '/':
        raw += e;
        break;
      case 'b':
        raw += '\b';
        break;
      case 'f':
        raw += '\f';
        break;
      case 'n':
        raw += '\n';
        break;
      case 'r':
        raw += '\r';
        break;
      case 't':
        raw += '\t';
        break;
      case 'u': {
        std::uint32_t cp = 0;
        if (!hex4(cp)) return false;
        if (cp >= 0xd800 && cp <= 0xdbff) { // a surrogate pair
          std::uint32_t lo = 0;
          if (m_in.substr(m_pos, 2) != "\\u") return false;
          m_pos += 2;
          if (!hex4(lo) || lo < 0xdc00 || lo > 0xdfff) return false;
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        } else if (cp >= 0xdc00 && cp <= 0xdfff) {
          return false;
        }
        append_utf8(cp, raw);
        break;
      }
      default:
        return false;
      }
    }
    return false;
  }

  bool number(std::string& out) {
    const std::size_t start = m_pos;
    if (m_pos < m_in.size() && m_in[m_pos] == '-') ++m_pos;
    auto digits = [&] {
      const std::size_t from = m_pos;
      while (m_pos < m_in.size() && m_in[m_pos] >= '0' && m_in[m_pos] <= '9') ++m_pos;
      return m_pos - from;
    };
    const std::size_t int_start = m_pos;
    const std::size_t n_int = digits();
    if (n_int == 0 || (n_int > 1 && m_in[int_start] == '0')) return false;
    bool integral = true;
    if (m_pos < m_in.size() && m_in[m_pos] == '.') {
      ++m_pos;
      if (digits() == 0) return false;
      integral = false;
    }
    if (m_pos < m_in.size() && (m_in[m_pos] == 'e' || m_in[m_pos] == 'E')) {
      ++m_pos;
      if (m_pos < m_in.size() && (m_in[m_pos] == '+' || m_in[m_pos] == '-')) ++m_pos;
      if (digits() == 0) return false;
      integral = false;
    }
    const std::string_view text = m_in.substr(start, m_pos - start);
    const char* b = text.data();
    const char* e = b + text.size();
    if (integral) {
      // MySQL keeps integers that fit 64 bits (signed, or unsigned when
      // positive); larger ones become doubles.
      if (text[0] == '-') {
        std::int64_t v = 0;
        if (std::from_chars(b, e, v).ec == std::errc()) {
          out += std::to_string(v);
          return true;
        }
      } else {
        std::uint64_t v = 0;
        if (std::from_chars(b, e, v).ec == std::errc()) {
          out += std::to_string(v);
          return true;
        }
      }
    }
    double d = 0;
    const auto r = std::from_chars(b, e, d);
    if (r.ec != std::errc() || r.ptr != e) return false; // out of range: MySQL refuses it
    out += mysql_json_double(d, m_dialect);
    return true;
  }

  std::string_view m_in;
  std::size_t m_pos = 0;
  json_dialect m_dialect;
};

} // namespace

std::string mysql_json_double(double d, json_dialect dialect) {
  // The shortest digits that read back as d, as dtoa() mode 4 gives
  // my_gcvt() with its field width of 34 (DBL_DIG + 4 + 15).
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  const std::string_view sci(buf, static_cast<std::size_t>(r.ptr - buf));
  const bool negative = sci[0] == '-';
  const std::size_t e_pos = sci.find('e');
  std::string digits;
  for (char c : sci.substr(negative ? 1 : 0, e_pos - (negative ? 1 : 0)))
    if (c != '.') digits += c;
  int exp10 = 0;
  std::from_chars(sci.data() + e_pos + (sci[e_pos + 1] == '+' ? 2 : 1), sci.data() + sci.size(),
                  exp10);
  const int len = static_cast<int>(digits.size());
  const int decpt = exp10 + 1; // d = 0.<digits> * 10^decpt
  std::string out = negative ? "-" : "";
  // my_gcvt(): positional when it fits and -15 < decpt <= 15 (or the
  // digits reach past the point), else 'e' notation.
  if (decpt >= -14 && (decpt <= 15 || len > decpt)) {
    if (decpt <= 0) {
      out += "0.";
      out.append(static_cast<std::size_t>(-decpt), '0');
      out += digits;
    } else if (decpt < len) {
      out += digits.substr(0, static_cast<std::size_t>(decpt));
      out += '.';
      out += digits.substr(static_cast<std::size_t>(decpt));
    } else {
      out += digits;
      out.append(static_cast<std::size_t>(decpt - len), '0');
    }
  } else {
    out += digits[0];
    if (len > 1) {
      out += '.';
      out += digits.substr(1);
    }
    out += 'e';
    out += std::to_string(decpt - 1);
  }
  // 8.0 keeps a double recognisable as one: 1.0, not 1.
  if (dialect == json_dialect::mysql80 && out.find_first_of(".e") == std::string::npos) out += ".0";
  return out;
}

std::optional<std::string> mysql_json_text(std::string_view json, json_dialect dialect) {
  std::string out;
  out.reserve(json.size() + json.size() / 8);
  printer p(json, dialect);
  if (!p.document(out)) return std::nullopt;
  return out;
}

} // namespace xserver
