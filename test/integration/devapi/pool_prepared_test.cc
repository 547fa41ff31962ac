// Prepared statements across leases of one pooled connection. A session
// from a Client goes back to the pool on close(); the next getSession()
// resets the connection (Session.Reset{keep_open}), which on MySQL 8.0
// deallocates every prepared statement. The next lease numbers its
// statements from 1 again, so the server must really have forgotten the old
// ones (xserverd's own test ResetKeepOpenDropsPreparedStatements checks that
// on the wire), and a statement object of the old lease must fail cleanly
// instead of running on the new lease's connection.
#include "devapi/test_hooks.h"
#include "it_common.h"

using namespace mysqlx;
using detail::prepared_stats_of;

namespace {

std::string uri80() {
  return devapi_it::env_uri("MYSQLX_TEST_URI_80");
}

std::int64_t connection_id(Session& s) {
  return s.sql("SELECT CONNECTION_ID()").execute().fetchOne()[0].get<std::int64_t>();
}

class PoolPrepared : public ::testing::Test {
protected:
  void SetUp() override {
    m_schema = devapi_it::test_schema("dv_poolprep");
    Session setup(uri80());
    setup.createSchema(m_schema, true);
    Schema db = setup.getSchema(m_schema);
    db.dropCollection("c");
    db.createCollection("c")
        .add(R"({"_id": "a", "n": 1})", R"({"_id": "b", "n": 2})", R"({"_id": "c", "n": 3})",
             R"({"_id": "d", "n": 4})")
        .execute();
  }
  std::vector<std::string> ids(DocResult r) {
    std::vector<std::string> out;
    for (DbDoc d : r.fetchAll()) out.push_back(d["_id"].get<std::string>());
    return out;
  }
  std::string m_schema;
};

TEST_F(PoolPrepared, ANewLeasePreparesAfreshAndOldStatementsFailCleanly) {
  Client pool = getClient(uri80(), ClientOption::POOL_MAX_SIZE, 1);

  // Lease 1: two statements, each executed twice (the second run prepares),
  // so the connection holds stmt_ids 1 and 2 when it goes back to the pool.
  Session s1 = pool.getSession();
  const std::int64_t conn1 = connection_id(s1);
  Collection c1 = s1.getSchema(m_schema).getCollection("c");
  CollectionFind by_n = c1.find("n >= :min").sort("n");
  CollectionFind by_id = c1.find("_id = :id");
  EXPECT_EQ(ids(by_n.bind("min", 3).execute()), (std::vector<std::string>{"c", "d"}));
  EXPECT_EQ(ids(by_n.bind("min", 4).execute()), (std::vector<std::string>{"d"}));
  EXPECT_EQ(ids(by_id.bind("id", "a").execute()), (std::vector<std::string>{"a"}));
  EXPECT_EQ(ids(by_id.bind("id", "b").execute()), (std::vector<std::string>{"b"}));
  const auto st1 = prepared_stats_of(s1);
  ASSERT_EQ(st1.prepared, 2u) << "lease 1 did not prepare: the test would prove nothing";
  EXPECT_EQ(st1.executed, 2u);
  s1.close();

  // Lease 2: the same connection, reset. Its statements get stmt_ids 1 and 2
  // again, with other shapes: had the server kept lease 1's statements under
  // those ids, these would clash or return lease 1's rows.
  Session s2 = pool.getSession();
  EXPECT_EQ(connection_id(s2), conn1) << "the pool did not reuse the connection";
  EXPECT_EQ(prepared_stats_of(s2).prepared, 0u); // the counters are the lease's
  Collection c2 = s2.getSchema(m_schema).getCollection("c");
  CollectionFind below = c2.find("n < :max").sort("n DESC");
  CollectionRemove remove = c2.remove("_id = :id");
  EXPECT_EQ(ids(below.bind("max", 3).execute()), (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(ids(below.bind("max", 2).execute()), (std::vector<std::string>{"a"}));
  EXPECT_EQ(remove.bind("id", "d").execute().getAffectedItemsCount(), 1u);
  EXPECT_EQ(remove.bind("id", "c").execute().getAffectedItemsCount(), 1u);
  const auto st2 = prepared_stats_of(s2);
  EXPECT_EQ(st2.prepared, 2u);
  EXPECT_EQ(st2.executed, 2u);
  EXPECT_EQ(st2.refused, 0u);
  EXPECT_EQ(c2.count(), 2u);

  // Lease 1's statement objects outlive their session: executing one is a
  // client error naming the closed session, never a run on lease 2's
  // connection (where stmt_id 1 now is `below`).
  try {
    by_n.bind("min", 1).execute();
    FAIL() << "a statement of a closed lease ran";
  } catch (const ClientError& e) {
    EXPECT_NE(std::string(e.what()).find("closed"), std::string::npos) << e.what();
  }
  EXPECT_THROW(by_id.bind("id", "a").execute(), ClientError);
  // Nothing reached lease 2: its counters and data are unchanged.
  const auto after = prepared_stats_of(s2);
  EXPECT_EQ(after.executed, st2.executed);
  EXPECT_EQ(c2.count(), 2u);
  EXPECT_EQ(ids(below.bind("max", 10).execute()), (std::vector<std::string>{"b", "a"}));
}

TEST_F(PoolPrepared, DroppingOldStatementsDoesNotTouchTheNextLease) {
  Client pool = getClient(uri80(), ClientOption::POOL_MAX_SIZE, 1);
  auto s1 = std::make_unique<Session>(pool.getSession());
  auto old =
      std::make_unique<CollectionFind>(s1->getSchema(m_schema).getCollection("c").find("n = :n"));
  old->bind("n", 1).execute();
  old->bind("n", 2).execute();
  ASSERT_EQ(prepared_stats_of(*s1).prepared, 1u);
  s1->close();

  Session s2 = pool.getSession();
  CollectionFind mine = s2.getSchema(m_schema).getCollection("c").find("n = :n");
  mine.bind("n", 3).execute();
  EXPECT_EQ(ids(mine.bind("n", 4).execute()), (std::vector<std::string>{"d"})); // stmt_id 1
  // Destroying lease 1's statement queues its Deallocate on lease 1's closed
  // session: lease 2's stmt_id 1 must survive it.
  old.reset();
  s1.reset();
  EXPECT_EQ(ids(mine.bind("n", 1).execute()), (std::vector<std::string>{"a"}));
  const auto st = prepared_stats_of(s2);
  EXPECT_EQ(st.prepared, 1u);
  EXPECT_EQ(st.executed, 2u);
  EXPECT_EQ(st.deallocated, 0u);
}

} // namespace
