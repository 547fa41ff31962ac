// Value: construction of every type, checked conversions, arrays, printing.
#include <cstdint>
#include <gtest/gtest.h>
#include <limits>
#include <list>
#include <mysqlx/error.h>
#include <mysqlx/value.h>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using mysqlx::Value;

// Runs `f`, which must throw a client mysqlx::Error (code USAGE) whose
// message contains `fragment`.
template <typename F> void expect_usage_error(F&& f, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one mentioning '" << fragment << "'";
  } catch (const mysqlx::Error& e) {
    EXPECT_EQ(e.code(), mysqlx::errc::USAGE);
    EXPECT_TRUE(e.isClientError());
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

template <typename F> void expect_out_of_range(F&& f, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one mentioning '" << fragment << "'";
  } catch (const std::out_of_range& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

std::string printed(const Value& v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

TEST(Value, TypesOfConstructedValues) {
  EXPECT_EQ(Value().getType(), Value::VNULL);
  EXPECT_EQ(Value(nullptr).getType(), Value::VNULL);
  EXPECT_EQ(Value(static_cast<const char*>(nullptr)).getType(), Value::VNULL);
  EXPECT_EQ(Value(-5).getType(), Value::INT64);
  EXPECT_EQ(Value(short{7}).getType(), Value::INT64);
  EXPECT_EQ(Value(7u).getType(), Value::UINT64);
  EXPECT_EQ(Value(std::uint64_t{7}).getType(), Value::UINT64);
  EXPECT_EQ(Value(1.5f).getType(), Value::FLOAT);
  EXPECT_EQ(Value(1.5).getType(), Value::DOUBLE);
  EXPECT_EQ(Value(true).getType(), Value::BOOL);
  EXPECT_EQ(Value("x").getType(), Value::STRING);
  EXPECT_EQ(Value(std::string("x")).getType(), Value::STRING);
  EXPECT_EQ(Value(std::string_view("x")).getType(), Value::STRING);
  const mysqlx::byte raw[] = {0, 1, 255};
  EXPECT_EQ(Value(mysqlx::bytes(raw, 3)).getType(), Value::RAW);
  EXPECT_EQ(Value(mysqlx::DbDoc("{}")).getType(), Value::DOCUMENT);
  EXPECT_EQ(Value(mysqlx::DbDoc()).getType(), Value::VNULL);
  EXPECT_EQ(Value({1, 2}).getType(), Value::ARRAY);
  EXPECT_TRUE(Value().isNull());
  EXPECT_FALSE(Value(0).isNull());
}

TEST(Value, PointersOtherThanCharDoNotBecomeBool) {
  static_assert(!std::is_constructible_v<Value, int*>);
  static_assert(!std::is_constructible_v<Value, mysqlx::DbDoc*>);
  static_assert(std::is_constructible_v<Value, const char*>);
}

TEST(Value, IntegerConversionsWithinRange) {
  EXPECT_EQ(static_cast<int>(Value(-42)), -42);
  EXPECT_EQ(static_cast<int>(Value(42u)), 42);
  EXPECT_EQ(static_cast<unsigned>(Value(42)), 42u);
  EXPECT_EQ(static_cast<std::int64_t>(Value(std::numeric_limits<std::int64_t>::min())),
            std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(static_cast<std::uint64_t>(Value(std::numeric_limits<std::uint64_t>::max())),
            std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(Value(std::uint64_t{9}).get<std::int64_t>(), 9);
  EXPECT_EQ(Value(true).get<int>(), 1);
  EXPECT_EQ(Value(false).get<std::uint64_t>(), 0u);
  int i = Value(7);
  unsigned u = Value(8);
  EXPECT_EQ(i + u, 15u);
}

TEST(Value, IntegerOverflowIsAnError) {
  expect_usage_error([] { (void)static_cast<int>(Value(std::int64_t{1} << 31)); },
                     "2147483648 does not fit in int");
  expect_usage_error([] { (void)static_cast<int>(Value(-(std::int64_t{1} << 31) - 1)); },
                     "does not fit in int");
  expect_usage_error([] { (void)static_cast<int>(Value(std::uint64_t{1} << 40)); },
                     "does not fit in int");
  expect_usage_error([] { (void)static_cast<unsigned>(Value(-1)); }, "-1 does not fit in unsigned");
  expect_usage_error([] { (void)static_cast<unsigned>(Value(std::uint64_t{1} << 32)); },
                     "4294967296 does not fit in unsigned");
  expect_usage_error([] { (void)static_cast<std::uint64_t>(Value(-3)); },
                     "-3 does not fit in uint64_t");
  expect_usage_error(
      [] { (void)static_cast<std::int64_t>(Value(std::numeric_limits<std::uint64_t>::max())); },
      "18446744073709551615 does not fit in int64_t");
}

TEST(Value, FloatingConversions) {
  EXPECT_DOUBLE_EQ(static_cast<double>(Value(2.5)), 2.5);
  EXPECT_DOUBLE_EQ(static_cast<double>(Value(2.5f)), 2.5);
  EXPECT_FLOAT_EQ(static_cast<float>(Value(2.5f)), 2.5f);
  EXPECT_DOUBLE_EQ(static_cast<double>(Value(std::int64_t{1} << 53)), 9007199254740992.0);
  EXPECT_DOUBLE_EQ(static_cast<double>(Value(-12)), -12.0);
  EXPECT_FLOAT_EQ(static_cast<float>(Value(1 << 24)), 16777216.0f);
  EXPECT_DOUBLE_EQ(static_cast<double>(Value(std::uint64_t{1} << 63)), 9223372036854775808.0);
}

// Integers convert to the nearest float or double, as C++ converts them and
// as Connector/C++ 8 does (Oracle's Types.numeric test holds us to it).
TEST(Value, IntegersRoundToTheNearestFloatingValue) {
  EXPECT_EQ(static_cast<double>(Value((std::int64_t{1} << 53) + 1)), 9007199254740992.0);
  EXPECT_EQ(static_cast<double>(Value(std::numeric_limits<std::uint64_t>::max())),
            18446744073709551616.0);
  EXPECT_EQ(static_cast<float>(Value((1 << 24) + 1)), 16777216.0f);
  EXPECT_EQ(static_cast<float>(Value(std::numeric_limits<unsigned>::max())), 4294967296.0f);
  EXPECT_EQ(static_cast<float>(Value(std::numeric_limits<std::int64_t>::min())),
            -9223372036854775808.0f);
}

// A double does not narrow to float (Connector/C++ 8 refuses it too): the
// program reads it as double and narrows it itself if it means to.
TEST(Value, ADoubleDoesNotNarrowToFloat) {
  expect_usage_error([] { (void)static_cast<float>(Value(0.5)); },
                     "cannot convert a double to float");
  expect_usage_error([] { (void)static_cast<float>(Value(1e300)); }, "to float");
  expect_usage_error([] { (void)static_cast<float>(Value(true)); }, "to float");
}

TEST(Value, BoolConversions) {
  EXPECT_TRUE(static_cast<bool>(Value(true)));
  EXPECT_FALSE(static_cast<bool>(Value(false)));
  EXPECT_TRUE(static_cast<bool>(Value(5)));
  EXPECT_FALSE(static_cast<bool>(Value(0u)));
  expect_usage_error([] { (void)static_cast<bool>(Value("true")); },
                     "cannot convert a string to bool");
  expect_usage_error([] { (void)static_cast<bool>(Value(1.0)); },
                     "cannot convert a double to bool");
}

TEST(Value, StringsAndBytes) {
  std::string s = Value("héllo");
  EXPECT_EQ(s, "héllo");
  EXPECT_EQ(Value(std::string("a\0b", 3)).get<std::string>().size(), 3u);
  const mysqlx::byte raw[] = {0, 1, 255};
  Value v(mysqlx::bytes(raw, 3));
  mysqlx::bytes b = v.getRawBytes();
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b.data()[2], 255);
  EXPECT_EQ(static_cast<mysqlx::bytes>(Value("ab")).size(), 2u);
  EXPECT_EQ(v.get<std::string>(), std::string("\0\1\xff", 3));
  expect_usage_error([] { (void)static_cast<std::string>(Value(5)); },
                     "cannot convert an integer (INT64) to std::string");
  expect_usage_error([] { (void)Value(5).getRawBytes(); }, "to bytes");
}

TEST(Value, NoImplicitNumberStringConversions) {
  expect_usage_error([] { (void)static_cast<int>(Value("5")); }, "cannot convert a string to int");
  expect_usage_error([] { (void)static_cast<double>(Value("5.0")); }, "a string to double");
  expect_usage_error([] { (void)static_cast<int>(Value()); }, "cannot convert null to int");
  expect_usage_error([] { (void)static_cast<int>(Value(1.0)); }, "a double to int");
}

TEST(Value, DocumentValues) {
  Value v(mysqlx::DbDoc(R"({"a": {"b": 2}})"));
  EXPECT_TRUE(v.hasField("a"));
  EXPECT_FALSE(v.hasField("b"));
  EXPECT_EQ(static_cast<int>(v["a"]["b"]), 2);
  mysqlx::DbDoc d = v;
  EXPECT_TRUE(d.hasField("a"));
  mysqlx::DbDoc null_doc = Value();
  EXPECT_TRUE(null_doc.isNull());
  expect_usage_error([] { (void)Value(1).hasField("a"); }, "an integer (INT64) to a document");
  expect_usage_error([] { (void)static_cast<mysqlx::DbDoc>(Value("{}")); }, "a string to DbDoc");
}

TEST(Value, ArraysFromListsRangesAndContainers) {
  Value arr = {1, "two", 3.5, nullptr, Value({true})};
  ASSERT_EQ(arr.elementCount(), 5u);
  EXPECT_EQ(static_cast<int>(arr[0]), 1);
  EXPECT_EQ(arr[1u].get<std::string>(), "two");
  EXPECT_DOUBLE_EQ(arr[std::size_t{2}].get<double>(), 3.5);
  EXPECT_TRUE(arr[3].isNull());
  EXPECT_TRUE(static_cast<bool>(arr[4][0]));

  std::list<std::string> names{"a", "b", "c"};
  Value from_range(names.begin(), names.end());
  std::vector<std::string> back;
  for (const Value& item : from_range) back.push_back(item);
  EXPECT_EQ(back, std::vector<std::string>({"a", "b", "c"}));

  // Out of range is std::out_of_range, as std::vector::at() and Connector/C++ 8 throw.
  expect_out_of_range([&] { (void)arr[5]; }, "index 5 is out of range for an array of 5 elements");
  expect_out_of_range([&] { (void)arr[-1]; }, "negative array index -1");
  expect_usage_error([] { (void)Value(1).elementCount(); }, "to an array");
}

TEST(Value, CopiesShareArraysButStayValues) {
  Value a = {1, 2};
  Value b = a;
  a = Value("changed");
  EXPECT_EQ(b.elementCount(), 2u);
  EXPECT_EQ(a.get<std::string>(), "changed");
  Value moved = std::move(b);
  EXPECT_EQ(moved.elementCount(), 2u);
}

TEST(Value, Printing) {
  EXPECT_EQ(printed(Value()), "null");
  EXPECT_EQ(printed(Value(-3)), "-3");
  EXPECT_EQ(printed(Value(std::numeric_limits<std::uint64_t>::max())), "18446744073709551615");
  EXPECT_EQ(printed(Value(0.1)), "0.1");
  EXPECT_EQ(printed(Value(2.0)), "2.0");
  EXPECT_EQ(printed(Value(true)), "true");
  EXPECT_EQ(printed(Value("plain \"text\"")), "plain \"text\""); // a string alone is its text
  EXPECT_EQ(printed(Value({1, "a\"b", 2.5, nullptr, false})), R"([1, "a\"b", 2.5, null, false])");
  EXPECT_EQ(printed(Value({Value(mysqlx::DbDoc(R"({"k": [1]})"))})), R"([{"k": [1]}])");
  const mysqlx::byte raw[] = {0xab, 0x01};
  EXPECT_EQ(printed(Value({Value(mysqlx::bytes(raw, 2))})), R"(["ab01"])");
  EXPECT_EQ(printed(Value({std::numeric_limits<double>::infinity()})), "[null]");
}

TEST(Value, ExprMarksAStringAsAnExpression) {
  Value e = mysqlx::expr("age + 1");
  EXPECT_EQ(e.getType(), Value::STRING);
  EXPECT_EQ(e.get<std::string>(), "age + 1");
}

} // namespace

TEST(Value, AMovedFromDocumentOrArrayIsNull) {
  // NOLINTBEGIN(bugprone-use-after-move): what a moved-from Value is, is the test
  mysqlx::Value doc(mysqlx::DbDoc(R"({"a": 1})"));
  mysqlx::Value taken(std::move(doc));
  EXPECT_EQ(taken["a"].get<int>(), 1);
  EXPECT_TRUE(doc.isNull());
  EXPECT_THROW(doc.hasField("a"), mysqlx::Error); // not a document any more: no crash
  mysqlx::Value arr{1, 2};
  mysqlx::Value other;
  other = std::move(arr);
  EXPECT_EQ(other.elementCount(), 2u);
  EXPECT_TRUE(arr.isNull());
  EXPECT_THROW(arr.elementCount(), mysqlx::Error);
  // NOLINTEND(bugprone-use-after-move)
}

// A program decides how deep a Value nests; freeing and printing one used
// to recurse once per level and overflowed the stack near 100,000 levels.
namespace {
Value nested_arrays(int levels) {
  Value v = 1;
  for (int i = 0; i < levels; ++i) v = Value{v};
  return v;
}
} // namespace

TEST(Value, AMillionLevelsPrintCopyAndFreeWithoutRecursion) {
  constexpr int levels = 1'000'000;
  {
    Value v = nested_arrays(levels);
    const Value copy = v; // shares, copies nothing
    std::ostringstream out;
    out << v;
    const std::string text = out.str();
    ASSERT_EQ(text.size(), 2U * levels + 1);
    EXPECT_EQ(text.substr(0, 3), "[[[");
    EXPECT_EQ(text.substr(levels - 1, 3), "[1]");
    EXPECT_EQ(text.substr(text.size() - 3), "]]]");
    v = Value(2); // drops one owner; `copy` keeps the array
    EXPECT_EQ(copy.elementCount(), 1U);
  } // `copy`, the last owner, frees a million levels here
  Value w = nested_arrays(levels);
  w = nested_arrays(3); // assignment frees the old one as well
  EXPECT_EQ(printed(w), "[[[1]]]");
}

TEST(Value, NestedArraysPrintTheirItemsInOrder) {
  const std::vector<Value> none;
  const Value empty(none.begin(), none.end());
  const Value v = {1, Value{empty, Value{2, "x"}}, empty, 3.5};
  EXPECT_EQ(printed(v), R"([1, [[], [2, "x"]], [], 3.5])");
}

// The error names the type asked for, not the std::string the text passes through.
TEST(Value, AWideTextConversionErrorNamesTheWideType) {
  expect_usage_error([] { (void)Value(5).get<std::wstring>(); },
                     "cannot convert an integer (INT64) to std::wstring");
  expect_usage_error([] { (void)Value(5).get<std::u16string>(); }, "to std::u16string");
  expect_usage_error([] { (void)std::u32string(Value(true)); }, "a bool to std::u32string");
  expect_usage_error([] { (void)Value(5).get<std::string>(); }, "to std::string");
  EXPECT_EQ(Value("caf\xc3\xa9").get<std::u16string>(), u"caf\u00e9");
}
