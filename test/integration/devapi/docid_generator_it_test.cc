// Session::setDocIdGenerator(): an application's own document ids, in the
// three configurations.
#include "it_common.h"

#include <atomic>
#include <set>

using namespace mysqlx;
using devapi_it::config;

class DocIdGeneratorTest : public ::testing::TestWithParam<config> {
protected:
  void SetUp() override {
    m_schema = devapi_it::test_schema("dv_gen");
    m_sess = std::make_unique<Session>(devapi_it::uri_of(GetParam()));
    m_sess->createSchema(m_schema, true);
    Schema db = m_sess->getSchema(m_schema);
    db.dropCollection("c");
    m_coll = std::make_unique<Collection>(db.createCollection("c", true));
  }
  std::set<std::string> stored_ids() {
    std::set<std::string> out;
    auto r = m_sess->sql("SELECT _id FROM `" + m_schema + "`.`c`").execute();
    for (Row row : r.fetchAll()) out.insert(row[0].get<std::string>());
    return out;
  }

  std::string m_schema;
  std::unique_ptr<Session> m_sess;
  std::unique_ptr<Collection> m_coll;
};

TEST_P(DocIdGeneratorTest, ApplicationIdsAreStoredAndReportedInDocumentOrder) {
  int next = 0;
  m_sess->setDocIdGenerator([&next] { return "order-" + std::to_string(++next); });
  EXPECT_EQ(m_sess->getDocIdMode(), DocIdMode::CLIENT);
  Result r = m_coll->add(R"({"n": 1})", R"({"_id": "mine", "n": 2})", R"({"n": 3})").execute();
  EXPECT_EQ(r.getAffectedItemsCount(), 3u);
  EXPECT_EQ(r.getGeneratedIds(), (DocIdList{"order-1", "order-2"}));
  EXPECT_EQ(stored_ids(), (std::set<std::string>{"order-1", "order-2", "mine"}));
  DbDoc d = m_coll->getOne("order-2");
  ASSERT_FALSE(d.isNull());
  EXPECT_EQ(d["n"].get<int>(), 3);
}

TEST_P(DocIdGeneratorTest, ABadIdFailsTheAddBeforeAnythingIsSent) {
  int next = 0;
  m_sess->setDocIdGenerator([&next]() -> std::string {
    if (++next == 2) return std::string(40, 'x');
    return "ok-" + std::to_string(next);
  });
  try {
    m_coll->add(R"({"n": 1})", R"({"n": 2})").execute();
    FAIL() << "a 40-byte id was accepted";
  } catch (const ClientError& e) {
    EXPECT_NE(std::string(e.what()).find("Document 2: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("40 bytes"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(stored_ids().empty());
  // An exception from the generator is a ClientError too; nothing is sent.
  m_sess->setDocIdGenerator([]() -> std::string { throw std::runtime_error("pool exhausted"); });
  EXPECT_THROW(m_coll->add(R"({"n": 3})").execute(), ClientError);
  EXPECT_TRUE(stored_ids().empty());
}

TEST_P(DocIdGeneratorTest, ResetGoesBackToTheSessionsOwnIds) {
  m_sess->setDocIdGenerator([] { return std::string("only-once"); });
  m_coll->add(R"({"n": 1})").execute();
  m_sess->resetDocIdGenerator();
  EXPECT_EQ(m_sess->getDocIdMode(), GetParam().mode);
  DocIdList ids = m_coll->add(R"({"n": 2})").execute().getGeneratedIds();
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_EQ(ids[0].size(), GetParam().id_length);
  EXPECT_EQ(stored_ids(), (std::set<std::string>{"only-once", ids[0]}));
}

TEST_P(DocIdGeneratorTest, ADuplicateApplicationIdIsError5116WithNothingInserted) {
  m_sess->setDocIdGenerator([] { return std::string("same"); });
  try {
    m_coll->add(R"({"n": 1})", R"({"n": 2})").execute();
    FAIL() << "two documents with _id \"same\" were accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), 5116u) << e.what();
  }
  EXPECT_TRUE(stored_ids().empty());
}

INSTANTIATE_TEST_SUITE_P(Modes, DocIdGeneratorTest, ::testing::ValuesIn(devapi_it::configs),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(DocIdGeneratorServerMode, SettingAGeneratorUnderServerModeThrows) {
  Session s(devapi_it::env_uri("MYSQLX_TEST_URI_80") + "?docid-mode=server");
  EXPECT_THROW(s.setDocIdGenerator([] { return std::string("x"); }), ClientError);
  EXPECT_EQ(s.getDocIdMode(), DocIdMode::SERVER);
}
