// compression-algorithms through the X DevAPI against the 8.0-mode server:
// each algorithm xserverd and the connector share is the one the session
// negotiates, and a large add() and find() go through it intact.
#include "devapi/test_hooks.h"
#include "it_common.h"

#include <cctype>

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
// with REQUIRED an algorithm the server does not offer is an error.
TEST(CompressionChoice, DefaultIsZstdAndUnknownNamesAreRefused) {
  const std::string uri = devapi_it::env_uri("MYSQLX_TEST_URI_80");
  ASSERT_FALSE(uri.empty()) << "MYSQLX_TEST_URI_80 is not set";
  EXPECT_EQ(detail::compression_of(Session(uri)), "zstd_stream");
  try {
    Session s(uri + "?compression=required&compression-algorithms=snappy");
    FAIL() << "connected with " << detail::compression_of(s);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::BAD_OPTION) << e.what();
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
