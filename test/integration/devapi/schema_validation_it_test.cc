// Schema::createCollection() with options and Schema::modifyCollection()
// against the 8.0-mode xserverd (MySQL 8.0.19+ X Plugin behaviour): a STRICT
// JSON schema refuses non-conforming documents with 5180
// (ER_X_DOCUMENT_DOESNT_MATCH_EXPECTED_SCHEMA) and stores nothing; level OFF
// keeps the schema without enforcing it; reuse returns an existing collection.
#include "it_common.h"

using namespace mysqlx;

namespace {

constexpr std::uint32_t doesnt_match_schema = 5180;

const char* const point_schema = R"({"type": "object",
    "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}},
    "required": ["lat", "lon"]})";

class SchemaValidationTest : public ::testing::Test {
protected:
  void SetUp() override {
    m_sess = std::make_unique<Session>(devapi_it::env_uri("MYSQLX_TEST_URI_80"));
    m_schema = devapi_it::test_schema("dv_valid");
    m_sess->createSchema(m_schema, true);
    m_db = std::make_unique<Schema>(m_sess->getSchema(m_schema));
    m_db->dropCollection("geo");
  }
  void TearDown() override {
    if (m_sess) m_sess->dropSchema(m_schema);
  }

  Collection create_strict() {
    return m_db->createCollection(
        "geo", CollectionOptions(CollectionValidation::LEVEL, CollectionValidation::STRICT,
                                 CollectionValidation::SCHEMA, point_schema));
  }

  // The code of the mysqlx::Error `f` throws, 0 if it throws none.
  template <typename F> static std::uint32_t error_code(F&& f) {
    try {
      f();
    } catch (const Error& e) {
      return e.code();
    }
    return 0;
  }

  std::unique_ptr<Session> m_sess;
  std::string m_schema;
  std::unique_ptr<Schema> m_db;
};

} // namespace

TEST_F(SchemaValidationTest, StrictSchemaRefusesNonConformingAdds) {
  Collection c = create_strict();
  c.add(R"({"_id": "1", "lat": 1.5, "lon": 2})").execute();
  EXPECT_EQ(c.count(), 1u);

  EXPECT_EQ(error_code([&] { c.add(R"({"_id": "2", "lat": "north", "lon": 2})").execute(); }),
            doesnt_match_schema);
  EXPECT_EQ(c.count(), 1u);
  // Two documents, one bad: neither is stored.
  EXPECT_EQ(error_code([&] {
              c.add(R"({"_id": "3", "lat": 3, "lon": 4})", R"({"_id": "4", "lat": 5})").execute();
            }),
            doesnt_match_schema);
  EXPECT_EQ(c.count(), 1u);
  EXPECT_TRUE(c.getOne("3").isNull());
}

TEST_F(SchemaValidationTest, StrictSchemaRefusesNonConformingModify) {
  Collection c = create_strict();
  c.add(R"({"_id": "1", "lat": 1.5, "lon": 2})").execute();
  EXPECT_EQ(error_code([&] { c.modify("_id = '1'").set("lat", "north").execute(); }),
            doesnt_match_schema);
  DbDoc row = c.getOne("1");
  ASSERT_FALSE(row.isNull());
  EXPECT_EQ(row["lat"].get<double>(), 1.5);
  EXPECT_EQ(row["lon"].get<int>(), 2);
}

TEST_F(SchemaValidationTest, ModifyCollectionToOffLetsTheBadAddIn) {
  Collection c = create_strict();
  const char* bad = R"({"_id": "2", "lat": "north"})";
  EXPECT_EQ(error_code([&] { c.add(bad).execute(); }), doesnt_match_schema);
  m_db->modifyCollection("geo", CollectionValidation::LEVEL, CollectionValidation::OFF);
  c.add(bad).execute();
  EXPECT_EQ(c.count(), 1u);
  // Back to STRICT: refused while a stored document does not match.
  EXPECT_EQ(
      error_code([&] { m_db->modifyCollection("geo", R"({"validation": {"level": "strict"}})"); }),
      doesnt_match_schema);
}

TEST_F(SchemaValidationTest, JsonOptionsAndReuseReturnTheExistingCollection) {
  Collection c = m_db->createCollection(
      "geo", std::string(R"({"validation": {"level": "strict", "schema": )") + point_schema + "}}");
  c.add(R"({"_id": "1", "lat": 1, "lon": 2})").execute();
  EXPECT_NE(error_code([&] { m_db->createCollection("geo", CollectionOptions()); }), 0u);
  Collection again = m_db->createCollection("geo", CollectionOptions(R"({"reuseExisting": true})"));
  EXPECT_EQ(again.getName(), "geo");
  EXPECT_EQ(again.count(), 1u);
  // The existing collection keeps its validation.
  EXPECT_EQ(error_code([&] { again.add(R"({"lat": "x"})").execute(); }), doesnt_match_schema);
}

TEST_F(SchemaValidationTest, BadOptionsAreClientErrorsBeforeAnyRoundTrip) {
  try {
    m_db->createCollection("geo", R"({"validation": {"level": "loose"}})");
    FAIL() << "level \"loose\" accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("loose"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(m_db->getCollection("geo").existsInDatabase());
  EXPECT_THROW(m_db->modifyCollection("geo", CollectionOptions::REUSE, true), Error);
}
