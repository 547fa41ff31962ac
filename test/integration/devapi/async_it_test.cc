// executeAsync() (issue 27) in the three configurations: replies matched to
// futures in order, each add's ids its own, one error failing only its
// future, execute() completing what is in flight, the future's rules as
// std::future's, wait_for() timing out, close() and a pool completing what
// is pending, many threads waiting, and at most 100 requests in flight.
#include "devapi/test_hooks.h"
#include "it_common.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>
#include <vector>

using namespace mysqlx;
using devapi_it::config;

namespace {

class Async : public ::testing::TestWithParam<config> {
protected:
  void SetUp() override {
    m_schema = devapi_it::test_schema("dv_async");
    m_sess = std::make_unique<Session>(devapi_it::uri_of(GetParam()));
    Schema db = m_sess->createSchema(m_schema, true);
    db.dropCollection("c");
    m_coll = std::make_unique<Collection>(db.createCollection("c", true));
  }
  Collection coll(Session& s) { return s.getSchema(m_schema).getCollection("c"); }

  std::string m_schema;
  std::unique_ptr<Session> m_sess;
  std::unique_ptr<Collection> m_coll;
};

std::string doc(int n) {
  return "{\"n\":" + std::to_string(n) + "}";
}

TEST_P(Async, EachAddsIdsAreItsOwnWhateverTheOrderOfGet) {
  std::vector<Future<Result>> adds;
  adds.reserve(30);
  for (int i = 0; i < 30; ++i) {
    std::vector<std::string> docs;
    docs.reserve(3);
    for (int k = 0; k <= i % 3; ++k) docs.push_back(doc(100 * i + k));
    adds.push_back(m_coll->add(docs).executeAsync());
  }
  // All of them at once: nothing is read before the first get().
  EXPECT_EQ(detail::in_flight_of(*m_sess), 30u);
  std::vector<std::vector<std::string>> ids(adds.size());
  for (std::size_t i = adds.size(); i-- > 0;) { // the last first
    Result r = adds[i].get();
    EXPECT_EQ(r.getAffectedItemsCount(), i % 3 + 1);
    for (const auto& id : r.getGeneratedIds()) ids[i].push_back(id);
  }
  std::set<std::string> all;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    ASSERT_EQ(ids[i].size(), i % 3 + 1);
    for (std::size_t k = 0; k < ids[i].size(); ++k) {
      EXPECT_EQ(ids[i][k].size(), GetParam().id_length);
      // The document stored under this add's id k is this add's document k.
      DbDoc d = m_coll->getOne(ids[i][k]);
      ASSERT_FALSE(d.isNull()) << ids[i][k];
      EXPECT_EQ(d["n"].get<int>(), static_cast<int>(100 * i + k));
      all.insert(ids[i][k]);
    }
  }
  EXPECT_EQ(all.size(), 60u);
  EXPECT_EQ(m_coll->count(), 60u);
}

TEST_P(Async, OneErrorFailsOnlyItsFuture) {
  Future<Result> a = m_coll->add(R"({"_id":"a","n":1})").executeAsync();
  Future<Result> dup = m_coll->add(R"({"_id":"b"})", R"({"_id":"b"})").executeAsync();
  Future<SqlResult> bad = m_sess->sql("SELECT * FROM no_such_table_here").executeAsync();
  Future<Result> c = m_coll->add(R"({"_id":"c","n":3})").executeAsync();
  Future<DocResult> f = m_coll->find("n > 0").sort("n").executeAsync();
  EXPECT_EQ(a.get().getAffectedItemsCount(), 1u);
  try {
    dup.get();
    ADD_FAILURE() << "a duplicate _id was taken";
  } catch (const Error& e) {
    EXPECT_TRUE(e.isServerError()) << e.what();
  }
  EXPECT_THROW(bad.get(), Error);
  EXPECT_EQ(c.get().getAffectedItemsCount(), 1u);
  DocResult rows = f.get();
  std::vector<int> ns;
  for (const DbDoc& d : rows) ns.push_back(d["n"].get<int>());
  EXPECT_EQ(ns, (std::vector<int>{1, 3})); // the refused add stored nothing
}

TEST_P(Async, ExecuteFirstCompletesWhatIsInFlight) {
  std::vector<Future<Result>> adds;
  adds.reserve(10);
  for (int i = 0; i < 10; ++i) adds.push_back(m_coll->add(doc(i)).executeAsync());
  EXPECT_EQ(m_coll->find().execute().count(), 10u); // after every add, in order
  EXPECT_EQ(detail::in_flight_of(*m_sess), 0u);
  for (auto& a : adds) EXPECT_EQ(a.wait_for(std::chrono::seconds(0)), future_status::ready);
}

