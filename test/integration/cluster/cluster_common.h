// What the cluster tests share: the members' URIs, xserverctl's cluster
// commands, waiting for Galera to apply a write everywhere, and a fresh
// schema per case (fixture xcluster; see CMakeLists.txt).
#pragma once

#include "it_common.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace cluster_it {

using namespace mysqlx;

inline constexpr int members = 3;

inline int first_port() {
  const char* p = std::getenv("MYSQLX_CLUSTER_PORT");
  return p ? std::atoi(p) : 0;
}

inline std::string member_uri(int i, const std::string& query = "") {
  return "mysqlx://xtest:xtest-pw@127.0.0.1:" + std::to_string(first_port() + i - 1) + query;
}

// xserverctl cluster <action> --name xcluster [--member i]; MYSQLX_BUILD_DIR
// and XSERVERD come with the test's environment.
inline void ctl(const std::string& action, int member = 0) {
  const char* script = std::getenv("MYSQLX_CLUSTER_CTL");
  ASSERT_NE(script, nullptr);
  std::string cmd = std::string(script) + " cluster " + action + " --name xcluster";
  if (member) cmd += " --member " + std::to_string(member);
  ASSERT_EQ(std::system((cmd + " >/dev/null").c_str()), 0) << cmd;
}

// Galera orders every write on every member, but the others apply it a
// moment after the member that ran it: a collection (a table, then its two
// triggers) or a batch is not on the other members the instant the call
// returns. (wsrep_sync_wait did not make reads wait for DDL here.) The
// checks wait for a member to catch up, for at most 10 s.
template <typename F> bool eventually(F done) {
  for (int tries = 0; tries < 200; ++tries) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

inline std::int64_t scalar(Session& s, const std::string& sql) {
  return s.sql(sql).execute().fetchOne()[0].get<std::int64_t>();
}

// Every member has the collection `schema`.docs whole: table and triggers.
inline void sync_members(const std::string& schema) {
  for (int i = 1; i <= members; ++i) {
    Session s(member_uri(i));
    EXPECT_TRUE(eventually([&] {
      return scalar(s, "SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE "
                       "EVENT_OBJECT_SCHEMA = '" +
                           schema + "' AND EVENT_OBJECT_TABLE = 'docs'") == 2;
    })) << "member "
        << i << " lacks the collection";
  }
}

// Each case has a schema of its own, made through member 1.
inline std::string fresh_schema() {
  std::string name = devapi_it::test_schema("cl");
  Session s(member_uri(1));
  s.dropSchema(name);
  s.createSchema(name).createCollection("docs");
  sync_members(name);
  return name;
}

inline std::vector<std::string> batch(int n, const std::string& tag) {
  std::vector<std::string> docs;
  for (int k = 0; k < n; ++k)
    docs.push_back(R"({"tag": ")" + tag + R"(", "k": )" + std::to_string(k) + "}");
  return docs;
}

inline std::vector<std::string> add_batches(Collection c, int batches, int size,
                                            const std::string& tag) {
  std::vector<std::string> ids;
  for (int b = 0; b < batches; ++b) {
    Result r = c.add(batch(size, tag)).execute();
    for (const auto& id : r.getGeneratedIds()) ids.push_back(id);
  }
  return ids;
}

// Every member holds `n` documents, all with different ids.
inline void expect_everywhere(const std::string& schema, std::int64_t n) {
  const std::string table = "`" + schema + "`.docs";
  for (int i = 1; i <= members; ++i) {
    Session s(member_uri(i));
    EXPECT_TRUE(eventually([&] { return scalar(s, "SELECT COUNT(*) FROM " + table) >= n; }))
        << "member " << i;
    EXPECT_EQ(scalar(s, "SELECT COUNT(*) FROM " + table), n) << "member " << i;
    EXPECT_EQ(scalar(s, "SELECT COUNT(DISTINCT _id) FROM " + table), n) << "member " << i;
  }
}

inline std::string hex4(int v) {
  char out[5];
  std::snprintf(out, sizeof out, "%04x", v);
  return out;
}

inline std::string status(Session& s, const std::string& name) {
  return s.sql("SHOW STATUS LIKE '" + name + "'").execute().fetchOne()[1].get<std::string>();
}

} // namespace cluster_it
