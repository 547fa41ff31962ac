// Collection::add() and getGeneratedIds() in the three configurations.
#include "it_common.h"

#include <algorithm>
#include <map>

using namespace mysqlx;
using devapi_it::config;

class AddTest : public ::testing::TestWithParam<config> {
protected:
  void SetUp() override {
    m_schema = devapi_it::test_schema("dv_add");
    m_sess = std::make_unique<Session>(devapi_it::uri_of(GetParam()));
    m_sess->createSchema(m_schema, true);
    Schema db = m_sess->getSchema(m_schema);
    db.dropCollection(coll_name());
    m_coll = std::make_unique<Collection>(db.createCollection(coll_name(), true));
  }
  std::string coll_name() const {
    return ::testing::UnitTest::GetInstance()->current_test_info()->name() == nullptr
               ? "c"
               : std::string("c_") +
                     std::to_string(
                         std::hash<std::string>{}(
                             ::testing::UnitTest::GetInstance()->current_test_info()->name()) %
                         100000);
  }
  std::uint64_t count() { return devapi_it::count_rows(*m_sess, m_schema, coll_name()); }
  // _id -> n of every stored document.
  std::map<std::string, std::int64_t> stored() {
    std::map<std::string, std::int64_t> out;
    auto r = m_sess
                 ->sql("SELECT _id, JSON_EXTRACT(doc, '$.n') FROM `" + m_schema + "`.`" +
                       coll_name() + "`")
                 .execute();
    for (Row row : r.fetchAll()) {
      // JSON_EXTRACT gives a JSON column: a JSON number reads as a number.
      out[row[0].get<std::string>()] = row[1].get<std::int64_t>();
    }
    return out;
  }

  std::string m_schema;
  std::unique_ptr<Session> m_sess;
  std::unique_ptr<Collection> m_coll;
};

TEST_P(AddTest, SessionReportsItsDocIdMode) {
  EXPECT_EQ(m_sess->getDocIdMode(), GetParam().mode);
  EXPECT_EQ(m_sess->serverGeneratesIds(), std::string(GetParam().name) == "server80");
}

TEST_P(AddTest, GeneratedIdsInOrderWithTheModesFormatAndIncreasingAcrossCalls) {
  Result r1 = m_coll->add(R"({"n": 1})", R"({"n": 2})", R"({"n": 3})").execute();
  EXPECT_EQ(r1.getAffectedItemsCount(), 3u);
  DocIdList ids1 = r1.getGeneratedIds();
  ASSERT_EQ(ids1.size(), 3u);
  Result r2 = m_coll->add(R"({"n": 4})").add(DbDoc(R"({"n": 5})")).execute();
  DocIdList ids2 = r2.getGeneratedIds();
  ASSERT_EQ(ids2.size(), 2u);
  std::vector<std::string> all = ids1;
  all.insert(all.end(), ids2.begin(), ids2.end());
  for (const std::string& id : all) {
    EXPECT_EQ(id.size(), GetParam().id_length) << id;
    EXPECT_TRUE(devapi_it::is_lower_hex(id)) << id;
  }
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end()); // strictly
  if (GetParam().id_length == 32) {
    EXPECT_EQ(all[0][12], '7'); // UUIDv7 version nibble
  }
  // The stored documents carry exactly the reported ids, in document order.
  auto docs = stored();
  ASSERT_EQ(docs.size(), 5u);
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(docs.at(all[i]), std::int64_t(i + 1));
}

TEST_P(AddTest, MixedUserAndGeneratedIdsReportOnlyTheGeneratedOnes) {
  Result r = m_coll
                 ->add(R"({"_id": "user-1", "n": 1})", R"({"n": 2})",
                       R"({"n": 3, "sub": {"_id": "nested"}})", R"({"_id": "user-4", "n": 4})")
                 .execute();
  DocIdList ids = r.getGeneratedIds();
  ASSERT_EQ(ids.size(), 2u);
  auto docs = stored();
  ASSERT_EQ(docs.size(), 4u);
  EXPECT_EQ(docs.at("user-1"), 1);
  EXPECT_EQ(docs.at(ids[0]), 2);
  EXPECT_EQ(docs.at(ids[1]), 3);
  EXPECT_EQ(docs.at("user-4"), 4);
  // Only user ids: nothing generated.
  EXPECT_TRUE(m_coll->add(R"({"_id": "user-5", "n": 5})").execute().getGeneratedIds().empty());
}

