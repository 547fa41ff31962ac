// How long writes stop on the members that stay up while one member dies
// and while it rejoins: the numbers README's "Clusters" section quotes.
// A writer on each surviving member adds one document at a time, with no
// read-timeout (a call waits through any pause); the test prints the longest
// gap between two acknowledged adds of each writer after the kill and during
// the rejoin. It asserts what must hold whatever the timing (nothing refused,
// every acknowledged document stored once, writes going on after each
// event), never a duration: a pause is Galera's (evs.suspect_timeout for a
// death, the donor's state transfer for a rejoin), and printed to be read.
#include "cluster_common.h"

#include <atomic>
#include <mutex>

using namespace mysqlx;
using namespace cluster_it;
using clock_type = std::chrono::steady_clock;

namespace {

// Adds one document at a time through `member` until stopped, noting when
// each add returned.
class writer {
public:
  writer(const std::string& schema, int member)
      : m_thread([this, schema, member] { run(schema, member); }) {}
  writer(const writer&) = delete;
  writer& operator=(const writer&) = delete;
  ~writer() { stop(); }

  void stop() {
    m_stop = true;
    if (m_thread.joinable()) m_thread.join();
  }
  std::size_t acked_after(clock_type::time_point t) {
    std::lock_guard<std::mutex> lock(m_mutex);
    std::size_t n = 0;
    for (auto d : m_done)
      if (d > t) ++n;
    return n;
  }
  // The longest time in [from, to) with no add returning, counted from
  // `from` (an add in flight when the event came waits as long as any).
  std::chrono::milliseconds longest_pause(clock_type::time_point from, clock_type::time_point to) {
    std::lock_guard<std::mutex> lock(m_mutex);
    auto last = from;
    clock_type::duration longest{};
    for (auto d : m_done) {
      if (d <= from) continue;
      if (d > to) d = to;
      longest = std::max(longest, d - last);
      last = d;
      if (d == to) break;
    }
    longest = std::max(longest, to - last);
    return std::chrono::duration_cast<std::chrono::milliseconds>(longest);
  }
  std::vector<std::string> ids() {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_ids;
  }
  std::string errors() {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_errors;
  }

private:
  void run(const std::string& schema, int member) {
    try {
      Session s(member_uri(member));
      Collection c = s.getSchema(schema).getCollection("docs");
      for (int k = 0; !m_stop; ++k) {
        Result r = c.add(R"({"member": )" + std::to_string(member) + R"(, "k": )" +
                         std::to_string(k) + "}")
                       .execute();
        std::lock_guard<std::mutex> lock(m_mutex);
        m_done.push_back(clock_type::now());
        for (const auto& id : r.getGeneratedIds()) m_ids.push_back(id);
      }
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_errors += e.what();
    }
  }

  std::atomic<bool> m_stop{false};
  std::mutex m_mutex;
  std::vector<clock_type::time_point> m_done;
  std::vector<std::string> m_ids;
  std::string m_errors;
  std::thread m_thread; // last: starts once the rest is built
};

// Waits (at most 60 s) until every writer has acknowledged `n` adds after `t`.
bool all_going_on(std::vector<std::unique_ptr<writer>>& ws, clock_type::time_point t,
                  std::size_t n) {
  for (int tries = 0; tries < 600; ++tries) {
    bool all = true;
    for (auto& w : ws) all = all && w->acked_after(t) >= n;
    if (all) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

} // namespace

TEST(ClusterPause, WritersOnSurvivingMembersThroughAKillAndARejoin) {
  const std::string schema = fresh_schema();
  std::vector<std::unique_ptr<writer>> ws;
  for (int member : {2, 3}) ws.push_back(std::make_unique<writer>(schema, member));
  const auto started = clock_type::now();
  ASSERT_TRUE(all_going_on(ws, started, 20)) << "the writers never got going";

  const auto killed = clock_type::now();
  ctl("kill-member", 1);
  EXPECT_TRUE(all_going_on(ws, killed, 20)) << "writes did not resume after the kill";
  // The survivors evict the dead member only once evs.suspect_timeout has
  // passed; a new incarnation joining before that races the eviction (the
  // survivors were non-Primary for a second: writes refused). xserverctl's
  // start-member waits for that too; waiting here keeps it out of the
  // rejoin's time.
  std::this_thread::sleep_until(killed + std::chrono::seconds(8));

  // start-member returns once member 1 has rejoined and is synced: its state
  // transfer is over.
  const auto rejoin = clock_type::now();
  ctl("start-member", 1);
  const auto rejoined = clock_type::now();
  EXPECT_TRUE(all_going_on(ws, rejoined, 20)) << "writes did not resume after the rejoin";
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const auto ended = clock_type::now();
  for (auto& w : ws) w->stop();

  auto ms = [](clock_type::duration d) {
    return static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(d).count());
  };
  std::printf("{\"cluster_pause\": {\"kill_ms\": {\"member2\": %lld, \"member3\": %lld}, "
              "\"rejoin_ms\": {\"member2\": %lld, \"member3\": %lld}, "
              "\"rejoin_took_ms\": %lld}}\n",
              static_cast<long long>(ws[0]->longest_pause(killed, rejoin).count()),
              static_cast<long long>(ws[1]->longest_pause(killed, rejoin).count()),
              static_cast<long long>(ws[0]->longest_pause(rejoin, ended).count()),
              static_cast<long long>(ws[1]->longest_pause(rejoin, ended).count()),
              ms(rejoined - rejoin));

  std::vector<std::string> acked;
  for (auto& w : ws) {
    EXPECT_EQ(w->errors(), "") << "an add on a surviving member failed";
    for (auto& id : w->ids()) acked.push_back(id);
  }
  // Every acknowledged document, once, on every member (member 1 included:
  // the state transfer brought it what it missed).
  expect_everywhere(schema, static_cast<std::int64_t>(acked.size()));
}
