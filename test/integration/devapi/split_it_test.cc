// An add() whose Insert would exceed the maximum message size is split into
// several Inserts, pipelined in one transaction; ids and counts are merged in
// document order, and a failure in any part leaves nothing inserted.
// The server (fixture xserver_dvsmall) accepts messages of at most 1 MiB
// (--max-message-size, its mysqlx_max_allowed_packet), and the session is
// told so with max-message-size=1048576: 12 MiB of documents need 12+
// parts, and an unsplit Insert would make the server close the connection.
#include "devapi/test_hooks.h"
#include "it_common.h"

#include <algorithm>

using namespace mysqlx;
using devapi_it::config;

class SplitTest : public ::testing::TestWithParam<config> {
protected:
  void SetUp() override {
    std::string uri = devapi_it::env_uri("MYSQLX_TEST_URI_SMALL") + GetParam().query;
    uri += uri.find('?') == std::string::npos ? "?" : "&";
    m_sess = std::make_unique<Session>(uri + "max-message-size=1048576");
    m_schema = devapi_it::test_schema("dv_split");
    m_sess->createSchema(m_schema, true);
    Schema db = m_sess->getSchema(m_schema);
    db.dropCollection("c");
    m_coll = std::make_unique<Collection>(db.createCollection("c"));
  }
  // n documents of about 4 KiB; every 10th carries a user id.
  static std::vector<std::string> docs(std::size_t n, const std::string& tag) {
    std::vector<std::string> out;
    const std::string pad(4000, 'p');
    for (std::size_t i = 0; i < n; ++i) {
      std::string id = i % 10 == 9 ? "\"_id\": \"" + tag + std::to_string(i) + "\", " : "";
      out.push_back("{" + id + "\"i\": " + std::to_string(i) + ", \"pad\": \"" + pad + "\"}");
    }
    return out;
  }
  std::uint64_t count() { return devapi_it::count_rows(*m_sess, m_schema, "c"); }

  std::string m_schema;
  std::unique_ptr<Session> m_sess;
  std::unique_ptr<Collection> m_coll;
};

TEST_P(SplitTest, LargeAddIsSplitAndMergedInDocumentOrder) {
  const auto all = docs(3000, "u"); // ~12 MiB
  Result r = m_coll->add(all).execute();
  EXPECT_EQ(r.getAffectedItemsCount(), 3000u);
  DocIdList ids = r.getGeneratedIds();
  ASSERT_EQ(ids.size(), 2700u);
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  for (const auto& id : ids) ASSERT_EQ(id.size(), GetParam().id_length);
  EXPECT_EQ(count(), 3000u);
  // Document order: the k-th generated id belongs to the k-th document without one.
  auto rows = m_sess
                  ->sql("SELECT _id, JSON_EXTRACT(doc, '$.i') FROM `" + m_schema +
                        "`.c WHERE _id = ? OR _id = ?")
                  .bind(ids.front(), ids.back())
                  .execute()
                  .fetchAll();
  ASSERT_EQ(rows.size(), 2u);
  for (Row row : rows) {
    const std::int64_t i = row[1].get<std::int64_t>();
    EXPECT_EQ(i, row[0].get<std::string>() == ids.front() ? 0 : 2998);
  }
}

TEST_P(SplitTest, ADuplicateInALaterPartLeavesNothingInserted) {
  m_coll->add(R"({"_id": "taken", "i": -1})").execute();
  auto all = docs(2000, "v");
  all.back() = R"({"_id": "taken", "i": 1999})";
  try {
    m_coll->add(all).execute();
    FAIL() << "the duplicate was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), 5116u) << e.what();
  }
  EXPECT_EQ(count(), 1u);
  // The session is usable and not left in a transaction.
  m_coll->add(R"({"i": 5})").execute();
  m_sess->rollback(); // a no-op: the add above committed on its own
  EXPECT_EQ(count(), 2u);
}

TEST_P(SplitTest, InsideTheUsersTransactionTheUserDecides) {
  m_sess->startTransaction();
  m_coll->add(docs(1000, "w")).execute();
  EXPECT_EQ(count(), 1000u);
  m_sess->rollback();
  EXPECT_EQ(count(), 0u);
}

