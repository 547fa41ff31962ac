// Ids across a real multi-primary cluster (MariaDB Galera, three members, an
// xserverd in front of each; fixture xcluster). WL#10955's claim: every
// member writes at once and no id repeats, because each member has its own
// prefix and its serial follows the auto_increment_offset/increment that
// Galera hands out (NF4), and a member that restarts keeps its prefix (NF3).
#include "cluster_common.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace mysqlx;
using namespace cluster_it;

// Galera numbers the members of each view: offsets 1..N in some order (a
// member that rejoins may get another one), increment N.
int offset_of(int member) {
  Session s(member_uri(member));
  return static_cast<int>(scalar(s, "SELECT @@auto_increment_offset"));
}

TEST(Cluster, EveryMemberAnswersAndEachHasItsOwnPrefixAndOffset) {
  std::set<std::int64_t> offsets;
  for (int i = 1; i <= members; ++i) {
    Session s(member_uri(i));
    EXPECT_EQ(status(s, "wsrep_cluster_size"), std::to_string(members));
    EXPECT_EQ(scalar(s, "SELECT @@mysqlx_document_id_unique_prefix"), i);
    EXPECT_EQ(scalar(s, "SELECT @@auto_increment_increment"), members);
    offsets.insert(scalar(s, "SELECT @@auto_increment_offset"));
  }
  EXPECT_EQ(offsets, (std::set<std::int64_t>{1, 2, 3}));
}

// Writers on every member at once, the servers making the ids: no id twice,
// no add refused (a certification failure would throw), every document on
// every member. Each id is the member's prefix, then its serial, which steps
// by the cluster size from the member's auto_increment_offset.
TEST(Cluster, ServerIdsFromWritersOnEveryMemberNeverCollide) {
  const std::string schema = fresh_schema();
  constexpr int batches = 20, size = 100;
  std::vector<std::vector<std::string>> ids(members + 1);
  std::vector<std::string> failures(members + 1);
  std::vector<int> offsets(members + 1);
  for (int i = 1; i <= members; ++i) offsets[i] = offset_of(i);
  std::vector<std::thread> writers;
  for (int i = 1; i <= members; ++i)
    writers.emplace_back([&, i] {
      try {
        Session s(member_uri(i));
        ids[i] = add_batches(s.getSchema(schema).getCollection("docs"), batches, size,
                             "m" + std::to_string(i));
      } catch (const std::exception& e) {
        failures[i] = e.what();
      }
    });
  for (auto& t : writers) t.join();

  std::set<std::string> all;
  for (int i = 1; i <= members; ++i) {
    EXPECT_EQ(failures[i], "") << "member " << i;
    ASSERT_EQ(ids[i].size(), std::size_t{batches * size}) << "member " << i;
    for (std::size_t k = 0; k < ids[i].size(); ++k) {
      const std::string& id = ids[i][k];
      ASSERT_EQ(id.size(), 28u) << id;
      EXPECT_EQ(id.substr(0, 4), hex4(i)) << id;
      const auto serial = std::stoull(id.substr(12), nullptr, 16);
      EXPECT_EQ(serial % members, static_cast<unsigned>(offsets[i] % members)) << id;
      if (k > 0) {
        EXPECT_LT(ids[i][k - 1], id) << "ids of one member increase";
      }
      all.insert(id);
    }
  }
  EXPECT_EQ(all.size(), std::size_t{members * batches * size});
  expect_everywhere(schema, members * batches * size);
}

// The connector's own ids (UUIDv7-like, 32 hex), made by separate processes,
// each writing through another member: unique with no coordination at all.
TEST(Cluster, ClientIdsFromSeveralProcessesNeverCollide) {
  const std::string schema = fresh_schema();
  constexpr int batches = 10, size = 100;
  const std::string dir = ::testing::TempDir();
  std::vector<pid_t> children;
  for (int i = 1; i <= members; ++i) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int rc = 1;
      try {
        Session s(member_uri(i, "?docid-mode=client"));
        auto ids = add_batches(s.getSchema(schema).getCollection("docs"), batches, size,
                               "p" + std::to_string(i));
        std::ofstream out(dir + "cluster_ids_" + std::to_string(i));
        for (const auto& id : ids) out << id << '\n';
        rc = out.good() ? 0 : 1;
      } catch (const std::exception& e) {
        std::fprintf(stderr, "process for member %d: %s\n", i, e.what());
      }
      _exit(rc);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int st = 0;
    ASSERT_EQ(waitpid(pid, &st, 0), pid);
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << "a writer process failed";
  }
  std::set<std::string> all;
  std::size_t read = 0;
  for (int i = 1; i <= members; ++i) {
    std::ifstream in(dir + "cluster_ids_" + std::to_string(i));
    for (std::string id; std::getline(in, id); ++read) {
      EXPECT_EQ(id.size(), 32u) << id;
      all.insert(id);
    }
  }
  EXPECT_EQ(read, std::size_t{members * batches * size});
  EXPECT_EQ(all.size(), read);
  expect_everywhere(schema, members * batches * size);
}

