// Bad expressions: each must fail with client_errc::parse, say what was
// expected at which 0-based byte position, and show a caret under it.
#include "cdk/parser/expr_parser.h"
#include "mysqlx_crud.pb.h"
#include "mysqlx_expr.pb.h"

#include <gtest/gtest.h>
#include <ostream>
#include <string>

namespace {

using cdk::expr_mode;

struct error_case {
  const char* input;
  const char* what; // the message's first line without " at position N"
  std::size_t pos;
  expr_mode mode = expr_mode::document;
};

std::ostream& operator<<(std::ostream& os, const error_case& c) {
  return os << (c.mode == expr_mode::table ? "[table] " : "[doc] ") << c.input;
}

constexpr expr_mode T = expr_mode::table;

const error_case k_errors[] = {
    {"", "expected an expression", 0},
    {"   ", "expected an expression", 3},
    {"(a", "expected ')'", 2},
    {"(a = 1 AND (b = 2)", "expected ')'", 18},
    {"f(a, b", "expected ')'", 6},
    {"f(a b)", "expected ')'", 4},
    {"f(a,)", "expected an expression", 4},
    {"a b", "unexpected 'b'", 2},
    {"a = 1 b", "unexpected 'b'", 6},
    {"a = ", "expected an expression", 4},
    {"a = )", "expected an expression", 4},
    {"= a", "expected an expression", 0},
    {"a AND", "expected an expression", 5},
    {"a OR OR b", "expected an expression", 5},
    {"AND", "expected an expression", 0},
    {"IN", "expected an expression", 0},
    {"a = AND b", "expected an expression", 4},
    // What MySQL has and the expression language does not: named, with the
    // words Connector/C++ uses ("not supported yet").
    {"a <=> b", "Operator <=> not supported yet", 2},
    {"a = 1 AND b <=> NULL", "Operator <=> not supported yet", 12},
    {"a SOUNDS LIKE 'x'", "Operator SOUNDS LIKE not supported yet", 2},
    {"a sounds like b", "Operator SOUNDS LIKE not supported yet", 2, T},
    {"1 MEMBER OF(a)", "Operator MEMBER OF not supported yet", 2},
    {"'x' member of (c->'$.a')", "Operator MEMBER OF not supported yet", 4, T},
    {"CHAR(77, 121 USING utf8mb4)", "USING clause inside function CHAR() not supported yet", 13},
    {"TRIM(BOTH 'x' FROM a)",
     "LEADING, TRAILING or BOTH clause inside function TRIM() not supported yet", 5},
    {"trim(leading 'x' FROM a)",
     "LEADING, TRAILING or BOTH clause inside function TRIM() not supported yet", 5},
    {"TRIM(TRAILING FROM a)",
     "LEADING, TRAILING or BOTH clause inside function TRIM() not supported yet", 5},
    {"TRIM('x' FROM a)", "FROM clause inside function TRIM() not supported yet", 9},
    {"CASE WHEN a THEN 1 ELSE 2 END", "CASE expression not supported yet", 0},
    {"CASE a WHEN 1 THEN 'x' END", "CASE expression not supported yet", 0},
    {"1 + case 'x' when a then b end", "CASE expression not supported yet", 4, T},
    {"MATCH(a, b) AGAINST('x')", "MATCH ... AGAINST not supported yet", 0, T},
    {"x = 1 AND match (a) against ('x' IN BOOLEAN MODE)", "MATCH ... AGAINST not supported yet", 10,
     T},
    {"POSITION(a b)", "expected IN in POSITION(substr IN str)", 11},
    {"POSITION(a || 'x' IN b)", "expected IN in POSITION(substr IN str)", 11},
    {"POSITION(a IN b c)", "expected ')' after POSITION(... IN ...)", 16},
    {"POSITION()", "expected an expression", 9},
    {"'abc", "unterminated string", 0},
    {"a = \"abc", "unterminated string", 4},
    {"'a\\'", "unterminated string", 0},
    {"`abc", "unterminated identifier", 0},
    {"``", "empty name", 0},
    {"a # b", "unexpected character", 2},
    {"a @ b", "unexpected character", 2},
    {"a ; b", "unexpected character", 2},
    {"a = \x01", "unexpected character", 4},
    {"18446744073709551616", "integer out of range", 0},
    {"-9223372036854775809", "integer out of range", 1},
    {"0x10000000000000000", "integer out of range", 0},
    {"1e400", "number out of range", 0},
    {"1e-400", "number out of range", 0},
    {"0x", "expected hexadecimal digits after '0x'", 0},
    {"0xg", "expected hexadecimal digits after '0x'", 0},
    {"a + X''", "expected hexadecimal digits in X'...'", 4},
    {"X'6g'", "expected ' after the hexadecimal digits", 0},
    {"123abc", "unexpected 'abc'", 3},
    {"a[", "expected an array index or '*' after '['", 2},
    {"a[x]", "expected an array index or '*' after '['", 2},
    {"a[-1]", "expected an array index or '*' after '['", 2},
    {"a[0", "expected ']'", 3},
    {"a[4294967296]", "array index out of range", 2},
    {"a.", "expected a member name or '*' after '.'", 2},
    {"a.[0]", "expected a member name or '*' after '.'", 2},
    {"a.1", "unexpected '.1'", 1},
    {"a**", "a document path cannot end with '**'", 1},
    {"$**", "a document path cannot end with '**'", 1},
    {"a.b**", "a document path cannot end with '**'", 3},
    {"a****.b", "'**' cannot follow '**' in a document path", 3},
    {"a->'$.b'", "'->' needs a column: table mode only", 1},
    {"a ->> '$.x'", "'->>' needs a column: table mode only", 2},
    {"a.b.c(1)", "unexpected '('", 5},
    {"f(a)(b)", "unexpected '('", 4},
    {"a IS", "expected NOT, NULL, TRUE or FALSE after IS", 4},
    {"a IS 1", "expected NOT, NULL, TRUE or FALSE after IS", 5},
    {"a IS NOT", "expected NULL, TRUE or FALSE after IS NOT", 8},
    {"a IS NOT 'x'", "expected NULL, TRUE or FALSE after IS NOT", 9},
    {"a NOT IS NULL", "expected IN, LIKE, BETWEEN, REGEXP or OVERLAPS after NOT", 6},
    {"a NOT b", "expected IN, LIKE, BETWEEN, REGEXP or OVERLAPS after NOT", 6},
    {"a IN ()", "expected an expression", 6},
    {"a IN (1,", "expected an expression", 8},
    {"a IN (1 2)", "expected ')'", 8},
    {"a IN", "expected an expression", 4},
    {"a LIKE", "expected an expression", 6},
    {"a LIKE 'x' ESCAPE", "expected an expression", 17},
    {"a LIKE 'x' LIKE 'y'", "unexpected 'LIKE'", 11},
    {"a BETWEEN 1", "expected AND in BETWEEN ... AND ...", 11},
    {"a BETWEEN 1 OR 2", "expected AND in BETWEEN ... AND ...", 12},
    {"a BETWEEN 1 AND", "expected an expression", 15},
    {"a REGEXP", "expected an expression", 8},
    {"a OVERLAPS", "expected an expression", 10},
    {"d + INTERVAL 1", "expected an interval unit (MICROSECOND, SECOND, ..., DAY_HOUR, YEAR_MONTH)",
     14},
    {"d + INTERVAL 1 DAYS",
     "expected an interval unit (MICROSECOND, SECOND, ..., DAY_HOUR, YEAR_MONTH)", 15},
    {"d + INTERVAL 1 'DAY'",
     "expected an interval unit (MICROSECOND, SECOND, ..., DAY_HOUR, YEAR_MONTH)", 15},
    {"INTERVAL 1 DAY", "expected '+' after INTERVAL ... unit", 14},
    {"DATE_ADD(d, INTERVAL 1 DAY, 2)", "expected ')'", 26},
    {"DATE_ADD(d, INTERVAL 1)",
     "expected an interval unit (MICROSECOND, SECOND, ..., DAY_HOUR, YEAR_MONTH)", 22},
    {"f(d, INTERVAL 1 DAY)", "expected '+' after INTERVAL ... unit", 19},
    {"INTERVAL 1 DAY - d", "expected '+' after INTERVAL ... unit", 15},
    {"a * INTERVAL 1 DAY", "expected an expression (INTERVAL only follows '+' or '-')", 4},
    {"CAST", "expected '(' after CAST", 4},
    {"CAST a", "expected '(' after CAST", 5},
    {"CAST(a)", "expected AS in CAST(... AS type)", 6},
    {"CAST(a AS)",
     "expected a cast type (SIGNED, UNSIGNED, CHAR, BINARY, DECIMAL, DATE, DATETIME, "
     "TIME or JSON)",
     9},
    {"CAST(a AS float)",
     "expected a cast type (SIGNED, UNSIGNED, CHAR, BINARY, DECIMAL, DATE, "
     "DATETIME, TIME or JSON)",
     10},
    {"CAST(a AS CHAR(x))", "expected a length", 15},
    {"CAST(a AS DECIMAL(10,))", "expected a scale", 21},
    {"CAST(a AS CHAR(5, 2))", "expected ')'", 16},
    {"CAST(a AS SIGNED", "expected ')'", 16},
    {"{", "expected a key", 1},
    {"{1: 1}", "expected a key", 1},
    {"{\"a\" 1}", "expected ':'", 5},
    {"{\"a\": 1", "expected '}'", 7},
    {"{\"a\": 1,}", "expected a key", 8},
    {"{'': 1}", "empty key in a JSON object", 1},
    {"[1, 2", "expected ']'", 5},
    {"[1,,2]", "expected an expression", 3},
    {":", "expected a placeholder name after ':'", 1},
    {": a", "expected a placeholder name after ':'", 1},
    {":'a'", "expected a placeholder name after ':'", 1},
    {"a = :", "expected a placeholder name after ':'", 5},
    {"!", "expected an expression", 1},
    {"-", "expected an expression", 1},
    {"NOT", "expected an expression", 3},
    {"a = \xff", "invalid UTF-8", 4},
    {"'\xc3'", "invalid UTF-8", 1},
    {"'\xed\xa0\x80'", "invalid UTF-8", 1}, // a surrogate
    {"'\xc0\xaf'", "invalid UTF-8", 1},     // overlong
    {"`a`.`b`.`c`.d", "unexpected '.'", 11, T},
    {"s.t.c.d", "unexpected '.'", 5, T},
    {"a[0]", "unexpected '['", 1, T},
    {"$.a", "expected a column name", 0, T},
    {"**.a", "expected a column name", 0, T},
    {"t.", "expected a name after '.'", 2, T},
    {"col->", "expected a JSON path ('$...') after '->'", 5, T},
    {"col->a", "expected a JSON path ('$...') after '->'", 5, T},
    {"col->'a'", "expected '$' to start a JSON path", 6, T},
    {"col->''", "expected '$' to start a JSON path", 6, T},
    {"col->'$.'", "expected a member name or '*' after '.'", 8, T},
    {"col->'$.a b'", "expected the end of the JSON path", 10, T},
    {"col->'$.a**'", "a document path cannot end with '**'", 9, T},
    {"col->'$[x]'", "expected an array index or '*' after '['", 8, T},
};

class ExprError : public testing::TestWithParam<error_case> {};

TEST_P(ExprError, ReportsPositionAndCaret) {
  const error_case& c = GetParam();
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  const cdk::status st = cdk::parse_expr(c.input, c.mode, ph, e);
  ASSERT_FALSE(st.ok()) << "parsed, but should not";
  EXPECT_EQ(st.err().code, cdk::client_errc::parse);
  EXPECT_EQ(st.err().origin, cdk::error_origin::client);
  const std::string& msg = st.err().message;
  const std::string first_line = msg.substr(0, msg.find('\n'));
  EXPECT_EQ(first_line, std::string(c.what) + " at position " + std::to_string(c.pos));
  // Line 3 has the caret under the position (inputs here are short, so no
  // window, and ASCII up to the position, so one column per byte).
  const std::size_t caret_line = msg.rfind('\n');
  ASSERT_NE(caret_line, std::string::npos);
  EXPECT_EQ(msg.substr(caret_line + 1), std::string(2 + c.pos, ' ') + "^");
  // A failed parse leaves no placeholder behind.
  EXPECT_TRUE(ph.empty());
}

INSTANTIATE_TEST_SUITE_P(Errors, ExprError, testing::ValuesIn(k_errors));

TEST(ExprErrorFormat, ShowsInputAndCaret) {
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  const cdk::status st = cdk::parse_expr("(a = 1 AND (b = 2)", cdk::expr_mode::document, ph, e);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.err().message, "expected ')' at position 18\n"
                              "  (a = 1 AND (b = 2)\n"
                              "                    ^");
}