TEST_P(AddTest, DuplicateIdIs5116AndNothingIsInserted) {
  m_coll->add(R"({"_id": "dup", "n": 1})").execute();
  try {
    m_coll->add(R"({"n": 2})", R"({"_id": "dup", "n": 3})", R"({"n": 4})").execute();
    FAIL() << "a duplicate _id was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), 5116u) << e.what();
    EXPECT_TRUE(e.isServerError());
  }
  EXPECT_EQ(count(), 1u);
}

TEST_P(AddTest, BadDocumentsAreClientErrorsNamingTheDocumentAndNothingIsSent) {
  for (const char* bad : {R"({"n": 1,})", R"([1, 2])", "42"}) {
    try {
      m_coll->add(R"({"n": 0})", bad).execute();
      FAIL() << bad << " was accepted";
    } catch (const Error& e) {
      EXPECT_TRUE(e.isClientError());
      EXPECT_EQ(e.code(), errc::BAD_DOCUMENT);
      EXPECT_NE(std::string(e.what()).find("Document 2 "), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(count(), 0u);
  // The session is still usable.
  EXPECT_EQ(m_coll->add(R"({"n": 9})").execute().getAffectedItemsCount(), 1u);
}

// A key written with an escape is the same key: MySQL stores parsed JSON, so
// "\u005fid" is `_id` (xserverd on MariaDB used to fail with 5115).
TEST_P(AddTest, AnIdKeyWrittenWithEscapesIsTheId) {
  Result r = m_coll->add(R"({"\u005fid": "b\u0031", "n": 5, "t\u0061g": "caf\u00e9"})").execute();
  EXPECT_TRUE(r.getGeneratedIds().empty());
  EXPECT_EQ(stored(), (std::map<std::string, std::int64_t>{{"b1", 5}}));
  DbDoc d = m_coll->getOne("b1");
  ASSERT_FALSE(d.isNull());
  EXPECT_EQ(d["tag"].get<std::string>(), "caf\xc3\xa9");
  EXPECT_EQ(d["_id"].get<std::string>(), "b1");
}

TEST_P(AddTest, NonAddResultsHaveNoGeneratedIds) {
  m_coll->add(R"({"n": 1})").execute();
  EXPECT_TRUE(m_sess->sql("SELECT 1").execute().fetchAll().size() == 1);
  SqlResult r = m_sess->sql("DELETE FROM `" + m_schema + "`.`" + coll_name() + "`").execute();
  EXPECT_EQ(r.getAffectedItemsCount(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Modes, AddTest, ::testing::ValuesIn(devapi_it::configs),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(DocIdModeTest, ServerModeOn57FailsAtSessionCreation) {
  try {
    Session s(devapi_it::env_uri("MYSQLX_TEST_URI_57") + "?docid-mode=server");
    FAIL() << "docid-mode=server accepted by a 5.7 server";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::DOCID_UNSUPPORTED) << e.what();
    // The words the README quotes.
    EXPECT_NE(std::string(e.what()).find(
                  "docid-mode=server, but this server does not generate document ids (it does "
                  "not know Expect condition EXPECT_DOCID_GENERATED, as MySQL 5.7's X Plugin "
                  "does not)"),
              std::string::npos)
        << e.what();
  }
}

TEST(DocIdModeTest, IdsFromTwoClientSessionsInterleaveInTimeOrder) {
  const std::string uri = devapi_it::env_uri("MYSQLX_TEST_URI_80") + "?docid-mode=client";
  Session a(uri), b(uri);
  a.createSchema("dv_two", true);
  Collection ca = a.getSchema("dv_two").createCollection("c", true);
  Collection cb = b.getSchema("dv_two").getCollection("c");
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    for (Collection* c : {&ca, &cb}) {
      DocIdList got = c->add(R"({"n": 1})").execute().getGeneratedIds();
      ASSERT_EQ(got.size(), 1u);
      ids.push_back(got[0]);
    }
  }
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
}
