// mysqlx::string: UTF-8 storage, conversions from and to UTF-16 / UTF-32 /
// wide text, comparisons and find() with every kind of text, and Values made
// from and read as such text, as code written for Connector/C++ 8 uses them.
#include <gtest/gtest.h>
#include <map>
#include <mysqlx/error.h>
#include <mysqlx/string.h>
#include <mysqlx/value.h>
#include <set>
#include <string>
#include <unordered_set>

namespace {

using mysqlx::string;
using mysqlx::Value;

// "Rafał 😀": one two-byte character, and one outside the BMP (a surrogate
// pair in UTF-16, four bytes in UTF-8).
const std::string utf8_text = "Rafa\xc5\x82 \xf0\x9f\x98\x80";

TEST(String, ConvertsFromEveryKindOfText) {
  EXPECT_EQ(static_cast<const std::string&>(string(u"Rafa\u0142 \U0001F600")), utf8_text);
  EXPECT_EQ(static_cast<const std::string&>(string(L"Rafa\u0142 \U0001F600")), utf8_text);
  EXPECT_EQ(static_cast<const std::string&>(string(U"Rafa\u0142 \U0001F600")), utf8_text);
  EXPECT_EQ(string(std::u16string(u"abc")), "abc");
  EXPECT_EQ(string(std::wstring(L"abc")), "abc");
  EXPECT_EQ(string(utf8_text).size(), 11u); // UTF-8 bytes
  const char* null_text = nullptr;
  EXPECT_TRUE(string(null_text).empty());
  EXPECT_TRUE(string(static_cast<const char16_t*>(nullptr)).empty());
  string s = u"x";
  s = L"y";
  EXPECT_EQ(s, "y");
}

TEST(String, ConvertsBackLosslessly) {
  const string s(utf8_text);
  const std::u16string u16 = s;
  EXPECT_EQ(u16, u"Rafa\u0142 \U0001F600");
  EXPECT_EQ(u16.size(), 8u); // the emoji is two UTF-16 units
  const std::wstring w = s;
  EXPECT_EQ(w, L"Rafa\u0142 \U0001F600");
  EXPECT_EQ(s.to_u32string(), U"Rafa\u0142 \U0001F600");
  EXPECT_EQ(string(s.to_u16string()), s);
}

TEST(String, InvalidTextIsAnError) {
  const char16_t lone[] = {u'a', 0xd800, u'b', 0};
  try {
    (void)string(lone);
    ADD_FAILURE() << "a lone surrogate was accepted";
  } catch (const mysqlx::Error& e) {
    EXPECT_EQ(e.code(), mysqlx::errc::USAGE);
    EXPECT_NE(std::string(e.what()).find("lone surrogate at unit 2"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW((void)string(std::u32string(1, char32_t{0x110000})), mysqlx::Error);
  EXPECT_THROW((void)string("bad \xff").to_u16string(), mysqlx::Error);
}

TEST(String, ComparesWithEveryKindOfText) {
  const string s("foo");
  const std::string std_s("foo");
  EXPECT_TRUE(s == u"foo");
  EXPECT_TRUE(u"foo" == s);
  EXPECT_TRUE(s == L"foo");
  EXPECT_TRUE(s == "foo");
  EXPECT_TRUE("foo" == s);
  EXPECT_TRUE(s == std_s);
  EXPECT_TRUE(std_s == s);
  EXPECT_TRUE(s == string("foo"));
  EXPECT_TRUE(s != u"bar");
  EXPECT_TRUE(s != "fo");
  EXPECT_TRUE(string("a") < string("b")); // std::string's ordering
  std::set<string> set{"b", "a"};
  EXPECT_EQ(*set.begin(), "a");
  std::map<string, int> map{{"k", 1}};
  EXPECT_EQ(map.at("k"), 1);
  std::unordered_set<string> hashed{"x"};
  EXPECT_EQ(hashed.count("x"), 1u);
}

TEST(String, FindTakesEveryKindOfText) {
  const string s(utf8_text);
  EXPECT_EQ(s.find(u"\u0142"), 4u); // a byte position
  EXPECT_EQ(s.find(L"\U0001F600"), 7u);
  EXPECT_EQ(s.find("Rafa"), 0u);
  EXPECT_EQ(s.find('R'), 0u);
  EXPECT_EQ(s.find(u"view"), string::npos);
}

TEST(String, ValuesFromAndToText) {
  EXPECT_EQ(Value(u"Rafa\u0142 \U0001F600").get<std::string>(), utf8_text);
  EXPECT_EQ(Value(L"abc").getType(), Value::STRING);
  EXPECT_EQ(Value(std::u16string(u"abc")).get<std::string>(), "abc");
  EXPECT_EQ(Value(std::wstring(L"abc")).get<std::string>(), "abc");
  EXPECT_TRUE(Value(static_cast<const wchar_t*>(nullptr)).isNull());
  const Value v(utf8_text);
  EXPECT_EQ(v.get<std::wstring>(), L"Rafa\u0142 \U0001F600");
  EXPECT_EQ(v.get<std::u16string>(), u"Rafa\u0142 \U0001F600");
  EXPECT_TRUE(v.get<string>() == u"Rafa\u0142 \U0001F600");
  // The conversions Connector/C++ 8 code writes, none of them ambiguous.
  string assigned;
  assigned = v;
  std::string plain = v;
  const string copied = v;
  EXPECT_EQ(assigned, utf8_text);
  EXPECT_EQ(plain, utf8_text);
  EXPECT_EQ(static_cast<std::string>(v), utf8_text);
  EXPECT_TRUE(string(utf8_text) == copied);
  EXPECT_TRUE(copied == static_cast<string>(v));
}

} // namespace
