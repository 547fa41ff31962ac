// The connector's prepared-statement promises, seen from the server: a
// second session reads performance_schema.prepared_statements_instances,
// where xserverd (as MySQL) keeps one row per prepared statement with its
// SQL_TEXT and COUNT_EXECUTE. The first execution of a statement object is
// plain, the second prepares it, later ones (new values, new limit/offset)
// reuse it; a changed statement is prepared again under its id, and a
// destroyed one's id is taken by the next Prepare (Connector/C++ 8's rules);
// a pooled session leaves nothing behind once its connection is reused or
// closed.
// 8.0 mode (5.7 has no Prepare).
#include "devapi/test_hooks.h"
#include "it_common.h"
#include "server_statements.h"

using namespace mysqlx;
using devapi_it::connection_id;
using devapi_it::server_statement;
using devapi_it::statements_of;

namespace {

std::string uri80() {
  return devapi_it::env_uri("MYSQLX_TEST_URI_80");
}

std::vector<int> ns_of(DocResult r) {
  std::vector<int> out;
  for (DbDoc d : r.fetchAll()) out.push_back(d["n"].get<int>());
  return out;
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

class PreparedServerSide : public ::testing::Test {
protected:
  void SetUp() override {
    m_schema = devapi_it::test_schema("dv_psrv");
    m_sess = std::make_unique<Session>(uri80());
    m_watch = std::make_unique<Session>(uri80());
    m_sess->createSchema(m_schema, true);
    Schema db = m_sess->getSchema(m_schema);
    db.dropCollection("c");
    m_coll = std::make_unique<Collection>(db.createCollection("c"));
    CollectionAdd add = m_coll->add();
    for (int n = 1; n <= 10; ++n) add.add("{\"n\": " + std::to_string(n) + "}");
    add.execute();
    m_conn = connection_id(*m_sess);
  }
  // What the server holds for m_sess (once `executions` are counted).
  std::vector<server_statement> held(std::uint64_t executions = 0) {
    return statements_of(*m_watch, m_conn, executions);
  }

  std::string m_schema;
  std::unique_ptr<Session> m_sess;
  std::unique_ptr<Session> m_watch;
  std::unique_ptr<Collection> m_coll;
  std::int64_t m_conn = 0;
};

TEST_F(PreparedServerSide, TheSecondExecutionPreparesOneStatementThatLaterOnesReuse) {
  CollectionFind f = m_coll->find("n >= :min").sort("n");
  EXPECT_EQ(ns_of(f.bind("min", 1).limit(2).execute()), (std::vector<int>{1, 2}));
  EXPECT_TRUE(held().empty()) << "the first execution is plain";
  EXPECT_EQ(ns_of(f.bind("min", 3).limit(2).execute()), (std::vector<int>{3, 4}));
  const auto second = held(1);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_TRUE(starts_with(second[0].sql_text, "SELECT doc FROM `" + m_schema + "`.`c` WHERE "))
      << second[0].sql_text;
  EXPECT_NE(second[0].sql_text.find('?'), std::string::npos) << second[0].sql_text;
  EXPECT_EQ(second[0].executions, 1u);
  // New values, a new limit and an offset: the same statement runs again.
  EXPECT_EQ(ns_of(f.bind("min", 5).limit(3).offset(1).execute()), (std::vector<int>{6, 7, 8}));
  EXPECT_EQ(ns_of(f.bind("min", 2).limit(1).offset(0).execute()), (std::vector<int>{2}));
  const auto fourth = held(3);
  ASSERT_EQ(fourth.size(), 1u);
  EXPECT_EQ(fourth[0].sql_text, second[0].sql_text);
  EXPECT_EQ(fourth[0].executions, 3u);
}

TEST_F(PreparedServerSide, ModifyAndRemoveArePreparedOnTheirSecondRunToo) {
  CollectionModify m = m_coll->modify("n = :n").set("seen", true);
  CollectionRemove r = m_coll->remove("n > :min").sort("n").limit(1);
  for (int n : {1, 2, 3}) EXPECT_EQ(m.bind("n", n).execute().getAffectedItemsCount(), 1u) << n;
  for (int i = 0; i < 3; ++i) EXPECT_EQ(r.bind("min", 7).execute().getAffectedItemsCount(), 1u);
  const auto h = held(4);
  ASSERT_EQ(h.size(), 2u);
  EXPECT_TRUE(starts_with(h[0].sql_text, "DELETE FROM ")) << h[0].sql_text;
  EXPECT_EQ(h[0].executions, 2u);
  EXPECT_TRUE(starts_with(h[1].sql_text, "UPDATE ")) << h[1].sql_text;
  EXPECT_EQ(h[1].executions, 2u);
  EXPECT_EQ(m_coll->find("seen = true").execute().count(), 3u);
  EXPECT_EQ(ns_of(m_coll->find("n > 6").sort("n").execute()), (std::vector<int>{7}));
}

TEST_F(PreparedServerSide, AChangedStatementIsPreparedAgainUnderItsId) {
  auto f = std::make_unique<CollectionFind>(m_coll->find("n = :n"));
  f->bind("n", 1).execute();
  f->bind("n", 2).execute();
  const auto before = held(1);
  ASSERT_EQ(before.size(), 1u);
  EXPECT_EQ(before[0].sql_text.find("ORDER BY"), std::string::npos) << before[0].sql_text;
  f->sort("n DESC");
  // The next execution is plain; the old statement stays until its id is
  // prepared again, by the execution after.
  EXPECT_EQ(ns_of(f->bind("n", 3).execute()), (std::vector<int>{3}));
  const auto plain = held();
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0].sql_text, before[0].sql_text);
  EXPECT_EQ(ns_of(f->bind("n", 4).execute()), (std::vector<int>{4}));
  const auto after = held(1);
  ASSERT_EQ(after.size(), 1u);
  EXPECT_NE(after[0].sql_text.find(" DESC"), std::string::npos) << after[0].sql_text;
  EXPECT_EQ(after[0].executions, 1u);
  // Destroyed: its id is free, and the next statement prepared takes it,
  // replacing the old statement on the server.
  f.reset();
  m_sess->sql("SELECT 1").execute();
  ASSERT_EQ(held().size(), 1u);
  CollectionRemove r = m_coll->remove("n = :n");
  r.bind("n", 100).execute();
  r.bind("n", 101).execute();
  const auto last = held();
  ASSERT_EQ(last.size(), 1u);
  EXPECT_TRUE(starts_with(last[0].sql_text, "DELETE FROM ")) << last[0].sql_text;
}

