#include "cdk/parser/lexer.h"

#include <array>
#include <cstring>
#include <vector>

namespace cdk::expr_lex {
namespace {

// Character classes, one table lookup per byte.
enum : std::uint8_t { c_word = 1, c_digit = 2, c_hex = 4, c_space = 8 };

constexpr std::array<std::uint8_t, 256> make_classes() {
  std::array<std::uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    // Bytes >= 0x80 are parts of UTF-8 sequences (checked up front), which
    // MySQL allows in unquoted identifiers.
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80) t[c] |= c_word;
    if (c >= '0' && c <= '9') t[c] |= c_digit | c_hex;
    if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) t[c] |= c_hex;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') t[c] |= c_space;
  }
  return t;
}
constexpr std::array<std::uint8_t, 256> k_classes = make_classes();

inline std::uint8_t cls(char c) noexcept {
  return k_classes[static_cast<unsigned char>(c)];
}
inline bool is_digit(char c) noexcept {
  return (cls(c) & c_digit) != 0;
}
inline bool is_hex_digit(char c) noexcept {
  return (cls(c) & c_hex) != 0;
}
inline bool is_word_start(char c) noexcept {
  return (cls(c) & c_word) != 0;
}
inline bool is_word_char(char c) noexcept {
  return (cls(c) & (c_word | c_digit)) != 0;
}
constexpr char upper(char c) noexcept {
  return (c >= 'a' && c <= 'z') ? char(c - 32) : c;
}

// A keyword (at most 8 letters) as one integer, byte i in bits 8i..8i+7,
// so scan_word() finds keywords with one hash and one compare.
constexpr std::uint64_t pack(std::string_view w) noexcept {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < w.size(); ++i)
    v |= std::uint64_t{static_cast<unsigned char>(w[i])} << (8 * i);
  return v;
}

struct kw_entry {
  std::string_view text; // upper case
  kw k;
};

// A table, several to a line.
// clang-format off
constexpr std::array<kw_entry, 23> k_keywords{{
    {"OR", kw::or_}, {"IS", kw::is}, {"IN", kw::in}, {"AS", kw::as},
    {"AND", kw::and_}, {"XOR", kw::xor_}, {"NOT", kw::not_}, {"DIV", kw::div},
    {"MOD", kw::mod}, {"ASC", kw::asc}, {"LIKE", kw::like}, {"TRUE", kw::true_},
    {"NULL", kw::null}, {"CAST", kw::cast}, {"DESC", kw::desc}, {"RLIKE", kw::rlike},
    {"FALSE", kw::false_}, {"REGEXP", kw::regexp}, {"BINARY", kw::binary},
    {"ESCAPE", kw::escape}, {"BETWEEN", kw::between}, {"INTERVAL", kw::interval},
    {"OVERLAPS", kw::overlaps},
}};
// clang-format on

// Multiplicative hash into 32 slots; the multiplier was picked so that no
// two keywords share a slot (checked below at compile time).
constexpr std::uint64_t k_hash_mul = 0x41f88433630ea491ull;
constexpr std::size_t kw_slot(std::uint64_t packed) noexcept {
  return static_cast<std::size_t>((packed * k_hash_mul) >> 59);
}

struct kw_cell {
  std::uint64_t text = 0;
  kw k = kw::none;
};

constexpr std::array<kw_cell, 32> make_kw_table() {
  std::array<kw_cell, 32> t{};
  for (const kw_entry& e : k_keywords) t[kw_slot(pack(e.text))] = {pack(e.text), e.k};
  return t;
}
constexpr std::array<kw_cell, 32> k_kw_table = make_kw_table();

constexpr bool every_keyword_has_its_slot() {
  for (const kw_entry& e : k_keywords)
    if (k_kw_table[kw_slot(pack(e.text))].k != e.k) return false;
  return true;
}
static_assert(every_keyword_has_its_slot(), "pick another k_hash_mul");

} // namespace