TEST(ExprErrorFormat, LongInputShowsAWindow) {
  const std::string input = std::string(100, 'a') + " = = " + std::string(100, 'b');
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  const cdk::status st = cdk::parse_expr(input, cdk::expr_mode::document, ph, e);
  ASSERT_FALSE(st.ok());
  const std::string& msg = st.err().message;
  EXPECT_EQ(msg.substr(0, msg.find('\n')), "expected an expression at position 103");
  const std::string line2 = msg.substr(msg.find('\n') + 1, msg.rfind('\n') - msg.find('\n') - 1);
  EXPECT_EQ(line2, "  ..." + std::string(37, 'a') + " = = " + std::string(28, 'b') + "...");
  EXPECT_EQ(msg.substr(msg.rfind('\n') + 1), std::string(2 + 3 + 40, ' ') + "^");
}

TEST(ExprErrorFormat, ControlCharactersDoNotBreakTheCaretLine) {
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  const cdk::status st = cdk::parse_expr("a\n=\t)", cdk::expr_mode::document, ph, e);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.err().message, "expected an expression at position 4\n"
                              "  a = )\n"
                              "      ^");
}

TEST(ExprErrorFormat, CaretCountsCharactersNotBytes) {
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  const cdk::status st = cdk::parse_expr("'é' = )", cdk::expr_mode::document, ph, e);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.err().message, "expected an expression at position 7\n"
                              "  'é' = )\n"
                              "        ^");
}

