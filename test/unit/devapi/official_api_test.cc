// What the official-API diff (issue 24, official_api_shapes.cc) added, and
// what it means: each declaration behaves as Connector/C++ 8.3's does.
#include "devapi/access.h"
#include "devapi/result_data.h"

#include <gtest/gtest.h>
#include <list>
#include <mysqlx/xdevapi.h>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace mysqlx;

TEST(OfficialApi, ThrowErrorAndOutOfRange) {
  try {
    throw_error("my own error");
    FAIL() << "throw_error() returned";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "my own error");
    EXPECT_TRUE(e.isClientError());
  }
  DbDoc doc(std::string(R"({"a": 1})"));
  EXPECT_THROW((void)doc["missing"], mysqlx::out_of_range);
  static_assert(std::is_same_v<mysqlx::out_of_range, std::out_of_range>);
}

TEST(OfficialApi, BytesIsAPairOfAddressAndLength) {
  const byte raw[] = {1, 2, 3};
  bytes b(raw, raw + 3);
  EXPECT_EQ(b.first, raw);
  EXPECT_EQ(b.second, 3u);
  bytes text("abcd");
  EXPECT_EQ(text.length(), 4u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(text.begin()), text.size()), "abcd");
  EXPECT_EQ(bytes(static_cast<const char*>(nullptr)).size(), 0u);
  bytes from_pair(std::pair<const byte*, std::size_t>(raw, 2));
  EXPECT_EQ(from_pair.end() - from_pair.begin(), 2);
  // A Value of raw bytes copies them; getRawBytes() views the copy.
  Value v(b);
  EXPECT_EQ(v.getRawBytes().second, 3u);
}

TEST(OfficialApi, ValueConvertsExplicitlyToUtf16WideAndUtf32) {
  Value v("Zoë");
  EXPECT_EQ(std::u16string(v), u"Zoë");
  EXPECT_EQ(std::wstring(v), L"Zoë");
  EXPECT_EQ(std::u32string(v), U"Zoë");
  Value::string s = v;
  EXPECT_EQ(s, u"Zoë");
  EXPECT_THROW((void)std::u16string(Value(1)), Error);
}

TEST(OfficialApi, IdAndWarningListsConvertToAnyContainer) {
  DocIdList ids(std::vector<std::string>{"b", "a", "b"});
  std::list<std::string> in_order = ids;
  std::set<std::string> unique = ids;
  EXPECT_EQ(in_order, (std::list<std::string>{"b", "a", "b"}));
  EXPECT_EQ(unique, (std::set<std::string>{"a", "b"}));
  std::vector<std::string> same = ids;
  EXPECT_EQ(same.size(), 3u);
  WarningList warnings(std::vector<Warning>{Warning(Warning::LEVEL_INFO, 1, "x")});
  std::list<Warning> as_list = warnings;
  EXPECT_EQ(as_list.front().getCode(), 1u);
}

TEST(OfficialApi, WarningLevelsCountFromZero) {
  // Programs print getLevel() as a number: 0 error, 1 warning, 2 note.
  EXPECT_EQ(static_cast<int>(Warning::LEVEL_ERROR), 0);
  EXPECT_EQ(static_cast<int>(Warning::LEVEL_WARNING), 1);
  EXPECT_EQ(static_cast<int>(Warning::LEVEL_INFO), 2);
}

Column text_column(unsigned collation_id) {
  auto data = std::make_unique<detail::column_data>();
  data->label = "name";
  data->collation_id = collation_id;
  return detail::access::make_column(std::move(data));
}

TEST(OfficialApi, ColumnCollationAndCharacterSet) {
  Column c = text_column(255);
  EXPECT_EQ(c.getCollation(), Collation<CharacterSet::utf8mb4>::uca0900_ai_ci);
  EXPECT_EQ(c.getCharacterSet(), CharacterSet::utf8mb4);
  EXPECT_STREQ(text_column(8).getCollation().getName(), "latin1_swedish_ci");
  EXPECT_EQ(text_column(63).getCharacterSet(), CharacterSet::binary);
  // A number column has none; an id MySQL 8.0.30 lacks is not made up.
  EXPECT_THROW((void)text_column(0).getCollation(), Error);
  EXPECT_THROW((void)text_column(9999).getCharacterSet(), Error);
  EXPECT_EQ(detail::find_collation(9999), nullptr);
  EXPECT_EQ(detail::find_collation(46), &Collation<CharacterSet::utf8mb4>::bin);
}

TEST(OfficialApi, OptionsAsObjectsNotOnlyEnums) {
  SessionOption user = SessionOption::USER;
  SessionSettings s(SessionOption::HOST, "h");
  s.set(user, "root", SessionOption::DB, "db");
  EXPECT_TRUE(s.has_option(user));
  EXPECT_EQ(s.find(user).get<std::string>(), "root");
  s.erase(user);
  EXPECT_FALSE(s.has_option(SessionOption::USER));
  for (const auto& [opt, value] : s) s.find(opt); // an iterated option finds its value

  ClientSettings c("mysqlx://root@h", ClientOption::POOL_MAX_SIZE, 3);
  ClientOption max = ClientOption::POOL_MAX_SIZE;
  EXPECT_EQ(c.find(max).get<int>(), 3);
  EXPECT_EQ(c.find(SessionOption::USER).get<std::string>(), "root");
  c.erase(max);
  c.erase(SessionOption::USER);
  EXPECT_FALSE(c.has_option(ClientOption::POOL_MAX_SIZE));
  EXPECT_FALSE(c.has_option(SessionOption::USER));
  ClientOption::SessionEnum host = SessionOption::HOST;
  EXPECT_EQ(OptionName(host), "HOST");
  EXPECT_EQ(OptionName(ClientOption::POOLING), "POOLING");
}

TEST(OfficialApi, ModeNamesAreTheEnumerators) {
  EXPECT_EQ(SSLModeName(SSLMode::VERIFY_IDENTITY), "VERIFY_IDENTITY");
  EXPECT_EQ(SSLModeName(SSLMode::DISABLED), "DISABLED");
  EXPECT_EQ(AuthMethodName(AuthMethod::SHA256_MEMORY), "SHA256_MEMORY");
  EXPECT_EQ(CompressionModeName(CompressionMode::PREFERRED), "PREFERRED");
  EXPECT_EQ(SSLModeName(static_cast<SSLMode>(42)), "<UNKNOWN (42)>");
}

} // namespace
