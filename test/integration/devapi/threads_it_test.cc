// Concurrent sessions in threads, in the three configurations: each thread
// has its own Session and adds documents in several calls; every id is
// unique across all threads, each session's ids increase, and the stored
// documents carry them.
#include "it_common.h"

#include <algorithm>
#include <set>
#include <thread>

using namespace mysqlx;
using devapi_it::config;

class ThreadsTest : public ::testing::TestWithParam<config> {};

TEST_P(ThreadsTest, SessionsInThreadsGetUniqueIncreasingIds) {
  const std::string schema = devapi_it::test_schema("dv_threads");
  {
    Session setup(devapi_it::uri_of(GetParam()));
    Schema db = setup.createSchema(schema, true);
    db.dropCollection("c");
    db.createCollection("c");
  }
  constexpr int threads = 4, calls = 10, per_call = 5;
  std::vector<DocIdList> ids(threads);
  std::vector<std::string> errors(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      try {
        Session s(devapi_it::uri_of(GetParam()));
        Collection c = s.getSchema(schema).getCollection("c");
        for (int k = 0; k < calls; ++k) {
          std::vector<std::string> docs;
          for (int d = 0; d < per_call; ++d)
            docs.push_back("{\"t\": " + std::to_string(t) + ", \"k\": " + std::to_string(k) + "}");
          for (const auto& id : c.add(docs).execute().getGeneratedIds()) ids[t].push_back(id);
        }
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  for (auto& th : pool) th.join();

  std::set<std::string> all;
  for (int t = 0; t < threads; ++t) {
    EXPECT_EQ(errors[t], "") << "thread " << t;
    ASSERT_EQ(ids[t].size(), std::size_t(calls * per_call)) << "thread " << t;
    EXPECT_TRUE(std::is_sorted(ids[t].begin(), ids[t].end())) << "thread " << t;
    for (const auto& id : ids[t]) {
      EXPECT_EQ(id.size(), GetParam().id_length);
      all.insert(id);
    }
  }
  EXPECT_EQ(all.size(), std::size_t(threads * calls * per_call)); // unique across threads

  Session check(devapi_it::uri_of(GetParam()));
  Collection c = check.getSchema(schema).getCollection("c");
  EXPECT_EQ(c.count(), all.size());
  // The stored documents carry the ids their thread was given.
  for (int t = 0; t < threads; ++t)
    EXPECT_EQ(c.getOne(ids[t].back())["t"].get<int>(), t) << "thread " << t;
}

INSTANTIATE_TEST_SUITE_P(Modes, ThreadsTest, ::testing::ValuesIn(devapi_it::configs),
                         [](const auto& info) { return std::string(info.param.name); });
