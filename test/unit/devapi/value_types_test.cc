// Row fields of DECIMAL, temporal, JSON, BIT and BLOB columns as Values
// (detail::to_value), without a server: the wire values are made by the
// protocol decoder from X Protocol field bytes, as a row would be.
#include "cdk/protocol/resultset.h"
#include "devapi/result_convert.h"

#include <gtest/gtest.h>
#include <limits>
#include <mysqlx/error.h>
#include <mysqlx/value.h>
#include <sstream>
#include <string>
#include <vector>

using namespace mysqlx;
namespace pr = cdk::protocol;

namespace {

pr::column_meta col(pr::field_type t, std::uint32_t content_type = 0, std::uint32_t flags = 0,
                    std::uint64_t collation = 0) {
  pr::column_meta c;
  c.type = t;
  c.content_type = content_type;
  c.flags = flags;
  c.collation = collation;
  return c;
}

void put_varint(std::uint64_t v, std::string& out) {
  for (; v >= 0x80; v >>= 7) out += static_cast<char>((v & 0x7f) | 0x80);
  out += static_cast<char>(v);
}

std::string varints(std::initializer_list<std::uint64_t> parts, const std::string& head = "") {
  std::string out = head;
  for (auto p : parts) put_varint(p, out);
  return out;
}

// Decodes X Protocol field bytes for column `c` and converts them.
Value field(const pr::column_meta& c, const std::string& wire) {
  auto v = pr::decode_field(c, wire);
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.err().message);
  return detail::to_value(v.ok() ? v.value() : pr::value{}, c, wire);
}

// DECIMAL wire bytes: scale, BCD digits, sign nibble (0xc / 0xd).
std::string decimal_wire(const std::string& digits, unsigned scale, bool negative) {
  std::string nibbles;
  for (char ch : digits) nibbles += static_cast<char>(ch - '0');
  nibbles += static_cast<char>(negative ? 0xd : 0xc);
  if (nibbles.size() % 2) nibbles += '\0';
  std::string out(1, static_cast<char>(scale));
  for (std::size_t i = 0; i < nibbles.size(); i += 2)
    out += static_cast<char>(nibbles[i] << 4 | nibbles[i + 1]);
  return out;
}

std::string printed(const Value& v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

template <typename F> std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

const pr::column_meta decimal_col = col(pr::field_type::decimal);

TEST(DecimalValue, IsADoubleThatKeepsItsExactText) {
  const Value v = field(decimal_col, decimal_wire("1250", 2, false));
  EXPECT_EQ(v.getType(), Value::DOUBLE); // as Connector/C++ 8: code switching on it still works
  EXPECT_DOUBLE_EQ(v.get<double>(), 12.5);
  EXPECT_FLOAT_EQ(v.get<float>(), 12.5f);
  EXPECT_EQ(v.get<std::string>(), "12.50");
  EXPECT_EQ(printed(v), "12.50");
  const bytes raw = v.getRawBytes();
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(raw.data()), raw.size()), "12.50");
  // Copies and moves keep it a DECIMAL.
  Value copy = v;
  Value moved = std::move(copy);
  EXPECT_EQ(moved.get<std::string>(), "12.50");
}

TEST(DecimalValue, IntegralValuesConvertToIntegersExactly) {
  const Value neg = field(decimal_col, decimal_wire("300", 2, true));
  EXPECT_EQ(neg.get<std::string>(), "-3.00");
  EXPECT_EQ(neg.get<int>(), -3);
  EXPECT_EQ(neg.get<std::int64_t>(), -3);
  EXPECT_THROW(neg.get<unsigned>(), Error);
  EXPECT_THROW(neg.get<std::uint64_t>(), Error);

  // More digits than a double holds: the integer comes from the text.
  const Value big = field(decimal_col, decimal_wire("1234567890123456789", 0, false));
  EXPECT_EQ(big.get<std::int64_t>(), 1234567890123456789);
  EXPECT_EQ(big.get<std::uint64_t>(), 1234567890123456789u);
  EXPECT_EQ(big.get<std::string>(), "1234567890123456789");
  EXPECT_THROW(big.get<int>(), Error);

  const Value u = field(decimal_col, decimal_wire("1844674407370955161500", 2, false));
  EXPECT_EQ(u.get<std::uint64_t>(), std::numeric_limits<std::uint64_t>::max());
  EXPECT_NE(error_of([&] { (void)u.get<std::int64_t>(); }).find("does not fit in int64_t"),
            std::string::npos);

  const Value zero = field(decimal_col, decimal_wire("000", 2, false));
  EXPECT_EQ(zero.get<std::string>(), "0.00");
  EXPECT_EQ(zero.get<int>(), 0);
}