TEST_F(PreparedServerSide, ClosingTheSessionLeavesNoStatementBehind) {
  CollectionFind f = m_coll->find("n = :n");
  f.bind("n", 1).execute();
  f.bind("n", 2).execute();
  ASSERT_EQ(held().size(), 1u);
  m_sess->close();
  EXPECT_TRUE(held().empty());
}

TEST_F(PreparedServerSide, APooledSessionLeavesNoStatementBehind) {
  Client pool = getClient(uri80(), ClientOption::POOL_MAX_SIZE, 1);
  std::int64_t conn = 0;
  {
    Session s1 = pool.getSession();
    conn = connection_id(s1);
    Collection c1 = s1.getSchema(m_schema).getCollection("c");
    CollectionFind f = c1.find("n = :n");
    CollectionRemove r = c1.remove("n = :n");
    EXPECT_EQ(ns_of(f.bind("n", 1).execute()), (std::vector<int>{1}));
    EXPECT_EQ(ns_of(f.bind("n", 2).execute()), (std::vector<int>{2}));
    EXPECT_EQ(r.bind("n", 9).execute().getAffectedItemsCount(), 1u);
    EXPECT_EQ(r.bind("n", 10).execute().getAffectedItemsCount(), 1u);
    EXPECT_EQ(statements_of(*m_watch, conn, 2).size(), 2u);
    s1.close(); // back to the pool
  }
  // Reused: the next lease's Session.Reset drops them before it runs anything.
  Session s2 = pool.getSession();
  EXPECT_EQ(connection_id(s2), conn) << "the pool did not reuse the connection";
  EXPECT_TRUE(statements_of(*m_watch, conn).empty());
  CollectionFind g = s2.getSchema(m_schema).getCollection("c").find("n > :n");
  EXPECT_EQ(g.bind("n", 7).execute().count(), 1u);
  EXPECT_EQ(g.bind("n", 6).execute().count(), 2u);
  EXPECT_EQ(statements_of(*m_watch, conn, 1).size(), 1u);
  s2.close();
  // Closed: the pool closes its connections, and their statements go.
  pool.close();
  EXPECT_TRUE(statements_of(*m_watch, conn).empty());
}

} // namespace
