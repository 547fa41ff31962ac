// Client: a pool of sessions shared by threads.
#include "it_common.h"

#include <chrono>
#include <thread>
#include <vector>

using namespace mysqlx;
using namespace std::chrono_literals;

namespace {
std::string uri80() {
  return devapi_it::env_uri("MYSQLX_TEST_URI_80");
}
std::int64_t connection_id(Session& s) {
  return s.sql("SELECT CONNECTION_ID()").execute().fetchOne()[0].get<std::int64_t>();
}
} // namespace

TEST(ClientTest, AReturnedSessionIsReusedAfterAReset) {
  Client pool = getClient(uri80(), ClientOption::POOL_MAX_SIZE, 1);
  Session s1 = pool.getSession();
  const auto id1 = connection_id(s1);
  s1.sql("SET @v = 42").execute();
  s1.close();
  Session s2 = pool.getSession();
  EXPECT_EQ(connection_id(s2), id1);                                 // same connection
  EXPECT_TRUE(s2.sql("SELECT @v").execute().fetchOne()[0].isNull()); // state reset
}

TEST(ClientTest, AFullPoolTimesOutWithACleanError) {
  Client pool = getClient(uri80(), ClientOption::POOL_MAX_SIZE, 1, ClientOption::POOL_QUEUE_TIMEOUT,
                          std::chrono::milliseconds(200));
  Session held = pool.getSession();
  const auto start = std::chrono::steady_clock::now();
  try {
    Session again = pool.getSession();
    ADD_FAILURE() << "a second session from a pool of one";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::TIMEOUT) << e.what();
    EXPECT_GE(std::chrono::steady_clock::now() - start, 200ms); // it did wait
  }
  held.close();
  EXPECT_NO_THROW(pool.getSession()); // freed: available again
}

