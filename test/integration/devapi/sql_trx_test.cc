// Transactions opened and closed through sql() decide how a split add()
// runs (devapi/sql_trx.h): inside the application's transaction it opens
// none of its own (START TRANSACTION would commit the application's work),
// outside one it wraps its parts in its own so that a failing part leaves
// nothing. Each test here fails if the session does not follow the SQL it
// sends: the rows either survive the application's ROLLBACK or a failed add
// leaves its first parts behind.
// The server (fixture xserver_dvsmall) takes messages of at most 1 MiB, and
// the session is told so: 1000 documents of 4 KiB need several parts.
#include "it_common.h"

using namespace mysqlx;

namespace {

class SqlTrxTest : public ::testing::Test {
protected:
  void SetUp() override {
    m_sess = std::make_unique<Session>(devapi_it::env_uri("MYSQLX_TEST_URI_SMALL") +
                                       "?max-message-size=1048576");
    m_schema = devapi_it::test_schema("dv_sqltrx");
    m_sess->createSchema(m_schema, true);
    Schema db = m_sess->getSchema(m_schema);
    db.dropCollection("c");
    m_coll = std::make_unique<Collection>(db.createCollection("c"));
  }
  // n documents of about 4 KiB each: n = 1000 is 4 MB, four parts or more.
  static std::vector<std::string> docs(std::size_t n) {
    std::vector<std::string> out;
    const std::string pad(4000, 'p');
    for (std::size_t i = 0; i < n; ++i)
      out.push_back("{\"i\": " + std::to_string(i) + ", \"pad\": \"" + pad + "\"}");
    return out;
  }
  // The same, with a duplicate of an existing _id as the last document: the
  // last part fails with 5116 after the first parts were inserted.
  std::vector<std::string> docs_failing_late(std::size_t n) {
    m_coll->add(R"({"_id": "taken", "i": -1})").execute();
    auto all = docs(n);
    all.back() = R"({"_id": "taken", "i": 1})";
    return all;
  }
  void expect_add_fails(const std::vector<std::string>& all) {
    try {
      m_coll->add(all).execute();
      ADD_FAILURE() << "the duplicate _id was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), 5116u) << e.what();
    }
  }
  std::uint64_t count() { return devapi_it::count_rows(*m_sess, m_schema, "c"); }
  // Rows another session sees: only committed ones.
  std::uint64_t committed_count() {
    Session other(devapi_it::env_uri("MYSQLX_TEST_URI_SMALL"));
    return devapi_it::count_rows(other, m_schema, "c");
  }

  std::string m_schema;
  std::unique_ptr<Session> m_sess;
  std::unique_ptr<Collection> m_coll;
};

TEST_F(SqlTrxTest, StartTransactionThroughSqlThenRollbackLeavesNothing) {
  m_sess->sql("START TRANSACTION").execute();
  m_coll->add(docs(1000)).execute();
  EXPECT_EQ(count(), 1000u);        // visible inside the transaction...
  EXPECT_EQ(committed_count(), 0u); // ...and not committed by the add
  m_sess->sql("ROLLBACK").execute();
  EXPECT_EQ(count(), 0u);
}

TEST_F(SqlTrxTest, BeginWithACommentThenCommitKeepsEverything) {
  m_sess->sql("/* app */ BEGIN").execute();
  m_coll->add(docs(1000)).execute();
  EXPECT_EQ(committed_count(), 0u);
  m_sess->sql("COMMIT").execute();
  EXPECT_EQ(committed_count(), 1000u);
}

TEST_F(SqlTrxTest, AutocommitOffThenRollbackLeavesNothing) {
  m_sess->sql("SET autocommit = 0").execute();
  m_coll->add(docs(1000)).execute();
  EXPECT_EQ(count(), 1000u);
  EXPECT_EQ(committed_count(), 0u);
  m_sess->sql("ROLLBACK").execute();
  EXPECT_EQ(count(), 0u);
  m_sess->sql("SET autocommit = 1").execute();
}

TEST_F(SqlTrxTest, AutocommitOffStaysAfterCommit) {
  // With autocommit off, COMMIT ends one transaction and the next statement
  // opens another: a later split add still belongs to the application.
  m_sess->sql("SET @@session.autocommit = OFF").execute();
  m_sess->sql("COMMIT").execute();
  m_coll->add(docs(1000)).execute();
  EXPECT_EQ(committed_count(), 0u);
  m_sess->sql("ROLLBACK").execute();
  EXPECT_EQ(count(), 0u);
  m_sess->sql("SET autocommit = 1").execute();
}

TEST_F(SqlTrxTest, WithoutATransactionAFailingPartLeavesNothing) {
  const auto all = docs_failing_late(1000);
  expect_add_fails(all);
  EXPECT_EQ(count(), 1u);
}

// A transaction the session knew of, ended through SQL: the add must open
// its own again, or its first parts would commit one by one.
struct ending {
  const char* name;
  bool start_api;               // opened by startTransaction(), not SQL
  std::vector<std::string> sql; // what ends it
};

void PrintTo(const ending& e, std::ostream* os) {
  *os << e.name;
}

class SqlTrxEnded : public SqlTrxTest, public ::testing::WithParamInterface<ending> {};

TEST_P(SqlTrxEnded, AFailingPartLeavesNothing) {
  const auto all = docs_failing_late(1000);
  if (GetParam().start_api) m_sess->startTransaction();
  for (std::string sql : GetParam().sql) {
    const auto at = sql.find("$SCHEMA");
    if (at != std::string::npos) sql.replace(at, 7, m_schema);
    m_sess->sql(sql).execute();
  }
  expect_add_fails(all);
  EXPECT_EQ(count(), 1u);
}

const ending endings[] = {
    {"Commit", true, {"COMMIT"}},
    {"RollbackWork", true, {"rollback work"}},
    // DDL commits implicitly (IF NOT EXISTS: each test case has its schema,
    // but a rerun finds the table).
    {"Ddl", true, {"CREATE TABLE IF NOT EXISTS `$SCHEMA`.t (a INT)"}},
    {"SqlBeginThenCommit", false, {"BEGIN", "COMMIT"}},
    // autocommit back on commits, and each statement is its own again.
    {"AutocommitBackOn", false, {"SET autocommit = 0", "SET autocommit = 1"}},
    {"StartedAutocommitBackOn", true, {"SET @@session.autocommit = 1"}},
};
INSTANTIATE_TEST_SUITE_P(Endings, SqlTrxEnded, ::testing::ValuesIn(endings),
                         [](const auto& info) { return std::string(info.param.name); });

TEST_F(SqlTrxTest, RollbackToASavepointKeepsTheTransactionOpen) {
  m_sess->sql("START TRANSACTION").execute();
  m_sess->sql("SAVEPOINT s").execute();
  m_sess->sql("ROLLBACK WORK TO SAVEPOINT s").execute();
  m_coll->add(docs(1000)).execute();
  EXPECT_EQ(committed_count(), 0u);
  m_sess->sql("ROLLBACK").execute();
  EXPECT_EQ(count(), 0u);
}

TEST_F(SqlTrxTest, CommitAndChainOpensTheNextTransaction) {
  m_sess->startTransaction();
  m_sess->sql("COMMIT AND CHAIN").execute();
  m_coll->add(docs(1000)).execute();
  EXPECT_EQ(committed_count(), 0u);
  m_sess->sql("ROLLBACK").execute();
  EXPECT_EQ(count(), 0u);
}

} // namespace
