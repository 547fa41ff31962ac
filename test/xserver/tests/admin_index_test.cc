// Collection indexes (admin commands create_collection_index,
// drop_collection_index) on the 8.0 fixture, checked through what the client and MariaDB's catalog
// see.
#include "test/xserver/tests/admin_test_util.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace xtest {
namespace {

using Mysqlx::Datatypes::Any;

struct index_session : coll_session {
  std::vector<frame> create_index(const std::string& name, const Any& fields,
                                  const char* fields_key = "fields") {
    return admin("create_collection_index", any_object({{"schema", s(schema)},
                                                        {"collection", s("c")},
                                                        {"name", s(name)},
                                                        {"unique", b(false)},
                                                        {fields_key, fields}}));
  }
  std::vector<frame> drop_index(const std::string& name) {
    return admin("drop_collection_index",
                 any_object({{"schema", s(schema)}, {"collection", s("c")}, {"name", s(name)}}));
  }
  // Every value of every index column ($ix_...), as text, sorted.
  std::vector<std::string> index_column_values() {
    std::vector<std::string> values;
    for (const auto& col : catalog("COLUMN_NAME")) {
      if (col.rfind("$ix_", 0) != 0) continue;
      auto v = column_strings(c.sql("SELECT CAST(`" + col + "` AS CHAR) FROM " + schema + ".c"));
      values.insert(values.end(), v.begin(), v.end());
    }
    std::sort(values.begin(), values.end());
    return values;
  }
  std::vector<std::string> catalog(const std::string& what) {
    return column_strings(c.sql("SELECT " + what + " FROM information_schema." +
                                (what == "COLUMN_NAME" ? "COLUMNS" : "STATISTICS") +
                                " WHERE TABLE_SCHEMA = '" + schema +
                                "' AND TABLE_NAME = 'c' ORDER BY 1"));
  }
};

TEST(AdminIndex, CreateAddsAnIndexOnAGeneratedColumnAndDropRemovesBoth) {
  index_session t;
  auto r = t.create_index("by_age", arr({any_object({{"field", s("$.age")}, {"type", s("INT")}})}));
  ASSERT_TRUE(ok(r)) << describe(r);
  auto keys = t.catalog("DISTINCT INDEX_NAME");
  EXPECT_NE(std::find(keys.begin(), keys.end(), "by_age"), keys.end());
  EXPECT_EQ(t.catalog("COLUMN_NAME").size(), 3u); // doc, _id, the generated column
  // A second index on the same field and type shares the column.
  ASSERT_TRUE(ok(
      t.create_index("by_age2", arr({any_object({{"field", s("$.age")}, {"type", s("INT")}})}))));
  EXPECT_EQ(t.catalog("COLUMN_NAME").size(), 3u);
  ASSERT_TRUE(ok(t.drop_index("by_age")));
  EXPECT_EQ(t.catalog("COLUMN_NAME").size(), 3u); // still used by by_age2
  ASSERT_TRUE(ok(t.drop_index("by_age2")));
  auto columns = t.catalog("COLUMN_NAME");
  std::sort(columns.begin(), columns.end());
  EXPECT_EQ(columns, (std::vector<std::string>{"_id", "doc"}));
  // Still a collection afterwards.
  auto list = column_strings(t.c.sql("SHOW TABLES FROM " + t.schema));
  EXPECT_EQ(list, std::vector<std::string>{"c"});
}

TEST(AdminIndex, TextFieldsAndTheConnectorsConstraintMemberSpelling) {
  index_session t;
  // Connector/C++ and our devapi send "constraint" with "member".
  auto r = t.create_index("by_name",
                          arr({any_object({{"member", s("$.name")}, {"type", s("TEXT(20)")}}),
                               any_object({{"member", s("$.n")}, {"type", s("BIGINT")}})}),
                          "constraint");
  ASSERT_TRUE(ok(r)) << describe(r);
  EXPECT_EQ(t.catalog("COLUMN_NAME").size(), 4u);
  EXPECT_EQ(t.catalog("SUB_PART").size(), 3u); // PRIMARY + two key parts
  ASSERT_TRUE(ok(t.c.insert_json(t.schema, "c", {R"({"_id":"1","name":"ann","n":5})"})));
  // The generated columns hold the fields' values.
  const auto values = t.index_column_values();
  EXPECT_EQ(values, (std::vector<std::string>{"5", "ann"}));
}

TEST(AdminIndex, TemporalFieldsAreIndexed) {
  index_session t;
  // MariaDB refuses TIME / DATETIME / TIMESTAMP generated from text in an
  // index unless the column keeps 6 fractional digits.
  auto r =
      t.create_index("when", arr({any_object({{"field", s("$.d")}, {"type", s("DATE")}}),
                                  any_object({{"field", s("$.t")}, {"type", s("TIME")}}),
                                  any_object({{"field", s("$.dt")}, {"type", s("DATETIME")}}),
                                  any_object({{"field", s("$.ts")}, {"type", s("TIMESTAMP")}})}));
  ASSERT_TRUE(ok(r)) << describe(r);
  ASSERT_TRUE(ok(
      t.c.insert_json(t.schema, "c",
                      {R"({"_id":"1","d":"2024-01-02","t":"10:11:12","dt":"2024-01-02 03:04:05",)"
                       R"("ts":"2024-05-06 07:08:09"})"})));
  const auto values = t.index_column_values();
  EXPECT_EQ(values,
            (std::vector<std::string>{"10:11:12.000000", "2024-01-02", "2024-01-02 03:04:05.000000",
                                      "2024-05-06 07:08:09.000000"}));
}

TEST(AdminIndex, FulltextIsCreated) {
  index_session t;
  auto r =
      t.admin("create_collection_index",
              any_object({{"schema", s(t.schema)},
                          {"collection", s("c")},
                          {"name", s("ft")},
                          {"type", s("FULLTEXT")},
                          {"fields",
                           arr({any_object({{"field", s("$.body")}, {"type", s("FULLTEXT")}})})}}));
  ASSERT_TRUE(ok(r)) << describe(r);
  auto kinds = t.catalog("DISTINCT INDEX_TYPE");
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "FULLTEXT"), kinds.end());
}

