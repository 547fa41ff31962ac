// Paging with one prepared statement: limit() / offset() values ride in each
// Prepare.Execute (limit_expr placeholders), so changing them neither
// deallocates nor prepares again; gaining a limit changes the statement's
// shape and does. 5.7 (no Prepare) and a server refusing Prepare get plain
// executions with a plain limit.
#include "devapi/test_hooks.h"
#include "it_common.h"
#include "refusing_proxy.h"

using namespace mysqlx;
using detail::prepared_stats_of;
using devapi_it::config;

namespace {

constexpr int docs = 10;

std::vector<int> ns_of(DocResult r) {
  std::vector<int> out;
  for (DbDoc d : r.fetchAll()) out.push_back(d["n"].get<int>());
  return out;
}
std::vector<int> ids_of(RowResult r) {
  std::vector<int> out;
  for (Row row : r.fetchAll()) out.push_back(row[0].get<int>());
  return out;
}
std::vector<int> range(int first, int count) {
  std::vector<int> out;
  for (int i = 0; i < count && first + i <= docs; ++i) out.push_back(first + i);
  return out;
}

Collection fill(Session& s, const std::string& schema) {
  s.createSchema(schema, true);
  Schema db = s.getSchema(schema);
  db.dropCollection("c");
  Collection c = db.createCollection("c");
  CollectionAdd add = c.add();
  for (int n = 1; n <= docs; ++n) add.add("{\"n\": " + std::to_string(n) + "}");
  add.execute();
  return c;
}

} // namespace

class PreparedLimitTest : public ::testing::TestWithParam<config> {
protected:
  void SetUp() override {
    m_schema = devapi_it::test_schema("dv_plim");
    m_sess = std::make_unique<Session>(devapi_it::uri_of(GetParam()));
    m_coll = std::make_unique<Collection>(fill(*m_sess, m_schema));
  }
  bool prepares() const { return std::string(GetParam().uri_env) == "MYSQLX_TEST_URI_80"; }
  // One statement run `runs` times with other limit/offset values: on 8.0
  // one Prepare (the second run) and an Execute for every later run, never
  // a Deallocate; on 5.7 one refused Prepare and plain runs.
  void expect_one_prepare(std::uint64_t runs) {
    m_sess->sql("SELECT 1").execute(); // would carry a queued Deallocate
    const auto st = prepared_stats_of(*m_sess);
    if (prepares()) {
      EXPECT_EQ(st.prepared, 1u);
      EXPECT_EQ(st.executed, runs - 1);
      EXPECT_EQ(st.deallocated, 0u);
    } else {
      EXPECT_EQ(st.prepared, 0u);
      EXPECT_EQ(st.refused, 1u);
      EXPECT_EQ(st.executed, 0u);
    }
  }
  std::string m_schema;
  std::unique_ptr<Session> m_sess;
  std::unique_ptr<Collection> m_coll;
};

TEST_P(PreparedLimitTest, FindPagesThroughOnePreparedStatement) {
  CollectionFind f = m_coll->find("n > :min").sort("n");
  const int pages = 5, size = 3;
  for (int k = 0; k < pages; ++k)
    EXPECT_EQ(ns_of(f.bind("min", 0).limit(size).offset(k * size).execute()),
              range(k * size + 1, size))
        << "page " << k;
  expect_one_prepare(pages);
}

TEST_P(PreparedLimitTest, ModifyAndRemoveChangeTheirLimitWithoutPreparingAgain) {
  CollectionModify m = m_coll->modify("n > :min").sort("n").set("seen", true);
  // Rows 1, 2-3, 4-6 are marked.
  EXPECT_EQ(m.bind("min", 0).limit(1).execute().getAffectedItemsCount(), 1u);
  EXPECT_EQ(m.bind("min", 1).limit(2).execute().getAffectedItemsCount(), 2u);
  EXPECT_EQ(m.bind("min", 3).limit(3).execute().getAffectedItemsCount(), 3u);
  EXPECT_EQ(ns_of(m_coll->find("seen = true").sort("n").execute()), range(1, 6));
  expect_one_prepare(3);

  auto before = prepared_stats_of(*m_sess);
  CollectionRemove r = m_coll->remove("n > :min").sort("n");
  EXPECT_EQ(r.bind("min", 0).limit(1).execute().getAffectedItemsCount(), 1u);
  EXPECT_EQ(r.bind("min", 0).limit(2).execute().getAffectedItemsCount(), 2u);
  EXPECT_EQ(r.bind("min", 0).limit(4).execute().getAffectedItemsCount(), 4u);
  EXPECT_EQ(ns_of(m_coll->find().sort("n").execute()), range(8, 3));
  const auto after = prepared_stats_of(*m_sess);
  EXPECT_EQ(after.prepared - before.prepared, prepares() ? 1u : 0u);
  EXPECT_EQ(after.executed - before.executed, prepares() ? 2u : 0u);
  EXPECT_EQ(after.deallocated, 0u);
}

