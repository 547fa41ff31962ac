// DbDoc: lazy parsing, field access, iteration, nesting, printing, errors.
#include <gtest/gtest.h>
#include <mysqlx/error.h>
#include <mysqlx/value.h>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using mysqlx::DbDoc;
using mysqlx::Value;

std::string printed(const DbDoc& d) {
  std::ostringstream out;
  out << d;
  return out.str();
}

std::vector<std::string> field_names(const DbDoc& d) {
  std::vector<std::string> names;
  for (const mysqlx::Field& f : d) names.push_back(f);
  return names;
}

// The document must be refused (errc::BAD_DOCUMENT) with `fragment` in the message.
void expect_bad_document(const std::string& json, const std::string& fragment) {
  DbDoc d(json);
  try {
    (void)d.hasField("x");
    ADD_FAILURE() << "accepted: " << json;
  } catch (const mysqlx::Error& e) {
    EXPECT_EQ(e.code(), mysqlx::errc::BAD_DOCUMENT) << json;
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(DbDoc, FieldsOfEveryType) {
  DbDoc d(R"({"s": "text", "i": -7, "u": 18446744073709551615, "d": 2.5, "b": true,
              "n": null, "o": {"x": 1}, "a": [1, "two", [3]]})");
  EXPECT_EQ(d.fieldType("s"), Value::STRING);
  EXPECT_EQ(d.fieldType("i"), Value::INT64);
  EXPECT_EQ(d.fieldType("u"), Value::UINT64);
  EXPECT_EQ(d.fieldType("d"), Value::DOUBLE);
  EXPECT_EQ(d.fieldType("b"), Value::BOOL);
  EXPECT_EQ(d.fieldType("n"), Value::VNULL);
  EXPECT_EQ(d.fieldType("o"), Value::DOCUMENT);
  EXPECT_EQ(d.fieldType("a"), Value::ARRAY);
  std::string s = d["s"];
  EXPECT_EQ(s, "text");
  EXPECT_EQ(static_cast<int>(d["i"]), -7);
  EXPECT_EQ(static_cast<double>(d["d"]), 2.5);
  EXPECT_EQ(static_cast<int>(d["o"]["x"]), 1);
  EXPECT_EQ(d["a"][1].get<std::string>(), "two");
  EXPECT_EQ(static_cast<int>(d["a"][2][0]), 3);
  EXPECT_EQ(d["a"].elementCount(), 3u);
}

// As in Connector/C++ 8 (Oracle's Types.json test): an integer of 0 or more
// is UINT64, a negative one INT64; each converts to what it fits.
TEST(DbDoc, NonNegativeIntegersAreUint64) {
  DbDoc d(R"({"n": 1, "zero": 0, "big": 9223372036854775807, "bigger": 9223372036854775808,
              "neg": -1})");
  EXPECT_EQ(d.fieldType("n"), Value::UINT64);
  EXPECT_EQ(d.fieldType("zero"), Value::UINT64);
  EXPECT_EQ(d.fieldType("big"), Value::UINT64);
  EXPECT_EQ(d.fieldType("bigger"), Value::UINT64);
  EXPECT_EQ(d.fieldType("neg"), Value::INT64);
  EXPECT_EQ(d["n"].get<int>(), 1);
  EXPECT_EQ(d["neg"].get<int>(), -1);
  EXPECT_EQ(d["big"].get<std::int64_t>(), 9223372036854775807);
}

TEST(DbDoc, HasFieldAndMissingFields) {
  DbDoc d(R"({"a": 1})");
  EXPECT_TRUE(d.hasField("a"));
  EXPECT_FALSE(d.hasField("b"));
  try {
    (void)d["b"];
    ADD_FAILURE() << "no error for a missing field";
  } catch (const std::out_of_range& e) { // as std::map::at() and Connector/C++ 8
    EXPECT_NE(std::string(e.what()).find("no field named 'b'"), std::string::npos) << e.what();
  }
}

TEST(DbDoc, NullAndEmptyDocumentsDiffer) {
  DbDoc null_doc;
  DbDoc empty("{}");
  EXPECT_TRUE(null_doc.isNull());
  EXPECT_FALSE(static_cast<bool>(null_doc));
  EXPECT_FALSE(empty.isNull());
  EXPECT_FALSE(null_doc.hasField("a"));
  EXPECT_EQ(null_doc.begin(), null_doc.end());
  EXPECT_EQ(empty.begin(), empty.end());
  EXPECT_EQ(printed(null_doc), "null");
  EXPECT_EQ(printed(empty), "{}");
  EXPECT_THROW((void)null_doc["a"], mysqlx::Error);
}

TEST(DbDoc, IteratesFieldNamesInDocumentOrder) {
  DbDoc d(R"({"zeta": 1, "alpha": 2, "mid": {"inner": 3}})");
  EXPECT_EQ(field_names(d), std::vector<std::string>({"zeta", "alpha", "mid"}));
  DbDoc inner = d["mid"];
  EXPECT_EQ(field_names(inner), std::vector<std::string>({"inner"}));
}

TEST(DbDoc, DuplicateNamesKeepTheLastValueLikeMySQL) {
  DbDoc d(R"({"a": 1, "b": 2, "a": 3})");
  EXPECT_EQ(static_cast<int>(d["a"]), 3);
  EXPECT_EQ(field_names(d), std::vector<std::string>({"b", "a"}));
}