std::vector<frame> create_spatial(coll_session& t, const std::string& name, const Any& field) {
  return t.admin("create_collection_index", any_object({{"schema", s(t.schema)},
                                                        {"collection", s("c")},
                                                        {"name", s(name)},
                                                        {"type", s("SPATIAL")},
                                                        {"fields", arr({field})}}));
}

TEST(AdminIndex, SpatialIndexOnARequiredGeoJsonField) {
  index_session t;
  const Any p = any_object({{"field", s("$.p")}, {"type", s("GEOJSON")}, {"required", b(true)}});
  ASSERT_TRUE(ok(
      t.c.insert_json(t.schema, "c", {R"({"_id":"1","p":{"type":"Point","coordinates":[1,2]}})"})));
  auto r = create_spatial(t, "sp", p);
  ASSERT_TRUE(ok(r)) << describe(r);
  auto kinds = t.catalog("DISTINCT INDEX_TYPE");
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "SPATIAL"), kinds.end());
  // New documents get their geometry; one without the field is refused as
  // MySQL refuses it (NOT NULL column: 1048, reported as 5115).
  EXPECT_TRUE(ok(
      t.c.insert_json(t.schema, "c", {R"({"_id":"2","p":{"type":"Point","coordinates":[3,4]}})"})));
  r = t.c.insert_json(t.schema, "c", {R"({"_id":"3"})"});
  EXPECT_EQ(error_of(r.back()).code(), 5115u) << describe(r);
  EXPECT_EQ(column_strings(t.c.sql("SELECT ST_AsText(`" + t.catalog("COLUMN_NAME").at(0) +
                                   "`) FROM " + t.schema + ".c ORDER BY _id")),
            (std::vector<std::string>{"POINT(1 2)", "POINT(3 4)"}));
  // An update moves the geometry with the document.
  t.c.sql("UPDATE " + t.schema +
          ".c SET doc = JSON_SET(doc, '$.p', "
          "JSON_EXTRACT('{\"type\":\"Point\",\"coordinates\":[5,6]}', "
          "'$')) WHERE _id = '1'");
  EXPECT_EQ(column_strings(t.c.sql("SELECT ST_AsText(`" + t.catalog("COLUMN_NAME").at(0) +
                                   "`) FROM " + t.schema + ".c WHERE _id = '1'")),
            (std::vector<std::string>{"POINT(5 6)"}));
  // Still a collection with the geometry column; dropping the index drops
  // the column and its triggers, and documents without the field go in.
  r = t.c.admin("ensure_collection", t.schema, "c"); // refused for a plain table
  EXPECT_TRUE(ok(r)) << describe(r);
  ASSERT_TRUE(ok(t.drop_index("sp")));
  auto columns = t.catalog("COLUMN_NAME");
  std::sort(columns.begin(), columns.end());
  EXPECT_EQ(columns, (std::vector<std::string>{"_id", "doc"}));
  EXPECT_TRUE(ok(t.c.insert_json(t.schema, "c", {R"({"_id":"3"})"})));
}

