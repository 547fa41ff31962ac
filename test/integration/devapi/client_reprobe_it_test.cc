// A pool reused across servers of different modes re-probes: a Client whose
// first host (a proxy to the 8.0-mode xserverd) goes away while a session
// sits idle in the pool, so the next session reaches the second host (the
// 5.7-mode xserverd) on a new connection. The document-id probe must run
// for that connection: ids then come from the connector, not the server.
#include "it_common.h"
#include "refusing_proxy.h"

#include <memory>

using namespace mysqlx;

namespace {
std::string host_port(const std::string& uri) {
  return uri.substr(uri.rfind('@') + 1);
}
DocIdList add_two(Session& s) {
  Schema db = s.createSchema("dv_reprobe", true);
  Collection c = db.createCollection("c", true);
  return c.add(R"({"n": 1})", R"({"n": 2})").execute().getGeneratedIds();
}
} // namespace

TEST(ClientReprobe, ANewConnectionToA57ServerAfterAn80OneProbesAgain) {
  auto proxy =
      std::make_unique<devapi_it::refusing_proxy>(devapi_it::env_uri("MYSQLX_TEST_URI_80"));
  const std::string uri =
      "mysqlx://xtest:xtest-pw@[(address=" + host_port(proxy->uri()) +
      ",priority=100),(address=" + host_port(devapi_it::env_uri("MYSQLX_TEST_URI_57")) +
      ",priority=50)]?ssl-mode=DISABLED&compression=DISABLED";
  Client pool = getClient(uri, ClientOption::POOL_MAX_SIZE, 1);
  {
    Session s = pool.getSession(); // the first host: 8.0 through the proxy
    EXPECT_TRUE(s.serverGeneratesIds());
    EXPECT_EQ(s.getDocIdMode(), DocIdMode::SERVER);
    DocIdList ids = add_two(s);
    ASSERT_EQ(ids.size(), 2u);
    for (const auto& id : ids) EXPECT_EQ(id.size(), 28u) << id; // the server's ids
    EXPECT_LT(ids[0], ids[1]);
  }              // back to the pool, idle
  proxy.reset(); // the 8.0 server goes away, the idle connection with it

  Session s = pool.getSession(); // the reset fails: a new connection, to 5.7
  EXPECT_FALSE(s.serverGeneratesIds());
  EXPECT_EQ(s.getDocIdMode(), DocIdMode::CLIENT);
  DocIdList ids = add_two(s);
  ASSERT_EQ(ids.size(), 2u);
  for (const auto& id : ids) EXPECT_EQ(id.size(), 32u) << id; // the connector's ids
  EXPECT_LT(ids[0], ids[1]);
  // The documents carry the ids reported, on the server actually reached.
  EXPECT_EQ(s.getSchema("dv_reprobe").getCollection("c").getOne(ids[1])["n"].get<int>(), 2);
}
