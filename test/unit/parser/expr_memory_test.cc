// What the parser keeps between parses and what it writes over: the
// per-thread node vector is released after a very large input, and a reused
// message loses what the new tree does not have, unknown fields included.
#include "cdk/parser/expr_parser.h"
#include "mysqlx_expr.pb.h"

#include <atomic>
#include <gtest/gtest.h>
#include <string>

extern std::atomic<long> g_live_bytes; // expr_entry_test.cc

namespace {

using cdk::expr_mode;

// Parses into a fresh message that is gone on return, leaving only what the
// parser itself keeps.
void parse_and_drop(const std::string& text) {
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  ASSERT_TRUE(cdk::parse_expr(text, expr_mode::document, ph, e).ok());
}

TEST(ExprMemory, ALargeExpressionLeavesNoLargeScratchBehind) {
  // 100,000 array elements: a node each, and a string each for the
  // escaped ones, megabytes while parsing.
  std::string big = "[";
  for (int i = 0; i < 100000; ++i) big += (i % 2 == 0) ? "'it''s', " : "x.y, ";
  big += "0]";
  parse_and_drop("a = 'x''y' AND b[0] > 1");
  const long before = g_live_bytes.load();
  parse_and_drop(big);
  parse_and_drop("a = 'x''y' AND b[0] > 1");
  EXPECT_LT(g_live_bytes.load() - before, 64 * 1024);
}

std::string fresh_bytes(const char* text, expr_mode mode) {
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  EXPECT_TRUE(cdk::parse_expr(text, mode, ph, e).ok()) << text;
  return e.SerializeAsString();
}

TEST(ExprMemory, UnknownFieldsOfAReusedMessageAreDropped) {
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  ASSERT_TRUE(cdk::parse_expr("f(a) + 1 = 'x'", expr_mode::document, ph, e).ok());
  // Field 15, varint 1: unknown to Mysqlx.Expr, as a newer peer might send.
  const std::string unknown = "\x78\x01";
  e.mutable_unknown_fields()->append(unknown);
  e.mutable_operator_()->mutable_unknown_fields()->append(unknown);
  e.mutable_operator_()->mutable_param(0)->mutable_operator_()->mutable_unknown_fields()->append(
      unknown);
  e.mutable_operator_()->mutable_param(1)->mutable_literal()->mutable_unknown_fields()->append(
      unknown);
  ASSERT_NE(e.SerializeAsString().find(unknown), std::string::npos);
  ph.clear();
  ASSERT_TRUE(cdk::parse_expr("g(b) - 2 = 'y'", expr_mode::document, ph, e).ok());
  EXPECT_EQ(e.SerializeAsString(), fresh_bytes("g(b) - 2 = 'y'", expr_mode::document));
}

// A JSON path in quotes is unquoted, then parsed again: member names with
// escapes at both levels must come out whole, in fresh and reused messages.
TEST(ExprMemory, QuotedJsonPathsWithEscapesAtBothLevels) {
  const char* text = R"(c->'$."it''s".`a``b`."q\\"r"' = c->>'$.x')";
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  ASSERT_TRUE(cdk::parse_expr(text, expr_mode::table, ph, e).ok());
  const auto& id = e.operator_().param(0).identifier();
  ASSERT_EQ(id.document_path_size(), 3);
  EXPECT_EQ(id.document_path(0).value(), "it's");
  EXPECT_EQ(id.document_path(1).value(), "a`b");
  EXPECT_EQ(id.document_path(2).value(), "q\"r");
  EXPECT_EQ(id.name(), "c");
  const auto& call = e.operator_().param(1).function_call();
  EXPECT_EQ(call.name().name(), "JSON_UNQUOTE");
  EXPECT_EQ(call.param(0).identifier().document_path(0).value(), "x");

  Mysqlx::Expr::Expr reused;
  ASSERT_TRUE(cdk::parse_expr("a.b->'$.c' + {'k': [1, 'v']}", expr_mode::table, ph, reused).ok());
  ph.clear();
  ASSERT_TRUE(cdk::parse_expr(text, expr_mode::table, ph, reused).ok());
  EXPECT_EQ(reused.SerializeAsString(), e.SerializeAsString());
}

} // namespace
