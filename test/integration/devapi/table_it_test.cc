// Table: insert / select / update / remove and count, on 8.0 and 5.7 modes.
#include "it_common.h"

using namespace mysqlx;
using devapi_it::config;

class TableTest : public ::testing::TestWithParam<config> {
protected:
  void SetUp() override {
    m_sess = std::make_unique<Session>(devapi_it::uri_of(GetParam()));
    const std::string schema = devapi_it::test_schema("dv_table");
    m_sess->createSchema(schema, true);
    m_sess->sql("DROP TABLE IF EXISTS `" + schema + "`.t").execute();
    m_sess->sql("CREATE TABLE `" + schema + "`.t (id INT PRIMARY KEY, name VARCHAR(20), qty INT)")
        .execute();
    m_table = std::make_unique<Table>(m_sess->getSchema(schema).getTable("t", true));
  }
  std::unique_ptr<Session> m_sess;
  std::unique_ptr<Table> m_table;
};

TEST_P(TableTest, InsertSelectUpdateRemove) {
  Result ins = m_table->insert("id", "name", "qty")
                   .values(1, "pen", 10)
                   .values(2, "ink", 5)
                   .rows(Row(3, "pad", 0))
                   .execute();
  EXPECT_EQ(ins.getAffectedItemsCount(), 3u);
  EXPECT_EQ(m_table->count(), 3u);
  EXPECT_FALSE(m_table->isView());

  RowResult r = m_table->select("name", "qty * 2 AS twice")
                    .where("qty > :min")
                    .orderBy("qty DESC")
                    .bind("min", 1)
                    .execute();
  ASSERT_EQ(r.getColumnCount(), 2u);
  EXPECT_EQ(r.getColumn(1).getColumnLabel(), "twice");
  Row first = r.fetchOne();
  EXPECT_EQ(first[0].get<std::string>(), "pen");
  EXPECT_EQ(first[1].get<int>(), 20);
  EXPECT_EQ(r.fetchAll().size(), 1u);

  Result up = m_table->update().set("qty", expr("qty + 1")).where("id = 2").execute();
  EXPECT_EQ(up.getAffectedItemsCount(), 1u);
  EXPECT_EQ(m_table->select("qty").where("id = 2").execute().fetchOne()[0].get<int>(), 6);

  EXPECT_EQ(m_table->remove().where("qty = 0").execute().getAffectedItemsCount(), 1u);
  EXPECT_EQ(m_table->count(), 2u);
  // Without where(), every row, as in Connector/C++ 8 (limit() still applies).
  EXPECT_EQ(m_table->update().set("qty", 3).execute().getAffectedItemsCount(), 2u);
  EXPECT_EQ(m_table->remove().orderBy("id").limit(1).execute().getAffectedItemsCount(), 1u);
  EXPECT_EQ(m_table->count(), 1u);
  EXPECT_EQ(m_table->remove().execute().getAffectedItemsCount(), 1u);
  EXPECT_EQ(m_table->count(), 0u);
}

TEST_P(TableTest, RowsWithTheWrongNumberOfValuesAreRefused) {
  EXPECT_THROW(m_table->insert("id", "name").values(1).execute(), Error);
  EXPECT_EQ(m_table->count(), 0u);
}

const config table_configs[] = {devapi_it::configs[0], devapi_it::configs[1]};
// The Connector/C++ 8 forms: statements built from their table, a Row given
// to values(), and Table::getSession().
TEST_P(TableTest, StatementsBuiltFromTheTable) {
  TableInsert ins(*m_table);
  ins.values(Row(1, "pen", 10)).values(2, "ink", 5);
  EXPECT_EQ(ins.execute().getAffectedItemsCount(), 2u);
  TableSelect all(*m_table);
  EXPECT_EQ(all.execute().count(), 2u);
  TableSelect names(*m_table, "name", "qty");
  Row first = names.orderBy("id").execute().fetchOne();
  EXPECT_EQ(first.colCount(), 2u);
  EXPECT_EQ(first[0].get<std::string>(), "pen");
  TableUpdate upd(*m_table, "id = :id");
  EXPECT_EQ(upd.set("qty", 7).bind("id", 2).execute().getAffectedItemsCount(), 1u);
  TableRemove rm(*m_table, "qty > 8");
  EXPECT_EQ(rm.execute().getAffectedItemsCount(), 1u);
  EXPECT_EQ(m_table->getSession().sql("SELECT 1").execute().fetchOne()[0].get<int>(), 1);
  EXPECT_EQ(m_table->count(), 1u);
}

// A null column or field name is a ClientError (mysqlx::Error), never the
// std::logic_error a std::string built from a null pointer throws.
TEST_P(TableTest, NullOrEmptyColumnNamesAreClientErrors) {
  EXPECT_THROW(m_table->update().set(static_cast<char*>(nullptr), expr("")), Error);
  EXPECT_THROW(m_table->update().set("", 1), Error);
  Collection c = m_sess->getSchema(m_table->getSchema().getName()).createCollection("c", true);
  EXPECT_THROW(c.modify("true").set(static_cast<const char*>(nullptr), 1), Error);
  EXPECT_THROW(c.modify("true").arrayAppend("", 1), Error);
}

INSTANTIATE_TEST_SUITE_P(Modes, TableTest, ::testing::ValuesIn(table_configs),
                         [](const auto& info) { return std::string(info.param.name); });