TEST_P(Async, FindSqlAndTableStatements) {
  m_sess->sql("CREATE TABLE `" + m_schema + "`.t (id INT PRIMARY KEY, v VARCHAR(10))").execute();
  Table t = m_sess->getSchema(m_schema).getTable("t");
  Future<Result> ins =
      t.insert("id", "v").values(1, "a").values(2, "b").values(3, "c").executeAsync();
  Future<Result> upd = t.update().set("v", "B").where("id = 2").executeAsync();
  Future<Result> del = t.remove().where("id = 3").executeAsync();
  Future<RowResult> sel = t.select("id", "v").orderBy("id").executeAsync();
  Future<SqlResult> sql =
      m_sess->sql("SELECT COUNT(*) FROM `" + m_schema + "`.t WHERE id > ?").bind(0).executeAsync();
  EXPECT_EQ(ins.get().getAffectedItemsCount(), 3u);
  EXPECT_EQ(upd.get().getAffectedItemsCount(), 1u);
  EXPECT_EQ(del.get().getAffectedItemsCount(), 1u);
  RowResult rows = sel.get();
  EXPECT_EQ(rows.getColumnCount(), 2u);
  std::vector<std::string> got;
  for (Row r : rows) got.push_back(r[1].get<std::string>());
  EXPECT_EQ(got, (std::vector<std::string>{"a", "B"}));
  EXPECT_EQ(sql.get().fetchOne()[0].get<int>(), 2);
}

TEST_P(Async, FutureRulesAreStdFutures) {
  Future<Result> none;
  EXPECT_FALSE(none.valid());
  EXPECT_THROW(none.get(), Error);
  EXPECT_THROW(none.wait(), Error);
  Future<Result> f = m_coll->add(doc(1)).executeAsync();
  EXPECT_TRUE(f.valid());
  Future<Result> g = std::move(f);
  // NOLINTNEXTLINE(bugprone-use-after-move,clang-analyzer-cplusplus.Move): as std::future
  EXPECT_FALSE(f.valid());
  EXPECT_TRUE(g.valid());
  g.wait();
  EXPECT_EQ(g.wait_for(std::chrono::milliseconds(0)), future_status::ready);
  EXPECT_EQ(g.wait_until(std::chrono::system_clock::now()), future_status::ready);
  EXPECT_EQ(g.get().getAffectedItemsCount(), 1u);
  EXPECT_FALSE(g.valid());
  try {
    g.get();
    ADD_FAILURE() << "get() twice";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::USAGE);
  }
}

TEST_P(Async, WaitForTimesOutWhileTheServerWorks) {
  Future<SqlResult> slow = m_sess->sql("SELECT SLEEP(0.6)").executeAsync();
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(slow.wait_for(std::chrono::milliseconds(50)), future_status::timeout);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(550));
  EXPECT_TRUE(slow.valid());
  EXPECT_EQ(slow.wait_for(std::chrono::seconds(30)), future_status::ready);
  EXPECT_EQ(slow.get().fetchOne()[0].get<int>(), 0);
}

TEST_P(Async, CloseCompletesWhatIsPending) {
  std::vector<Future<Result>> adds;
  adds.reserve(5);
  for (int i = 0; i < 5; ++i) adds.push_back(m_coll->add(doc(i)).executeAsync());
  Future<DocResult> f = m_coll->find().executeAsync();
  m_sess->close();
  for (auto& a : adds) EXPECT_EQ(a.get().getAffectedItemsCount(), 1u);
  EXPECT_EQ(f.get().count(), 5u);
  Session again(devapi_it::uri_of(GetParam()));
  EXPECT_EQ(coll(again).count(), 5u);
}

TEST_P(Async, APooledSessionReturnedWithFuturesPending) {
  Client client(devapi_it::uri_of(GetParam()), R"({"pooling": {"maxSize": 1}})");
  Future<Result> add;
  Future<SqlResult> slow;
  {
    Session s = client.getSession();
    add = coll(s).add(doc(7)).executeAsync();
    slow = s.sql("SELECT SLEEP(0.2), 'mine'").executeAsync();
  }                                   // back to the pool with both pending
  Session next = client.getSession(); // the same connection (maxSize 1)
  EXPECT_EQ(next.sql("SELECT 'next'").execute().fetchOne()[0].get<std::string>(), "next");
  EXPECT_EQ(add.get().getAffectedItemsCount(), 1u);
  EXPECT_EQ(slow.get().fetchOne()[1].get<std::string>(), "mine");
}

