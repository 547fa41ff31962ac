// What the partition tests share (fixture xpartition, see CMakeLists.txt):
// the members' URIs on the client network, `xserverctl cluster partition`
// and `heal`, and waiting for Galera to notice a cut or a heal.
#pragma once

#include "it_common.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <unistd.h>

namespace partition_it {

using namespace mysqlx;

inline constexpr int members = 3;

// The namespaces, veth pairs and bridges need root: elsewhere every test
// says so and is reported skipped (never passed).
#define PARTITION_NEEDS_ROOT()                                                                     \
  do {                                                                                             \
    if (::geteuid() != 0)                                                                          \
      GTEST_SKIP() << "partition tests need root (network namespaces, veth pairs, bridges)";       \
  } while (0)

inline int first_port() {
  const char* p = std::getenv("MYSQLX_PARTITION_PORT");
  return p ? std::atoi(p) : 0;
}

inline std::string ctl_command(const std::string& args) {
  const char* script = std::getenv("MYSQLX_CLUSTER_CTL");
  return std::string(script ? script : "xserverctl") + " cluster " + args + " --name xpartition";
}

// xserverctl cluster <args> --name xpartition; its stdout, trailing newline
// dropped. An exit status other than 0 fails the test.
inline std::string ctl(const std::string& args) {
  const std::string cmd = ctl_command(args);
  std::string out;
  FILE* f = ::popen(cmd.c_str(), "r");
  EXPECT_NE(f, nullptr) << cmd;
  if (!f) return out;
  char buf[256];
  while (std::fgets(buf, sizeof buf, f)) out += buf;
  EXPECT_EQ(::pclose(f), 0) << cmd;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

// Member i's xserverd, on its address in the client network.
inline std::string member_uri(int i, const std::string& query = "") {
  static std::string addr[members + 1];
  if (addr[i].empty()) addr[i] = ctl("address --member " + std::to_string(i));
  return "mysqlx://xtest:xtest-pw@" + addr[i] + ":" + std::to_string(first_port() + i - 1) + query;
}

inline void cut(int member, const std::string& link) {
  ctl("partition --member " + std::to_string(member) + " --link " + link);
}

template <typename F> bool eventually(F done, std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

inline std::string status(Session& s, const std::string& name) {
  return s.sql("SHOW STATUS LIKE '" + name + "'").execute().fetchOne()[1].get<std::string>();
}

// Member i says `value` for the status variable `name` (SHOW STATUS works
// on a member outside the Primary component too).
inline bool member_says(int i, const std::string& name, const std::string& value,
                        std::chrono::seconds limit) {
  Session s(member_uri(i));
  return eventually([&] { return status(s, name) == value; }, limit);
}

// Heals every link and waits until every member is Synced in a cluster of
// all members again, so the next test starts whole.
inline void heal_and_wait() {
  ctl("heal");
  for (int i = 1; i <= members; ++i) {
    EXPECT_TRUE(
        member_says(i, "wsrep_cluster_size", std::to_string(members), std::chrono::seconds(60)))
        << "member " << i;
    EXPECT_TRUE(member_says(i, "wsrep_local_state_comment", "Synced", std::chrono::seconds(60)))
        << "member " << i;
  }
}

// Heals at the end of a test whatever it asserted, so that one failure does
// not cascade into the next test.
struct healer {
  healer() = default;
  healer(const healer&) = delete;
  healer& operator=(const healer&) = delete;
  ~healer() { heal_and_wait(); }
};

} // namespace partition_it
