#include "cdk/json/id_scan.h"

#include <gtest/gtest.h>
#include <string>

namespace {

using cdk::json::id_scan_status;
using cdk::json::scan_mode;
using cdk::json::value_type;

// Scans with the copying fast path and the in-place fallback; both must give
// the same answer, so every case below tests both.
cdk::json::id_scan scan_both(std::string_view doc, scan_mode mode = scan_mode::validate) {
  const auto fast = cdk::json::scan_for_id(doc, mode);
  const auto slow = cdk::json::detail::scan_in_place(doc, mode);
  EXPECT_EQ(fast.status, slow.status);
  if (fast.status == id_scan_status::has_id || fast.status == id_scan_status::not_object) {
    EXPECT_EQ(fast.type, slow.type);
  }
  EXPECT_EQ(fast.begin, slow.begin);
  EXPECT_EQ(fast.end, slow.end);
  EXPECT_EQ(fast.duplicate_id, slow.duplicate_id);
  EXPECT_EQ(fast.error_offset, slow.error_offset);
  EXPECT_EQ(fast.error == nullptr, slow.error == nullptr);
  if (fast.error != nullptr && slow.error != nullptr) {
    EXPECT_STREQ(fast.error, slow.error);
  }
  return fast;
}

struct has_id_case {
  const char* name;
  std::string doc;
  value_type type;
  std::string raw; // expected raw text of the `_id` value
};

class HasId : public testing::TestWithParam<has_id_case> {};

TEST_P(HasId, FindsTopLevelIdInBothModes) {
  const auto& c = GetParam();
  for (scan_mode mode : {scan_mode::validate, scan_mode::stop_at_id}) {
    const auto scan = scan_both(c.doc, mode);
    ASSERT_EQ(scan.status, id_scan_status::has_id) << c.doc;
    EXPECT_EQ(scan.type, c.type) << c.doc;
    EXPECT_EQ(scan.raw_id(c.doc), c.raw) << c.doc;
    EXPECT_FALSE(scan.duplicate_id);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, HasId,
    testing::Values(
        has_id_case{"string_first", R"({"_id":"abc","a":1})", value_type::string, R"("abc")"},
        has_id_case{"string_last", R"({"a":{"b":[1,2]},"_id":"x"})", value_type::string, R"("x")"},
        has_id_case{"spaces", "  {\n \"_id\" \t:\r\n \"a b\" , \"c\":2}", value_type::string,
                    R"("a b")"},
        has_id_case{"null", R"({"_id":null})", value_type::null, "null"},
        has_id_case{"number", R"({"_id":-12.5e3})", value_type::number, "-12.5e3"},
        has_id_case{"integer", R"({"x":0,"_id":42})", value_type::number, "42"},
        has_id_case{"boolean", R"({"_id":true})", value_type::boolean, "true"},
        has_id_case{"object", R"({"_id":{"a":{"_id":1}},"b":2})", value_type::object,
                    R"({"a":{"_id":1}})"},
        has_id_case{"array", R"({"_id":[1,[2]]})", value_type::array, "[1,[2]]"},
        has_id_case{"escaped_key", R"({"\u005fid":"u"})", value_type::string, R"("u")"},
        has_id_case{"escaped_key_upper", R"({"\u005F\u0069\u0064":7})", value_type::number, "7"},
        has_id_case{"escaped_value", R"({"_id":"a\"b\\c"})", value_type::string, R"("a\"b\\c")"},
        has_id_case{"after_nested_id", R"({"a":{"_id":1},"_id":2})", value_type::number, "2"}),
    [](const auto& info) { return info.param.name; });

TEST(IdScan, NestedIdDoesNotCount) {
  for (const char* doc :
       {R"({"a":{"_id":1}})", R"({"a":[{"_id":1}]})", R"({"a":{"b":{"_id":"x"}},"c":[]})",
        R"({"_idx":1,"_i":2,"id":3})", R"({"_ID":1})", R"({"a":"_id"})", "{}", " { } "}) {
    EXPECT_EQ(scan_both(doc).status, id_scan_status::no_id) << doc;
    EXPECT_EQ(scan_both(doc, scan_mode::stop_at_id).status, id_scan_status::no_id) << doc;
  }
}

TEST(IdScan, KeyWithEscapedNulIsNotId) {
  EXPECT_EQ(scan_both(R"({"_id\u0000":1})").status, id_scan_status::no_id);
}

TEST(IdScan, NonObjectDocuments) {
  struct {
    const char* doc;
    value_type type;
  } cases[] = {{"[1,2]", value_type::array},     {R"([{"_id":1}])", value_type::array},
               {"\"text\"", value_type::string}, {"42", value_type::number},
               {" null", value_type::null},      {"true", value_type::boolean}};
  for (const auto& c : cases) {
    const auto scan = scan_both(c.doc);
    EXPECT_EQ(scan.status, id_scan_status::not_object) << c.doc;
    EXPECT_EQ(scan.type, c.type) << c.doc;
    EXPECT_FALSE(scan.ok());
  }
}

TEST(IdScan, InvalidJsonReportsReasonAndOffset) {
  struct {
    std::string doc;
    std::size_t offset;
    const char* reason;
  } cases[] = {
      {R"({"a" 1})", 5, "Missing a colon after a name of object member."},
      {R"({"a":1,})", 7, "Missing a name for object member."},
      {R"({"a":1)", 6, "Missing a comma or '}' after an object member."},
      {"", 0, "The document is empty."},
      {"   ", 3, "The document is empty."},
      {R"({"a":tru})", 8, "Invalid value."}, // where RapidJSON stopped
      {R"({"a":1} x)", 8, "The document root must not be followed by other values."},
      {R"({"a":"\x"})", 6, "Invalid escape character in string."}, // the backslash
      {"{\"a\":\"\xff\"}", 6, "Invalid encoding in string."},
      {R"({"a":1e400})", 5, "Number too big to be stored in double."},
  };
  for (const auto& c : cases) {
    for (scan_mode mode : {scan_mode::validate, scan_mode::stop_at_id}) {
      const auto scan = scan_both(c.doc, mode);
      ASSERT_EQ(scan.status, id_scan_status::invalid_json) << c.doc;
      EXPECT_STREQ(scan.error, c.reason) << c.doc;
      EXPECT_EQ(scan.error_offset, c.offset) << c.doc;
    }
  }
}

TEST(IdScan, ValidateModeChecksTheTextAfterTheId) {
  const std::string doc = R"({"_id":"a","b":})";
  const auto full = scan_both(doc);
  EXPECT_EQ(full.status, id_scan_status::invalid_json);
  EXPECT_EQ(full.error_offset, doc.size() - 1);
  // The server's own check stops at `_id`; stop_at_id reproduces that.
  const auto fast = scan_both(doc, scan_mode::stop_at_id);
  EXPECT_EQ(fast.status, id_scan_status::has_id);
  EXPECT_EQ(fast.raw_id(doc), R"("a")");
}

// Regression: RapidJSON 1.1.0's SSE2 string scanner let 0x1a..0x1f through.
TEST(IdScan, RawControlCharactersInStringsAreRejected) {
  for (const char c : {'\x01', '\x1a', '\x1d', '\x1f'}) {
    std::string doc = R"({"key":"a)";
    doc += c;
    doc += R"(b"})";
    const auto result = scan_both(doc);
    EXPECT_EQ(result.status, id_scan_status::invalid_json) << int(c);
    EXPECT_EQ(result.error_offset, 9u) << int(c);
  }
}