TEST(DbDoc, ManyFieldsAreFoundByName) {
  std::string json = "{";
  for (int i = 0; i < 500; ++i)
    json += (i ? "," : "") + ("\"f" + std::to_string(i) + "\":") + std::to_string(i);
  json += "}";
  DbDoc d(json);
  for (int i = 0; i < 500; i += 37) EXPECT_EQ(static_cast<int>(d["f" + std::to_string(i)]), i);
  EXPECT_FALSE(d.hasField("f500"));
}

TEST(DbDoc, UnicodeNamesAndValues) {
  DbDoc d(R"({"naïve": "日本語", "emoji": "\ud83d\ude00", "esc": "a\"b\\c\n"})");
  EXPECT_EQ(d["naïve"].get<std::string>(), "日本語");
  EXPECT_EQ(d["emoji"].get<std::string>(), "\xF0\x9F\x98\x80"); // U+1F600 decoded to UTF-8
  EXPECT_EQ(d["esc"].get<std::string>(), "a\"b\\c\n");
}

TEST(DbDoc, PrintsItsOwnTextUnchanged) {
  const std::string json = R"({"b": 1.50, "a": [1,  2], "u": "\u00e9"})";
  EXPECT_EQ(printed(DbDoc(json)), json);
  EXPECT_EQ(printed(DbDoc("  \n" + json + "\t ")), json); // surrounding blanks dropped
  DbDoc d(R"({"outer": { "inner" : [ {"x":1} ] }})");
  EXPECT_EQ(printed(d["outer"]), R"({ "inner" : [ {"x":1} ] })");
  std::ostringstream out;
  out << d["outer"]["inner"];
  EXPECT_EQ(out.str(), R"([{"x":1}])");
}

TEST(DbDoc, ParsingIsLazy) {
  DbDoc broken("this is not json");
  EXPECT_FALSE(broken.isNull());
  EXPECT_EQ(printed(broken), "this is not json"); // printing does not parse
  EXPECT_THROW((void)broken.hasField("a"), mysqlx::Error);
  EXPECT_THROW((void)broken.hasField("a"), mysqlx::Error); // and again, not a crash
}

TEST(DbDoc, BadDocumentsAreClearErrors) {
  expect_bad_document("[1, 2]", "not an object");
  expect_bad_document("42", "not an object");
  expect_bad_document(R"({"a": })", "offset 6");
  expect_bad_document(R"({"a": 1} x)", "not a valid JSON object");
  expect_bad_document("{\"a\": \"\xff\"}", "Invalid encoding");
  expect_bad_document(std::string("{\"a\": 1}\0{}", 11), "NUL");
  expect_bad_document("", "not a valid JSON object");
}

TEST(DbDoc, NestingIsBounded) {
  auto nested = [](int depth) {
    std::string s;
    for (int i = 0; i < depth; ++i) s += "{\"a\":";
    s += "1";
    for (int i = 0; i < depth; ++i) s += "}";
    return s;
  };
  // Deeper than MySQL stores (100): a program's own JSON, read as
  // Connector/C++ 8 reads it (Oracle's Types.json: 1,000 levels).
  const DbDoc deep(nested(4096));
  EXPECT_TRUE(deep.hasField("a"));
  EXPECT_EQ(printed(deep).size(), nested(4096).size());
  expect_bad_document(nested(4097), "nested deeper than 4096 levels");
  expect_bad_document("{\"a\":" + std::string(100000, '[') + "}", "nested deeper than 4096");
}

// Nested arrays are Values within Values: 4,095 levels of them are read,
// printed and freed without exhausting the stack.
TEST(DbDoc, DeepArraysAreReadPrintedAndFreed) {
  const std::string text = "{\"a\":" + std::string(4095, '[') + "1" + std::string(4095, ']') + "}";
  {
    DbDoc d(text);
    const Value& a = d["a"];
    EXPECT_EQ(a.getType(), Value::ARRAY);
    std::ostringstream out;
    out << a;
    EXPECT_EQ(out.str().size(), 4095u * 2 + 1);
  }
}

TEST(DbDoc, CopiesShareOneParse) {
  DbDoc a(R"({"x": [1, 2, 3]})");
  DbDoc b = a; // NOLINT(performance-unnecessary-copy-initialization): the copy is the test
  EXPECT_EQ(&a["x"], &b["x"]); // the same parsed value
}

TEST(DbDoc, ConcurrentFirstAccessParsesOnce) {
  DbDoc d(R"({"k": "v", "n": 5})");
  std::vector<std::thread> threads;
  threads.reserve(4);
  std::vector<const Value*> seen(4, nullptr);
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&d, &seen, i] { seen[i] = &d["n"]; });
  }
  for (auto& t : threads) t.join();
  for (const Value* v : seen) EXPECT_EQ(v, seen[0]);
  EXPECT_EQ(static_cast<int>(*seen[0]), 5);
}

TEST(DbDoc, ValuesOutliveTheirDocumentObject) {
  Value inner;
  {
    DbDoc d(R"({"sub": {"k": "v"}})");
    inner = d["sub"];
  }
  EXPECT_EQ(inner["k"].get<std::string>(), "v");
}

} // namespace