// NF3: a member that stops and comes back keeps its prefix, and its ids keep
// increasing (the start time in them moves on); it catches up with what the
// others wrote meanwhile.
TEST(Cluster, AMemberThatRestartsKeepsItsPrefixAndItsIdsKeepIncreasing) {
  const std::string schema = fresh_schema();
  std::string before;
  {
    Session s(member_uri(2));
    before = add_batches(s.getSchema(schema).getCollection("docs"), 1, 1, "before").at(0);
  }
  ctl("stop-member", 2);
  {
    Session s(member_uri(1));
    add_batches(s.getSchema(schema).getCollection("docs"), 1, 10, "meanwhile");
    EXPECT_EQ(status(s, "wsrep_cluster_size"), std::to_string(members - 1));
  }
  // The start time in an id has a resolution of one second.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ctl("start-member", 2);
  Session s(member_uri(2));
  EXPECT_EQ(status(s, "wsrep_cluster_size"), std::to_string(members));
  const std::string after =
      add_batches(s.getSchema(schema).getCollection("docs"), 1, 1, "after").at(0);
  EXPECT_EQ(before.substr(0, 4), hex4(2));
  EXPECT_EQ(after.substr(0, 4), hex4(2));
  EXPECT_LT(before, after);
  EXPECT_LT(before.substr(4, 8), after.substr(4, 8)) << "a new start time";
  expect_everywhere(schema, 12);
}

// Two members change one document at once: Galera lets the first commit win
// and aborts the other transaction. The application gets the server's error
// (1213, SQLSTATE 40001: "try restarting transaction") and a retry works.
TEST(Cluster, ACertificationConflictIsAServerErrorAndTheRetryWorks) {
  const std::string schema = fresh_schema();
  Session s1(member_uri(1)), s2(member_uri(2));
  Collection c1 = s1.getSchema(schema).getCollection("docs");
  Collection c2 = s2.getSchema(schema).getCollection("docs");
  c1.add(R"({"_id": "k", "n": 0})").execute();
  // The document is on member 2 before either transaction starts: its late
  // arrival would abort s2's transaction too early.
  ASSERT_TRUE(eventually([&] { return c2.find("_id = 'k'").execute().count() == 1; }));

  s1.startTransaction();
  c1.modify("_id = 'k'").set("n", 1).execute();
  s2.startTransaction();
  c2.modify("_id = 'k'").set("n", 2).execute();
  s1.commit();
  try {
    s2.commit();
    FAIL() << "the second commit of one document should be refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), Error::Kind::SERVER);
    EXPECT_EQ(e.code(), 1213u) << e.what();
    EXPECT_EQ(e.sqlState(), "40001") << e.what();
  }
  // Still usable: the transaction is gone and runs again, as an application
  // retries on 1213 (a loaded member may report the abort once more).
  for (int attempt = 1;; ++attempt) {
    try {
      s2.startTransaction();
      c2.modify("_id = 'k'").set("n", 2).execute();
      s2.commit();
      break;
    } catch (const Error& e) {
      ASSERT_EQ(e.code(), 1213u) << e.what();
      ASSERT_LT(attempt, 5) << e.what();
      try {
        s2.rollback();
      } catch (const Error&) {
      }
    }
  }
  for (int i = 1; i <= members; ++i) {
    Session s(member_uri(i));
    EXPECT_TRUE(eventually([&] {
      return scalar(s, "SELECT CAST(JSON_EXTRACT(doc, '$.n') AS SIGNED) FROM `" + schema +
                           "`.docs WHERE _id = 'k'") == 2;
    })) << "member "
        << i;
  }
}