bool word_is(std::string_view word, std::string_view up) noexcept {
  if (word.size() != up.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i)
    if (upper(word[i]) != up[i]) return false;
  return true;
}

token lexer::fail(std::size_t pos, const char* what) noexcept {
  if (m_err_pos == npos) {
    m_err_pos = pos;
    m_err_what = what;
  }
  m_pos = static_cast<std::uint32_t>(m_in.size());
  return token{tok::end, kw::none, m_pos, 0, false};
}

token lexer::next() noexcept {
  const std::size_t n = m_in.size();
  while (m_pos < n && (cls(m_in[m_pos]) & c_space) != 0) ++m_pos;
  const std::uint32_t start = m_pos;
  if (start >= n) return token{tok::end, kw::none, start, 0, false};

  const char c = m_in[start];
  // The bytes after c, read only by the tokens that need them.
  const auto peek = [&](std::uint32_t k) { return start + k < n ? m_in[start + k] : '\0'; };
  auto punct = [&](tok k, std::uint32_t len) {
    m_pos = start + len;
    return token{k, kw::none, start, len, false};
  };

  // X'65': MySQL's hexadecimal literal, the same number as 0x65 (as
  // Connector/C++ reads it), not a word X followed by a string.
  if ((c == 'x' || c == 'X') && peek(1) == '\'') return scan_hex_quoted(start);
  if (is_word_start(c)) return scan_word(start);
  if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return scan_number(start);
  switch (c) {
  case '\'':
  case '"':
    return scan_quoted(start, tok::string);
  case '`':
    return scan_quoted(start, tok::qword);
  case '(':
    return punct(tok::lparen, 1);
  case ')':
    return punct(tok::rparen, 1);
  case '[':
    return punct(tok::lsquare, 1);
  case ']':
    return punct(tok::rsquare, 1);
  case '{':
    return punct(tok::lcurly, 1);
  case '}':
    return punct(tok::rcurly, 1);
  case ',':
    return punct(tok::comma, 1);
  case '.':
    return punct(tok::dot, 1);
  case ':':
    return punct(tok::colon, 1);
  case '?':
    return punct(tok::qmark, 1);
  case '$':
    return punct(tok::dollar, 1);
  case '*':
    return peek(1) == '*' ? punct(tok::dstar, 2) : punct(tok::star, 1);
  case '+':
    return punct(tok::plus, 1);
  case '-':
    if (peek(1) == '>') return peek(2) == '>' ? punct(tok::arrow2, 3) : punct(tok::arrow, 2);
    return punct(tok::minus, 1);
  case '/':
    return punct(tok::slash, 1);
  case '%':
    return punct(tok::percent, 1);
  case '^':
    return punct(tok::hat, 1);
  case '~':
    return punct(tok::tilde, 1);
  case '!':
    return peek(1) == '=' ? punct(tok::ne, 2) : punct(tok::bang, 1);
  case '&':
    return peek(1) == '&' ? punct(tok::amp2, 2) : punct(tok::amp, 1);
  case '|':
    return peek(1) == '|' ? punct(tok::bar2, 2) : punct(tok::bar, 1);
  case '=':
    return peek(1) == '=' ? punct(tok::eq, 2) : punct(tok::eq, 1);
  case '<':
    if (peek(1) == '<') return punct(tok::shl, 2);
    if (peek(1) == '=') return peek(2) == '>' ? punct(tok::nse, 3) : punct(tok::le, 2);
    if (peek(1) == '>') return punct(tok::ne, 2);
    return punct(tok::lt, 1);
  case '>':
    if (peek(1) == '>') return punct(tok::shr, 2);
    if (peek(1) == '=') return punct(tok::ge, 2);
    return punct(tok::gt, 1);
  default:
    return fail(start, "unexpected character");
  }
}