// Requests above 512 bytes once the server's message limit is known (an
// earlier large request asked it) stay in flight too: checking their size
// reads nothing.
TEST_P(Async, LargeRequestsStayInFlight) {
  const std::string pad(2000, 'x');
  m_coll->add("{\"n\":-1,\"pad\":\"" + pad + "\"}").execute(); // learns the limit
  std::vector<Future<Result>> adds;
  adds.reserve(10);
  for (int i = 0; i < 10; ++i)
    adds.push_back(
        m_coll->add("{\"n\":" + std::to_string(i) + ",\"pad\":\"" + pad + "\"}").executeAsync());
  EXPECT_EQ(detail::in_flight_of(*m_sess), 10u);
  for (auto& a : adds) EXPECT_EQ(a.get().getAffectedItemsCount(), 1u);
  EXPECT_EQ(m_coll->count(), 11u);
}

TEST_P(Async, AtMostAHundredInFlight) {
  std::vector<Future<DocResult>> fs;
  fs.reserve(250);
  for (int i = 0; i < 250; ++i) {
    fs.push_back(m_coll->find("n = :n").bind("n", i).executeAsync());
    ASSERT_LE(detail::in_flight_of(*m_sess), 100u);
  }
  for (auto& f : fs) EXPECT_EQ(f.get().count(), 0u);
}

TEST_P(Async, MaxInFlightIsAnOption) {
  const std::string sep = std::string(GetParam().query).empty() ? "?" : "&";
  Session s(devapi_it::uri_of(GetParam()) + sep + "max-in-flight=3");
  Collection c = coll(s);
  std::vector<Future<Result>> adds;
  adds.reserve(10);
  for (int i = 0; i < 10; ++i) {
    adds.push_back(c.add(doc(i)).executeAsync());
    ASSERT_LE(detail::in_flight_of(s), 3u);
  }
  for (auto& a : adds) EXPECT_EQ(a.get().getAffectedItemsCount(), 1u);
  SessionSettings settings(devapi_it::uri_of(GetParam()));
  settings.set(SessionOption::MAX_IN_FLIGHT, 1);
  Session one(settings);
  Future<Result> a = coll(one).add(doc(1)).executeAsync();
  Future<Result> b = coll(one).add(doc(2)).executeAsync();
  EXPECT_EQ(a.wait_for(std::chrono::seconds(0)), future_status::ready); // read to make room
  EXPECT_EQ(detail::in_flight_of(one), 1u);
  b.get();
}

TEST_P(Async, AddTooLargeForOneMessageRunsNow) {
  // max-message-size 4096: an add of 20 documents of 1 KB is split into
  // several Inserts in a transaction, so it runs now and its future is ready.
  Session small(devapi_it::uri_of(GetParam()) +
                (std::string(GetParam().query).empty() ? "?" : "&") + "max-message-size=4096");
  Collection c = coll(small);
  Future<Result> before = c.add(doc(-1)).executeAsync();
  std::vector<std::string> docs;
  docs.reserve(20);
  for (int i = 0; i < 20; ++i)
    docs.push_back("{\"n\":" + std::to_string(i) + ",\"pad\":\"" + std::string(1000, 'x') + "\"}");
  Future<Result> big = c.add(docs).executeAsync();
  EXPECT_EQ(big.wait_for(std::chrono::seconds(0)), future_status::ready);
  EXPECT_EQ(before.wait_for(std::chrono::seconds(0)), future_status::ready); // completed first
  EXPECT_EQ(big.get().getGeneratedIds().size(), 20u);
  EXPECT_EQ(before.get().getGeneratedIds().size(), 1u);
  EXPECT_EQ(c.count(), 21u);
}

TEST_P(Async, PreparedStatementsRunInFlight) {
  for (int i = 0; i < 5; ++i) m_coll->add(doc(i)).execute();
  CollectionFind find = m_coll->find("n = :n");
  EXPECT_EQ(find.bind("n", 0).execute().count(), 1u); // plain
  EXPECT_EQ(find.bind("n", 1).execute().count(), 1u); // prepared
  const auto before = detail::prepared_stats_of(*m_sess);
  std::vector<Future<DocResult>> fs;
  fs.reserve(5);
  for (int i = 0; i < 5; ++i) fs.push_back(find.bind("n", i).executeAsync());
  for (int i = 0; i < 5; ++i) {
    DbDoc d = fs[static_cast<std::size_t>(i)].get().fetchOne();
    ASSERT_FALSE(d.isNull());
    EXPECT_EQ(d["n"].get<int>(), i);
  }
  const auto after = detail::prepared_stats_of(*m_sess);
  if (before.supported) {
    EXPECT_EQ(after.executed - before.executed, 5u);
  }
}

