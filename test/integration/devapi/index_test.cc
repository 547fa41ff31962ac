// Collection::createIndex / dropIndex against xserverd in 8.0 and 5.7 modes:
// the index really exists afterwards (information_schema, as MySQL's X
// Plugin builds it: generated columns plus an index over them), it works as
// an index (required fields are enforced, queries still find documents),
// and bad definitions fail with exact codes. Facts from MySQL 8.0's X Plugin
// (plugin/x/src/admin_cmd_index.cc, index_field.cc, crud_cmd_handler.cc):
// - a duplicate index name is mysqld's 1061, dropping a missing index
//   mysqld's 1091 (ALTER TABLE ... DROP INDEX; connectors decide whether to
//   ignore it, Connector/Node.js does);
// - an unknown index or field type is 5017 (ER_X_CMD_ARGUMENT_VALUE);
// - a document without a required field is 5115 on insert; creating a
//   required index over documents without the field is 5117.
#include "it_common.h"

using namespace mysqlx;
using devapi_it::config;

namespace {

class IndexTest : public ::testing::TestWithParam<config> {
protected:
  void SetUp() override {
    m_sess = std::make_unique<Session>(devapi_it::uri_of(GetParam()));
    m_schema = devapi_it::test_schema("dv_index");
    m_sess->createSchema(m_schema, true);
    Schema db = m_sess->getSchema(m_schema);
    db.dropCollection("c");
    m_coll = std::make_unique<Collection>(db.createCollection("c"));
    m_coll
        ->add(R"({"_id": "1", "name": "ana", "n": 3, "price": 12.5, "at": "2024-01-02 03:04:05"})",
              R"({"_id": "2", "name": "bo", "n": 1, "price": 7.25, "at": "2023-05-06 07:08:09"})")
        .execute();
  }

  // The key parts of index `name` on the collection table, in order, each
  // as "<column>/<non_unique>"; empty when there is no such index.
  std::vector<std::string> key_parts(const std::string& name) {
    auto rows = m_sess
                    ->sql("SELECT COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS "
                          "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'c' AND INDEX_NAME = ? "
                          "ORDER BY SEQ_IN_INDEX")
                    .bind(m_schema, name)
                    .execute()
                    .fetchAll();
    std::vector<std::string> out;
    for (Row r : rows)
      out.push_back(r[0].get<std::string>() + "/" + std::to_string(r[1].get<std::int64_t>()));
    return out;
  }
  static std::string column_of(const std::string& part) { return part.substr(0, part.find('/')); }
  std::uint64_t columns() {
    return m_sess
        ->sql("SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND "
              "TABLE_NAME = 'c'")
        .bind(m_schema)
        .execute()
        .fetchOne()[0]
        .get<std::int64_t>();
  }
  // The server's error code for a createIndex that must fail.
  std::uint32_t create_fails(const std::string& name, const std::string& spec) {
    try {
      m_coll->createIndex(name, spec);
    } catch (const ServerError& e) {
      return e.code();
    }
    ADD_FAILURE() << "createIndex(" << name << ", " << spec << ") succeeded";
    return 0;
  }

