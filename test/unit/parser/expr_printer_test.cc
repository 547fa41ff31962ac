// The canonical printer: exact text for parsed input (fewest parentheses,
// upper-case keywords), trees built by hand as other connectors send them,
// and the text helpers an Expr -> SQL renderer shares.
#include "cdk/parser/expr_dump.h"
#include "cdk/parser/expr_parser.h"
#include "cdk/parser/expr_printer.h"
#include "cdk/parser/expr_walk.h"
#include "mysqlx_expr.pb.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <ostream>
#include <string>

namespace {

using cdk::expr_mode;
using Mysqlx::Datatypes::Scalar;
using Mysqlx::Expr::Expr;

struct print_case {
  const char* input;
  const char* printed;
  expr_mode mode = expr_mode::document;
};

std::ostream& operator<<(std::ostream& os, const print_case& c) {
  return os << c.input;
}

constexpr expr_mode T = expr_mode::table;

const print_case k_prints[] = {
    {"a==b", "a = b"},
    {"a<>b", "a != b"},
    {"a && b || !c", "a AND b OR !c"},
    {"not a", "NOT a"},
    {"a xor b", "a XOR b"},
    {"((a))", "a"},
    {"(a + b) + c", "a + b + c"},
    {"a + (b + c)", "a + (b + c)"},
    {"(a * b) + c", "a * b + c"},
    {"a * (b + c)", "a * (b + c)"},
    {"(a OR b) AND (c OR d)", "(a OR b) AND (c OR d)"},
    {"(NOT a) = b", "(NOT a) = b"},
    {"NOT (a = b)", "NOT a = b"},
    {"-(a)", "-a"},
    {"-(1)", "-(1)"},
    {"-(-1)", "-(-1)"},
    {"-(-a)", "- -a"},
    {"+(+a)", "+ +a"},
    {"-(a * b)", "-(a * b)"},
    {"(-a) * b", "-a * b"},
    {"~(~a)", "~~a"},
    {"a mod b", "a % b"},
    {"a div b", "a DIV b"},
    {"a in (1,2)", "a IN (1, 2)"},
    {"a not in (1)", "a NOT IN (1)"},
    {"a in [1,2]", "a IN [1, 2]"},
    {"(a = b) IN c", "(a = b) IN c"},
    // A NOT leading the operand of IN stays bare: "(NOT b) / c" would read
    // as an IN list (found by fuzz_expr).
    {"a in not b", "a IN NOT b"},
    {"a in not b / c", "a IN NOT b / c"},
    {"a in not b<<c", "a IN NOT b << c"},
    {"a in not (b + c) ^ d * e", "a IN NOT (b + c) ^ d * e"},
    {"a in b / not c", "a IN b / (NOT c)"},
    {"a like 'x' escape '!'", "a LIKE 'x' ESCAPE '!'"},
    {"a rlike 'x'", "a REGEXP 'x'"},
    {"a not between 1 and 2", "a NOT BETWEEN 1 AND 2"},
    {"a between (1 = 1) and 2", "a BETWEEN (1 = 1) AND 2"},
    {"a between 1 and (b = 2)", "a BETWEEN 1 AND (b = 2)"},
    {"a is not null", "a IS NOT NULL"},
    {"(a is null) is true", "a IS NULL IS TRUE"},
    {"d + interval 1 day", "d + INTERVAL 1 DAY"},
    {"interval 1 day + d", "d + INTERVAL 1 DAY"},
    {"d - interval (1 + 2) hour", "d - INTERVAL 1 + 2 HOUR"},
    {"cast(a as signed int)", "CAST(a AS SIGNED INTEGER)"},
    {"binary a", "CAST(a AS BINARY)"},
    {"'it''s'", "'it\\'s'"},
    {"\"a\\\\b\"", "'a\\\\b'"},
    {"1e3", "1000.0"},
    {"0.1", "0.1"},
    {"1e-7", "1e-07"},
    {"0x10", "16"},
    {"TRUE", "TRUE"},
    {"null", "NULL"},
    {"{\"a\":1,\"b\":[1,2]}", "{'a': 1, 'b': [1, 2]}"},
    {"$", "$"},
    {"$.a.b", "a.b"},
    {"$.`not`.b", "$.not.b"},
    {"`a b`", "$.`a b`"},
    {"a.\"b c\"", "a.`b c`"},
    {"a.`1x`", "a.`1x`"},
    {"$[0]", "$[0]"},
    {"$**.a", "$**.a"},
    {"a[*].b.*", "a[*].b.*"},
    {"`in`", "$.in"},
    {"date", "date"},
    {"f(a,b)", "f(a, b)"},
    {"`my func`(1)", "`my func`(1)"},
    {"`not`(1)", "`not`(1)"},
    {"s.f()", "s.f()"},
    {"count(*)", "count(*)"},
    {"`a b`", "`a b`", T},
    {"`select`", "select", T},
    {"`or`", "`or`", T},
    {"t.c", "t.c", T},
    {"s.`t t`.c", "s.`t t`.c", T},
    {"c->$.a", "c->'$.a'", T},
    {"c->'$.`x y`'", "c->'$.`x y`'", T},
    {"c->>'$**.a'", "c->>'$**.a'", T},
    {"c->'$.`it''s`'", "c->'$.`it\\'s`'", T},
    {"JSON_UNQUOTE(c->'$.a')", "c->>'$.a'", T},
};

class ExprPrint : public testing::TestWithParam<print_case> {};

TEST_P(ExprPrint, CanonicalText) {
  const print_case& c = GetParam();
  cdk::placeholder_map ph;
  Expr e;
  const cdk::status st = cdk::parse_expr(c.input, c.mode, ph, e);
  ASSERT_TRUE(st.ok()) << st.err().message;
  const std::string printed = cdk::print_expr(e, &ph);
  EXPECT_EQ(printed, c.printed);
  Expr again;
  ASSERT_TRUE(cdk::parse_expr(printed, c.mode, ph, again).ok()) << printed;
  EXPECT_EQ(again.SerializeAsString(), e.SerializeAsString());
}

INSTANTIATE_TEST_SUITE_P(Printer, ExprPrint, testing::ValuesIn(k_prints));

// --- trees the parser does not build ---------------------------------------

Expr literal(Scalar::Type t) {
  Expr e;
  e.set_type(Expr::LITERAL);
  e.mutable_literal()->set_type(t);
  return e;
}

Expr op(const char* name, std::initializer_list<Expr> params) {
  Expr e;
  e.set_type(Expr::OPERATOR);
  e.mutable_operator_()->set_name(name);
  for (const Expr& p : params) *e.mutable_operator_()->add_param() = p;
  return e;
}

Expr uint(std::uint64_t v) {
  Expr e = literal(Scalar::V_UINT);
  e.mutable_literal()->set_v_unsigned_int(v);
  return e;
}

Expr ident(const char* name) {
  Expr e;
  e.set_type(Expr::IDENT);
  auto* item = e.mutable_identifier()->add_document_path();
  item->set_type(Mysqlx::Expr::DocumentPathItem::MEMBER);
  item->set_value(name);
  return e;
}

TEST(ExprPrintForeign, ScalarsOtherConnectorsSend) {
  Expr e = literal(Scalar::V_SINT);
  e.mutable_literal()->set_v_signed_int(5); // Connector/J sends positive V_SINT
  EXPECT_EQ(cdk::print_expr(e), "5");
  e = literal(Scalar::V_FLOAT); // Node.js sends V_FLOAT for short decimals
  e.mutable_literal()->set_v_float(1.5f);
  EXPECT_EQ(cdk::print_expr(e), "1.5");
  e = literal(Scalar::V_OCTETS);
  e.mutable_literal()->mutable_v_octets()->set_value("x'y");
  EXPECT_EQ(cdk::print_expr(e), "'x\\'y'");
  e = literal(Scalar::V_DOUBLE);
  e.mutable_literal()->set_v_double(std::numeric_limits<double>::infinity());
  EXPECT_EQ(cdk::print_expr(e), "inf");
  e = literal(Scalar::V_STRING);
  e.mutable_literal()->mutable_v_string()->set_value(std::string("a\0b\x1a", 4));
  EXPECT_EQ(cdk::print_expr(e), "'a\\0b\\Z'");
}

TEST(ExprPrintForeign, SignOfANumberKeepsParentheses) {
  // sign_minus(literal) must not print as a negative literal.
  EXPECT_EQ(cdk::print_expr(op("sign_minus", {uint(5)})), "-(5)");
  EXPECT_EQ(cdk::print_expr(op("sign_plus", {uint(5)})), "+(5)");
  Expr neg = literal(Scalar::V_SINT);
  neg.mutable_literal()->set_v_signed_int(-5);
  EXPECT_EQ(cdk::print_expr(op("^", {neg, uint(2)})), "-5 ^ 2");
  EXPECT_EQ(cdk::print_expr(op("sign_minus", {neg})), "-(-5)");
}

TEST(ExprPrintForeign, UnknownOperatorsAndBadShapesPrintAsCalls) {
  EXPECT_EQ(cdk::print_expr(op("frobnicate", {uint(1), uint(2)})), "`frobnicate`(1, 2)");
  EXPECT_EQ(cdk::print_expr(op("+", {uint(1)})), "`+`(1)");
  EXPECT_EQ(cdk::print_expr(op("between", {uint(1), uint(2)})), "`between`(1, 2)");
  EXPECT_EQ(cdk::print_expr(op("cast", {uint(1), uint(2)})), "`cast`(1, 2)");
  EXPECT_EQ(cdk::print_expr(op("is", {uint(1), ident("x")})), "`is`(1, x)");
  EXPECT_EQ(cdk::print_expr(op("default", {})), "DEFAULT");
  EXPECT_EQ(cdk::print_expr(op("*", {})), "*");
  EXPECT_EQ(cdk::print_expr(op("in", {ident("a")})), "`in`(a)");
}

TEST(ExprPrintForeign, MissingTypeAndVariable) {
  Expr e;
  EXPECT_EQ(cdk::print_expr(e), "<invalid expr>");
  EXPECT_EQ(cdk::dump_expr(e), "(invalid)");
  e.set_type(Expr::VARIABLE);
  e.set_variable("v");
  EXPECT_EQ(cdk::print_expr(e), "@v");
  EXPECT_EQ(cdk::dump_expr(e), "(var v)");
}

TEST(ExprPrintForeign, PlaceholderWithoutNames) {
  Expr e;
  e.set_type(Expr::PLACEHOLDER);
  e.set_position(7);
  EXPECT_EQ(cdk::print_expr(e), ":7");
  cdk::placeholder_map ph;
  ph.assign("a-b"); // not a word: falls back to the position
  e.set_position(0);
  EXPECT_EQ(cdk::print_expr(e, &ph), ":0");
}

// --- helpers shared with SQL renderers -------------------------------------

TEST(ExprWalkHelpers, JsonPathIsMysqlSyntax) {
  cdk::placeholder_map ph;
  Expr e;
  ASSERT_TRUE(
      cdk::parse_expr("$.a.`b c`[3].*[*]**.`say \"hi\"\\`", expr_mode::document, ph, e).ok());
  std::string path;
  cdk::expr_walk::append_json_path(e.identifier(), path);
  EXPECT_EQ(path, "$.a.\"b c\"[3].*[*]**.\"say \\\"hi\\\"\\\\\"");
  Mysqlx::Expr::ColumnIdentifier doc;
  doc.add_document_path()->set_type(Mysqlx::Expr::DocumentPathItem::MEMBER);
  path.clear();
  cdk::expr_walk::append_json_path(doc, path);
  EXPECT_EQ(path, "$");
  doc.mutable_document_path(0)->set_value("\n");
  path.clear();
  cdk::expr_walk::append_json_path(doc, path);
  EXPECT_EQ(path, "$.\"\\u000a\"");
}

TEST(ExprWalkHelpers, NamesAndLiterals) {
  EXPECT_TRUE(cdk::expr_walk::is_plain_name("abc_1"));
  EXPECT_TRUE(cdk::expr_walk::is_plain_name("desc"));
  EXPECT_FALSE(cdk::expr_walk::is_plain_name("not"));
  EXPECT_FALSE(cdk::expr_walk::is_plain_name("1a"));
  EXPECT_FALSE(cdk::expr_walk::is_plain_name(""));
  EXPECT_TRUE(cdk::expr_walk::is_word_name("not"));
  std::string s;
  cdk::expr_walk::append_backticked("a`b", s);
  EXPECT_EQ(s, "`a``b`");
  s.clear();
  cdk::expr_walk::append_double(2.0, s);
  EXPECT_EQ(s, "2.0");
  s.clear();
  cdk::expr_walk::append_double(-0.0, s);
  EXPECT_EQ(s, "-0.0");
  s.clear();
  cdk::expr_walk::append_double(std::nan(""), s);
  EXPECT_EQ(s, "nan");
  s.clear();
  cdk::expr_walk::append_string_literal("\t'\\\r\n\b", s);
  EXPECT_EQ(s, "'\\t\\'\\\\\\r\\n\\b'");
}

TEST(ExprWalkHelpers, BindingStrength) {
  using cdk::expr_ops::prec;
  Expr neg = literal(Scalar::V_DOUBLE);
  neg.mutable_literal()->set_v_double(-1.0);
  EXPECT_EQ(cdk::expr_walk::binding(neg), prec::unary);
  EXPECT_EQ(cdk::expr_walk::binding(uint(1)), prec::atom);
  EXPECT_EQ(cdk::expr_walk::binding(op("||", {uint(1), uint(2)})), prec::or_);
  EXPECT_EQ(cdk::expr_walk::binding(op("nope", {})), prec::atom);
}

TEST(ExprOps, TableIsSortedAndComplete) {
  // Every name the X Plugin accepts (expr_generator.cc) is found, with the
  // shape the printer and SQL renderers rely on.
  const char* names[] = {"!",
                         "!=",
                         "%",
                         "&",
                         "&&",
                         "*",
                         "+",
                         "-",
                         "/",
                         "<",
                         "<<",
                         "<=",
                         "==",
                         ">",
                         ">=",
                         ">>",
                         "^",
                         "between",
                         "cast",
                         "cont_in",
                         "date_add",
                         "date_sub",
                         "default",
                         "div",
                         "in",
                         "is",
                         "is_not",
                         "like",
                         "not",
                         "not_between",
                         "not_cont_in",
                         "not_in",
                         "not_like",
                         "not_overlaps",
                         "not_regexp",
                         "overlaps",
                         "regexp",
                         "sign_minus",
                         "sign_plus",
                         "xor",
                         "|",
                         "||",
                         "~"};
  for (const char* n : names) {
    const auto* info = cdk::expr_ops::find_op(n);
    ASSERT_NE(info, nullptr) << n;
    EXPECT_EQ(info->name, n);
  }
  EXPECT_EQ(cdk::expr_ops::find_op("=="), cdk::expr_ops::find_op("=="));
  EXPECT_EQ(cdk::expr_ops::find_op("="), nullptr);
  EXPECT_EQ(cdk::expr_ops::find_op("and"), nullptr);
  EXPECT_EQ(cdk::expr_ops::find_op(""), nullptr);
  EXPECT_TRUE(cdk::expr_ops::find_op("not_like")->negated);
  EXPECT_EQ(cdk::expr_ops::find_op("cont_in")->form, cdk::expr_ops::shape::cont_in);
  EXPECT_TRUE(cdk::expr_ops::is_interval_unit("DAY_MICROSECOND"));
  EXPECT_TRUE(cdk::expr_ops::is_interval_unit("YEAR_MONTH"));
  EXPECT_FALSE(cdk::expr_ops::is_interval_unit("day"));
  EXPECT_FALSE(cdk::expr_ops::is_interval_unit("DAYS"));
}

} // namespace
