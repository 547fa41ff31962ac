// Connect-time fail-over past a member that cannot take work: member 1, cut
// from its cluster, logs clients in (as MySQL's X Plugin would) but refuses
// their statements with 1047. A Session or a Client over the host list
// passes it by and lands on member 2, with no error; a session on member 1
// alone still connects (the application's statements then get 1047).
#include "partition_common.h"

using namespace mysqlx;
using namespace partition_it;

namespace {

std::string node_name(Session& s) {
  return s.sql("SELECT @@wsrep_node_name").execute().fetchOne()[0].get<std::string>();
}

std::string host_list() {
  std::string list;
  for (int i = 1; i <= members; ++i) {
    const std::string uri = member_uri(i);
    list += (list.empty() ? "" : ",") + uri.substr(uri.find('@') + 1);
  }
  return "mysqlx://xtest:xtest-pw@[" + list + "]";
}

TEST(ConnectFailover, PassesByAMemberCutFromItsCluster) {
  PARTITION_NEEDS_ROOT();
  {
    Session s(host_list());
    EXPECT_EQ(node_name(s), "xpartition-1"); // the first, while it is whole
  }
  healer heal;
  cut(1, "cluster");
  ASSERT_TRUE(member_says(1, "wsrep_ready", "OFF", std::chrono::seconds(30)));

  Session s(host_list());
  EXPECT_EQ(node_name(s), "xpartition-2");
  EXPECT_EQ(s.sql("SELECT COUNT(*) FROM mysql.user").execute().fetchAll().size(), 1u);

  Client client(host_list(), ClientOption::POOL_MAX_SIZE, 2);
  Session pooled = client.getSession();
  EXPECT_EQ(node_name(pooled), "xpartition-2");

  // One host, no fail-over to make: the session is opened on member 1.
  Session alone(member_uri(1));
  EXPECT_EQ(status(alone, "wsrep_ready"), "OFF");
}

} // namespace