TEST(ClientTest, ThreadsShareASmallPool) {
  Client pool = getClient(uri80(), ClientOption::POOL_MAX_SIZE, 2);
  {
    Session setup = pool.getSession();
    Schema db = setup.createSchema("dv_client", true);
    db.dropCollection("c");
    db.createCollection("c");
  }
  std::vector<std::thread> threads;
  threads.reserve(4);
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&pool, &failures] {
      try {
        for (int i = 0; i < 5; ++i) {
          Session s = pool.getSession();
          Collection c = s.getSchema("dv_client").getCollection("c");
          if (c.add(R"({"n": 1})", R"({"n": 2})").execute().getGeneratedIds().size() != 2)
            ++failures;
        }
      } catch (const Error&) {
        ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  Session check = pool.getSession();
  EXPECT_EQ(check.getSchema("dv_client").getCollection("c").count(), 40u);
}

TEST(ClientTest, EachPoolProbesItsServer) {
  Client p80(uri80());
  Client p57(devapi_it::env_uri("MYSQLX_TEST_URI_57"));
  EXPECT_EQ(p80.getSession().getDocIdMode(), DocIdMode::SERVER);
  Session s57 = p57.getSession();
  EXPECT_EQ(s57.getDocIdMode(), DocIdMode::CLIENT);
  EXPECT_FALSE(s57.serverGeneratesIds());
}

// Connector/C++ 8: "Closing a client invalidates all sessions created from
// it"; the connection of one in use closes at its next call.
TEST(ClientTest, AClosedClientEndsItsSessionsInUse) {
  Client pool(uri80());
  Session s = pool.getSession();
  const auto id = connection_id(s);
  pool.close();
  EXPECT_THROW(pool.getSession(), Error);
  try {
    s.sql("SELECT 1").execute();
    ADD_FAILURE() << "a session of a closed client still runs statements";
  } catch (const Error& e) {
    EXPECT_TRUE(e.isClientError()) << e.what();
    EXPECT_NE(std::string(e.what()).find("its Client was closed"), std::string::npos) << e.what();
  }
  EXPECT_THROW(s.getSchema("mysql", true), Error); // and stays ended
  Session other(uri80());
  for (int i = 0; i < 50; ++i) { // the server sees the close shortly after
    auto n = other.sql("SELECT COUNT(*) FROM information_schema.processlist WHERE id = ?")
                 .bind(id)
                 .execute()
                 .fetchOne()[0]
                 .get<int>();
    if (n == 0) return;
    std::this_thread::sleep_for(20ms);
  }
  ADD_FAILURE() << "connection " << id << " is still open";
}

// A Client destroyed (not closed) only stops pooling, as Connector/C++ 8's
// pool outlives its Client while sessions hold it.
TEST(ClientTest, ADestroyedClientLeavesItsSessionsWorking) {
  Session s = Client(uri80()).getSession();
  EXPECT_EQ(s.sql("SELECT 1").execute().fetchOne()[0].get<int>(), 1);
}

TEST(ClientTest, AssigningOverAPooledSessionReturnsItsConnection) {
  Client pool = getClient(uri80(), ClientOption::POOL_MAX_SIZE, 2, ClientOption::POOL_QUEUE_TIMEOUT,
                          std::chrono::milliseconds(500));
  Session s = pool.getSession();
  std::vector<Schema> kept; // each shares the state of a session replaced below
  for (int i = 0; i < 4; ++i) {
    kept.push_back(s.getSchema("mysql"));
    s = pool.getSession(); // the replaced session gives its connection back
  }
  EXPECT_EQ(s.sql("SELECT 1").execute().fetchOne()[0].get<int>(), 1);
  EXPECT_THROW(kept.front().existsInDatabase(), Error); // replaced sessions are closed
}

TEST(ClientTest, AnApplicationIdGeneratorStaysWithItsSession) {
  Client pool = getClient(uri80(), ClientOption::POOL_MAX_SIZE, 1);
  {
    Session s = pool.getSession();
    s.setDocIdGenerator([] { return std::string("mine-1"); });
    EXPECT_EQ(s.getDocIdMode(), DocIdMode::CLIENT);
  }
  Session next = pool.getSession(); // the same connection, a new session
  EXPECT_EQ(next.getDocIdMode(), DocIdMode::SERVER);
  Collection c =
      next.createSchema(devapi_it::test_schema("dv_pool_gen"), true).createCollection("c", true);
  DocIdList ids = c.add(R"({"n": 1})").execute().getGeneratedIds();
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_EQ(ids[0].size(), 28u); // made by the server
}

TEST(SessionTest, AMovedFromSessionThrowsInsteadOfCrashing) {
  Session s(uri80());
  Session t(std::move(s));
  EXPECT_THROW(s.sql("SELECT 1"), ClientError);      // NOLINT(bugprone-use-after-move)
  EXPECT_THROW(s.getSchema("mysql"), ClientError);   // NOLINT(bugprone-use-after-move)
  EXPECT_THROW(s.startTransaction(), ClientError);   // NOLINT(bugprone-use-after-move)
  EXPECT_THROW((void)s.getDocIdMode(), ClientError); // NOLINT(bugprone-use-after-move)
  EXPECT_NO_THROW(s.close());                        // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(t.sql("SELECT 1").execute().fetchOne()[0].get<int>(), 1);
}

TEST(SessionTest, ACollectionSeenAsATableExists) {
  Session s(uri80());
  Schema db = s.createSchema(devapi_it::test_schema("dv_coll_table"), true);
  db.createCollection("c", true);
  EXPECT_TRUE(db.getCollectionAsTable("c").existsInDatabase());
  EXPECT_FALSE(db.getTable("no_such_table").existsInDatabase());
}

TEST(SessionTest, CountQuotesNamesWithBackticks) {
  Session s(uri80());
  Schema db = s.createSchema(devapi_it::test_schema("dv_tick`s"), true);
  Collection c = db.createCollection("a`b", true);
  c.add(R"({"n": 1})", R"({"n": 2})").execute();
  EXPECT_EQ(c.count(), 2u);
  EXPECT_EQ(db.getCollectionAsTable("a`b").count(), 2u);
  s.dropSchema(db.getName());
}