// Many threads wait on futures of one session at once: each gets its own
// result (TSan runs this test too: "Async" is in the TSan selection).
TEST_P(Async, ManyThreadsWaitOnOneSession) {
  for (int i = 0; i < 40; ++i) m_coll->add(doc(i)).execute();
  std::vector<Future<DocResult>> fs;
  fs.reserve(40);
  for (int i = 0; i < 40; ++i) fs.push_back(m_coll->find("n = :n").bind("n", i).executeAsync());
  std::vector<int> got(fs.size(), -1);
  std::vector<std::thread> threads;
  threads.reserve(8);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t i = static_cast<std::size_t>(t); i < fs.size(); i += 8) {
        DbDoc d = fs[i].get().fetchOne();
        got[i] = d.isNull() ? -2 : d["n"].get<int>();
      }
    });
  }
  for (auto& th : threads) th.join();
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], static_cast<int>(i));
}

// Issue 34, item 4: a split add() (documents above max-message-size) that
// the server refuses (a duplicate _id) fails its future, as a small add
// does; executeAsync() itself throws only for what is wrong before anything
// is sent.
TEST_P(Async, ASplitAddTheServerRefusesFailsItsFuture) {
  Session small(devapi_it::uri_of(GetParam()) +
                (std::string(GetParam().query).empty() ? "?" : "&") + "max-message-size=4096");
  Collection c = coll(small);
  c.add(R"({"_id": "dup", "n": -1})").execute();
  std::vector<std::string> docs;
  docs.reserve(10);
  for (int i = 0; i < 10; ++i)
    docs.push_back("{\"_id\":\"" + (i == 7 ? std::string("dup") : "d" + std::to_string(i)) +
                   "\",\"pad\":\"" + std::string(1000, 'x') + "\"}");
  Future<Result> big;
  ASSERT_NO_THROW(big = c.add(docs).executeAsync());
  try {
    big.get();
    ADD_FAILURE() << "the duplicate _id was stored";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), Error::Kind::SERVER) << e.what();
  }
  EXPECT_EQ(c.count(), 1u); // its transaction was rolled back
  // A small add with the same duplicate: the same, into the future.
  Future<Result> one;
  ASSERT_NO_THROW(one = c.add(R"({"_id": "dup"})").executeAsync());
  EXPECT_THROW(one.get(), Error);
}

