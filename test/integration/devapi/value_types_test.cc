// DECIMAL, temporal, JSON, BIT and BLOB columns read back through sql() and
// Table::select(), on 8.0 and 5.7 modes: every Value type and conversion.
#include "it_common.h"

#include <limits>

using namespace mysqlx;
using devapi_it::config;

namespace {

std::string raw_text(const Value& v) {
  const bytes b = v.getRawBytes();
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

class ValueTypesTest : public ::testing::TestWithParam<config> {
protected:
  void SetUp() override {
    m_sess = std::make_unique<Session>(devapi_it::uri_of(GetParam()));
    m_schema = devapi_it::test_schema("dv_types");
    m_sess->createSchema(m_schema, true);
    const std::string t = "`" + m_schema + "`.t";
    m_sess->sql("DROP TABLE IF EXISTS " + t).execute();
    m_sess
        ->sql("CREATE TABLE " + t +
              " (id INT PRIMARY KEY, d DECIMAL(10,2), dt DATE, dtm DATETIME(6), tm TIME,"
              " ts TIMESTAMP NULL DEFAULT NULL, j JSON, b BIT(8), bl BLOB)")
        .execute();
    m_sess
        ->sql("INSERT INTO " + t +
              " VALUES (1, 12.50, '2024-01-02', '2024-01-02 03:04:05.000006', '-01:02:03',"
              " '2024-01-02 03:04:05', '{\"a\": 1, \"n\": [1, 2]}', b'10000001', X'610062'),"
              " (2, -3.00, '1999-12-31', '2024-01-02 00:00:00', '838:59:59', '2024-01-02 00:00:00',"
              " '[1, \"a\", {\"b\": 2}, [true, null], 2.5]', b'0', X''),"
              " (3, 0.00, NULL, NULL, NULL, NULL, '42', NULL, NULL),"
              " (4, NULL, NULL, NULL, NULL, NULL, '\"text\"', NULL, NULL),"
              " (5, NULL, NULL, NULL, NULL, NULL, 'null', NULL, NULL),"
              " (6, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)")
        .execute();
  }

  // The columns are id, d, dt, dtm, tm, ts, j, b, bl in this order.
  static void check_columns(const Columns& c) {
    ASSERT_EQ(c.size(), 9u);
    EXPECT_EQ(c[1].getType(), Type::DECIMAL);
    EXPECT_EQ(c[2].getType(), Type::DATE);
    EXPECT_EQ(c[3].getType(), Type::DATETIME);
    EXPECT_EQ(c[4].getType(), Type::TIME);
    EXPECT_EQ(c[5].getType(), Type::TIMESTAMP);
    EXPECT_EQ(c[6].getType(), Type::JSON);
    EXPECT_EQ(c[7].getType(), Type::BIT);
    EXPECT_EQ(c[8].getType(), Type::BYTES);
  }

  static void check_rows(std::vector<Row> rows) {
    ASSERT_EQ(rows.size(), 6u);
    const Row& r1 = rows[0];
    // DECIMAL: a DOUBLE (as Connector/C++ 8) keeping its exact text.
    EXPECT_EQ(r1[1].getType(), Value::DOUBLE);
    EXPECT_DOUBLE_EQ(r1[1].get<double>(), 12.5);
    EXPECT_EQ(r1[1].get<std::string>(), "12.50");
    EXPECT_THROW(r1[1].get<int>(), Error);
    // Temporal values: RAW (as Connector/C++ 8), with their SQL text.
    for (int i : {2, 3, 4, 5}) EXPECT_EQ(r1[i].getType(), Value::RAW) << i;
    EXPECT_EQ(r1[2].get<std::string>(), "2024-01-02");
    EXPECT_EQ(r1[3].get<std::string>(), "2024-01-02 03:04:05.000006");
    EXPECT_EQ(r1[4].get<std::string>(), "-01:02:03");
    EXPECT_EQ(r1[5].get<std::string>(), "2024-01-02 03:04:05");
    // Their raw bytes are the X Protocol encoding: year 2024 = e8 0f, 1, 2.
    EXPECT_EQ(raw_text(r1[2]), "\xe8\x0f\x01\x02");
    EXPECT_EQ(raw_text(r1[4]), std::string("\x01\x01\x02\x03", 4));
    EXPECT_THROW(r1[3].get<std::int64_t>(), Error);
    // JSON object: a document.
    ASSERT_EQ(r1[6].getType(), Value::DOCUMENT);
    EXPECT_EQ(r1[6]["a"].get<int>(), 1);
    EXPECT_EQ(r1[6]["n"][1].get<int>(), 2);
    DbDoc doc = r1[6];
    EXPECT_TRUE(doc.hasField("n"));
    // BIT: unsigned; BLOB: raw bytes.
    EXPECT_EQ(r1[7].getType(), Value::UINT64);
    EXPECT_EQ(r1[7].get<unsigned>(), 0x81u);
    EXPECT_EQ(r1[8].getType(), Value::RAW);
    EXPECT_EQ(raw_text(r1[8]), std::string("a\0b", 3));

    const Row& r2 = rows[1];
    EXPECT_EQ(r2[1].get<std::string>(), "-3.00");
    EXPECT_EQ(r2[1].get<int>(), -3);
    EXPECT_EQ(r2[1].get<std::int64_t>(), -3);
    EXPECT_THROW(r2[1].get<unsigned>(), Error);
    EXPECT_EQ(r2[2].get<std::string>(), "1999-12-31");
    EXPECT_EQ(r2[3].get<std::string>(), "2024-01-02 00:00:00");
    EXPECT_EQ(r2[4].get<std::string>(), "838:59:59");
    EXPECT_EQ(r2[5].get<std::string>(), "2024-01-02 00:00:00");
    // JSON array: typed elements, nested documents included.
    ASSERT_EQ(r2[6].getType(), Value::ARRAY);
    ASSERT_EQ(r2[6].elementCount(), 5u);
    EXPECT_EQ(r2[6][0].getType(), Value::UINT64);
    EXPECT_EQ(r2[6][1].get<std::string>(), "a");
    ASSERT_EQ(r2[6][2].getType(), Value::DOCUMENT);
    EXPECT_EQ(r2[6][2]["b"].get<int>(), 2);
    EXPECT_TRUE(r2[6][3][0].get<bool>());
    EXPECT_TRUE(r2[6][3][1].isNull());
    EXPECT_DOUBLE_EQ(r2[6][4].get<double>(), 2.5);
    EXPECT_EQ(r2[7].get<int>(), 0);
    EXPECT_EQ(r2[8].getType(), Value::RAW);
    EXPECT_EQ(r2[8].getRawBytes().size(), 0u);

    // JSON scalars: the matching Values.
    EXPECT_EQ(rows[2][1].get<int>(), 0);
    EXPECT_EQ(rows[2][6].getType(), Value::UINT64);
    EXPECT_EQ(rows[2][6].get<int>(), 42);
    EXPECT_EQ(rows[3][6].getType(), Value::STRING);
    EXPECT_EQ(rows[3][6].get<std::string>(), "text");
    EXPECT_TRUE(rows[4][6].isNull());                                  // JSON null
    for (int i = 1; i < 9; ++i) EXPECT_TRUE(rows[5][i].isNull()) << i; // SQL NULLs
  }

  std::unique_ptr<Session> m_sess;
  std::string m_schema;
};

TEST_P(ValueTypesTest, ThroughSql) {
  SqlResult r = m_sess->sql("SELECT * FROM `" + m_schema + "`.t ORDER BY id").execute();
  check_columns(r.getColumns());
  check_rows(r.fetchAll());
}

TEST_P(ValueTypesTest, ThroughTableSelect) {
  Table t = m_sess->getSchema(m_schema).getTable("t", true);
  RowResult r = t.select().orderBy("id").execute();
  check_columns(r.getColumns());
  check_rows(r.fetchAll());
}

TEST_P(ValueTypesTest, RowValuesInsertBackUnchanged) {
  // DECIMAL and temporal Values read from a row go back to the server as
  // their text (not the nearest double, not the X Protocol's binary form).
  const std::string u = "`" + m_schema + "`.u";
  m_sess->sql("CREATE TABLE " + u + " (d DECIMAL(30,2), dt DATE, dtm DATETIME(6), tm TIME, j JSON)")
      .execute();
  Row r = m_sess
              ->sql("SELECT 1234567890123456789012.34, dt, dtm, tm, j FROM `" + m_schema +
                    "`.t WHERE id = 1")
              .execute()
              .fetchOne();
  m_sess->getSchema(m_schema).getTable("u").insert().values(r[0], r[1], r[2], r[3], r[4]).execute();
  Row back = m_sess->getSchema(m_schema).getTable("u").select().execute().fetchOne();
  EXPECT_EQ(back[0].get<std::string>(), "1234567890123456789012.34");
  for (int i = 1; i < 4; ++i) EXPECT_EQ(back[i].get<std::string>(), r[i].get<std::string>()) << i;
  EXPECT_EQ(back[4].getType(), Value::DOCUMENT);
  EXPECT_EQ(back[4]["n"].elementCount(), 2u);
}

const config value_configs[] = {devapi_it::configs[0], devapi_it::configs[1]};
INSTANTIATE_TEST_SUITE_P(Modes, ValueTypesTest, ::testing::ValuesIn(value_configs),
                         [](const auto& info) { return std::string(info.param.name); });

} // namespace