TEST_P(PreparedLimitTest, TableStatementsChangeTheirLimitWithoutPreparingAgain) {
  m_sess->sql("DROP TABLE IF EXISTS `" + m_schema + "`.t").execute();
  m_sess->sql("CREATE TABLE `" + m_schema + "`.t (id INT PRIMARY KEY, v INT)").execute();
  for (int id = 1; id <= docs; ++id)
    m_sess->sql("INSERT INTO `" + m_schema + "`.t VALUES (?, 0)").bind(id).execute();
  Table t = m_sess->getSchema(m_schema).getTable("t");

  TableSelect sel = t.select("id").where("id > :min").orderBy("id");
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(ids_of(sel.bind("min", 0).limit(3).offset(k * 3).execute()), range(k * 3 + 1, 3))
        << "page " << k;
  expect_one_prepare(4);

  auto before = prepared_stats_of(*m_sess);
  TableUpdate upd = t.update().set("v", 1).where("v = :v").orderBy("id");
  EXPECT_EQ(upd.bind("v", 0).limit(2).execute().getAffectedItemsCount(), 2u);
  EXPECT_EQ(upd.bind("v", 0).limit(3).execute().getAffectedItemsCount(), 3u);
  EXPECT_EQ(upd.bind("v", 0).limit(1).execute().getAffectedItemsCount(), 1u);
  EXPECT_EQ(ids_of(t.select("id").where("v = 1").orderBy("id").execute()), range(1, 6));

  TableRemove del = t.remove().where("id > :min").orderBy("id");
  EXPECT_EQ(del.bind("min", 0).limit(1).execute().getAffectedItemsCount(), 1u);
  EXPECT_EQ(del.bind("min", 0).limit(3).execute().getAffectedItemsCount(), 3u);
  EXPECT_EQ(del.bind("min", 0).limit(2).execute().getAffectedItemsCount(), 2u);
  EXPECT_EQ(ids_of(t.select("id").orderBy("id").execute()), range(7, 4));
  m_sess->sql("SELECT 1").execute();
  const auto after = prepared_stats_of(*m_sess);
  EXPECT_EQ(after.prepared - before.prepared, prepares() ? 2u : 0u); // update, remove
  EXPECT_EQ(after.executed - before.executed, prepares() ? 4u : 0u);
  EXPECT_EQ(after.deallocated, 0u);
}

TEST_P(PreparedLimitTest, GainingALimitPreparesAgainAndAnOffsetDoesNot) {
  CollectionFind f = m_coll->find("n > :min").sort("n");
  EXPECT_EQ(ns_of(f.bind("min", 0).execute()).size(), 10u);
  EXPECT_EQ(ns_of(f.bind("min", 0).execute()).size(), 10u); // prepared, no LIMIT
  // A limit changes the prepared statement's shape: the next run prepares
  // the limited statement again, under the same id (Connector/C++ 8's rule).
  EXPECT_EQ(ns_of(f.limit(2).execute()), range(1, 2));
  EXPECT_EQ(ns_of(f.limit(3).execute()), range(1, 3));
  EXPECT_EQ(ns_of(f.limit(4).execute()), range(1, 4));
  // A find is prepared with an offset placeholder (0 until offset() is
  // called): offset() keeps the shape.
  EXPECT_EQ(ns_of(f.offset(5).execute()), range(6, 4));
  m_sess->sql("SELECT 1").execute();
  const auto st = prepared_stats_of(*m_sess);
  if (prepares()) {
    EXPECT_EQ(st.prepared, 2u);
    EXPECT_EQ(st.deallocated, 0u); // the second Prepare replaced the first
    EXPECT_EQ(st.executed, 5u);    // every run but the first
  } else {
    EXPECT_EQ(st.prepared, 0u);
    EXPECT_EQ(st.executed, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, PreparedLimitTest, ::testing::ValuesIn(devapi_it::configs),
                         [](const auto& info) { return std::string(info.param.name); });

// A server that refuses Prepare (the proxy answers 1047): paging still
// returns the right pages, through plain Finds with a plain limit.
TEST(PreparedLimitFallbackTest, PagingThroughARefusingServerRunsPlain) {
  devapi_it::refusing_proxy proxy(devapi_it::env_uri("MYSQLX_TEST_URI_80"));
  Session s(proxy.uri() + "?ssl-mode=DISABLED&compression=DISABLED");
  Collection c = fill(s, "dv_plim_refused");
  CollectionFind f = c.find().sort("n");
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(ns_of(f.limit(3).offset(k * 3).execute()), range(k * 3 + 1, 3)) << "page " << k;
  CollectionRemove r = c.remove("true").sort("n");
  EXPECT_EQ(r.limit(2).execute().getAffectedItemsCount(), 2u);
  EXPECT_EQ(r.limit(3).execute().getAffectedItemsCount(), 3u);
  EXPECT_EQ(ns_of(c.find().sort("n").execute()), range(6, 5));
  const auto st = prepared_stats_of(s);
  EXPECT_EQ(proxy.prepares_refused(), 1);
  EXPECT_EQ(st.refused, 1u);
  EXPECT_EQ(st.prepared, 0u);
  EXPECT_EQ(st.executed, 0u);
}