namespace {

std::string host_list() {
  std::string uri = "mysqlx://xtest:xtest-pw@[";
  for (int i = 1; i <= members; ++i)
    uri += std::string(i > 1 ? "," : "") +
           "(address=127.0.0.1:" + std::to_string(first_port() + i - 1) +
           ",priority=" + std::to_string(100 - 10 * i) + ")";
  return uri + "]";
}

// What a writer saw while the member it used died.
struct failover_run {
  std::vector<std::string> acked;       // ids of adds that returned
  std::vector<std::string> maybe;       // ids of the add that failed, if it may have run
  std::set<std::string> prefixes_after; // prefixes of server ids acknowledged after the failure
  std::set<std::int64_t> members_after; // the member (its prefix) of each session opened after it
  int connection_errors = 0;
  int maybe_applied = 0; // connection errors that said the add may have run
  std::string other_errors;
};

// Adds batches of 10 through `open_session` (a host list or a pool) while
// member 1, the first in priority, is killed 300 ms in; goes on until 30
// batches went through after the failure, opening a new session after each
// error as an application would.
template <typename Open> failover_run write_through_a_crash(const std::string& schema, Open open) {
  failover_run run;
  std::thread killer([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ctl("kill-member", 1);
  });
  int after = 0;
  std::unique_ptr<Session> s;
  for (int b = 0; b < 5000 && after < 30; ++b) {
    try {
      if (!s) {
        s = open();
        if (run.connection_errors)
          run.members_after.insert(scalar(*s, "SELECT @@mysqlx_document_id_unique_prefix"));
      }
      Result r = s->getSchema(schema).getCollection("docs").add(batch(10, "f")).execute();
      for (const auto& id : r.getGeneratedIds()) {
        run.acked.push_back(id);
        if (run.connection_errors && id.size() == 28) run.prefixes_after.insert(id.substr(0, 4));
      }
      if (run.connection_errors) ++after;
    } catch (const Error& e) {
      s.reset();
      if (e.kind() != Error::Kind::CONNECTION) {
        run.other_errors += std::string(e.what()) + "; ";
        continue;
      }
      ++run.connection_errors;
      if (e.mayHaveBeenApplied()) ++run.maybe_applied;
      if (e.mayHaveBeenApplied())
        run.maybe.insert(run.maybe.end(), e.getGeneratedIds().begin(), e.getGeneratedIds().end());
    }
  }
  killer.join();
  std::fprintf(stderr, "%zu documents acknowledged, %d connection errors (%d: may have run)\n",
               run.acked.size(), run.connection_errors, run.maybe_applied);
  return run;
}

// Every acknowledged document is stored exactly once; the add that failed
// is stored whole or not at all, and only if its error said it might have
// run. With the connector's ids the error carries them: the extra documents
// are exactly those.
void expect_stored_once(const std::string& schema, const failover_run& run) {
  const std::string table = "`" + schema + "`.docs";
  Session s(member_uri(2));
  auto in = [](const std::vector<std::string>& ids) {
    std::string list;
    for (const auto& id : ids) list += (list.empty() ? "'" : ",'") + id + "'";
    return list.empty() ? std::string("''") : list;
  };
  EXPECT_EQ(scalar(s, "SELECT COUNT(*) FROM " + table + " WHERE _id IN (" + in(run.acked) + ")"),
            static_cast<std::int64_t>(run.acked.size()));
  const auto total = scalar(s, "SELECT COUNT(*) FROM " + table);
  EXPECT_EQ(scalar(s, "SELECT COUNT(DISTINCT _id) FROM " + table), total) << "an id repeats";
  const auto extra = total - static_cast<std::int64_t>(run.acked.size());
  EXPECT_TRUE(extra == 0 || (extra == 10 && run.maybe_applied > 0))
      << extra << " documents stored that no add() acknowledged";
  if (!run.maybe.empty()) {
    EXPECT_EQ(scalar(s, "SELECT COUNT(*) FROM " + table + " WHERE _id IN (" + in(run.maybe) + ")"),
              extra);
  }
}

void restart_member_1() {
  ctl("start-member", 1);
  Session s(member_uri(1));
  EXPECT_TRUE(eventually([&] { return status(s, "wsrep_cluster_size") == "3"; }));
}

} // namespace

// A session over a host list keeps adding while the member it uses dies:
// the failed call is a connection error, the next session goes to the next
// member by priority, which makes the ids from then on (its prefix), and no
// acknowledged document is lost or stored twice.
TEST(Cluster, AWriterOverAHostListFailsOverWhenItsMemberDies) {
  const std::string schema = fresh_schema();
  failover_run run =
      write_through_a_crash(schema, [] { return std::make_unique<Session>(host_list()); });
  EXPECT_EQ(run.other_errors, "");
  EXPECT_EQ(run.connection_errors, 1) << "one failed call, then the next member";
  EXPECT_EQ(run.members_after, (std::set<std::int64_t>{2}));
  EXPECT_EQ(run.prefixes_after, (std::set<std::string>{hex4(2)}));
  expect_stored_once(schema, run);
  restart_member_1();
}

// The same through a Client, with the connector's ids: the pool drops the
// dead connection, its next getSession() goes to the next member, and the
// failed add's error carries the ids it gave the documents.
TEST(Cluster, APoolOverAHostListFailsOverWhenItsMemberDies) {
  const std::string schema = fresh_schema();
  Client pool(host_list() + "?docid-mode=client", ClientOption::POOL_MAX_SIZE, 2);
  failover_run run =
      write_through_a_crash(schema, [&] { return std::make_unique<Session>(pool.getSession()); });
  EXPECT_EQ(run.other_errors, "");
  EXPECT_GE(run.connection_errors, 1);
  EXPECT_EQ(run.members_after, (std::set<std::int64_t>{2}));
  if (run.maybe_applied) {
    EXPECT_EQ(run.maybe.size(), 10u * run.maybe_applied);
  }
  expect_stored_once(schema, run);
  restart_member_1();
}
