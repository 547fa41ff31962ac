// Streamed results (issue 6): rows are read from the connection as they are
// fetched, in the three configurations. devapi/test_hooks.h shows how many
// rows a result holds read but not fetched.
#include "devapi/test_hooks.h"
#include "it_common.h"

#include <memory>
#include <string>

using namespace mysqlx;
using detail::stream_stats_of;
using devapi_it::config;

class StreamTest : public ::testing::TestWithParam<config> {
protected:
  void SetUp() override {
    m_schema = devapi_it::test_schema("dv_stream");
    m_sess = std::make_unique<Session>(devapi_it::uri_of(GetParam()));
    m_sess->createSchema(m_schema, true);
  }
  void TearDown() override {
    if (m_sess) m_sess->dropSchema(m_schema);
  }
  // A fresh collection of `n` documents {"n": 1..n}.
  Collection numbers(const std::string& name, int n) {
    Schema db = m_sess->getSchema(m_schema);
    db.dropCollection(name);
    Collection c = db.createCollection(name);
    std::vector<std::string> docs;
    docs.reserve(static_cast<std::size_t>(n));
    for (int i = 1; i <= n; ++i) docs.push_back("{\"n\": " + std::to_string(i) + "}");
    CollectionAdd add = c.add(docs);
    EXPECT_EQ(add.execute().getAffectedItemsCount(), static_cast<std::uint64_t>(n));
    return c;
  }
  // A table t(n INT PRIMARY KEY) holding 1..n.
  std::string number_table(int n) {
    const std::string t = "`" + m_schema + "`.t";
    m_sess->sql("CREATE TABLE " + t + " (n INT PRIMARY KEY)").execute();
    std::string values;
    for (int i = 1; i <= n; ++i) values += (i > 1 ? ",(" : "(") + std::to_string(i) + ")";
    m_sess->sql("INSERT INTO " + t + " VALUES " + values).execute();
    return t;
  }
  std::string m_schema;
  std::unique_ptr<Session> m_sess;
};

TEST_P(StreamTest, AFindFetchedOneAtATimeKeepsOnlyARowBuffered) {
  constexpr int n = 50000;
  Collection c = numbers("big", n);
  DocResult r = c.find().fields("n").execute();
  // execute() read up to the metadata and the first row, not the reply.
  EXPECT_FALSE(stream_stats_of(r).complete);
  std::uint64_t fetched = 0, sum = 0, most = 0;
  bool complete_half_way = true;
  for (DbDoc d = r.fetchOne(); !d.isNull(); d = r.fetchOne()) {
    ++fetched;
    sum += d["n"].get<std::uint64_t>();
    const auto st = stream_stats_of(r);
    most = std::max(most, st.buffered);
    if (fetched == n / 2) complete_half_way = st.complete;
  }
  EXPECT_EQ(fetched, static_cast<std::uint64_t>(n));
  EXPECT_EQ(sum, static_cast<std::uint64_t>(n) * (n + 1) / 2);
  EXPECT_FALSE(complete_half_way);
  EXPECT_LE(most, 1u);
  EXPECT_LE(stream_stats_of(r).peak_buffered, 2u);
  EXPECT_TRUE(stream_stats_of(r).complete);
}

TEST_P(StreamTest, AServerErrorAfterSomeRowsIsThrownByTheFetchThatMeetsIt) {
  const std::string t = number_table(10);
  // The scalar subquery returns two rows from n = 4 on: MariaDB fails with
  // 1242 after sending rows 1 to 3.
  SqlResult r =
      m_sess
          ->sql("SELECT n, (SELECT 1 UNION ALL SELECT 2 FROM DUAL WHERE n > 3) AS x FROM " + t +
                " ORDER BY n")
          .execute();
  for (int i = 1; i <= 3; ++i) EXPECT_EQ(r.fetchOne()[0].get<int>(), i);
  try {
    r.fetchOne();
    FAIL() << "the fourth fetch must throw";
  } catch (const Error& e) {
    EXPECT_TRUE(e.isServerError());
    EXPECT_EQ(e.code(), 1242u);
  }
  // The error ended that reply only: the session goes on.
  EXPECT_EQ(m_sess->sql("SELECT 7").execute().fetchOne()[0].get<int>(), 7);
}

