// mysql_json_text(): JSON text as MySQL prints it (json_text.h). Expected
// values follow MySQL's printer (sql-common/json_dom.cc wrapper_to_string,
// double_quote; strings/dtoa.cc my_gcvt) and the examples of the MySQL
// manual's "The JSON Data Type" (normalization, key order, duplicates).
#include "test/xserver/json_text.h"

#include <gtest/gtest.h>

namespace {

using xserver::json_dialect;
using xserver::mysql_json_double;
using xserver::mysql_json_text;

std::string my80(std::string_view in) {
  return mysql_json_text(in, json_dialect::mysql80).value_or("<invalid>");
}
std::string my57(std::string_view in) {
  return mysql_json_text(in, json_dialect::mysql57).value_or("<invalid>");
}

TEST(JsonText, SpacingIsMysqls) {
  EXPECT_EQ(my80(R"({"a":1,"b":[1,2,{"c":null}]})"), R"({"a": 1, "b": [1, 2, {"c": null}]})");
  EXPECT_EQ(my80(" {\n\t\"a\" :  true ,\r\n \"b\":false } "), R"({"a": true, "b": false})");
  EXPECT_EQ(my80("[ ]"), "[]");
  EXPECT_EQ(my80("{ }"), "{}");
  EXPECT_EQ(my80("[[],{},[[1]]]"), "[[], {}, [[1]]]");
}

TEST(JsonText, KeysSortByLengthThenBytes) {
  // The manual's example: {"x": 17, "x": "red", "x": [3, 5, 7]} keeps the
  // last in 8.0; key order by length first.
  EXPECT_EQ(my80(R"({"bbb":1,"a":2,"cc":3,"ab":4,"b":5})"),
            R"({"a": 2, "b": 5, "ab": 4, "cc": 3, "bbb": 1})");
  EXPECT_EQ(my80(R"({"B":1,"a":2,"_":3})"), R"({"B": 1, "_": 3, "a": 2})"); // bytes: B < _ < a
  // Non-ASCII bytes sort after ASCII (unsigned comparison).
  EXPECT_EQ(my80(R"({"é":1,"zz":2,"z":3})"), R"({"z": 3, "zz": 2, "é": 1})");
  EXPECT_EQ(my80(R"({"b":{"yy":1,"x":2},"a":0})"), R"({"a": 0, "b": {"x": 2, "yy": 1}})");
  EXPECT_EQ(my80(R"({"_id":"1","name":"n","age":3})"), R"({"_id": "1", "age": 3, "name": "n"})");
}

TEST(JsonText, DuplicateKeysLastWinsIn80FirstIn57) {
  EXPECT_EQ(my80(R"({"x": 17, "x": "red", "x": [3, 5, 7]})"), R"({"x": [3, 5, 7]})");
  EXPECT_EQ(my57(R"({"x": 17, "x": "red", "x": [3, 5, 7]})"), R"({"x": 17})");
  EXPECT_EQ(my80(R"({"b":1,"a":2,"b":3})"), R"({"a": 2, "b": 3})");
}

TEST(JsonText, IntegersStayIntegers) {
  EXPECT_EQ(my80("[0, -0, 7, -7, 9223372036854775807, -9223372036854775808]"),
            "[0, 0, 7, -7, 9223372036854775807, -9223372036854775808]");
  EXPECT_EQ(my80("18446744073709551615"), "18446744073709551615"); // uint64
  // Beyond 64 bits: a double.
  EXPECT_EQ(my80("18446744073709551616"), "1.8446744073709552e19");
  EXPECT_EQ(my80("-9223372036854775809"), "-9.223372036854776e18");
}

TEST(JsonText, DoublesAreMyGcvtWithPointZeroIn80) {
  const std::pair<const char*, const char*> cases[] = {
      {"1.0", "1.0"},
      {"1.50", "1.5"},
      {"-2.250", "-2.25"},
      {"0.1", "0.1"},
      {"1e2", "100.0"},
      {"1E+2", "100.0"},
      {"12.5e-1", "1.25"},
      {"0.0", "0.0"},
      {"-0.0", "-0.0"},
      {"3.14159", "3.14159"},
      {"1e15", "1e15"},
      {"1e14", "100000000000000.0"},
      {"123456789012345.6", "123456789012345.6"},
      {"1234567890123456.7", "1234567890123456.8"},
      {"12345678901234567.0", "1.2345678901234568e16"},
      {"0.0001", "0.0001"},
      {"0.00001", "0.00001"},
      {"1e-15", "0.000000000000001"},
      {"1e-16", "1e-16"},
      {"1.5e-16", "1.5e-16"},
      {"2.5e300", "2.5e300"},
      {"-1e-300", "-1e-300"},
      {"0.30000000000000004", "0.30000000000000004"},
      {"5e-324", "5e-324"},
      {"1.7976931348623157e308", "1.7976931348623157e308"},
  };
  for (const auto& [in, out] : cases) EXPECT_EQ(my80(in), out) << in;
}

TEST(JsonText, DoublesIn57HaveNoPointZero) {
  EXPECT_EQ(my57("[1.0, 1e2, 1.5, 0.0]"), "[1, 100, 1.5, 0]");
  EXPECT_EQ(mysql_json_double(100, json_dialect::mysql57), "100");
  EXPECT_EQ(mysql_json_double(100, json_dialect::mysql80), "100.0");
}

TEST(JsonText, StringsAreEscapedAsMysqlDoes) {
  EXPECT_EQ(my80(R"("a\"b\\c")"), R"("a\"b\\c")");
  EXPECT_EQ(my80(R"("\/ stays /")"), R"("/ stays /")");
  EXPECT_EQ(my80(R"("\b\f\n\r\t")"), R"("\b\f\n\r\t")");
  EXPECT_EQ(my80(R"("\u0001\u001F\u0000")"), R"("\u0001\u001f\u0000")");
  EXPECT_EQ(my80(R"("\u00e9\u20AC")"), "\"\xc3\xa9\xe2\x82\xac\""); // é €
  EXPECT_EQ(my80(R"("\ud83d\ude00")"), "\"\xf0\x9f\x98\x80\"");     // U+1F600
  EXPECT_EQ(my80("\"\xc3\xa9 raw\""), "\"\xc3\xa9 raw\"");          // UTF-8 kept
  EXPECT_EQ(my80(R"("\u007f")"), "\"\x7f\"");                       // DEL is printable here
  EXPECT_EQ(my80(R"({"k\u0041":"v"})"), R"({"kA": "v"})");
}

TEST(JsonText, NotJsonIsRefused) {
  for (const char* bad :
       {"",    "{",   "[1,]",  "{\"a\":1,}",      "{a:1}",   "01",          "1.",
        ".5",  "+1",  "1e",    "\"unterminated",  "\"\\x\"", "\"\\ud83d\"", "\"\\ude00\"",
        "tru", "nul", "[1] 2", "\"tab\tinside\"", "1e400",   "-1e400",      "{\"a\" 1}"}) {
    EXPECT_FALSE(mysql_json_text(bad, json_dialect::mysql80).has_value()) << bad;
  }
}

TEST(JsonText, DepthIsBounded) {
  const std::string ok = std::string(100, '[') + std::string(100, ']');
  EXPECT_TRUE(mysql_json_text(ok, json_dialect::mysql80).has_value());
  const std::string deep = std::string(101, '[') + std::string(101, ']');
  EXPECT_FALSE(mysql_json_text(deep, json_dialect::mysql80).has_value());
  // Deep nesting never exhausts the stack: refused early.
  const std::string huge(1000000, '[');
  EXPECT_FALSE(mysql_json_text(huge, json_dialect::mysql80).has_value());
}

TEST(JsonText, ScalarsAtTheTop) {
  EXPECT_EQ(my80("  \"s\" "), "\"s\"");
  EXPECT_EQ(my80("null"), "null");
  EXPECT_EQ(my80("42"), "42");
  EXPECT_EQ(my80("4.20"), "4.2");
}

} // namespace
