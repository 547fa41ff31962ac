// The tokenizer of the X DevAPI expression language (see expr_parser.h).
//
// Design notes:
// - Tokens are views into the input: the lexer never allocates. Escapes in
//   quoted strings and identifiers are resolved later, only for tokens that
//   become values (see unquote()).
// - The lexer is pulled one token at a time and is a plain value (an offset
//   into the input), so the parser looks ahead by copying it.
// - Keywords are classified here once per word; words that are keywords only
//   in one place (cast types, interval units, ASC/DESC) are matched by text
//   where they occur, so they stay usable as field names elsewhere.
// - Positions are 0-based byte offsets into the input, as in the URI parser.
#pragma once

#include "cdk/foundation/error.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cdk::expr_lex {

enum class tok : std::uint8_t {
  end,
  word,    // identifier or keyword, see token::kw
  qword,   // `back-ticked` identifier
  string,  // 'single' or "double" quoted
  integer, // decimal digits
  hex,     // 0x1F, or X'1F'
  number,  // 1.5, .5, 1e3
  lparen,
  rparen,
  lsquare,
  rsquare,
  lcurly,
  rcurly,
  comma,
  dot,
  colon,
  qmark,
  dollar,
  star,
  dstar,
  plus,
  minus,
  slash,
  percent,
  hat,
  tilde,
  bang,
  amp,
  amp2,
  bar,
  bar2,
  shl,
  shr,
  eq,
  ne,
  lt,
  le,
  gt,
  ge,
  nse,    // <=>, MySQL's NULL-safe equality, which Mysqlx.Expr lacks
  arrow,  // ->
  arrow2, // ->>
};

// Words with a meaning in the grammar. The `reserved` ones cannot name a
// field, column or function unless back-ticked.
enum class kw : std::uint8_t {
  none,
  // reserved
  and_,
  or_,
  xor_,
  not_,
  is,
  in,
  like,
  rlike,
  regexp,
  between,
  true_,
  false_,
  null,
  div,
  mod,
  interval,
  cast,
  binary,
  // not reserved: keywords only where the grammar expects them
  overlaps,
  escape,
  as,
  asc,
  desc,
};

inline bool is_reserved(kw k) noexcept {
  return k != kw::none && k < kw::overlaps;
}

struct token {
  tok kind = tok::end;
  kw keyword = kw::none; // only for tok::word
  std::uint32_t pos = 0; // offset of the first byte
  std::uint32_t len = 0;
  bool escaped = false; // string/qword holds escapes or doubled quotes

  std::uint32_t end() const noexcept { return pos + len; }
};

class lexer {
public:
  explicit lexer(std::string_view input) noexcept : m_in(input) {}

  // Scans the next token. Bad input (unterminated quote, stray character)
  // sets error() and returns tok::end.
  token next() noexcept;

  std::string_view input() const noexcept { return m_in; }
  std::string_view text(const token& t) const noexcept { return m_in.substr(t.pos, t.len); }

  bool failed() const noexcept { return m_err_pos != npos; }
  std::size_t error_pos() const noexcept { return m_err_pos; }
  const char* error_what() const noexcept { return m_err_what; }

  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

private:
  token scan_word(std::uint32_t start) noexcept;
  token scan_number(std::uint32_t start) noexcept;
  token scan_hex_quoted(std::uint32_t start) noexcept;
  token scan_quoted(std::uint32_t start, tok kind) noexcept;
  token fail(std::size_t pos, const char* what) noexcept;

  std::string_view m_in;
  std::uint32_t m_pos = 0;
  std::size_t m_err_pos = npos;
  const char* m_err_what = nullptr;
};

// The value of a string or qword token: quotes removed, escapes resolved.
// Strings follow MySQL: \0 \b \n \r \t \Z \\ \' \" and a doubled quote; \%
// and \_ keep their backslash (they are LIKE escapes); any other \x is x.
// Back-ticked identifiers only know a doubled back-tick.
void unquote(std::string_view token_text, tok kind, bool escaped, std::string& out);

// ASCII case-insensitive match of a word against an upper-case literal.
bool word_is(std::string_view word, std::string_view upper) noexcept;

// A human-readable name for a token in error messages: 'AND', ')', end of input.
std::string describe(const lexer& lx, const token& t);

// Builds the parse error of the expression language:
//   <what> at position <pos>
//     <input, or a window of it around pos>
//     <caret under pos>
// Control characters are shown as spaces so the caret lines up.
error parse_error(std::string_view input, std::size_t pos, std::string_view what);

// Checks that the input is valid UTF-8; returns the offset of the first bad
// byte or npos.
std::size_t find_invalid_utf8(std::string_view input) noexcept;

} // namespace cdk::expr_lex
