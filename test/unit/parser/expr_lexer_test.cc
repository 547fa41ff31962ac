// The tokenizer and the limits: token kinds and spans, keyword classes,
// unquoting, UTF-8 checks, and the bounds on depth and length.
#include "cdk/parser/expr_parser.h"
#include "cdk/parser/lexer.h"
#include "mysqlx_crud.pb.h"
#include "mysqlx_expr.pb.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace {

using cdk::expr_lex::kw;
using cdk::expr_lex::lexer;
using cdk::expr_lex::tok;

std::vector<std::string> kinds(std::string_view input) {
  lexer lx(input);
  std::vector<std::string> out;
  for (;;) {
    const auto t = lx.next();
    if (t.kind == tok::end) break;
    out.emplace_back(lx.text(t));
  }
  return out;
}

TEST(ExprLexer, SplitsOperators) {
  EXPECT_EQ(kinds("a->>b->c-d"), (std::vector<std::string>{"a", "->>", "b", "->", "c", "-", "d"}));
  EXPECT_EQ(kinds("<<=<= >>>=<>!=!==="),
            (std::vector<std::string>{"<<", "=", "<=", ">>", ">=", "<>", "!=", "!=", "=="}));
  // <=> is one token, as in MySQL, so that the parser can name it.
  EXPECT_EQ(kinds("<=>=<=>>"), (std::vector<std::string>{"<=>", "=", "<=>", ">"}));
  EXPECT_EQ(kinds("&&&|||**.*"), (std::vector<std::string>{"&&", "&", "||", "|", "**", ".", "*"}));
  EXPECT_EQ(kinds("a.5 1.e3 1e+ 0x1fg"),
            (std::vector<std::string>{"a", ".5", "1.e3", "1", "e", "+", "0x1f", "g"}));
  EXPECT_EQ(kinds("X'65' x'1f' Xa x 'b'"),
            (std::vector<std::string>{"X'65'", "x'1f'", "Xa", "x", "'b'"}));
  EXPECT_EQ(kinds(" 'a''b' \"c\\\"\" `d``e` "),
            (std::vector<std::string>{"'a''b'", "\"c\\\"\"", "`d``e`"}));
}

TEST(ExprLexer, TokenKindsAndPositions) {
  lexer lx("  foo 12 1.5 0xA 'x' `y` :");
  const tok expected[] = {tok::word,   tok::integer, tok::number, tok::hex,
                          tok::string, tok::qword,   tok::colon,  tok::end};
  const std::uint32_t pos[] = {2, 6, 9, 13, 17, 21, 25, 26};
  for (std::size_t i = 0; i < std::size(expected); ++i) {
    const auto t = lx.next();
    EXPECT_EQ(t.kind, expected[i]) << i;
    EXPECT_EQ(t.pos, pos[i]) << i;
  }
  EXPECT_FALSE(lx.failed());
}

TEST(ExprLexer, Keywords) {
  const std::pair<const char*, kw> words[] = {{"and", kw::and_},
                                              {"OR", kw::or_},
                                              {"Xor", kw::xor_},
                                              {"NOT", kw::not_},
                                              {"is", kw::is},
                                              {"in", kw::in},
                                              {"like", kw::like},
                                              {"rlike", kw::rlike},
                                              {"regexp", kw::regexp},
                                              {"between", kw::between},
                                              {"true", kw::true_},
                                              {"false", kw::false_},
                                              {"null", kw::null},
                                              {"div", kw::div},
                                              {"mod", kw::mod},
                                              {"interval", kw::interval},
                                              {"cast", kw::cast},
                                              {"binary", kw::binary},
                                              {"overlaps", kw::overlaps},
                                              {"escape", kw::escape},
                                              {"as", kw::as},
                                              {"asc", kw::asc},
                                              {"desc", kw::desc},
                                              {"date", kw::none},
                                              {"a", kw::none},
                                              {"andx", kw::none},
                                              {"intervals", kw::none}};
  for (const auto& [w, k] : words) {
    lexer lx(w);
    EXPECT_EQ(lx.next().keyword, k) << w;
  }
  EXPECT_TRUE(cdk::expr_lex::is_reserved(kw::binary));
  EXPECT_FALSE(cdk::expr_lex::is_reserved(kw::overlaps));
  EXPECT_FALSE(cdk::expr_lex::is_reserved(kw::desc));
  EXPECT_FALSE(cdk::expr_lex::is_reserved(kw::none));
}

TEST(ExprLexer, Errors) {
  struct {
    const char* in;
    std::size_t pos;
    const char* what;
  } cases[] = {{"'abc", 0, "unterminated string"},
               {"a `b", 2, "unterminated identifier"},
               {"a #", 2, "unexpected character"},
               {"0x", 0, "expected hexadecimal digits after '0x'"},
               {"'\\", 0, "unterminated string"}};
  for (const auto& c : cases) {
    lexer lx(c.in);
    while (lx.next().kind != tok::end) {
    }
    EXPECT_TRUE(lx.failed()) << c.in;
    EXPECT_EQ(lx.error_pos(), c.pos) << c.in;
    EXPECT_STREQ(lx.error_what(), c.what) << c.in;
  }
}