TEST_P(StreamTest, ASecondStatementLeavesThePendingResultWhole) {
  constexpr int n = 2000;
  Collection c = numbers("pending", n);
  DocResult first = c.find().sort("n").execute();
  for (int i = 1; i <= 10; ++i) EXPECT_EQ(first.fetchOne()["n"].get<int>(), i);
  EXPECT_FALSE(stream_stats_of(first).complete);
  // Another statement on the same session: the first reply is read into the
  // first result's buffer before it goes out.
  EXPECT_EQ(c.count(), static_cast<std::uint64_t>(n));
  EXPECT_TRUE(stream_stats_of(first).complete);
  EXPECT_EQ(stream_stats_of(first).buffered, static_cast<std::uint64_t>(n - 10));
  DocResult second = c.find("n > :k").sort("n").bind("k", n - 5).execute();
  EXPECT_EQ(second.fetchOne()["n"].get<int>(), n - 4);
  // Both are usable, interleaved.
  EXPECT_EQ(first.fetchOne()["n"].get<int>(), 11);
  EXPECT_EQ(second.count(), 4u);
  int expected = 12;
  for (DbDoc d : first) EXPECT_EQ(d["n"].get<int>(), expected++);
  EXPECT_EQ(expected, n + 1);
  EXPECT_EQ(second.fetchAll().size(), 4u);
}

TEST_P(StreamTest, CountsAndWarningsReadToTheEndAndKeepTheRows) {
  const std::string t = number_table(50);
  // Every row warns: 'nx' is truncated to an integer (1292).
  SqlResult r =
      m_sess->sql("SELECT n, CAST(CONCAT(n, 'x') AS SIGNED) AS v FROM " + t + " ORDER BY n")
          .execute();
  EXPECT_EQ(r.fetchOne()[1].get<int>(), 1);
  EXPECT_FALSE(stream_stats_of(r).complete);
  EXPECT_GE(r.getWarningsCount(), 1u);
  EXPECT_EQ(r.getWarning(0).getCode(), 1292u);
  EXPECT_TRUE(stream_stats_of(r).complete);
  EXPECT_EQ(stream_stats_of(r).buffered, 49u);    // read to the end, none dropped
  EXPECT_THROW(r.getAffectedItemsCount(), Error); // a set is current, as in Connector/C++ 8
  EXPECT_EQ(r.count(), 49u);
  int expected = 2;
  for (Row row : r) EXPECT_EQ(row[1].get<int>(), expected++);
  EXPECT_EQ(expected, 51);

  // The affected count of a statement that changes rows, asked before its
  // (empty) result is fetched.
  Collection c = numbers("counted", 30);
  DocResult found = c.find("n <= 10").execute();
  Result removed = c.remove("n > 20").execute();
  EXPECT_EQ(removed.getAffectedItemsCount(), 10u);
  EXPECT_EQ(found.count(), 10u);
}

TEST_P(StreamTest, NextResultSkipsTheRowsNotFetched) {
  const std::string t = number_table(3000);
  const std::string proc = "`" + m_schema + "`.two_sets";
  m_sess
      ->sql("CREATE PROCEDURE " + proc + "() BEGIN SELECT n FROM " + t +
            " ORDER BY n; SELECT 'second' AS s; END")
      .execute();
  SqlResult r = m_sess->sql("CALL " + proc + "()").execute();
  EXPECT_EQ(r.fetchOne()[0].get<int>(), 1);
  EXPECT_EQ(r.fetchOne()[0].get<int>(), 2);
  ASSERT_TRUE(r.nextResult());
  EXPECT_EQ(r.getColumn(0).getColumnLabel(), "s");
  EXPECT_EQ(r.fetchOne()[0].get<std::string>(), "second");
  EXPECT_TRUE(r.fetchOne().isNull());
  // The 2,998 rows skipped were never all held at once.
  EXPECT_LE(stream_stats_of(r).peak_buffered, 2u);
  EXPECT_FALSE(r.nextResult());
  EXPECT_EQ(m_sess->sql("SELECT 5").execute().fetchOne()[0].get<int>(), 5);
}