TEST(DecimalValue, FractionsAndOverflowsAreClearErrors) {
  const Value v = field(decimal_col, decimal_wire("1250", 2, false));
  const std::string e = error_of([&] { (void)v.get<int>(); });
  EXPECT_NE(e.find("DECIMAL 12.50"), std::string::npos) << e;
  EXPECT_NE(e.find("fractional part"), std::string::npos) << e;
  EXPECT_THROW(v.get<std::int64_t>(), Error);
  EXPECT_THROW(v.get<std::uint64_t>(), Error);
  EXPECT_THROW(v.get<bool>(), Error); // as a DOUBLE: no implicit truth value

  const Value huge = field(decimal_col, decimal_wire("99999999999999999999", 0, false));
  const std::string e2 = error_of([&] { (void)huge.get<std::uint64_t>(); });
  EXPECT_NE(e2.find("DECIMAL 99999999999999999999 does not fit in uint64_t"), std::string::npos)
      << e2;
  EXPECT_DOUBLE_EQ(huge.get<double>(), 1e20);
}

TEST(DecimalValue, WritesItsExactTextInJson) {
  const Value arr{field(decimal_col, decimal_wire("1250", 2, false)), 1};
  EXPECT_EQ(printed(arr), "[12.50, 1]");
  // A plain double is still a double.
  EXPECT_THROW(Value(12.5).get<std::string>(), Error);
}

TEST(TemporalValue, DatetimeIsRawBytesWithItsText) {
  const auto c = col(pr::field_type::datetime, 2);
  const std::string wire = varints({2024, 1, 2, 3, 4, 5, 6});
  const Value v = field(c, wire);
  EXPECT_EQ(v.getType(), Value::RAW); // as Connector/C++ 8
  EXPECT_EQ(v.get<std::string>(), "2024-01-02 03:04:05.000006");
  EXPECT_EQ(printed(v), "2024-01-02 03:04:05.000006");
  const bytes raw = v.getRawBytes(); // the X Protocol encoding, as Connector/C++ 8 gives
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(raw.data()), raw.size()), wire);
  EXPECT_THROW(v.get<int>(), Error);
  EXPECT_THROW(v.get<double>(), Error);
  const Value arr{v};
  EXPECT_EQ(printed(arr), R"(["2024-01-02 03:04:05.000006"])");
}

TEST(TemporalValue, MidnightOfADatetimeColumnStillShowsItsTime) {
  // The server leaves out a zero time part; the text of a DATETIME or
  // TIMESTAMP column has it anyway, and the raw bytes stay as sent.
  const std::string wire = varints({2024, 1, 2});
  const Value dt = field(col(pr::field_type::datetime, 2), wire);
  EXPECT_EQ(dt.get<std::string>(), "2024-01-02 00:00:00");
  EXPECT_EQ(dt.getRawBytes().size(), wire.size());
  const Value ts = field(col(pr::field_type::datetime, 0, 1), wire);
  EXPECT_EQ(ts.get<std::string>(), "2024-01-02 00:00:00");
  const Value date = field(col(pr::field_type::datetime, 1), wire);
  EXPECT_EQ(date.getType(), Value::RAW);
  EXPECT_EQ(date.get<std::string>(), "2024-01-02");
  const bytes raw = date.getRawBytes();
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(raw.data()), raw.size()), wire);
}

TEST(TemporalValue, RawBytesAreTheFieldAsSent) {
  // "2014-05-11 10:40": the server leaves out the zero seconds, so its bytes
  // are 6 (Connector/C++ 8 gives these 6; Oracle's Types.datetime checks).
  const std::string wire = varints({2014, 5, 11, 10, 40});
  ASSERT_EQ(wire.size(), 6u);
  const Value dt = field(col(pr::field_type::datetime, 2), wire);
  EXPECT_EQ(dt.get<std::string>(), "2014-05-11 10:40:00");
  const bytes raw = dt.getRawBytes();
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(raw.data()), raw.size()), wire);
}

TEST(TemporalValue, TimeKeepsSignAndFraction) {
  const auto c = col(pr::field_type::time);
  const std::string wire = varints({1, 2, 3, 500000}, std::string(1, '\x01'));
  const Value v = field(c, wire);
  EXPECT_EQ(v.getType(), Value::RAW);
  EXPECT_EQ(v.get<std::string>(), "-01:02:03.500000");
  const bytes raw = v.getRawBytes();
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(raw.data()), raw.size()), wire);
  const Value long_time = field(c, varints({838, 59, 59}, std::string(1, '\0')));
  EXPECT_EQ(long_time.get<std::string>(), "838:59:59");
}

