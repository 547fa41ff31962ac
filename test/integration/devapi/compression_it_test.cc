// compression-algorithms through the X DevAPI against the 8.0-mode server:
// each algorithm xserverd and the connector share is the one the session
// negotiates, and a large add() and find() go through it intact.
#include "devapi/test_hooks.h"
#include "it_common.h"

#include <cctype>
#include <functional>

using namespace mysqlx;

class CompressionTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CompressionTest, LargeAddAndFindOverTheChosenAlgorithm) {
  const std::string uri = devapi_it::env_uri("MYSQLX_TEST_URI_80");
  ASSERT_FALSE(uri.empty()) << "MYSQLX_TEST_URI_80 is not set";
  Session s(uri + "?compression=required&compression-algorithms=" + GetParam());
  EXPECT_EQ(detail::compression_of(s), GetParam());

  const std::string schema = devapi_it::test_schema("dv_comp");
  s.createSchema(schema, true);
  Schema db = s.getSchema(schema);
  db.dropCollection("c");
  Collection c = db.createCollection("c");
  // 3000 documents of ~400 bytes: over 1 MB in one add(), several
  // Compression messages' worth each way.
  std::vector<std::string> docs;
  for (int i = 0; i < 3000; ++i)
    docs.push_back(R"({"n": )" + std::to_string(i) + R"(, "text": ")" +
                   std::string(350, static_cast<char>('a' + i % 26)) + R"("})");
  Result added = c.add(docs).execute();
  EXPECT_EQ(added.getAffectedItemsCount(), docs.size());
  DocResult found = c.find().sort("n").execute();
  int n = 0;
  for (DbDoc d : found) {
    ASSERT_EQ(d["n"].get<int>(), n);
    ASSERT_EQ(d["text"].get<std::string>(), std::string(350, static_cast<char>('a' + n % 26)));
    ++n;
  }
  EXPECT_EQ(n, 3000);
  s.dropSchema(schema);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, CompressionTest,
                         ::testing::Values("zstd_stream", "lz4_message", "deflate_stream"));

// Without a list the connector asks for its first choice, zstd_stream, and
// with REQUIRED a list of only unknown names is taken when set, as
// Connector/C++ 8 takes it, and the session fails naming them.
TEST(CompressionChoice, DefaultIsZstdAndUnknownNamesAreRefused) {
  const std::string uri = devapi_it::env_uri("MYSQLX_TEST_URI_80");
  ASSERT_FALSE(uri.empty()) << "MYSQLX_TEST_URI_80 is not set";
  EXPECT_EQ(detail::compression_of(Session(uri)), "zstd_stream");
  const auto refused = [](auto&& open) {
    try {
      Session s = open();
      ADD_FAILURE() << "connected with " << detail::compression_of(s);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::COMPRESSION) << e.what();
      EXPECT_NE(std::string(e.what()).find("names no algorithm this connector knows"),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("'snappy'"), std::string::npos) << e.what();
    }
  };
  refused([&] { return Session(uri + "?compression=required&compression-algorithms=snappy"); });
  SessionSettings set(uri);
  set.set(SessionOption::COMPRESSION, CompressionMode::REQUIRED,
          SessionOption::COMPRESSION_ALGORITHMS, "snappy");
  EXPECT_EQ(set.find(SessionOption::COMPRESSION).get<int>(),
            static_cast<int>(CompressionMode::REQUIRED));
  refused([&] { return Session(set); });
}

// auth=EXTERNAL: taken when set and read back, as in Connector/C++ 8; the
// session fails naming the cause (the X Plugin has no EXTERNAL).
TEST(AuthExternal, FailsAtConnectNamingTheCause) {
  const std::string uri = devapi_it::env_uri("MYSQLX_TEST_URI_80");
  ASSERT_FALSE(uri.empty()) << "MYSQLX_TEST_URI_80 is not set";
  SessionSettings set(uri);
  set.set(SessionOption::AUTH, AuthMethod::EXTERNAL);
  EXPECT_EQ(set.find(SessionOption::AUTH).get<int>(), static_cast<int>(AuthMethod::EXTERNAL));
  for (const auto& open :
       {std::function<Session()>([&] { return Session(set); }),
        std::function<Session()>([&] { return Session(uri + "?auth=EXTERNAL"); })}) {
    try {
      Session s = open();
      ADD_FAILURE() << "connected with auth=EXTERNAL";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::AUTH_PLUGIN) << e.what();
      EXPECT_NE(std::string(e.what()).find("EXTERNAL authentication is not supported by the X "
                                           "Protocol"),
                std::string::npos)
          << e.what();
    }
  }
}

// The algorithm every default session of this run uses: zstd_stream against
// the shared fixtures, or the one a compression-style server offers
// (MYSQLX_TEST_COMPRESSION, see CMakeLists.txt).
TEST(CompressionFixture, DefaultSessionsUseTheServersAlgorithm) {
  const std::string uri = devapi_it::env_uri("MYSQLX_TEST_URI_80");
  ASSERT_FALSE(uri.empty()) << "MYSQLX_TEST_URI_80 is not set";
  std::string want = devapi_it::env_uri("MYSQLX_TEST_COMPRESSION");
  if (want.empty()) want = "zstd_stream";
  Session s(uri);
  EXPECT_EQ(detail::compression_of(s), want);
  Row status = s.sql("SHOW STATUS LIKE 'Mysqlx_compression_algorithm'").execute().fetchOne();
  for (char& c : want) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(status[1].get<std::string>(), want);
}
