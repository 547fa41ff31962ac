#include "cdk/json/member_scan.h"

#include "cdk/json/id_scan.h"

#include <array>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace cdk::json {
namespace {

constexpr std::size_t npos = std::string_view::npos;

// Bytes that end a run of plain string text: '"', '\\' and control characters.
constexpr std::array<bool, 256> k_string_special = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[c] = true;
  t['"'] = t['\\'] = true;
  return t;
}();

class scanner {
public:
  explicit scanner(std::string_view text) noexcept : m_text(text) {}

  std::size_t pos() const noexcept { return m_pos; }
  bool at_end() const noexcept { return m_pos == m_text.size(); }

  void skip_space() noexcept {
    while (m_pos < m_text.size()) {
      const char c = m_text[m_pos];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
      ++m_pos;
    }
  }

  bool take(char c) noexcept {
    if (m_pos == m_text.size() || m_text[m_pos] != c) return false;
    ++m_pos;
    return true;
  }

  // A string at m_pos ('"' included); false if it does not end or holds a
  // control character. `escaped`: it has a backslash.
  bool string(bool& escaped) noexcept {
    escaped = false;
    if (!take('"')) return false;
    for (;;) {
      skip_plain_text();
      if (m_pos == m_text.size()) return false;
      const auto c = static_cast<unsigned char>(m_text[m_pos++]);
      if (c == '"') return true;
      if (c < 0x20) return false;
      escaped = true; // a backslash
      if (m_pos == m_text.size()) return false;
      ++m_pos; // the escaped character: never the end of the string
    }
  }

  // One value at m_pos. Brackets are matched on a stack of one bit per level
  // (1: object), at most max_depth - 1 levels below the top-level object.
  bool value() noexcept {
    std::uint64_t stack[2] = {};
    static_assert(max_depth <= 128, "the bracket stack holds 128 levels");
    std::size_t depth = 0;
    do {
      if (m_pos == m_text.size()) return false;
      const char c = m_text[m_pos];
      bool escaped = false;
      switch (c) {
      case '"':
        if (!string(escaped)) return false;
        break;
      case '{':
      case '[':
        if (depth + 1 >= max_depth) return false;
        if (c == '{')
          stack[depth / 64] |= std::uint64_t{1} << (depth % 64);
        else
          stack[depth / 64] &= ~(std::uint64_t{1} << (depth % 64));
        ++depth;
        ++m_pos;
        break;
      case '}':
      case ']': {
        if (depth == 0) return false;
        --depth;
        const bool object = (stack[depth / 64] >> (depth % 64)) & 1u;
        if (object != (c == '}')) return false;
        ++m_pos;
        break;
      }
      case ',':
      case ':':
        if (depth == 0) return false;
        ++m_pos;
        break;
      case ' ':
      case '\t':
      case '\n':
      case '\r':
        ++m_pos;
        break;
      default:
        scalar();
      }
    } while (depth > 0);
    return true;
  }

private:
  // Up to the next '"', '\\' or control character, or the end: sixteen bytes
  // at a time where SSE2 is there and they are (ids and long values are
  // most of a document's bytes).
  void skip_plain_text() noexcept {
    const std::size_t size = m_text.size();
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i control_max = _mm_set1_epi8(0x1f);
    while (size - m_pos >= 16) {
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(m_text.data() + m_pos));
      const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(b, control_max), b); // b <= 0x1f
      const __m128i special = _mm_or_si128(
          _mm_or_si128(_mm_cmpeq_epi8(b, quote), _mm_cmpeq_epi8(b, backslash)), control);
      const auto mask = static_cast<unsigned>(_mm_movemask_epi8(special));
      if (mask != 0) {
        m_pos += static_cast<std::size_t>(__builtin_ctz(mask));
        return;
      }
      m_pos += 16;
    }
#endif
    while (m_pos < size && !k_string_special[static_cast<unsigned char>(m_text[m_pos])]) ++m_pos;
  }

  // A number or a literal: up to the next separator (checked by the parse
  // of a value found, not here).
  void scalar() noexcept {
    while (m_pos < m_text.size()) {
      const char c = m_text[m_pos];
      if (c == ',' || c == '}' || c == ']' || c == ':' || c == '"' || c == '{' || c == '[' ||
          c == ' ' || c == '\t' || c == '\n' || c == '\r')
        return;
      ++m_pos;
    }
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
};

} // namespace

member_scan find_member(std::string_view text, std::string_view name) noexcept {
  member_scan out;
  scanner s(text);
  s.skip_space();
  if (!s.take('{')) return out;
  s.skip_space();
  std::size_t found_begin = npos, found_end = npos;
  if (!s.take('}')) {
    for (;;) {
      const std::size_t key_begin = s.pos();
      bool escaped = false;
      if (!s.string(escaped) || escaped) return out;
      const std::string_view key = text.substr(key_begin + 1, s.pos() - key_begin - 2);
      s.skip_space();
      if (!s.take(':')) return out;
      s.skip_space();
      const std::size_t value_begin = s.pos();
      if (!s.value()) return out;
      if (key == name) {
        found_begin = value_begin;
        found_end = s.pos();
      }
      s.skip_space();
      if (s.take('}')) break;
      if (!s.take(',')) return out;
      s.skip_space();
    }
  }
  s.skip_space();
  if (!s.at_end()) return out;
  if (found_begin == npos) {
    out.status = member_status::absent;
  } else {
    out.status = member_status::found;
    out.begin = found_begin;
    out.end = found_end;
  }
  return out;
}

} // namespace cdk::json
