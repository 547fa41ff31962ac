// When the server's max_prepared_stmt_count is exhausted, Prepare gets
// mysqld's 1461 (xserverd passes MariaDB's through, as MySQL's X Plugin
// passes mysqld's) and the connector runs its statements plainly, with the
// right results, and prepares nothing more in that session. The limit is
// global, so this runs alone on an xserverd of its own (fixture
// xserver_dvprepcount, MYSQLX_TEST_URI_PREPCOUNT).
#include "devapi/test_hooks.h"
#include "it_common.h"
#include "server_statements.h"

using namespace mysqlx;

namespace {

std::vector<int> ns_of(DocResult r) {
  std::vector<int> out;
  for (DbDoc d : r.fetchAll()) out.push_back(d["n"].get<int>());
  return out;
}

// Sets the server's max_prepared_stmt_count, and restores it however the
// test ends.
class prepared_limit {
public:
  prepared_limit(Session& admin, std::uint64_t limit) : m_admin(admin) {
    m_saved = std::to_string(admin.sql("SELECT @@global.max_prepared_stmt_count")
                                 .execute()
                                 .fetchOne()[0]
                                 .get<std::uint64_t>());
    admin.sql("SET GLOBAL max_prepared_stmt_count = " + std::to_string(limit)).execute();
  }
  ~prepared_limit() {
    try {
      m_admin.sql("SET GLOBAL max_prepared_stmt_count = " + m_saved).execute();
    } catch (const Error& e) {
      ADD_FAILURE() << "max_prepared_stmt_count not restored: " << e.what();
    }
  }
  prepared_limit(const prepared_limit&) = delete;
  prepared_limit& operator=(const prepared_limit&) = delete;

private:
  Session& m_admin;
  std::string m_saved;
};

TEST(PreparedCountExhausted, TheConnectorFallsBackToPlainExecution) {
  const std::string uri = devapi_it::env_uri("MYSQLX_TEST_URI_PREPCOUNT");
  Session admin(uri);
  admin.createSchema("dv_prepcount", true);
  Schema db = admin.getSchema("dv_prepcount");
  db.dropCollection("c");
  CollectionAdd add = db.createCollection("c").add();
  for (int n = 1; n <= 6; ++n) add.add("{\"n\": " + std::to_string(n) + "}");
  add.execute();

  Session s(uri);
  const std::int64_t conn = devapi_it::connection_id(s);
  Collection c = s.getSchema("dv_prepcount").getCollection("c");
  CollectionFind f = c.find("n >= :min").sort("n");
  CollectionModify m = c.modify("n = :n").set("seen", true);
  {
    prepared_limit none(admin, 0);
    for (int min = 1; min <= 4; ++min)
      EXPECT_EQ(ns_of(f.bind("min", min).limit(2).execute()), (std::vector<int>{min, min + 1}))
          << min;
    for (int n : {1, 2, 3}) EXPECT_EQ(m.bind("n", n).execute().getAffectedItemsCount(), 1u) << n;
    const auto st = detail::prepared_stats_of(s);
    // The find's second run; the session then holds at most as many
    // statements as it had (none), as Connector/C++ 8 caps itself.
    EXPECT_EQ(st.refused, 1u);
    EXPECT_EQ(st.prepared, 0u);
    EXPECT_EQ(st.executed, 0u);
    EXPECT_TRUE(st.supported); // the server has Prepare; only room ran out
    EXPECT_TRUE(devapi_it::statements_of(admin, conn).empty());
  }
  EXPECT_EQ(c.find("seen = true").execute().count(), 3u);
  // With room again, a new session prepares as usual.
  Session t(uri);
  CollectionFind g = t.getSchema("dv_prepcount").getCollection("c").find("n = :n");
  EXPECT_EQ(ns_of(g.bind("n", 5).execute()), (std::vector<int>{5}));
  EXPECT_EQ(ns_of(g.bind("n", 6).execute()), (std::vector<int>{6}));
  EXPECT_EQ(devapi_it::statements_of(admin, devapi_it::connection_id(t), 1).size(), 1u);
}

} // namespace