  std::string m_schema;
  std::unique_ptr<Session> m_sess;
  std::unique_ptr<Collection> m_coll;
};

TEST_P(IndexTest, APlainIndexIsCreatedUsedAndDropped) {
  const std::uint64_t before = columns();
  m_coll->createIndex("by_name", R"j({"fields": [{"field": "$.name", "type": "TEXT(20)"}]})j");
  const auto parts = key_parts("by_name");
  ASSERT_EQ(parts.size(), 1u);
  // A generated column named like MySQL's ($ix_...), not unique.
  EXPECT_EQ(parts[0].rfind("$ix_", 0), 0u) << parts[0];
  EXPECT_EQ(parts[0].substr(parts[0].size() - 2), "/1") << parts[0];
  EXPECT_EQ(columns(), before + 1);
  // Documents are still found and added through it.
  m_coll->add(R"({"_id": "3", "name": "cy", "n": 2})").execute();
  DocResult r = m_coll->find("name = :n").bind("n", "cy").execute();
  EXPECT_EQ(r.count(), 1u);

  m_coll->dropIndex("by_name");
  EXPECT_TRUE(key_parts("by_name").empty());
  EXPECT_EQ(columns(), before); // the generated column went with it
  EXPECT_EQ(m_coll->count(), 3u);
}

TEST_P(IndexTest, AMultiFieldIndexKeepsItsTypesInOrder) {
  m_coll->createIndex("multi", R"j({"fields": [
      {"field": "$.n", "type": "INT"},
      {"field": "$.name", "type": "TEXT(10)"},
      {"field": "$.price", "type": "DECIMAL(10,2)"},
      {"field": "$.at", "type": "DATETIME"}]})j");
  const auto parts = key_parts("multi");
  ASSERT_EQ(parts.size(), 4u);
  // Each key part is its own generated column, typed as asked.
  auto type_of = [&](const std::string& part) {
    return m_sess
        ->sql("SELECT UPPER(COLUMN_TYPE) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? "
              "AND TABLE_NAME = 'c' AND COLUMN_NAME = ?")
        .bind(m_schema, column_of(part))
        .execute()
        .fetchOne()[0]
        .get<std::string>();
  };
  EXPECT_EQ(type_of(parts[0]).rfind("INT", 0), 0u) << type_of(parts[0]);
  EXPECT_EQ(type_of(parts[1]), "TEXT");
  EXPECT_EQ(type_of(parts[2]), "DECIMAL(10,2)");
  // xserverd keeps 6 fractional digits on a DATETIME column (README):
  // only the type's name is MySQL's.
  EXPECT_EQ(type_of(parts[3]).rfind("DATETIME", 0), 0u) << type_of(parts[3]);
  // The columns hold the documents' values.
  Row row = m_sess
                ->sql("SELECT `" + column_of(parts[0]) + "`, CAST(`" + column_of(parts[2]) +
                      "` AS CHAR), CAST(`" + column_of(parts[3]) + "` AS CHAR) FROM `" + m_schema +
                      "`.c WHERE _id = '1'")
                .execute()
                .fetchOne();
  EXPECT_EQ(row[0].get<std::int64_t>(), 3);
  EXPECT_EQ(row[1].get<std::string>(), "12.50");
  EXPECT_EQ(row[2].get<std::string>().substr(0, 19), "2024-01-02 03:04:05");
  EXPECT_EQ(m_coll->find("n >= 1 AND price > 10").execute().count(), 1u);
}

TEST_P(IndexTest, ARequiredFieldIsEnforced) {
  m_coll->createIndex("req",
                      R"j({"fields": [{"field": "$.n", "type": "INT", "required": true}]})j");
  try {
    m_coll->add(R"({"_id": "x", "name": "no n"})").execute();
    FAIL() << "a document without the required field was added";
  } catch (const ServerError& e) {
    EXPECT_EQ(e.code(), 5115u) << e.what(); // ER_X_DOC_ID_MISSING, MySQL's mapping of 1048
  }
  EXPECT_EQ(m_coll->count(), 2u);
  m_coll->add(R"({"_id": "y", "n": 9})").execute();
  EXPECT_EQ(m_coll->count(), 3u);
}

TEST_P(IndexTest, ARequiredIndexOverDocumentsWithoutTheFieldIsRefused) {
  m_coll->add(R"({"_id": "x", "name": "no n"})").execute();
  EXPECT_EQ(
      create_fails("req", R"j({"fields": [{"field": "$.n", "type": "INT", "required": true}]})j"),
      5117u); // ER_X_DOC_REQUIRED_FIELD_MISSING
  EXPECT_TRUE(key_parts("req").empty());
}

TEST_P(IndexTest, TwoIndexesOnOneFieldShareItsColumn) {
  const std::uint64_t before = columns();
  m_coll->createIndex("a", R"j({"fields": [{"field": "$.n", "type": "INT"}]})j");
  m_coll->createIndex("b", R"j({"fields": [{"field": "$.n", "type": "INT"}]})j");
  EXPECT_EQ(columns(), before + 1);
  m_coll->dropIndex("a");
  EXPECT_EQ(columns(), before + 1); // b still needs it
  EXPECT_EQ(key_parts("b").size(), 1u);
  m_coll->dropIndex("b");
  EXPECT_EQ(columns(), before);
}

TEST_P(IndexTest, ADuplicateIndexNameIsMysqldsError) {
  m_coll->createIndex("dup", R"j({"fields": [{"field": "$.n", "type": "INT"}]})j");
  EXPECT_EQ(create_fails("dup", R"j({"fields": [{"field": "$.name", "type": "TEXT(5)"}]})j"),
            1061u);
  EXPECT_EQ(key_parts("dup").size(), 1u);
}

