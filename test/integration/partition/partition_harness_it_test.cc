// The partition harness itself (xserverctl cluster start --netns, partition,
// heal) and what a member does when cut off, as MySQL's X Plugin would on a
// minority member: a client may log in, its statements get the server's
// error (1047 on Galera).
#include "partition_common.h"

using namespace mysqlx;
using namespace partition_it;
using clock_type = std::chrono::steady_clock;

namespace {

// Member 1, cut from the cluster network, leaves the Primary component; the
// others go on as a cluster of two.
TEST(PartitionHarness, ClusterCutMemberAcceptsLoginAndRefusesStatements) {
  PARTITION_NEEDS_ROOT();
  const std::string schema = devapi_it::test_schema("pt");
  {
    Session s(member_uri(1));
    s.dropSchema(schema);
    s.createSchema(schema).createCollection("docs").add(R"({"_id": "a", "v": 1})").execute();
  }
  healer heal;
  cut(1, "cluster");
  EXPECT_TRUE(member_says(2, "wsrep_cluster_size", "2", std::chrono::seconds(30)));
  EXPECT_TRUE(member_says(1, "wsrep_cluster_status", "non-Primary", std::chrono::seconds(30)));

  // A new session logs in (xserverd reads the account dirty there)...
  Session s(member_uri(1));
  // ...and its statements, SQL and CRUD alike, get Galera's 1047.
  try {
    s.sql("SELECT COUNT(*) FROM `" + schema + "`.docs").execute();
    ADD_FAILURE() << "a statement on a non-Primary member succeeded";
  } catch (const ServerError& e) {
    EXPECT_EQ(e.code(), 1047u) << e.what();
  }
  try {
    s.getSchema(schema).getCollection("docs").find().execute().fetchAll();
    ADD_FAILURE() << "a find on a non-Primary member succeeded";
  } catch (const ServerError& e) {
    EXPECT_EQ(e.code(), 1047u) << e.what();
  }
  // The others still serve.
  Session s2(member_uri(2));
  EXPECT_EQ(s2.getSchema(schema).getCollection("docs").count(), 1u);
  s2.getSchema(schema).getCollection("docs").add(R"({"_id": "b", "v": 2})").execute();

  // Healed, member 1 rejoins and has the write it missed.
  heal_and_wait();
  Session s1(member_uri(1));
  EXPECT_TRUE(eventually([&] { return s1.getSchema(schema).getCollection("docs").count() == 2; },
                         std::chrono::seconds(10)));
  s1.dropSchema(schema);
}

// Member 1, cut from the client network, stays in the cluster, and a client
// gets no answer at all: no refusal, no "host unreachable", a timeout,
// while both ends of the cut link still see it up.
TEST(PartitionHarness, ClientCutIsSilent) {
  PARTITION_NEEDS_ROOT();
  healer heal;
  cut(1, "client");
  const auto t0 = clock_type::now();
  try {
    Session s(member_uri(1, "?connect-timeout=1000"));
    ADD_FAILURE() << "connected to a member cut from its clients";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::TIMEOUT) << e.what();
  }
  EXPECT_GE(clock_type::now() - t0, std::chrono::milliseconds(900));
  const std::string ns = "xs" + std::to_string(first_port());
  EXPECT_EQ(std::system(("ip -n " + ns + "-m1 link show cli | grep -q 'state UP'").c_str()), 0);
  EXPECT_EQ(std::system(("ip -n " + ns + "-bx link show m1 | grep -q 'state UP'").c_str()), 0);
  Session s2(member_uri(2));
  EXPECT_EQ(status(s2, "wsrep_cluster_size"), "3"); // Galera's links are untouched

  ctl("heal --member 1");
  Session s1(member_uri(1));
  EXPECT_EQ(status(s1, "wsrep_cluster_status"), "Primary");
}

} // namespace