TEST(AdminIndex, SpatialRules) {
  index_session t;
  ASSERT_TRUE(ok(t.c.insert_json(t.schema, "c", {R"({"_id":"1"})"})));
  // Not required: MySQL's ALTER fails (ER_SPATIAL_CANT_HAVE_NULL) -> 5117.
  auto r = create_spatial(
      t, "sp", any_object({{"field", s("$.p")}, {"type", s("GEOJSON")}, {"required", b(false)}}));
  EXPECT_EQ(error_of(r.back()).code(), 5117u) << describe(r);
  // A document without the field: 5117 too, and nothing is left behind.
  r = create_spatial(
      t, "sp", any_object({{"field", s("$.p")}, {"type", s("GEOJSON")}, {"required", b(true)}}));
  EXPECT_EQ(error_of(r.back()).code(), 5117u) << describe(r);
  EXPECT_EQ(t.catalog("COLUMN_NAME").size(), 2u);
  // Only GEOJSON fields in a SPATIAL index; srid/options only on GEOJSON.
  r = create_spatial(t, "sp", any_object({{"field", s("$.p")}, {"type", s("INT")}}));
  EXPECT_EQ(error_of(r.back()).code(), 1687u) << describe(r); // MySQL's ALTER refuses it
  r = t.create_index(
      "i", arr({any_object({{"field", s("$.n")}, {"type", s("INT")}, {"srid", u(4326)}})}));
  EXPECT_EQ(error_of(r.back()).code(), 5017u) << describe(r);
  EXPECT_EQ(t.catalog("COLUMN_NAME").size(), 2u);
}

TEST(AdminIndex, RequiredFieldMissingGives5115) {
  index_session t;
  ASSERT_TRUE(ok(t.create_index(
      "req", arr({any_object({{"field", s("$.k")}, {"type", s("INT")}, {"required", b(true)}})}))));
  ASSERT_TRUE(ok(t.c.insert_json(t.schema, "c", {R"({"_id":"1","k":1})"})));
  auto r = t.c.insert_json(t.schema, "c", {R"({"_id":"2"})"});
  EXPECT_EQ(error_of(r.back()).code(), 5115u) << describe(r);
  // Dropping the index drops the requirement with its column.
  ASSERT_TRUE(ok(t.drop_index("req")));
  EXPECT_TRUE(ok(t.c.insert_json(t.schema, "c", {R"({"_id":"2"})"})));
}

TEST(AdminIndex, Errors) {
  index_session t;
  const Any age = arr({any_object({{"field", s("$.age")}, {"type", s("INT")}})});
  ASSERT_TRUE(ok(t.create_index("i", age)));
  EXPECT_EQ(error_of(t.create_index("i", age).back()).code(), 1061u); // duplicate key name
  EXPECT_EQ(
      error_of(
          t.create_index("j", arr({any_object({{"field", s("$.a")}, {"type", s("BLOB")}})})).back())
          .code(),
      5017u);
  EXPECT_EQ(error_of(t.create_index("k", arr({any_object({{"type", s("INT")}})})).back()).code(),
            5015u);
  EXPECT_EQ(error_of(t.drop_index("nope").back()).code(), 1091u);
  auto r = t.admin("create_collection_index", any_object({{"schema", s(t.schema)},
                                                          {"collection", s("missing")},
                                                          {"name", s("x")},
                                                          {"fields", age}}));
  EXPECT_EQ(error_of(r.back()).code(), 1146u);
}

} // namespace
} // namespace xtest

