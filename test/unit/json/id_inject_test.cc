#include "cdk/json/id_inject.h"
#include "cdk/json/id_scan.h"
#include "cdk/json/json_string.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <string>

namespace {

// Re-parses `json` with RapidJSON's DOM: the result must be an object whose
// `_id` member is the string `id`, and it must keep every member of `doc`.
void expect_valid_with_id(const std::string& json, const std::string& doc, const std::string& id) {
  rapidjson::Document out;
  out.Parse(json.data(), json.size());
  ASSERT_FALSE(out.HasParseError()) << json;
  ASSERT_TRUE(out.IsObject()) << json;
  ASSERT_TRUE(out.HasMember("_id")) << json;
  ASSERT_TRUE(out["_id"].IsString()) << json;
  EXPECT_EQ(std::string(out["_id"].GetString(), out["_id"].GetStringLength()), id) << json;

  rapidjson::Document in;
  in.Parse(doc.data(), doc.size());
  ASSERT_TRUE(in.IsObject());
  EXPECT_EQ(out.MemberCount(), in.MemberCount() + 1) << json;
  for (auto& m : in.GetObject()) {
    ASSERT_TRUE(out.HasMember(m.name)) << json;
    EXPECT_TRUE(out[m.name] == m.value) << json;
  }
  // And our own scanner agrees: the injected id is the first top-level `_id`.
  const auto scan = cdk::json::scan_for_id(json);
  ASSERT_EQ(scan.status, cdk::json::id_scan_status::has_id);
  EXPECT_FALSE(scan.duplicate_id);
}

TEST(Inject, SplicesAfterOpeningBrace) {
  const auto r = cdk::json::with_id(R"({"a":1})", "0123");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value(), R"({"_id":"0123","a":1})");
}

TEST(Inject, EmptyObjectGetsNoTrailingComma) {
  EXPECT_EQ(cdk::json::with_id("{}", "x").value(), R"({"_id":"x"})");
  EXPECT_EQ(cdk::json::with_id(" \n{ \t}\n", "x").value(), " \n{\"_id\":\"x\" \t}\n");
}

TEST(Inject, KeepsLeadingWhitespaceAndRestVerbatim) {
  const std::string doc = "\r\n\t { \"n\" : 1.50e2 , \"s\":\"\\u00e9\" }  ";
  const auto r = cdk::json::with_id(doc, "id");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value(), "\r\n\t {\"_id\":\"id\", \"n\" : 1.50e2 , \"s\":\"\\u00e9\" }  ");
}

TEST(Inject, ResultIsValidJsonWithInjectedId) {
  const std::string id = "0000019a2b3c7d4e8f1234567890abcd";
  for (const std::string doc :
       {R"({})", R"({"a":{"_id":"nested"}})", R"( {"x":[1,2,{"y":null}],"z":"\"q\""} )",
        "{\n  \"name\": \"pen\",\n  \"price\": 1.5\n}", R"({"\u005fidx":true})"}) {
    ASSERT_EQ(cdk::json::scan_for_id(doc).status, cdk::json::id_scan_status::no_id) << doc;
    const auto r = cdk::json::with_id(doc, id);
    ASSERT_TRUE(r.ok()) << doc;
    expect_valid_with_id(r.value(), doc, id);
  }
}

TEST(Inject, UserIdsAreEscaped) {
  const std::string ids[] = {"a\"b",        "back\\slash", "tab\there", std::string("nul\0x", 5),
                             "caf\xc3\xa9", "\x1f"};
  for (const std::string& id : ids) {
    const auto r = cdk::json::with_id(R"({"k":1})", id);
    ASSERT_TRUE(r.ok());
    expect_valid_with_id(r.value(), R"({"k":1})", id);
  }
}

TEST(Inject, AppendsToCallersBuffer) {
  std::string buffer = "prefix|";
  ASSERT_TRUE(cdk::json::append_with_id(buffer, "{}", "a").ok());
  buffer += '|';
  ASSERT_TRUE(cdk::json::append_with_id(buffer, R"({"b":2})", "c").ok());
  EXPECT_EQ(buffer, R"(prefix|{"_id":"a"}|{"_id":"c","b":2})");
}

TEST(Inject, RefusesNonObjects) {
  for (const char* doc : {"[]", "", "   ", "\"{\"", "x{}"}) {
    const auto r = cdk::json::with_id(doc, "a");
    ASSERT_FALSE(r.ok()) << doc;
    EXPECT_EQ(r.err().code, cdk::client_errc::bad_document);
    EXPECT_NE(r.err().message.find("not a JSON object"), std::string::npos);
  }
}

TEST(JsonString, Utf8Validation) {
  EXPECT_TRUE(cdk::json::is_valid_utf8(""));
  EXPECT_TRUE(cdk::json::is_valid_utf8("plain ascii"));
  EXPECT_TRUE(cdk::json::is_valid_utf8("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80")); // é € 😀
  EXPECT_FALSE(cdk::json::is_valid_utf8("\xc3"));                                // truncated
  EXPECT_FALSE(cdk::json::is_valid_utf8("\xc0\xaf"));                            // overlong '/'
  EXPECT_FALSE(cdk::json::is_valid_utf8("\xed\xa0\x80"));                        // surrogate U+D800
  EXPECT_FALSE(cdk::json::is_valid_utf8("\xf4\x90\x80\x80"));                    // above U+10FFFF
  EXPECT_FALSE(cdk::json::is_valid_utf8("\x80"));     // lone continuation
  EXPECT_FALSE(cdk::json::is_valid_utf8("\xe2\x82")); // truncated at the end
}

TEST(JsonString, SizeMatchesOutput) {
  for (const std::string s : {"", "abc", "\"\\\n\x01", "caf\xc3\xa9"}) {
    std::string out;
    cdk::json::append_json_string(out, s);
    EXPECT_EQ(out.size(), cdk::json::json_string_size(s)) << s;
  }
}

} // namespace