TEST(IdScan, NulByteIsRejected) {
  const std::string after_root("{}\0{}", 5);
  auto scan = scan_both(after_root);
  EXPECT_EQ(scan.status, id_scan_status::invalid_json);
  EXPECT_EQ(scan.error_offset, 2u);
  const std::string in_string("{\"a\":\"x\0y\"}", 11);
  EXPECT_EQ(scan_both(in_string).status, id_scan_status::invalid_json);
}

TEST(IdScan, DuplicateTopLevelIdIsFlagged) {
  const std::string doc = R"({"_id":"first","a":{"_id":0},"_id":"second"})";
  const auto scan = scan_both(doc);
  ASSERT_EQ(scan.status, id_scan_status::has_id);
  EXPECT_EQ(scan.raw_id(doc), R"("first")");
  EXPECT_TRUE(scan.duplicate_id);
}

std::string nested(std::size_t levels) {
  std::string doc = "{\"a\":";
  for (std::size_t i = 1; i < levels; ++i) doc += '[';
  doc += '1';
  for (std::size_t i = 1; i < levels; ++i) doc += ']';
  return doc + '}';
}

TEST(IdScan, DepthLimitIsMySqls) {
  EXPECT_EQ(scan_both(nested(100)).status, id_scan_status::no_id);
  const auto scan = scan_both(nested(101));
  EXPECT_EQ(scan.status, id_scan_status::too_deep);
  EXPECT_EQ(scan.error_offset, 5u + 99u); // the 101st opening bracket
}

