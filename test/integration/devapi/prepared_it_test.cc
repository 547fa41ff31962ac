// Prepared statements: a find / modify / remove executed again is prepared
// on the server and reused; a changed statement is prepared again under its
// id; a destroyed one's id is taken by the next Prepare, and other freed ids
// are then deallocated (Connector/C++ 8's rules, devapi/prepared.cc); a
// server that refuses Prepare gets plain execution, and the session
// remembers.
#include "devapi/test_hooks.h"
#include "it_common.h"
#include "refusing_proxy.h"

#include <chrono>

using namespace mysqlx;
using detail::prepared_stats_of;
using devapi_it::config;

class PreparedTest : public ::testing::TestWithParam<config> {
protected:
  void SetUp() override {
    m_schema = devapi_it::test_schema("dv_prep");
    m_sess = std::make_unique<Session>(devapi_it::uri_of(GetParam()));
    m_sess->createSchema(m_schema, true);
    Schema db = m_sess->getSchema(m_schema);
    db.dropCollection("c");
    m_coll = std::make_unique<Collection>(db.createCollection("c"));
    m_coll->add(R"({"_id": "a", "n": 1})", R"({"_id": "b", "n": 2})", R"({"_id": "c", "n": 3})")
        .execute();
  }
  // On 8.0 the statement is prepared; 5.7 has no Prepare (xserverd answers
  // 1047, as MySQL 5.7 does), so the session falls back once and remembers.
  void expect_prepared_once() {
    const auto st = prepared_stats_of(*m_sess);
    if (std::string(GetParam().uri_env) == "MYSQLX_TEST_URI_80") {
      EXPECT_EQ(st.prepared, 1u);
      EXPECT_TRUE(st.supported);
    } else {
      EXPECT_EQ(st.prepared, 0u);
      EXPECT_EQ(st.refused, 1u);
      EXPECT_FALSE(st.supported);
    }
  }
  std::string m_schema;
  std::unique_ptr<Session> m_sess;
  std::unique_ptr<Collection> m_coll;
};

TEST_P(PreparedTest, FindRunAgainIsPreparedOnceAndExecutedWithNewValues) {
  CollectionFind f = m_coll->find("n >= :min").sort("n");
  EXPECT_EQ(f.bind("min", 1).execute().count(), 3u);
  EXPECT_EQ(prepared_stats_of(*m_sess).prepared, 0u); // the first run is plain
  EXPECT_EQ(f.bind("min", 2).execute().count(), 2u);
  DocList last = f.bind("min", 3).execute().fetchAll();
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0]["_id"].get<std::string>(), "c");
  expect_prepared_once();
  const auto st = prepared_stats_of(*m_sess);
  if (st.prepared == 1) {
    EXPECT_EQ(st.executed, 2u); // Execute, twice, never a second Prepare
  }
}

TEST_P(PreparedTest, AChangedStatementIsPreparedAgainUnderItsId) {
  CollectionFind f = m_coll->find("n > 0");
  f.execute();
  f.execute();
  const auto before = prepared_stats_of(*m_sess);
  f.sort("n DESC").limit(1); // changed: run plainly, then prepared afresh
  EXPECT_EQ(f.execute().fetchOne()["_id"].get<std::string>(), "c");
  EXPECT_EQ(f.execute().fetchOne()["_id"].get<std::string>(), "c");
  EXPECT_EQ(f.execute().fetchOne()["_id"].get<std::string>(), "c");
  const auto after = prepared_stats_of(*m_sess);
  if (before.prepared == 1) {
    // Its Prepare reuses the freed id, replacing the old statement: no Deallocate.
    EXPECT_EQ(after.prepared, 2u);
    EXPECT_EQ(after.deallocated, 0u);
    EXPECT_EQ(after.executed, 3u); // 2nd, 4th and 5th runs
  } else {
    EXPECT_EQ(after.prepared, 0u);
  }
}