// SET is RAW, as in Connector/C++ 8 (Oracle's Types.set_enum checks the
// type): its text is MySQL's "a,b,c", its raw bytes the field as sent.
TEST(SetValue, IsRawWithTheSqlTextOfTheSet) {
  const auto c = col(pr::field_type::set);
  const std::string wire = varints({1}) + "a" + varints({1}) + "b" + varints({2}) + "cd";
  const Value v = field(c, wire);
  EXPECT_EQ(v.getType(), Value::RAW);
  EXPECT_EQ(v.get<std::string>(), "a,b,cd");
  EXPECT_EQ(printed(v), "a,b,cd");
  const bytes raw = v.getRawBytes();
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(raw.data()), raw.size()), wire);
  const Value empty = field(c, std::string(1, '\x01'));
  EXPECT_EQ(empty.getType(), Value::RAW);
  EXPECT_EQ(empty.get<std::string>(), "");
  EXPECT_THROW((void)static_cast<int>(v), Error);
}

const pr::column_meta json_col = col(pr::field_type::bytes, 2, 0, 63);

std::string text_field(const std::string& s) {
  return s + '\0';
}

TEST(JsonColumn, ArraysAreArraysOfTypedValues) {
  const Value v =
      field(json_col, text_field(R"([1, "a", {"b": 2}, [true, null], 2.5, 18446744073709551615])"));
  ASSERT_EQ(v.getType(), Value::ARRAY);
  ASSERT_EQ(v.elementCount(), 6u);
  EXPECT_EQ(v[0].getType(), Value::UINT64); // as Connector/C++ 8
  EXPECT_EQ(v[0].get<int>(), 1);
  EXPECT_EQ(v[1].get<std::string>(), "a");
  ASSERT_EQ(v[2].getType(), Value::DOCUMENT);
  EXPECT_EQ(v[2]["b"].get<int>(), 2);
  EXPECT_EQ(printed(v[2]), R"({"b": 2})"); // the document's own text
  ASSERT_EQ(v[3].getType(), Value::ARRAY);
  EXPECT_TRUE(v[3][0].get<bool>());
  EXPECT_TRUE(v[3][1].isNull());
  EXPECT_EQ(v[4].getType(), Value::DOUBLE);
  EXPECT_EQ(v[5].getType(), Value::UINT64);
}

TEST(JsonColumn, ScalarsAreTheMatchingValues) {
  const Value n = field(json_col, text_field("42"));
  EXPECT_EQ(n.getType(), Value::UINT64);
  EXPECT_EQ(n.get<int>(), 42);
  const Value s = field(json_col, text_field(R"("caf\u00e9")"));
  EXPECT_EQ(s.getType(), Value::STRING);
  EXPECT_EQ(s.get<std::string>(), "caf\xc3\xa9"); // decoded, without quotes
  EXPECT_EQ(field(json_col, text_field("true")).getType(), Value::BOOL);
  EXPECT_TRUE(field(json_col, text_field("null")).isNull());
  EXPECT_EQ(field(json_col, text_field("-1.5e3")).get<double>(), -1500.0);
}

TEST(JsonColumn, ObjectsAreDocuments) {
  const Value d = field(json_col, text_field(R"({"a": [1, 2], "b": {"c": "x"}})"));
  ASSERT_EQ(d.getType(), Value::DOCUMENT);
  EXPECT_EQ(d["a"].elementCount(), 2u);
  EXPECT_EQ(d["b"]["c"].get<std::string>(), "x");
}