token lexer::scan_word(std::uint32_t start) noexcept {
  const std::size_t n = m_in.size();
  const char* in = m_in.data();
  // The first 8 bytes are packed as they are scanned. Clearing bit 5
  // upper-cases a-z; keywords are letters only, and no other byte becomes a
  // letter this way, so the compare with a keyword is exact.
  std::uint64_t packed = 0;
  std::uint32_t p = start;
  for (; p < n && p - start < 8 && is_word_char(in[p]); ++p)
    packed |= std::uint64_t{static_cast<unsigned char>(in[p]) & 0xDFu} << (8 * (p - start));
  while (p < n && is_word_char(in[p])) ++p;
  m_pos = p;
  token t{tok::word, kw::none, start, p - start, false};
  if (t.len >= 2 && t.len <= 8) {
    const kw_cell& cell = k_kw_table[kw_slot(packed)];
    if (cell.text == packed) t.keyword = cell.k;
  }
  return t;
}

token lexer::scan_number(std::uint32_t start) noexcept {
  const std::size_t n = m_in.size();
  std::uint32_t p = start;
  if (m_in[p] == '0' && p + 1 < n && (m_in[p + 1] == 'x' || m_in[p + 1] == 'X')) {
    p += 2;
    while (p < n && is_hex_digit(m_in[p])) ++p;
    if (p == start + 2) return fail(start, "expected hexadecimal digits after '0x'");
    m_pos = p;
    return token{tok::hex, kw::none, start, p - start, false};
  }
  tok kind = tok::integer;
  while (p < n && is_digit(m_in[p])) ++p;
  if (p < n && m_in[p] == '.') {
    kind = tok::number;
    ++p;
    while (p < n && is_digit(m_in[p])) ++p;
  }
  // An exponent needs digits; otherwise the 'e' starts the next token.
  if (p < n && (m_in[p] == 'e' || m_in[p] == 'E')) {
    std::uint32_t q = p + 1;
    if (q < n && (m_in[q] == '+' || m_in[q] == '-')) ++q;
    if (q < n && is_digit(m_in[q])) {
      kind = tok::number;
      p = q;
      while (p < n && is_digit(m_in[p])) ++p;
    }
  }
  m_pos = p;
  return token{kind, kw::none, start, p - start, false};
}

token lexer::scan_hex_quoted(std::uint32_t start) noexcept {
  const std::size_t n = m_in.size();
  std::uint32_t p = start + 2;
  while (p < n && is_hex_digit(m_in[p])) ++p;
  if (p == start + 2) return fail(start, "expected hexadecimal digits in X'...'");
  if (p >= n || m_in[p] != '\'') return fail(start, "expected ' after the hexadecimal digits");
  m_pos = p + 1;
  return token{tok::hex, kw::none, start, m_pos - start, false};
}

token lexer::scan_quoted(std::uint32_t start, tok kind) noexcept {
  const char q = m_in[start];
  const bool backslash = kind == tok::string;
  bool escaped = false;
  std::size_t p = start + 1;
  for (;;) {
    if (p >= m_in.size())
      return fail(start, kind == tok::string ? "unterminated string" : "unterminated identifier");
    const char c = m_in[p];
    if (c == '\\' && backslash) {
      escaped = true;
      p += 2;
      continue;
    }
    if (c == q) {
      if (p + 1 < m_in.size() && m_in[p + 1] == q) {
        escaped = true;
        p += 2;
        continue;
      }
      break;
    }
    ++p;
  }
  m_pos = static_cast<std::uint32_t>(p + 1);
  return token{kind, kw::none, start, m_pos - start, escaped};
}

void unquote(std::string_view text, tok kind, bool escaped, std::string& out) {
  const std::string_view body = text.substr(1, text.size() - 2);
  if (!escaped) {
    out.assign(body.data(), body.size());
    return;
  }
  const char q = text.front();
  out.clear();
  out.reserve(body.size());
  for (std::size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == q) { // a doubled quote (the lexer checked)
      ++i;
    } else if (c == '\\' && kind == tok::string && i + 1 < body.size()) {
      c = body[++i];
      switch (c) {
      case '0':
        c = '\0';
        break;
      case 'b':
        c = '\b';
        break;
      case 'n':
        c = '\n';
        break;
      case 'r':
        c = '\r';
        break;
      case 't':
        c = '\t';
        break;
      case 'Z':
        c = '\x1a';
        break;
      case '%':
      case '_':
        out.push_back('\\');
        break;
      default:
        break;
      }
    }
    out.push_back(c);
  }
}