TEST_P(PreparedTest, ADestroyedStatementsIdIsTakenByTheNextPrepare) {
  {
    CollectionRemove r = m_coll->remove("_id = :id");
    CollectionFind f = m_coll->find("_id = :id");
    EXPECT_EQ(f.bind("id", "a").execute().count(), 1u);
    EXPECT_EQ(f.bind("id", "b").execute().count(), 1u);
    EXPECT_EQ(r.bind("id", "a").execute().getAffectedItemsCount(), 1u);
    EXPECT_EQ(r.bind("id", "b").execute().getAffectedItemsCount(), 1u);
  } // both ids freed; the statements stay prepared until an id is needed
  const bool prepares = prepared_stats_of(*m_sess).prepared == 2;
  EXPECT_EQ(m_coll->count(), 1u);
  EXPECT_EQ(prepared_stats_of(*m_sess).deallocated, 0u);
  CollectionModify m = m_coll->modify("_id = :id").set("seen", true);
  m.bind("id", "c").execute();
  m.bind("id", "c").execute(); // takes the smallest freed id; the other is deallocated
  const auto st = prepared_stats_of(*m_sess);
  EXPECT_EQ(st.prepared, prepares ? 3u : 0u);
  EXPECT_EQ(st.deallocated, prepares ? 1u : 0u);
  EXPECT_EQ(m_coll->find("seen = true").execute().count(), 1u);
}

TEST_P(PreparedTest, ModifyRunAgainUpdatesEachBoundDocument) {
  CollectionModify m = m_coll->modify("_id = :id").set("seen", true);
  for (const char* id : {"a", "b", "c"})
    EXPECT_EQ(m.bind("id", id).execute().getAffectedItemsCount(), 1u) << id;
  expect_prepared_once();
  EXPECT_EQ(m_coll->find("seen = true").execute().count(), 3u);
}

