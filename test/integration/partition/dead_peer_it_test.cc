// dead-peer-timeout (default 5 s): a member that goes silent (cut from its
// clients: nothing closes, nothing answers) fails a blocked call within
// about that long, with errc::DEAD_PEER, instead of the ~15 minutes Linux
// takes by itself; 0 keeps the old wait. Member 3 is cut from the client
// network only, so Galera never notices and a heal is immediate.
#include "partition_common.h"

#include <atomic>
#include <future>

using namespace mysqlx;
using namespace partition_it;
using clock_type = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

std::string node_name(Session& s) {
  return s.sql("SELECT @@wsrep_node_name").execute().fetchOne()[0].get<std::string>();
}

// Cuts member 3 from its clients `after` from now, from another thread.
std::future<clock_type::time_point> cut_later(milliseconds after) {
  return std::async(std::launch::async, [after] {
    std::this_thread::sleep_for(after);
    cut(3, "client");
    return clock_type::now();
  });
}

long ms_since(clock_type::time_point t) {
  return static_cast<long>(std::chrono::duration_cast<milliseconds>(clock_type::now() - t).count());
}

// The reply to a statement in flight is lost in the cut: keepalive finds the
// silent peer.
TEST(DeadPeer, CallWaitingForAReplyFailsWithinTheBound) {
  PARTITION_NEEDS_ROOT();
  healer heal;
  Session s(member_uri(3));
  auto cut_at = cut_later(milliseconds(300));
  try {
    s.sql("SELECT SLEEP(2)").execute();
    ADD_FAILURE() << "the reply crossed the cut";
  } catch (const ConnectionError& e) {
    const long waited = ms_since(cut_at.get());
    std::printf("dead_peer reply_lost: failed %ld ms after the cut (dead-peer-timeout=5000)\n",
                waited);
    EXPECT_EQ(e.code(), errc::DEAD_PEER) << e.what();
    EXPECT_NE(std::string(e.what()).find("dead-peer-timeout=5000 ms"), std::string::npos)
        << e.what();
    EXPECT_TRUE(e.mayHaveBeenApplied()); // the statement went out
    EXPECT_LT(waited, 12000);            // about 5 s; loose, the machine may be loaded
  }
}

// A request sent into the cut is never acknowledged: the read wait finds it in TCP_INFO.
TEST(DeadPeer, RequestSentIntoTheCutFailsWithinTheBound) {
  PARTITION_NEEDS_ROOT();
  healer heal;
  Session s(member_uri(3, "?dead-peer-timeout=2000"));
  cut(3, "client");
  const auto t0 = clock_type::now();
  try {
    s.sql("SELECT 1").execute();
    ADD_FAILURE() << "the request crossed the cut";
  } catch (const ConnectionError& e) {
    const long waited = ms_since(t0);
    std::printf("dead_peer request_lost: failed after %ld ms (dead-peer-timeout=2000)\n", waited);
    EXPECT_EQ(e.code(), errc::DEAD_PEER) << e.what();
    EXPECT_NE(std::string(e.what()).find("dead-peer-timeout=2000 ms"), std::string::npos)
        << e.what();
    EXPECT_GE(waited, 1500);
    EXPECT_LT(waited, 8000);
  }
}

// 0: the old behaviour. The call outlives the 5-second bound (here a
// 6-second cut), and its reply, retransmitted by the server's TCP, arrives
// once the link heals: the call succeeds. Without a heal it would wait about
// 15 minutes (tcp_retries2), which no test waits for.
TEST(DeadPeer, ZeroWaitsThroughTheCut) {
  PARTITION_NEEDS_ROOT();
  healer heal;
  Session s(member_uri(3, "?dead-peer-timeout=0"));
  auto cut_at = cut_later(milliseconds(300));
  auto healed_at = std::async(std::launch::async, [&cut_at] {
    const auto cut_time = cut_at.get();
    std::this_thread::sleep_until(cut_time + std::chrono::seconds(6));
    ctl("heal --member 3");
    return clock_type::now();
  });
  const auto t0 = clock_type::now();
  auto row = s.sql("SELECT SLEEP(1)").execute().fetchOne();
  const auto healed = healed_at.get();
  EXPECT_TRUE(row);
  EXPECT_GE(clock_type::now(), healed); // it waited for the heal, not failing at 5 s
  std::printf("dead_peer off: the call returned %ld ms after it began, %ld ms after the heal\n",
              ms_since(t0), ms_since(healed));
}

// A pooled getSession() resets the connection it takes from the pool: sent
// into a cut, the Reset fails within dead-peer-timeout and the pool opens a
// new connection, here on the next member of the list.
TEST(DeadPeer, PooledResetOnACutMemberIsBounded) {
  PARTITION_NEEDS_ROOT();
  healer heal;
  const std::string m3 = member_uri(3), m2 = member_uri(2);
  // mysqlx://user:pw@[host3:p3,host2:p2]?connect-timeout=2000
  const auto at = [](const std::string& uri) { return uri.substr(uri.find('@') + 1); };
  Client client("mysqlx://xtest:xtest-pw@[" + at(m3) + "," + at(m2) + "]?connect-timeout=2000",
                ClientOption::POOL_MAX_SIZE, 1);
  {
    Session s = client.getSession();
    EXPECT_EQ(node_name(s), "xpartition-3");
  }
  cut(3, "client");
  const auto t0 = clock_type::now();
  Session s = client.getSession();
  const long waited = ms_since(t0);
  std::printf("dead_peer pooled_reset: getSession() took %ld ms (reset into the cut, then a "
              "connect-timeout on member 3)\n",
              waited);
  EXPECT_EQ(node_name(s), "xpartition-2");
  EXPECT_LT(waited, 15000); // 5 s + 2 s; loose
}

} // namespace