TEST(ExprErrorFormat, LongTokensAreShortenedInMessages) {
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  const std::string input = "a " + std::string(40, 'x');
  const cdk::status st = cdk::parse_expr(input, cdk::expr_mode::document, ph, e);
  ASSERT_FALSE(st.ok());
  const std::string& msg = st.err().message;
  EXPECT_EQ(msg.substr(0, msg.find('\n')),
            "unexpected '" + std::string(24, 'x') + "...' at position 2");
}

TEST(ExprErrorFormat, FailedParseKeepsEarlierPlaceholders) {
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  ASSERT_TRUE(cdk::parse_expr("a = :x", cdk::expr_mode::document, ph, e).ok());
  EXPECT_FALSE(cdk::parse_expr("b = :y AND", cdk::expr_mode::document, ph, e).ok());
  ASSERT_EQ(ph.size(), 1u);
  EXPECT_EQ(ph.name(0), "x");
  EXPECT_FALSE(ph.find("y").has_value());
}

} // namespace

namespace {

// Bytes that are not UTF-8 (0xFF) and NUL bytes used to be printed raw in
// the message and the window; now the window shows '?' or a space (one
// column each) and a quoted token spells them \xNN.
TEST(ExprErrorFormat, BytesThatAreNotTextAreNeverPrintedRaw) {
  using namespace std::string_literals;
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  const cdk::status st = cdk::parse_expr("a = \xff\xfe = \0b"s, cdk::expr_mode::document, ph, e);
  ASSERT_FALSE(st.ok());
  const std::string& msg = st.err().message;
  EXPECT_EQ(msg.find('\xff'), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\0'), std::string::npos) << msg;
  const cdk::status tok = cdk::parse_expr("a `x\x01\xff`"s, cdk::expr_mode::table, ph, e);
  ASSERT_FALSE(tok.ok());
  EXPECT_EQ(tok.err().message.find('\xff'), std::string::npos) << tok.err().message;
  EXPECT_EQ(tok.err().message.find('\x01'), std::string::npos) << tok.err().message;
}

} // namespace
