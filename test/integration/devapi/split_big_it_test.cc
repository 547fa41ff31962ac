// The large split add: at least 100 MB of documents in one add()
// against a server whose maximum message size is 16 MiB (fixture
// xserver_dvbig, --max-message-size 16777216; the session is told so with
// max-message-size=16777216). Every document, every generated id and every
// byte arrives, in one transaction.
#include "it_common.h"

#include <algorithm>

using namespace mysqlx;

TEST(SplitBig, A100MegabyteAddAgainstA16MiBServerArrivesWhole) {
  Session s(devapi_it::env_uri("MYSQLX_TEST_URI_BIG") + "?max-message-size=16777216");
  Schema db = s.createSchema("dv_split_big", true);
  db.dropCollection("c");
  Collection c = db.createCollection("c");

  // 25,000 documents of about 4,100 bytes: 102.5 MB, at least 7 parts.
  const std::size_t n = 25000;
  const std::string pad(4060, 'q');
  std::vector<std::string> docs;
  docs.reserve(n);
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::string id = i % 100 == 99 ? "\"_id\": \"big" + std::to_string(i) + "\", " : "";
    docs.push_back("{" + id + "\"i\": " + std::to_string(i) + ", \"pad\": \"" + pad + "\"}");
    total += docs.back().size();
  }
  ASSERT_GE(total, 100'000'000u);

  Result r = c.add(docs).execute();
  EXPECT_EQ(r.getAffectedItemsCount(), n);
  DocIdList ids = r.getGeneratedIds();
  ASSERT_EQ(ids.size(), n - n / 100);
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end()); // unique

  Row sums = s.sql("SELECT COUNT(*), CAST(SUM(LENGTH(JSON_UNQUOTE(JSON_EXTRACT(doc, '$.pad'))))"
                   " AS UNSIGNED) FROM dv_split_big.c")
                 .execute()
                 .fetchOne();
  EXPECT_EQ(sums[0].get<std::uint64_t>(), n);
  EXPECT_EQ(sums[1].get<std::uint64_t>(), n * pad.size()); // no byte lost
  // The last generated id belongs to the last document without an _id.
  Row last = s.sql("SELECT JSON_EXTRACT(doc, '$.i') FROM dv_split_big.c WHERE _id = ?")
                 .bind(ids.back())
                 .execute()
                 .fetchOne();
  EXPECT_EQ(last[0].get<std::uint64_t>(), n - 2); // n - 1 has a user id
  db.dropCollection("c");
}