// A field read by name before anything else of the document is found by
// scanning the text (devapi/doc_impl.h): the answers must be a full parse's.
TEST(JsonColumn, FieldsReadByNameAreTheFullParsesValues) {
  const std::string text =
      R"({"_id": "0001", "s": "a\"}", "n": 7, "o": {"n": [1, {"x": "]"}]}, "d": 2.5, "n2": null,
          "dup": 1, "dup": 2})";
  const Value d = field(json_col, text_field(text));
  ASSERT_EQ(d.getType(), Value::DOCUMENT);
  const DbDoc doc = static_cast<DbDoc>(d);
  EXPECT_EQ(doc["n"].get<int>(), 7);
  EXPECT_EQ(&doc["n"], &doc["n"]); // read once: the same Value
  EXPECT_EQ(doc["s"].get<std::string>(), "a\"}");
  EXPECT_EQ(doc["o"]["n"][1]["x"].get<std::string>(), "]");
  EXPECT_EQ(printed(doc["o"]), R"({"n": [1, {"x": "]"}]})"); // a slice of the row's text
  EXPECT_EQ(doc["d"].get<double>(), 2.5);
  EXPECT_TRUE(doc["n2"].isNull());
  EXPECT_EQ(doc["dup"].get<int>(), 2); // the last, as MySQL keeps it
  EXPECT_FALSE(doc.hasField("x"));
  EXPECT_THROW((void)doc["x"], std::out_of_range);
  // Iterating parses it all; the fields read before stay valid.
  const Value& n = doc["n"];
  std::vector<std::string> names;
  for (const Field& f : doc) names.push_back(f);
  EXPECT_EQ(names, (std::vector<std::string>{"_id", "s", "n", "o", "d", "n2", "dup"}));
  EXPECT_EQ(n.get<int>(), 7);
  EXPECT_EQ(doc["dup"].get<int>(), 2);
}

TEST(JsonColumn, ScalarFieldsReadByNameHaveTheParsersTypes) {
  const DbDoc d = static_cast<DbDoc>(field(
      json_col,
      text_field(
          R"({"max": 9223372036854775807, "above": 9223372036854775808, "min": -9223372036854775808,
          "zero": -0, "plain": "fountain pen", "escaped": "caf\u00e9", "utf8": "café",
          "f": false, "t": true, "e": 1e2, "empty": ""})")));
  EXPECT_EQ(d["max"].getType(), Value::UINT64);
  EXPECT_EQ(d["max"].get<std::int64_t>(), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(d["above"].getType(), Value::UINT64);
  EXPECT_EQ(d["above"].get<std::uint64_t>(), 9223372036854775808u);
  EXPECT_EQ(d["min"].get<std::int64_t>(), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(d["zero"].getType(), Value::UINT64);
  EXPECT_EQ(d["min"].getType(), Value::INT64);
  EXPECT_EQ(d["plain"].get<std::string>(), "fountain pen");
  EXPECT_EQ(d["escaped"].get<std::string>(), "caf\xc3\xa9");
  EXPECT_EQ(d["utf8"].get<std::string>(), "caf\xc3\xa9");
  EXPECT_EQ(d["f"].getType(), Value::BOOL);
  EXPECT_TRUE(d["t"].get<bool>());
  EXPECT_EQ(d["e"].getType(), Value::DOUBLE);
  EXPECT_EQ(d["empty"].get<std::string>(), "");
}

TEST(JsonColumn, AFieldTheScanCannotReadIsParsedInFull) {
  // An escaped key: the full parse decodes it.
  const DbDoc escaped = static_cast<DbDoc>(field(json_col, text_field(R"({"\u0061": 1})")));
  EXPECT_EQ(escaped["a"].get<int>(), 1);
  // A bad value is the full parse's error, not a wrong answer.
  const DbDoc bad = static_cast<DbDoc>(field(json_col, text_field(R"({"a": tru})")));
  EXPECT_THROW((void)bad["a"], mysqlx::Error);
  const DbDoc leading_zero = static_cast<DbDoc>(field(json_col, text_field(R"({"a": 01})")));
  EXPECT_THROW((void)leading_zero["a"], mysqlx::Error);
  const DbDoc plus = static_cast<DbDoc>(field(json_col, text_field(R"({"a": +1})")));
  EXPECT_THROW((void)plus["a"], mysqlx::Error);
}

TEST(JsonColumn, TextThatIsNotJsonStaysAString) {
  // A server never sends it; if one did, nothing is lost.
  const Value v = field(json_col, text_field("[1, "));
  EXPECT_EQ(v.getType(), Value::STRING);
  EXPECT_EQ(v.get<std::string>(), "[1, ");
}

TEST(OtherColumns, BitIsUnsignedAndBlobIsRaw) {
  const Value bit = field(col(pr::field_type::bit), varints({0x81}));
  EXPECT_EQ(bit.getType(), Value::UINT64);
  EXPECT_EQ(bit.get<unsigned>(), 0x81u);
  const Value blob = field(col(pr::field_type::bytes, 0, 0, 63), std::string("a\0b\0", 4));
  EXPECT_EQ(blob.getType(), Value::RAW);
  EXPECT_EQ(blob.getRawBytes().size(), 3u);
  const Value text = field(col(pr::field_type::bytes, 0, 0, 255), text_field("abc"));
  EXPECT_EQ(text.getType(), Value::STRING);
}

} // namespace