namespace {

// Positions (from `from`) of the bytes in s[from, to) that are not part of
// valid UTF-8, so that messages never print them raw.
std::vector<bool> invalid_bytes(std::string_view s, std::size_t from, std::size_t to) {
  std::vector<bool> bad(to - from, false);
  for (std::size_t j = from; j < to;) {
    const std::size_t k = find_invalid_utf8(s.substr(j, to - j));
    if (k == lexer::npos) break;
    bad[j + k - from] = true;
    j += k + 1;
  }
  return bad;
}

// `s` for a message: control characters and bytes that are not UTF-8 as \xNN.
std::string printable(std::string_view s) {
  const std::vector<bool> bad = invalid_bytes(s, 0, s.size());
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f || bad[i]) {
      static const char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

} // namespace

std::string describe(const lexer& lx, const token& t) {
  if (t.kind == tok::end) return "end of input";
  std::string_view s = lx.text(t);
  constexpr std::size_t max_len = 24;
  std::string r = "'";
  r.append(printable(s.substr(0, max_len)));
  if (s.size() > max_len) r += "...";
  r += "'";
  return r;
}

std::size_t find_invalid_utf8(std::string_view s) noexcept {
  std::size_t i = 0;
  const std::size_t n = s.size();
  // Most input is ASCII: skip it eight bytes at a time.
  while (i + 8 <= n) {
    std::uint64_t chunk = 0;
    std::memcpy(&chunk, s.data() + i, 8);
    if ((chunk & 0x8080808080808080ull) != 0) break;
    i += 8;
  }
  while (i < n) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len = 0;
    std::uint32_t cp = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
      cp = c & 0x1Fu;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      cp = c & 0x0Fu;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      cp = c & 0x07u;
    } else {
      return i;
    }
    if (i + len > n) return i;
    for (std::size_t k = 1; k < len; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0u) != 0x80u) return i;
      cp = (cp << 6) | (cc & 0x3Fu);
    }
    // Overlong forms, surrogates and values past U+10FFFF.
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return i;
    i += len;
  }
  return lexer::npos;
}

error parse_error(std::string_view input, std::size_t pos, std::string_view what) {
  // Long inputs are shown as a window around the position.
  constexpr std::size_t before = 40;
  constexpr std::size_t after = 30;
  if (pos > input.size()) pos = input.size();
  std::size_t from = pos > before ? pos - before : 0;
  std::size_t to = input.size() - pos > after ? pos + after : input.size();
  // Do not cut UTF-8 sequences in half.
  while (from > 0 && (static_cast<unsigned char>(input[from]) & 0xC0u) == 0x80u) --from;
  while (to < input.size() && (static_cast<unsigned char>(input[to]) & 0xC0u) == 0x80u) ++to;

  std::string msg(what);
  msg += " at position ";
  msg += std::to_string(pos);
  msg += "\n  ";
  std::string caret = "  ";
  if (from > 0) {
    msg += "...";
    caret += "   ";
  }
  // One column per character: a control character shows as a space, a
  // byte that is not UTF-8 as '?', never raw.
  const std::vector<bool> bad = invalid_bytes(input, from, to);
  for (std::size_t i = from; i < to; ++i) {
    const auto c = static_cast<unsigned char>(input[i]);
    msg += c < 0x20 || c == 0x7f ? ' ' : bad[i - from] ? '?' : static_cast<char>(c);
    // One caret column per character, not per byte.
    if (i < pos && ((c & 0xC0u) != 0x80u || bad[i - from])) caret += ' ';
  }
  if (to < input.size()) msg += "...";
  msg += '\n';
  msg += caret;
  msg += '^';
  return error::client(client_errc::parse, std::move(msg));
}

} // namespace cdk::expr_lex
