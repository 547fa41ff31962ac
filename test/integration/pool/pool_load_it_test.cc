// Issue 14: the pool under load. 64 threads share one Client of at most 8
// connections; each thread takes sessions from it and adds and finds for a
// bounded time. Nothing deadlocks, every id an add reports is unique and
// stored, an exhausted pool says so with a TIMEOUT error naming
// POOL_QUEUE_TIMEOUT, and at the end all 8 connections are back in the pool.
// Also: a Session and a result handed from one thread to another (never used
// by two at once), as the X DevAPI allows. The TSan build runs this file.
#include "test/integration/devapi/it_common.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace mysqlx;
using namespace std::chrono_literals;

namespace {

constexpr int k_threads = 64;
constexpr std::size_t k_pool_size = 8;
constexpr auto k_queue_timeout = 100ms;
constexpr auto k_load_time = 3s;
// Far beyond any healthy run (sanitizer builds included): past it the threads
// are taken to be deadlocked and the test process ends, so ctest reports a
// failure instead of hanging until its own timeout.
constexpr auto k_hang_limit = 120s;

std::string uri80() {
  return devapi_it::env_uri("MYSQLX_TEST_URI_80");
}

std::int64_t connection_id(Session& s) {
  return s.sql("SELECT CONNECTION_ID()").execute().fetchOne()[0].get<std::int64_t>();
}

bool is_queue_timeout(const Error& e) {
  return e.code() == errc::TIMEOUT &&
         std::string(e.what()).find("POOL_QUEUE_TIMEOUT") != std::string::npos;
}

// What one thread saw.
struct thread_log {
  std::vector<std::string> ids;       // every id its adds reported
  std::set<std::int64_t> connections; // CONNECTION_ID() of each session it got
  int sessions = 0;                   // sessions it got and used
  int timeouts = 0;                   // getSession() calls that timed out
  std::vector<std::string> errors;    // anything else (must stay empty)
};

// Counts finished threads so that the main thread can wait for them with a
// limit (std::thread::join has none).
class finish_line {
public:
  void cross() {
    std::lock_guard<std::mutex> lock(m_mutex);
    ++m_done;
    m_cv.notify_all();
  }
  bool wait_all(int n, std::chrono::seconds limit) {
    std::unique_lock<std::mutex> lock(m_mutex);
    return m_cv.wait_for(lock, limit, [&] { return m_done == n; });
  }
  int done() {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_done;
  }

private:
  std::mutex m_mutex;
  std::condition_variable m_cv;
  int m_done = 0;
};

// One thread's work: until the deadline (and at least once), take a session,
// add two documents, find them back by id, and give the session back.
void run_thread(Client& client, const std::string& schema, int t,
                std::chrono::steady_clock::time_point deadline, thread_log& log) {
  for (int k = 0; std::chrono::steady_clock::now() < deadline || log.sessions == 0; ++k) {
    try {
      Session s = client.getSession();
      log.connections.insert(connection_id(s));
      Collection c = s.getSchema(schema).getCollection("c");
      const std::string doc =
          "{\"t\": " + std::to_string(t) + ", \"k\": " + std::to_string(k) + "}";
      const DocIdList ids = c.add(doc, doc).execute().getGeneratedIds();
      if (ids.size() != 2) log.errors.push_back("add reported " + std::to_string(ids.size()));
      for (const auto& id : ids) {
        log.ids.push_back(id);
        DbDoc found = c.find("_id = :id").bind("id", id).execute().fetchOne();
        if (found.isNull() || found["t"].get<int>() != t || found["k"].get<int>() != k)
          log.errors.push_back("id " + id + " did not find the document it was given to");
      }
      ++log.sessions;
    } catch (const Error& e) {
      if (is_queue_timeout(e))
        ++log.timeouts;
      else
        log.errors.push_back(e.what());
    } catch (const std::exception& e) {
      log.errors.push_back(e.what());
    }
  }
}

} // namespace