namespace xtest {
namespace {

// Definitions MySQL 8.0 refuses (admin_cmd_index.cc, index_field.cc,
// index_array_field.cc, or mysqld's ALTER TABLE), refused the same way.
TEST(AdminIndex, DefinitionsMySqlRefuses) {
  index_session t;
  auto create = [&](const std::string& type, bool unique, const Any& fields,
                    const std::string& name = "i") {
    return t.admin("create_collection_index", any_object({{"schema", s(t.schema)},
                                                          {"collection", s("c")},
                                                          {"name", s(name)},
                                                          {"unique", b(unique)},
                                                          {"type", s(type)},
                                                          {"fields", fields}}));
  };
  auto field = [](const std::string& type) {
    return arr({any_object({{"field", s("$.a")}, {"type", s(type)}, {"required", b(true)}})});
  };
  auto msg = [](const std::vector<frame>& r) { return error_of(r.back()).msg(); };
  auto r = create("SPATIAL", true, field("GEOJSON"));
  EXPECT_EQ(code_of(r), 5017u);
  EXPECT_EQ(msg(r), "Unique spatial index is not supported");
  r = create("FULLTEXT", true, field("FULLTEXT"));
  EXPECT_EQ(msg(r), "Unique fulltext index is not supported");
  r = create("INDEX", false, field("INT"), "");
  EXPECT_EQ(msg(r), "Argument value '' for index name is invalid");
  r = t.drop_index(""); // Admin_command_index::drop, before any SQL
  EXPECT_EQ(code_of(r), 5013u);
  EXPECT_EQ(msg(r), "Invalid index name");
  EXPECT_EQ(code_of(create("FULLTEXT", false, field("INT"))), 1283u);
  EXPECT_EQ(code_of(create("SPATIAL", false, field("INT"))), 1687u);
  EXPECT_EQ(code_of(create("INDEX", false, field("TEXT"))), 1170u); // no key length
  r = create("INDEX", false, arr({any_object({{"field", s("")}, {"type", s("INT")}})}));
  EXPECT_EQ(msg(r), "Argument value for document member is invalid");
  // The same field twice: MySQL's ALTER adds its column twice.
  const Any a = any_object({{"field", s("$.a")}, {"type", s("INT")}});
  EXPECT_EQ(code_of(create("INDEX", false, arr({a, a}))), 1060u);
  // A GEOJSON field is required by default only in MySQL's error message.
  r = create("SPATIAL", false, arr({any_object({{"field", s("$.g")}, {"type", s("GEOJSON")}})}));
  EXPECT_EQ(code_of(r), 5117u);
  // Multi-valued: MySQL's own checks (index_array_field.cc).
  auto array_field = [](const std::string& type, bool required) {
    return arr({any_object({{"field", s("$.tags")},
                            {"type", s(type)},
                            {"array", b(true)},
                            {"required", b(required)}})});
  };
  r = create("INDEX", false, array_field("TEXT(10)", false));
  EXPECT_EQ(msg(r), "Invalid or unsupported type specification for array index 'TEXT(10)'");
  r = create("INDEX", false, array_field("CHAR(10)", true));
  EXPECT_EQ(msg(r), "Unsupported argument specification for '$.tags'");
  r = create("INDEX", false, array_field("", false));
  EXPECT_EQ(msg(r), "Invalid or unsupported type specification for array index ''");
  EXPECT_EQ(t.catalog("COLUMN_NAME").size(), 2u); // nothing was added
  // A field without a type gets the index type's default (TEXT(64)).
  EXPECT_TRUE(ok(create("INDEX", false, arr({any_object({{"field", s("$.n")}})}))));
}

// A multi-valued index (MySQL: CAST(JSON_EXTRACT(doc, path) AS <type> ARRAY))
// is accepted for every type MySQL accepts, in any case, exists under its
// name and is dropped with its column; MariaDB has none, so the index is an
// ordinary one on the field's JSON text.
TEST(AdminIndex, ArrayIndexIsKeptAsAnOrdinaryIndex) {
  index_session t;
  t.c.sql("INSERT INTO " + t.schema + ".c (doc) VALUES ('{\"_id\": \"1\", \"zip\": \"34239\"}')");
  auto array_field = [](const std::string& path, const std::string& type) {
    return any_object({{"field", s(path)}, {"type", s(type)}, {"array", b(true)}});
  };
  for (const char* type : {"CHAR(5)", "char", "BINARY(3)", "DATE", "DATETIME", "TIME",
                           "DECIMAL(10,2)", "SIGNED", "unsigned integer"}) {
    SCOPED_TRACE(type);
    auto r = t.create_index("arr_idx", arr({array_field("$.zip", type)}));
    ASSERT_TRUE(ok(r)) << describe(r);
    auto keys = t.catalog("DISTINCT INDEX_NAME");
    EXPECT_NE(std::find(keys.begin(), keys.end(), "arr_idx"), keys.end());
    EXPECT_EQ(t.catalog("COLUMN_NAME").size(), 3u);
    // The name is taken, as in MySQL.
    EXPECT_EQ(code_of(t.create_index("arr_idx", arr({array_field("$.zip", type)}))), 1061u);
    ASSERT_TRUE(ok(t.drop_index("arr_idx")));
    EXPECT_EQ(t.catalog("COLUMN_NAME").size(), 2u);
  }
  // Next to ordinary parts, but never two multi-valued parts in one index.
  EXPECT_TRUE(ok(t.create_index("mixed", arr({any_object({{"field", s("$.n")}, {"type", s("INT")}}),
                                              array_field("$.zip", "CHAR(5)")}))));
  auto r = t.create_index("two", arr({array_field("$.a", "SIGNED"), array_field("$.b", "SIGNED")}));
  EXPECT_EQ(code_of(r), 1235u);
  EXPECT_EQ(error_of(r.back()).msg(),
            "This version of MySQL doesn't yet support 'more than one multi-valued key part per "
            "index'");
}

} // namespace
} // namespace xtest