TEST_P(StreamTest, ClosingOrDestroyingTheSessionWithAPendingResult) {
  Collection c = numbers("closing", 500);
  DocResult kept = c.find().sort("n").execute();
  EXPECT_EQ(kept.fetchOne()["n"].get<int>(), 1);
  EXPECT_FALSE(stream_stats_of(kept).complete);
  DocResult dropped = c.find().execute(); // settles `kept` first
  dropped.fetchOne();
  EXPECT_FALSE(stream_stats_of(dropped).complete);
  dropped = DocResult(); // gone with its rest unread
  m_sess->close();
  EXPECT_TRUE(stream_stats_of(kept).complete);
  // The live result kept its rows; the session is closed cleanly.
  EXPECT_EQ(kept.count(), 499u);
  EXPECT_EQ(kept.fetchAll().back()["n"].get<int>(), 500);
  EXPECT_THROW(m_sess->sql("SELECT 1").execute(), Error);

  // Destroying the Session object with a result streaming.
  m_sess = std::make_unique<Session>(devapi_it::uri_of(GetParam()));
  Collection c2 = m_sess->getSchema(m_schema).getCollection("closing");
  DocResult r = c2.find().sort("n").execute();
  EXPECT_EQ(r.fetchOne()["n"].get<int>(), 1);
  EXPECT_FALSE(stream_stats_of(r).complete);
  m_sess.reset();
  EXPECT_TRUE(stream_stats_of(r).complete);
  int expected = 2;
  for (DbDoc d : r) EXPECT_EQ(d["n"].get<int>(), expected++);
  EXPECT_EQ(expected, 501);

  // The server is fine and the data is intact.
  m_sess = std::make_unique<Session>(devapi_it::uri_of(GetParam()));
  EXPECT_EQ(m_sess->getSchema(m_schema).getCollection("closing").count(), 500u);
}

TEST_P(StreamTest, APooledSessionReturnedWithAPendingResultIsReused) {
  numbers("pooled", 1000);
  Client pool = getClient(devapi_it::uri_of(GetParam()), ClientOption::POOL_MAX_SIZE, 1);
  DocResult kept;
  {
    Session s = pool.getSession();
    Collection c = s.getSchema(m_schema).getCollection("pooled");
    kept = c.find().sort("n").execute();
    EXPECT_EQ(kept.fetchOne()["n"].get<int>(), 1);
    EXPECT_FALSE(stream_stats_of(kept).complete);
  } // returned to the pool with the reply half read
  {
    // The one pooled connection, reused: its first reply is its own.
    Session s = pool.getSession();
    EXPECT_EQ(s.sql("SELECT 42").execute().fetchOne()[0].get<int>(), 42);
    Collection c = s.getSchema(m_schema).getCollection("pooled");
    DocResult orphan = c.find().execute();
    orphan.fetchOne();
    EXPECT_FALSE(stream_stats_of(orphan).complete);
    orphan = DocResult(); // gone unread: its rest is dropped on close
    s.close();
  }
  Session s = pool.getSession();
  EXPECT_EQ(s.sql("SELECT 43").execute().fetchOne()[0].get<int>(), 43);
  EXPECT_EQ(s.getSchema(m_schema).getCollection("pooled").count(), 1000u);
  EXPECT_EQ(kept.count(), 999u);
  EXPECT_EQ(kept.fetchAll().back()["n"].get<int>(), 1000);
}

TEST_P(StreamTest, ADroppedResultsRestIsSkippedBeforeTheNextStatement) {
  Collection c = numbers("orphan", 800);
  EXPECT_EQ(c.find("n = 400").execute().fetchOne()["n"].get<int>(), 400);
  {
    DocResult r = c.find().sort("n").execute();
    EXPECT_EQ(r.fetchOne()["n"].get<int>(), 1);
    EXPECT_FALSE(stream_stats_of(r).complete);
  } // destroyed with 799 rows unread
  DocList tail = c.find("n > 797").sort("n").execute().fetchAll();
  ASSERT_EQ(tail.size(), 3u);
  EXPECT_EQ(tail[0]["n"].get<int>(), 798);
  // A statement the server refuses still throws from execute().
  EXPECT_THROW(m_sess->sql("SELECT * FROM no_such_table_here").execute(), Error);
  EXPECT_THROW(m_sess->getSchema(m_schema).getCollection("missing").find().execute(), Error);
}

INSTANTIATE_TEST_SUITE_P(Modes, StreamTest, ::testing::ValuesIn(devapi_it::configs),
                         [](const auto& info) { return std::string(info.param.name); });