// A copy shares the prepared statement, as in Connector/C++ 8, until one of
// them changes; then the changed one prepares under an id of its own.
TEST_P(PreparedTest, ACopySharesThePreparedStatementUntilItChanges) {
  CollectionFind f = m_coll->find("n = :n");
  f.bind("n", 1).execute();
  f.bind("n", 1).execute();
  CollectionFind g = f;
  EXPECT_EQ(g.bind("n", 2).execute().fetchOne()["_id"].get<std::string>(), "b");
  expect_prepared_once(); // g executes f's statement
  g.fields("_id");
  EXPECT_EQ(g.bind("n", 3).execute().fetchOne()["_id"].get<std::string>(), "c");
  EXPECT_EQ(g.bind("n", 3).execute().fetchOne()["_id"].get<std::string>(), "c");
  EXPECT_EQ(f.bind("n", 1).execute().fetchOne()["_id"].get<std::string>(), "a");
  const auto st = prepared_stats_of(*m_sess);
  if (st.supported) {
    EXPECT_EQ(st.prepared, 2u); // f's, then g's own
    EXPECT_EQ(st.executed, 4u);
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, PreparedTest, ::testing::ValuesIn(devapi_it::configs),
                         [](const auto& info) { return std::string(info.param.name); });

// A server that refuses Mysqlx.Prepare.Prepare with 1047, as MySQL 5.7
// does: a proxy in front of the 8.0-mode xserverd answers every Prepare
// itself. The statements still work, and only one Prepare is ever tried.
TEST(PreparedFallbackTest, ARefusedPrepareFallsBackAndTheSessionRemembers) {
  devapi_it::refusing_proxy proxy(devapi_it::env_uri("MYSQLX_TEST_URI_80"));
  Session s(proxy.uri() + "?ssl-mode=DISABLED&compression=DISABLED");
  s.createSchema("dv_prep_refused", true);
  Schema db = s.getSchema("dv_prep_refused");
  db.dropCollection("c");
  Collection c = db.createCollection("c");
  c.add(R"({"_id": "a", "n": 1})", R"({"_id": "b", "n": 2})").execute();
  CollectionFind f = c.find("n >= :min");
  for (int round = 0; round < 3; ++round)
    EXPECT_EQ(f.bind("min", 1).execute().count(), 2u) << round;
  CollectionRemove r = c.remove("_id = :id");
  EXPECT_EQ(r.bind("id", "a").execute().getAffectedItemsCount(), 1u);
  EXPECT_EQ(r.bind("id", "b").execute().getAffectedItemsCount(), 1u);
  const auto st = prepared_stats_of(s);
  EXPECT_EQ(proxy.prepares_refused(), 1);
  EXPECT_EQ(st.refused, 1u);
  EXPECT_FALSE(st.supported);
  EXPECT_EQ(st.prepared, 0u);
  EXPECT_EQ(st.executed, 0u);
  EXPECT_EQ(c.count(), 0u);
}

// Table statements follow the same rules as the collection ones.
TEST_P(PreparedTest, TableSelectAndUpdateRunAgainArePrepared) {
  m_sess->sql("DROP TABLE IF EXISTS `" + m_schema + "`.t").execute();
  m_sess->sql("CREATE TABLE `" + m_schema + "`.t (id INT PRIMARY KEY, v INT)").execute();
  m_sess->sql("INSERT INTO `" + m_schema + "`.t VALUES (1, 10), (2, 20), (3, 30)").execute();
  Table t = m_sess->getSchema(m_schema).getTable("t");
  TableSelect sel = t.select("v").where("id = :id");
  for (int id : {1, 2, 3})
    EXPECT_EQ(sel.bind("id", id).execute().fetchOne()[0].get<int>(), id * 10) << id;
  expect_prepared_once();
  TableUpdate upd = t.update().set("v", 0).where("id = :id");
  upd.bind("id", 1).execute();
  upd.bind("id", 2).execute();
  EXPECT_EQ(sel.bind("id", 2).execute().fetchOne()[0].get<int>(), 0);
  EXPECT_EQ(sel.bind("id", 3).execute().fetchOne()[0].get<int>(), 30);
}

// Issue 34: a statement whose Prepare the server refuses (its collection
// does not exist yet) works once the collection exists: the refused
// Prepare leaves it in a state from which it prepares again, for execute()
// and executeAsync() alike. It used to send Execute for an id never
// prepared, failing with 5110 on every later run.
TEST_P(PreparedTest, AStatementWhosePrepareWasRefusedWorksOnceTheErrorIsGone) {
  for (const bool async : {false, true}) {
    SCOPED_TRACE(async ? "executeAsync()" : "execute()");
    Schema db = m_sess->getSchema(m_schema);
    db.dropCollection("later");
    CollectionFind f = db.getCollection("later").find("_id = :k");
    auto run = [&](const char* key) {
      return async ? f.bind("k", key).executeAsync().get().count()
                   : f.bind("k", key).execute().count();
    };
    for (int i = 0; i < 2; ++i) { // plain, then the Prepare: both refused
      try {
        run("a");
        ADD_FAILURE() << "run " << i << " found a collection that does not exist";
      } catch (const Error& e) {
        EXPECT_EQ(e.code(), 1146u) << i << ": " << e.what();
      }
    }
    db.createCollection("later").add(R"({"_id": "a"})").execute();
    for (int i = 0; i < 3; ++i) EXPECT_EQ(run("a"), 1u) << i;
    EXPECT_EQ(run("b"), 0u);
  }
}

// The same for a modify and a remove, whose replies are read whole.
TEST_P(PreparedTest, AModifyAndARemoveWhosePrepareWasRefusedWorkLater) {
  Schema db = m_sess->getSchema(m_schema);
  db.dropCollection("later");
  CollectionModify m = db.getCollection("later").modify("_id = :k").set("v", 1);
  CollectionRemove r = db.getCollection("later").remove("_id = :k");
  for (int i = 0; i < 2; ++i) {
    EXPECT_THROW(m.bind("k", "a").execute(), Error) << i;
    EXPECT_THROW(r.bind("k", "a").executeAsync().get(), Error) << i;
  }
  db.createCollection("later").add(R"({"_id": "a"})", R"({"_id": "b"})").execute();
  EXPECT_EQ(m.bind("k", "a").execute().getAffectedItemsCount(), 1u);
  EXPECT_EQ(m.bind("k", "b").execute().getAffectedItemsCount(), 1u);
  EXPECT_EQ(r.bind("k", "a").executeAsync().get().getAffectedItemsCount(), 1u);
  EXPECT_EQ(r.bind("k", "b").executeAsync().get().getAffectedItemsCount(), 1u);
}

// Issue 34, item 4: a statement the server refuses fails its future, on
// every run: executeAsync() itself throws only before anything is sent.
// The Prepare of a statement's second run used to be thrown by
// executeAsync().
TEST_P(PreparedTest, ARefusedPrepareFailsTheFutureNotExecuteAsync) {
  Schema db = m_sess->getSchema(m_schema);
  db.dropCollection("later");
  CollectionFind f = db.getCollection("later").find("_id = :k");
  for (int i = 0; i < 3; ++i) {
    Future<DocResult> fut;
    ASSERT_NO_THROW(fut = f.bind("k", "a").executeAsync()) << i;
    ASSERT_TRUE(fut.valid());
    EXPECT_EQ(fut.wait_for(std::chrono::seconds(10)), future_status::ready) << i;
    try {
      fut.get();
      ADD_FAILURE() << i << ": the find succeeded";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), 1146u) << i << ": " << e.what();
    }
  }
}