TEST(IdScan, HostileNestingDoesNotCrash) {
  const std::string doc(10'000'000, '[');
  EXPECT_EQ(scan_both("{\"a\":" + doc).status, id_scan_status::too_deep);
  EXPECT_EQ(scan_both(doc).status, id_scan_status::not_object);
}

// A 50 MB document: one big string, then many members, `_id` at the very end.
TEST(IdScan, HugeDocument) {
  std::string doc = R"({"blob":")" + std::string(20u << 20, 'x') + "\",\"list\":[";
  while (doc.size() < (50u << 20)) doc += R"({"k":"value","n":123456,"_id":"nested"},)";
  doc += R"(0],"_id":"last"})";
  const auto scan = scan_both(doc);
  ASSERT_EQ(scan.status, id_scan_status::has_id);
  EXPECT_EQ(scan.raw_id(doc), R"("last")");
  EXPECT_FALSE(scan.duplicate_id);

  doc.resize(doc.size() - 14); // drop `,"_id":"last"}`
  doc += '}';
  EXPECT_EQ(scan_both(doc).status, id_scan_status::no_id);
  doc.back() = ',';
  const auto bad = scan_both(doc);
  EXPECT_EQ(bad.status, id_scan_status::invalid_json);
  EXPECT_EQ(bad.error_offset, doc.size());
}

// The hand scan (detail::scan_simple) answers for the usual documents, as
// RapidJSON does.
TEST(IdScan, TypicalDocumentsTakeTheHandPath) {
  const std::string docs[] = {
      R"({"name":"widget 10000001","n":10000001,"price":12.5,"tags":["a","b"],"ok":true})",
      R"({"_id":"0000659200800000000000000001","a":null,"b":false})",
      " {\n \"_id\" :\t-0.25 ,\r\n\"x\":{\"_id\":[1,{}],\"y\":[]} } \n",
      R"({"_id":{"a":[1,2,[3]]}})",
      R"({"_id":[]})",
      R"({"_id":true,"_id":1})",
      R"({})",
      R"({"n":12345678901234567,"f":12345678901234567.12345678901234567,"z":-0})",
      nested(100),
  };
  for (const std::string& doc : docs) {
    const auto simple = cdk::json::detail::scan_simple(doc);
    ASSERT_TRUE(simple.has_value()) << doc;
    const auto scan = scan_both(doc);
    EXPECT_EQ(simple->status, scan.status) << doc;
    EXPECT_EQ(simple->type, scan.type) << doc;
    EXPECT_EQ(simple->begin, scan.begin) << doc;
    EXPECT_EQ(simple->end, scan.end) << doc;
    EXPECT_EQ(simple->duplicate_id, scan.duplicate_id) << doc;
  }
  const auto dup = cdk::json::detail::scan_simple(R"({"_id":true,"_id":1})");
  EXPECT_TRUE(dup->duplicate_id);
  EXPECT_EQ(dup->type, value_type::boolean);
}

// What only RapidJSON may judge: the hand scan declines, scan_for_id()
// still answers.
TEST(IdScan, TheHandPathDeclinesTheUnusual) {
  const std::string docs[] = {
      R"({"a":"\u00e9"})",                // an escape
      R"({"_\u0069d":1})",                // an escaped key
      "{\"a\":\"caf\xc3\xa9\"}",          // above 0x7f
      R"({"a":1e5})",                     // an exponent
      R"({"a":123456789012345678})",      // 18 digits
      R"({"a":0.123456789012345678})",    // 18 decimals
      R"({"a":01})",                      // a leading zero
      R"({"a":1.})",                      // no decimals
      R"({"a":-})",                       // no digits
      R"({"a":+1})",                      // a plus
      R"({"a":1,})",                      // a trailing comma
      R"({"a":[1,]})",                    // ... in an array
      R"({"a":tru})",                     // a cut literal
      R"({"a" 1})",                       // no colon
      R"({"a":1} x)",                     // text after the root
      R"([1])",                           // not an object
      R"("x")",                           //
      "",                                 // nothing
      std::string("{\"a\":\"x\0\"}", 10), // NUL
      "{\"a\":\"\t\"}",                   // a raw control character
      nested(101),                        // too deep
  };
  for (const std::string& doc : docs) {
    EXPECT_FALSE(cdk::json::detail::scan_simple(doc).has_value()) << doc;
    scan_both(doc);
  }
}