TEST(PoolLoad, SixtyFourThreadsShareEightConnections) {
  const std::string schema = devapi_it::test_schema("dv_pool_load");
  Client client =
      getClient(uri80(), ClientOption::POOL_MAX_SIZE, k_pool_size, ClientOption::POOL_QUEUE_TIMEOUT,
                std::chrono::duration_cast<std::chrono::milliseconds>(k_queue_timeout));
  {
    Session setup = client.getSession();
    Schema db = setup.createSchema(schema, true);
    db.dropCollection("c");
    db.createCollection("c");
  }

  // Exhausted first: with all 8 connections held here, every thread's first
  // getSession() must give up with the queue timeout. The threads wait on
  // `go` until the held sessions are released.
  std::vector<Session> held;
  for (std::size_t i = 0; i < k_pool_size; ++i) held.push_back(client.getSession());
  std::vector<thread_log> logs(k_threads);
  std::vector<int> first_try_timed_out(k_threads, 0);
  std::promise<std::chrono::steady_clock::time_point> go;
  std::shared_future<std::chrono::steady_clock::time_point> go_at = go.get_future().share();
  std::atomic<int> exhausted_seen{0};
  finish_line finished;
  std::vector<std::thread> threads;
  threads.reserve(k_threads);
  for (int t = 0; t < k_threads; ++t)
    threads.emplace_back([&, t] {
      try {
        Session none = client.getSession();
        logs[t].errors.push_back("a session from an exhausted pool");
      } catch (const Error& e) {
        if (is_queue_timeout(e))
          first_try_timed_out[t] = 1;
        else
          logs[t].errors.push_back(std::string("exhausted pool: ") + e.what());
      }
      ++exhausted_seen;
      run_thread(client, schema, t, go_at.get(), logs[t]);
      finished.cross();
    });
  while (exhausted_seen.load() < k_threads) std::this_thread::sleep_for(10ms);
  held.clear(); // back to the pool
  go.set_value(std::chrono::steady_clock::now() + k_load_time);

  if (!finished.wait_all(k_threads, k_hang_limit)) {
    std::fprintf(stderr, "PoolLoad: %d of %d threads still running after %lld s: deadlock\n",
                 k_threads - finished.done(), k_threads,
                 static_cast<long long>(k_hang_limit.count()));
    std::abort();
  }
  for (auto& th : threads) th.join();

  std::set<std::string> all_ids;
  std::set<std::int64_t> all_connections;
  std::size_t reported = 0;
  int sessions = 0, timeouts = 0;
  for (int t = 0; t < k_threads; ++t) {
    EXPECT_EQ(first_try_timed_out[t], 1) << "thread " << t;
    EXPECT_TRUE(logs[t].errors.empty()) << "thread " << t << ": " << logs[t].errors.front();
    EXPECT_GE(logs[t].sessions, 1) << "thread " << t;
    reported += logs[t].ids.size();
    all_ids.insert(logs[t].ids.begin(), logs[t].ids.end());
    all_connections.insert(logs[t].connections.begin(), logs[t].connections.end());
    sessions += logs[t].sessions;
    timeouts += logs[t].timeouts;
  }
  EXPECT_EQ(all_ids.size(), reported) << "an id was reported twice";
  EXPECT_EQ(reported, std::size_t(2 * sessions));
  // Never more than POOL_MAX_SIZE connections, and none was replaced.
  EXPECT_LE(all_connections.size(), k_pool_size);
  std::printf("PoolLoad: %d sessions, %zu documents, %d queue timeouts, %zu connections\n",
              sessions, reported, timeouts, all_connections.size());

  // All 8 connections are back: 8 sessions at once, on connections the
  // threads used, and a ninth waits in vain.
  std::set<std::int64_t> again;
  for (std::size_t i = 0; i < k_pool_size; ++i) {
    held.push_back(client.getSession());
    again.insert(connection_id(held.back()));
  }
  EXPECT_EQ(again.size(), k_pool_size);
  for (auto id : again) EXPECT_EQ(all_connections.count(id), 1u) << "connection " << id;
  try {
    Session ninth = client.getSession();
    ADD_FAILURE() << "a ninth session from a pool of 8";
  } catch (const Error& e) {
    EXPECT_TRUE(is_queue_timeout(e)) << e.what();
  }

  // Every reported id is stored, and nothing else is.
  Collection c = held.front().getSchema(schema).getCollection("c");
  std::set<std::string> stored;
  for (DbDoc d : c.find().fields("_id").execute()) stored.insert(d["_id"].get<std::string>());
  EXPECT_EQ(stored, all_ids);
  held.front().dropSchema(schema);
}

// A Session opened in one thread is used by another (moved, never shared at
// once), and a result executed there is read back here.
TEST(PoolLoad, SessionsAndResultsChangeThreads) {
  const std::string schema = devapi_it::test_schema("dv_pool_handoff");
  Client client = getClient(uri80(), ClientOption::POOL_MAX_SIZE, 2);
  Session s = client.getSession();
  Collection c = s.createSchema(schema, true).createCollection("c", true);
  c.add(R"({"n": 1})", R"({"n": 2})", R"({"n": 3})").execute();

  std::thread worker([&s, &schema] {
    Session mine = std::move(s);
    EXPECT_EQ(mine.getSchema(schema).getCollection("c").count(), 3u);
    s = std::move(mine); // handed back
  });
  worker.join();

  DocResult r;
  std::thread reader([&c, &r] { r = c.find("n >= 2").sort("n").execute(); });
  reader.join();
  std::vector<DbDoc> docs = r.fetchAll(); // read here, executed there
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0]["n"].get<int>(), 2);
  EXPECT_EQ(docs[1]["n"].get<int>(), 3);
  s.dropSchema(schema);
}