TEST(ExprLexer, Unquote) {
  std::string out;
  cdk::expr_lex::unquote("'plain'", tok::string, false, out);
  EXPECT_EQ(out, "plain");
  cdk::expr_lex::unquote("'a''b\\'c\\\\d\\ne'", tok::string, true, out);
  EXPECT_EQ(out, "a'b'c\\d\ne");
  cdk::expr_lex::unquote("\"a\"\"b\"", tok::string, true, out);
  EXPECT_EQ(out, "a\"b");
  cdk::expr_lex::unquote("'\\0\\b\\r\\t\\Z\\%\\_\\q'", tok::string, true, out);
  EXPECT_EQ(out, std::string("\0\b\r\t\x1a\\%\\_q", 10));
  cdk::expr_lex::unquote("`a``b\\n`", tok::qword, true, out);
  EXPECT_EQ(out, "a`b\\n"); // no backslash escapes in names
}

TEST(ExprLexer, Utf8Validation) {
  using cdk::expr_lex::find_invalid_utf8;
  EXPECT_EQ(find_invalid_utf8("plain ascii"), lexer::npos);
  EXPECT_EQ(find_invalid_utf8("é ü € 𝄞"), lexer::npos);
  EXPECT_EQ(find_invalid_utf8("a\x80"), 1u);            // stray continuation byte
  EXPECT_EQ(find_invalid_utf8("ab\xc3"), 2u);           // truncated
  EXPECT_EQ(find_invalid_utf8("\xe0\x80\x80"), 0u);     // overlong
  EXPECT_EQ(find_invalid_utf8("\xf4\x90\x80\x80"), 0u); // past U+10FFFF
  EXPECT_EQ(find_invalid_utf8("\xc3\x28"), 0u);         // bad continuation
  EXPECT_EQ(find_invalid_utf8("\xf8\x88\x80\x80\x80"), 0u);
}

// --- limits ----------------------------------------------------------------

cdk::status parse(const std::string& text) {
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  return cdk::parse_expr(text, cdk::expr_mode::document, ph, e);
}

std::string first_line(const cdk::status& st) {
  return st.err().message.substr(0, st.err().message.find('\n'));
}

const std::string k_too_deep = "expression nested deeper than 100 levels";

TEST(ExprLimits, NestingWithinTheLimitParses) {
  const std::size_t n = cdk::max_expr_depth - 2;
  EXPECT_TRUE(parse(std::string(n, '(') + "a" + std::string(n, ')')).ok());
  EXPECT_TRUE(parse(std::string(n, '!') + "a").ok());
  std::string chain = "a";
  for (std::size_t i = 0; i < n; ++i) chain += " + a";
  EXPECT_TRUE(parse(chain).ok());
}

TEST(ExprLimits, DeepParenthesesAreAnErrorNotACrash) {
  const cdk::status st = parse(std::string(100000, '(') + "a" + std::string(100000, ')'));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(first_line(st), k_too_deep + " at position 100");
}

TEST(ExprLimits, DeepTreesFromFlatInputAreRejected) {
  // A long left-associative chain builds a deep tree without deep recursion.
  std::string chain = "a";
  for (int i = 0; i < 5000; ++i) chain += " OR a";
  const cdk::status st = parse(chain);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(first_line(st).substr(0, k_too_deep.size()), k_too_deep);
}

TEST(ExprLimits, EveryRecursivePathIsBounded) {
  const std::string deep[] = {
      std::string(50000, '-') + "a",
      std::string(50000, '~') + "a",
      [] {
        std::string s;
        for (int i = 0; i < 20000; ++i) s += "NOT ";
        return s + "a";
      }(),
      [] {
        std::string s;
        for (int i = 0; i < 20000; ++i) s += "BINARY ";
        return s + "a";
      }(),
      std::string(50000, '[') + std::string(50000, ']'),
      [] {
        std::string s;
        for (int i = 0; i < 20000; ++i) s += "{'a':";
        return s + "1" + std::string(20000, '}');
      }(),
      [] {
        std::string s;
        for (int i = 0; i < 20000; ++i) s += "f(";
        return s + std::string(20000, ')');
      }(),
      [] {
        std::string s;
        for (int i = 0; i < 20000; ++i) s += "CAST(";
        return s;
      }(),
      [] {
        std::string s = "a";
        for (int i = 0; i < 20000; ++i) s += " BETWEEN a AND a";
        return s;
      }(),
      [] {
        std::string s = "d";
        for (int i = 0; i < 20000; ++i) s += " + INTERVAL d";
        return s;
      }(),
      [] {
        std::string s;
        for (int i = 0; i < 20000; ++i) s += "INTERVAL ";
        return s;
      }(),
  };
  for (const std::string& input : deep) {
    const cdk::status st = parse(input);
    ASSERT_FALSE(st.ok()) << input.substr(0, 20);
    EXPECT_EQ(first_line(st).substr(0, k_too_deep.size()), k_too_deep) << input.substr(0, 20);
  }
}

TEST(ExprLimits, OverlongInput) {
  const cdk::status st = parse(std::string(cdk::max_expr_length + 1, ' '));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(first_line(st), "expression longer than 16777216 bytes at position 0");
}

TEST(ExprLimits, LargeFlatInputsAreFine) {
  // Width is not depth: a long IN list or array parses.
  std::string in = "a IN (0";
  std::string arr = "[0";
  for (int i = 1; i < 20000; ++i) {
    in += ", " + std::to_string(i);
    arr += ", " + std::to_string(i);
  }
  EXPECT_TRUE(parse(in + ")").ok());
  EXPECT_TRUE(parse(arr + "]").ok());
  EXPECT_TRUE(parse("'" + std::string(1 << 20, 'x') + "'").ok());
}

} // namespace
