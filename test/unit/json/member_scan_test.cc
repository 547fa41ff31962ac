#include "cdk/json/member_scan.h"

#include <gtest/gtest.h>
#include <string>

namespace {

using cdk::json::find_member;
using cdk::json::member_status;

// The raw text of the member's value, or "<absent>" / "<unsure>".
std::string scan(std::string_view text, std::string_view name) {
  const auto m = find_member(text, name);
  switch (m.status) {
  case member_status::found:
    EXPECT_LE(m.begin, m.end);
    EXPECT_LE(m.end, text.size());
    return std::string(text.substr(m.begin, m.end - m.begin));
  case member_status::absent:
    return "<absent>";
  case member_status::unsure:
    break;
  }
  return "<unsure>";
}

TEST(MemberScan, FindsEachKindOfValue) {
  const std::string doc = R"( {"s": "te\"x}t", "i": -7, "d": 2.5e3, "b": true, "n": null,
      "o": {"x": [1, {"y": "]"}]}, "a": [1, "two", [3]], "_id": "00006"} )";
  EXPECT_EQ(scan(doc, "s"), R"("te\"x}t")");
  EXPECT_EQ(scan(doc, "i"), "-7");
  EXPECT_EQ(scan(doc, "d"), "2.5e3");
  EXPECT_EQ(scan(doc, "b"), "true");
  EXPECT_EQ(scan(doc, "n"), "null");
  EXPECT_EQ(scan(doc, "o"), R"({"x": [1, {"y": "]"}]})");
  EXPECT_EQ(scan(doc, "a"), R"([1, "two", [3]])");
  EXPECT_EQ(scan(doc, "_id"), R"("00006")");
}

TEST(MemberScan, LongStringsAreSkippedWhereverTheirEscapesAre) {
  // Sixteen bytes are skipped at a time: a quote, a backslash or a control
  // character must be seen at every position of such a block.
  for (std::size_t at = 0; at < 40; ++at) {
    std::string body(40, 'x');
    const std::string escaped = body.substr(0, at) + "\\\"" + body.substr(at);
    EXPECT_EQ(scan(R"({"s": ")" + escaped + R"(", "n": 1})", "n"), "1") << at;
    EXPECT_EQ(scan(R"({"s": ")" + escaped + R"("})", "s"), "\"" + escaped + "\"") << at;
    std::string control = body;
    control[at] = '\n';
    EXPECT_EQ(scan(R"({"s": ")" + control + R"(", "n": 1})", "n"), "<unsure>") << at;
    std::string utf8 = body;
    utf8[at] = '\xc3'; // bytes above 0x7f are text, not control characters
    utf8.insert(at + 1, 1, '\xa9');
    EXPECT_EQ(scan(R"({"s": ")" + utf8 + R"(", "n": 1})", "n"), "1") << at;
  }
}

TEST(MemberScan, OnlyTopLevelNamesCount) {
  EXPECT_EQ(scan(R"({"o": {"x": 1}, "a": ["x"]})", "x"), "<absent>");
  EXPECT_EQ(scan(R"({"o": {"x": 1}, "x": 2})", "x"), "2");
  EXPECT_EQ(scan("{}", "x"), "<absent>");
  EXPECT_EQ(scan(" { } ", "x"), "<absent>");
  EXPECT_EQ(scan(R"({"": 1})", ""), "1");
}

TEST(MemberScan, TheLastOfDuplicatedNamesWins) {
  EXPECT_EQ(scan(R"({"a": 1, "b": 2, "a": 3})", "a"), "3");
}

TEST(MemberScan, WhatItDoesNotDecideIsUnsure) {
  // An escaped key might equal the name once decoded.
  EXPECT_EQ(scan(R"({"\u0061": 1})", "a"), "<unsure>");
  // Not an object, or not a well-formed one at the top level.
  for (const char* text :
       {"", "[1]", "42", R"("a")", R"({"a" 1})", R"({"a": 1,})", R"({"a": 1} x)", R"({"a": 1)",
        R"({a: 1})", R"({"a": })", R"({"a": [1})", R"({"a": [1}])", R"({"a": {"b": 1]})",
        R"({"a": "unterminated})", "{\"a\": \"\x01\"}", R"({"a": 1 2})", "{\"a\": \"x\\\"}"}) {
    EXPECT_EQ(scan(text, "a"), "<unsure>") << text;
  }
}

TEST(MemberScan, NestingIsBoundedByMySQLsLimit) {
  auto nested = [](int depth) { // `depth` levels, the top-level object included
    std::string s = "{\"a\":";
    for (int i = 1; i < depth; ++i) s += "[";
    s += "1";
    for (int i = 1; i < depth; ++i) s += "]";
    return s + "}";
  };
  EXPECT_EQ(scan(nested(100), "b"), "<absent>");
  EXPECT_EQ(scan(nested(101), "b"), "<unsure>");
  EXPECT_EQ(scan("{\"a\":" + std::string(100000, '[') + "}", "a"), "<unsure>");
}

TEST(MemberScan, TruncatedTextIsNeverReadPast) {
  const std::string doc = R"({"s": "a\"b", "o": {"x": [1, 2]}, "n": 12})";
  for (std::size_t n = 0; n < doc.size(); ++n) {
    // A copy of exactly n bytes, so a read past it is a sanitizer error.
    const std::string prefix = doc.substr(0, n);
    EXPECT_EQ(scan(prefix, "n"), "<unsure>") << prefix;
  }
  EXPECT_EQ(scan(doc, "n"), "12");
}

} // namespace
