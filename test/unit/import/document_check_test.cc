#include "document_check.h"

#include <gtest/gtest.h>

namespace {

using mysqlx_import::check_document;

TEST(DocumentCheck, ObjectsPass) {
  const auto r = check_document(R"({"a":[1,{"_id":"inner"}],"b":"é"})");
  EXPECT_TRUE(r.ok) << r.reason;
  EXPECT_FALSE(r.has_id); // only a top-level _id counts
}

TEST(DocumentCheck, TopLevelIdIsFound) {
  auto r = check_document(R"({"a":{"_id":1},"_id":"k-\"1\""})");
  ASSERT_TRUE(r.ok) << r.reason;
  EXPECT_TRUE(r.has_id);
  EXPECT_TRUE(r.id_is_string);
  EXPECT_EQ(r.id, "k-\"1\"");
  r = check_document(R"({"_id":42})");
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(r.has_id);
  EXPECT_FALSE(r.id_is_string);
  r = check_document(R"({"\u005fid":"esc"})"); // the server sees the unescaped name
  EXPECT_TRUE(r.has_id);
  EXPECT_EQ(r.id, "esc");
}

TEST(DocumentCheck, NonObjectsSayWhatTheyAre) {
  EXPECT_EQ(check_document("[1,2]").reason, "not a JSON object (an array)");
  EXPECT_EQ(check_document(" 12").reason, "not a JSON object (a number)");
  EXPECT_EQ(check_document("\"s\"").reason, "not a JSON object (a string)");
  EXPECT_EQ(check_document("null").reason, "not a JSON object (null)");
  EXPECT_EQ(check_document("true").reason, "not a JSON object (a boolean)");
}

TEST(DocumentCheck, InvalidJsonGivesReasonAndOffset) {
  auto r = check_document(R"({"a" 1})");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.reason, "not valid JSON: Missing a colon after a name of object member at offset 5");
  r = check_document(R"({"a":1} {"b":2})");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.reason.find("not valid JSON"), std::string::npos);
  r = check_document("{\"a\":\"\xff\"}");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.reason.find("Invalid encoding"), std::string::npos) << r.reason;
  r = check_document(std::string("{\"a\":1}\0{", 9));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.reason.find("NUL"), std::string::npos) << r.reason;
}

// Issue 33, item 11: a NUL byte inside a line is named, with its offset
// (from 0, as the parser's), not reported as a missing quotation mark or an
// empty document.
TEST(DocumentCheck, NulByteIsNamedWithItsOffset) {
  auto r = check_document(std::string("{\"a\":\"x\0y\"}", 11));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.reason, "not valid JSON: a NUL byte at offset 7") << r.reason;
  r = check_document(std::string("\0{\"a\":1}", 8));
  EXPECT_EQ(r.reason, "not valid JSON: a NUL byte at offset 0") << r.reason;
}

// Issue 33, item 2: the _id as the collection keys it, which orders the
// batches that share one under -j: a string's value, an integer's digits
// (5 and "5" are the same key), nothing for other values.
TEST(DocumentCheck, IdKeyIsTheStoredKey) {
  EXPECT_EQ(check_document(R"({"_id":"a5"})").id_key, "a5");
  EXPECT_EQ(check_document(R"({"_id":5})").id_key, "5");
  EXPECT_EQ(check_document(R"({"_id":"5"})").id_key, "5");
  EXPECT_EQ(check_document(R"({"_id":-12345678901})").id_key, "-12345678901");
  EXPECT_EQ(check_document(R"({"_id":18446744073709551615})").id_key, "18446744073709551615");
  EXPECT_EQ(check_document(R"({"_id":5.5})").id_key, "");
  EXPECT_EQ(check_document(R"({"_id":true})").id_key, "");
  EXPECT_EQ(check_document(R"({"n":5,"x":{"_id":5}})").id_key, "");
}

// The library refuses a second top-level _id too, but names the document by
// its place in the batch counted from 0; checked here, it is named by its
// line and can be skipped. A nested second _id is a different member.
TEST(DocumentCheck, TwoTopLevelIdsAreRefused) {
  auto r = mysqlx_import::check_document(R"({"_id":"a","n":1,"_id":"b"})");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.reason,
            "more than one top-level _id (the server would test the first and store the last)");
  r = mysqlx_import::check_document(R"({"_id":"a","x":{"_id":"b"}})");
  EXPECT_TRUE(r.ok) << r.reason;
  EXPECT_EQ(r.id, "a");
}

} // namespace