// Every truncation and single-byte change of typical documents: wherever
// the hand scan answers, RapidJSON (in place) gives the same answer.
TEST(IdScan, TheHandPathAgreesWithRapidJsonOnEveryMutation) {
  const std::string docs[] = {
      R"({"_id":"00006592008","name":"pen","n":-10.5,"tags":["a",{"b":null}],"ok":true})",
      R"({"a":{"_id":[1,2]},"_id":{"x":false},"z":0})",
      R"({"note":"a string of 8-byte words and then some","k":"12345678"})",
  };
  const char replacements[] = {'"', '\\', '{', '}', '[', ']',  ':',    ',',    ' ',
                               '0', '-',  '.', 'e', 'x', '\0', '\x1f', '\x7f', '\x80'};
  std::size_t answered = 0;
  auto check = [&](const std::string& doc) {
    const auto simple = cdk::json::detail::scan_simple(doc);
    if (!simple) return;
    ++answered;
    const auto slow = cdk::json::detail::scan_in_place(doc, scan_mode::validate);
    EXPECT_EQ(simple->status, slow.status) << doc;
    EXPECT_EQ(simple->type, slow.type) << doc;
    EXPECT_EQ(simple->begin, slow.begin) << doc;
    EXPECT_EQ(simple->end, slow.end) << doc;
    EXPECT_EQ(simple->duplicate_id, slow.duplicate_id) << doc;
  };
  for (const std::string& good : docs) {
    for (std::size_t n = 0; n <= good.size(); ++n) check(good.substr(0, n));
    for (std::size_t i = 0; i < good.size(); ++i) {
      for (char c : replacements) {
        std::string bad = good;
        bad[i] = c;
        check(bad);
        check(good.substr(0, i) + c + good.substr(i)); // inserted
      }
      check(good.substr(0, i) + good.substr(i + 1)); // deleted
    }
  }
  EXPECT_GT(answered, 100u); // the hand path was exercised
}

TEST(IdScan, ErrorTextNamesDocumentReasonAndOffset) {
  const auto scan = scan_both(R"({"name" "x"})");
  EXPECT_EQ(cdk::json::describe_bad_document(3, scan),
            "Document 3 is not valid JSON: Missing a colon after a name of object member at "
            "offset 8");
  const auto err = cdk::json::bad_document_error(1, scan_both("[1]"));
  EXPECT_EQ(err.code, cdk::client_errc::bad_document);
  EXPECT_EQ(err.origin, cdk::error_origin::client);
  EXPECT_EQ(err.message, "Document 1 is not a JSON object: it is an array");
  EXPECT_EQ(cdk::json::describe_bad_document(7, scan_both(nested(101))),
            "Document 7 cannot be stored: JSON nesting deeper than 100 levels (MySQL's limit) at "
            "offset 104");
}

} // namespace

namespace {

TEST(IdScan, TypeNamesForMessages) {
  using cdk::json::describe;
  EXPECT_STREQ(describe(value_type::null), "null");
  EXPECT_STREQ(describe(value_type::boolean), "a boolean");
  EXPECT_STREQ(describe(value_type::number), "a number");
  EXPECT_STREQ(describe(value_type::string), "a string");
  EXPECT_STREQ(describe(value_type::object), "an object");
  EXPECT_STREQ(describe(value_type::array), "an array");
}

} // namespace

namespace {

// RapidJSON's words misled: a raw tab was an "Invalid escape character", a
// NUL byte a missing quotation mark or an empty document, UTF-16 an
// "Invalid value at offset 0".
TEST(IdScan, ErrorsNameControlCharactersNulBytesAndOtherEncodings) {
  using namespace std::string_literals;
  const struct {
    std::string doc;
    const char* words;
  } cases[] = {
      {"{\"a\":\"x\ty\"}", "a control character (a tab, a line break or another byte below 0x20) "
                           "inside a string"},
      {"{\"a\":\"x\0y\"}"s, "a NUL byte"},
      {"\0{}"s, "a NUL byte among the first bytes: the text looks like UTF-16 or UTF-32"},
      {"\xff\xfe{\0}\0"s, "a UTF-16 byte order mark: the text is UTF-16"},
      {"\xfe\xff\0{\0}"s, "a UTF-16 byte order mark"},
      {"\xff\xfe\0\0{\0\0\0"s, "a UTF-32 byte order mark"},
      {"\xef\xbb\xbf{}", "a UTF-8 byte order mark, which JSON does not allow"},
      {"{\0\"\0a\0\"\0"s, "a NUL byte"},
  };
  for (const auto& c : cases) {
    const auto scan = scan_both(c.doc);
    ASSERT_EQ(scan.status, id_scan_status::invalid_json);
    const std::string said = cdk::json::describe_bad_document(1, scan);
    EXPECT_NE(said.find(c.words), std::string::npos) << said;
  }
}

} // namespace