TEST_P(SplitTest, DdlEndsTheUsersTransactionSoASplitAddOpensItsOwn) {
  m_sess->startTransaction();
  // CREATE TABLE commits the open transaction: the session must know it, or
  // the add below would run its parts with no transaction around them.
  m_sess->getSchema(m_schema).createCollection("other", true);
  m_coll->add(R"({"_id": "taken", "i": -1})").execute();
  auto all = docs(2000, "x");
  all.back() = R"({"_id": "taken", "i": 1999})";
  EXPECT_THROW(m_coll->add(all).execute(), Error);
  EXPECT_EQ(count(), 1u);
}

TEST_P(SplitTest, ManySmallDocumentsNeverStallTheConnection) {
  // 300,000 documents of ~12 bytes: 5+ parts of 1 MiB, and with server ids
  // about 10 MB of GENERATED_DOCUMENT_IDS notices coming back. Were every
  // part written before any reply was read, the server would block writing
  // those replies while the client blocked writing the next part (it did:
  // this test hung). Uncompressed, since deflate shrinks the ids enough to
  // hide the problem.
  std::string uri = devapi_it::env_uri("MYSQLX_TEST_URI_SMALL") + GetParam().query;
  uri += uri.find('?') == std::string::npos ? "?" : "&";
  m_sess = std::make_unique<Session>(uri + "max-message-size=1048576&compression=disabled");
  m_coll = std::make_unique<Collection>(m_sess->getSchema(m_schema).getCollection("c"));
  std::vector<std::string> all;
  all.reserve(300000);
  for (int i = 0; i < 300000; ++i) all.push_back("{\"i\":" + std::to_string(i) + "}");
  Result r = m_coll->add(all).execute();
  EXPECT_EQ(r.getAffectedItemsCount(), all.size());
  DocIdList ids = r.getGeneratedIds();
  ASSERT_EQ(ids.size(), all.size());
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  EXPECT_EQ(count(), all.size());
}

// The split logic is the same whoever makes the ids: 8.0 server ids and
// client ids cover both ways the ids are merged.
const config small_configs[] = {devapi_it::configs[0], devapi_it::configs[2]};

TEST(SplitServer, AnUnsplitInsertAboveTheServersLimitIsRefused) {
  // Proves the fixture: without splitting (the session is told the server
  // takes 64 MiB, which wins over what it would learn), the same add fails.
  Session s(devapi_it::env_uri("MYSQLX_TEST_URI_SMALL") + "?max-message-size=67108864");
  Collection c = s.createSchema("dv_split_unsplit", true).createCollection("c", true);
  std::vector<std::string> big(400, "{\"pad\": \"" + std::string(4000, 'p') + "\"}");
  EXPECT_THROW(c.add(big).execute(), Error);
}

TEST(SplitServer, TheSessionLearnsTheServersLimitAndSplitsAtIt) {
  // No max-message-size: the connector asks @@mysqlx_max_allowed_packet.
  Session s(devapi_it::env_uri("MYSQLX_TEST_URI_SMALL"));
  Collection c =
      s.createSchema(devapi_it::test_schema("dv_learn"), true).createCollection("c", true);
  c.remove("true").execute();
  std::vector<std::string> big(400, "{\"pad\": \"" + std::string(4000, 'p') + "\"}");
  EXPECT_EQ(c.add(big).execute().getAffectedItemsCount(), 400u);
  EXPECT_EQ(detail::message_limit_of(s), 1048576u);
  // One document above it can go in no part: refused before anything is sent
  // (CR_NET_PACKET_TOO_LARGE), and the session goes on.
  EXPECT_THROW(c.add("{\"pad\": \"" + std::string(1100000, 'p') + "\"}").execute(), Error);
  EXPECT_EQ(c.count(), 400u);
}

INSTANTIATE_TEST_SUITE_P(Modes, SplitTest, ::testing::ValuesIn(small_configs),
                         [](const auto& info) { return std::string(info.param.name); });