// Issue 34, item 2: a future whose reply another thread has read is ready
// at once (its own state, without the session's wire), and its get() does
// not wait for that thread's read of a later reply.
TEST_P(Async, AFutureReadByAnotherThreadIsReadyAtOnce) {
  Future<SqlResult> a = m_sess->sql("SELECT 1").executeAsync();
  Future<SqlResult> b = m_sess->sql("SELECT SLEEP(1.5)").executeAsync();
  std::thread t([&] { EXPECT_EQ(b.get().fetchOne()[0].get<int>(), 0); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(a.wait_for(std::chrono::seconds(0)), future_status::ready);
  EXPECT_EQ(a.get().fetchOne()[0].get<int>(), 1);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(300));
  t.join();
}

// Issue 34, item 2: executeAsync() sends at once while another thread waits
// for a slow reply; only the write side is shared.
TEST_P(Async, ExecuteAsyncDoesNotWaitForAnotherThreadsRead) {
  Future<SqlResult> slow = m_sess->sql("SELECT SLEEP(1.5)").executeAsync();
  std::thread t([&] { EXPECT_EQ(slow.get().fetchOne()[0].get<int>(), 0); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto start = std::chrono::steady_clock::now();
  Future<Result> add = m_coll->add(doc(1)).executeAsync();
  Future<SqlResult> sel = m_sess->sql("SELECT 2").executeAsync();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(500));
  t.join();
  EXPECT_EQ(add.get().getAffectedItemsCount(), 1u);
  EXPECT_EQ(sel.get().fetchOne()[0].get<int>(), 2);
}

// Issue 34: read-timeout bounds each wait for the server (README), so
// wait_for() longer than it fails the statement as get() does, with 4007,
// instead of waiting for a slow reply.
TEST_P(Async, ReadTimeoutBoundsWaitForAsItBoundsGet) {
  const std::string base =
      devapi_it::uri_of(GetParam()) + (std::string(GetParam().query).empty() ? "?" : "&");
  for (const bool use_get : {false, true}) {
    SCOPED_TRACE(use_get ? "get()" : "wait_for()");
    Session s(base + "read-timeout=300");
    Future<SqlResult> f = s.sql("SELECT SLEEP(1.5)").executeAsync();
    const auto start = std::chrono::steady_clock::now();
    if (!use_get) {
      EXPECT_EQ(f.wait_for(std::chrono::seconds(5)), future_status::ready);
    }
    try {
      f.get();
      ADD_FAILURE() << "the statement outlived read-timeout";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::TIMEOUT) << e.what();
      EXPECT_TRUE(e.mayHaveBeenApplied()) << e.what();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(1200));
  }
}

// Issue 34, item 1: over TLS (and compressed), a reply that has already
// arrived makes wait_for() say ready: bytes held by OpenSSL's read-ahead or
// inflated from a Compression message count as well as those on the socket.
class AsyncTls : public ::testing::TestWithParam<const char*> {};

TEST_P(AsyncTls, WaitForSeesAReplyThatHasArrived) {
  const std::string ca = devapi_it::env_uri("MYSQLX_TEST_CA_80");
  ASSERT_FALSE(ca.empty()) << "MYSQLX_TEST_CA_80 is not set";
  const std::string algorithm = GetParam();
  Session s(devapi_it::env_uri("MYSQLX_TEST_URI_80") + "?ssl-mode=VERIFY_CA&ssl-ca=" + ca +
            (algorithm == "none" ? "&compression=disabled"
                                 : "&compression=required&compression-algorithms=" + algorithm));
  for (int round = 0; round < 10; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    Future<SqlResult> f1 = s.sql("SELECT 1").executeAsync();
    Future<SqlResult> f2 = s.sql("SELECT 2").executeAsync();
    std::this_thread::sleep_for(std::chrono::milliseconds(50)); // both replies are here
    EXPECT_EQ(f1.get().fetchOne()[0].get<int>(), 1);
    EXPECT_EQ(f2.wait_for(std::chrono::milliseconds(100)), future_status::ready);
    EXPECT_EQ(f2.get().fetchOne()[0].get<int>(), 2);
  }
}

INSTANTIATE_TEST_SUITE_P(Compression, AsyncTls,
                         ::testing::Values("none", "zstd_stream", "lz4_message", "deflate_stream"),
                         [](const auto& info) { return std::string(info.param); });

// Requests in flight over a compressed connection, each algorithm: the
// replies are read in order out of compressed frames (8.0 mode; 5.7 has no
// compression).
class AsyncCompressed : public ::testing::TestWithParam<const char*> {};

TEST_P(AsyncCompressed, RepliesInOrder) {
  Session s(devapi_it::env_uri("MYSQLX_TEST_URI_80") +
            "?compression=required&compression-algorithms=" + GetParam());
  ASSERT_EQ(detail::compression_of(s), GetParam());
  const std::string schema = devapi_it::test_schema("dv_asyncz");
  Schema db = s.createSchema(schema, true);
  db.dropCollection("c");
  Collection c = db.createCollection("c");
  std::vector<Future<Result>> adds;
  adds.reserve(50);
  for (int i = 0; i < 50; ++i)
    adds.push_back(
        c.add("{\"n\":" + std::to_string(i) + ",\"pad\":\"" + std::string(300, 'z') + "\"}")
            .executeAsync());
  Future<DocResult> all = c.find().sort("n").executeAsync();
  EXPECT_EQ(detail::in_flight_of(s), 51u);
  for (auto& a : adds) EXPECT_EQ(a.get().getAffectedItemsCount(), 1u);
  int expect = 0;
  for (const DbDoc& d : all.get()) EXPECT_EQ(d["n"].get<int>(), expect++);
  EXPECT_EQ(expect, 50);
  s.dropSchema(schema);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, AsyncCompressed,
                         ::testing::Values("zstd_stream", "lz4_message", "deflate_stream"),
                         [](const auto& info) { return std::string(info.param); });

INSTANTIATE_TEST_SUITE_P(Configs, Async, ::testing::ValuesIn(devapi_it::configs),
                         [](const auto& info) { return std::string(info.param.name); });

} // namespace