TEST_P(IndexTest, UnknownTypesAreArgumentValueErrors) {
  EXPECT_EQ(create_fails("t", R"j({"fields": [{"field": "$.n", "type": "INTEGRAL"}]})j"), 5017u);
  EXPECT_EQ(create_fails("t", R"j({"fields": [{"field": "$.n", "type": "INT"}], "type": "HASH"})j"),
            5017u);
  EXPECT_TRUE(key_parts("t").empty());
}

TEST_P(IndexTest, BadDefinitionsAreRefusedBeforeSending) {
  // Checked by the connector, naming the problem; nothing reaches the server.
  const std::pair<const char*, const char*> cases[] = {
      {R"j({"fields": [{"field": "$.n", "type": "INT", "colour": "red"}]})j", "\"colour\""},
      {R"j({"fields": [{"field": "$.n", "type": "INT"}], "partial": true})j", "\"partial\""},
      {R"j({"type": "INDEX"})j", "\"fields\""},
      {R"j({"fields": []})j", "\"fields\""},
      // The X DevAPI has no unique indexes (Connector/Node.js: "Unique
      // indexes are currently not supported.").
      {R"j({"fields": [{"field": "$.n", "type": "INT"}], "unique": true})j", "\"unique\""},
  };
  for (const auto& [spec, names] : cases) {
    try {
      m_coll->createIndex("bad", spec);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const ClientError& e) {
      EXPECT_NE(std::string(e.what()).find(names), std::string::npos) << e.what();
    }
  }
  EXPECT_TRUE(key_parts("bad").empty());
}

TEST_P(IndexTest, DroppingAMissingIndexIsNotAnError) {
  // MySQL's X Plugin runs ALTER TABLE ... DROP INDEX and passes mysqld's
  // 1091 through (admin_cmd_index.cc maps only 1049/1146). The X DevAPI
  // says dropping a missing index does nothing (Connector/Node.js turns
  // exactly this code into `false`), like dropCollection() of a missing one.
  EXPECT_NO_THROW(m_coll->dropIndex("never_created"));
  // A missing collection is still an error.
  Collection gone = m_sess->getSchema(m_schema).getCollection("no_such_collection");
  EXPECT_THROW(gone.dropIndex("i"), ServerError);
}

TEST_P(IndexTest, SpatialRules) {
  // A GEOJSON field must be required (MySQL: the ALTER fails with
  // ER_SPATIAL_CANT_HAVE_NULL, reported as 5117), and srid / options
  // belong to GEOJSON fields only (5017).
  EXPECT_EQ(create_fails("geo", R"j({"type": "SPATIAL", "fields": [
      {"field": "$.loc", "type": "GEOJSON", "required": false}]})j"),
            5117u);
  EXPECT_EQ(create_fails("geo", R"j({"fields": [{"field": "$.n", "type": "INT", "srid": 4326}]})j"),
            5017u);
  EXPECT_TRUE(key_parts("geo").empty());
}

TEST_P(IndexTest, ASpatialIndexOverGeoJson) {
  m_coll->add(R"({"_id": "g", "loc": {"type": "Point", "coordinates": [11.5, 48.1]}})").execute();
  // Every document needs the field: the others have none.
  EXPECT_EQ(create_fails("geo", R"j({"type": "SPATIAL", "fields": [
      {"field": "$.loc", "type": "GEOJSON", "required": true}]})j"),
            5117u);
  m_coll->remove("_id != 'g'").execute();
  m_coll->createIndex("geo", R"j({"type": "SPATIAL", "fields": [
      {"field": "$.loc", "type": "GEOJSON", "required": true, "srid": 4326}]})j");
  EXPECT_EQ(key_parts("geo").size(), 1u);
  try {
    m_coll->add(R"({"_id": "h", "name": "nowhere"})").execute();
    FAIL() << "a document without the GEOJSON field was added";
  } catch (const ServerError& e) {
    EXPECT_EQ(e.code(), 5115u) << e.what();
  }
  m_coll->add(R"({"_id": "i", "loc": {"type": "Point", "coordinates": [2.35, 48.85]}})").execute();
  EXPECT_EQ(m_coll->count(), 2u);
  m_coll->dropIndex("geo");
  EXPECT_TRUE(key_parts("geo").empty());
}

const config index_configs[] = {devapi_it::configs[0], devapi_it::configs[1]};
INSTANTIATE_TEST_SUITE_P(Modes, IndexTest, ::testing::ValuesIn(index_configs),
                         [](const auto& info) { return std::string(info.param.name); });

} // namespace
