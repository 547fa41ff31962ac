// createIndex(): the index definition as create_collection_index arguments.
#include "devapi/index.h"

#include <gtest/gtest.h>
#include <mysqlx/error.h>

using mysqlx::detail::index_arguments;
namespace pr = cdk::protocol;

TEST(IndexArguments, DefinitionBecomesTheAdminCommandsArguments) {
  auto args =
      index_arguments("s", "c", "ix",
                      R"({"fields": [{"field": "$.n", "type": "INT UNSIGNED", "required": true},
                     {"field": "$.g", "type": "GEOJSON", "srid": 4326, "options": 2}],
          "type": "SPATIAL"})");
  ASSERT_TRUE(args.ok()) << args.err().message;
  const pr::value obj = pr::value::of_object(args.value());
  EXPECT_EQ(obj.find("schema")->bytes, "s");
  EXPECT_EQ(obj.find("collection")->bytes, "c");
  EXPECT_EQ(obj.find("name")->bytes, "ix");
  EXPECT_FALSE(obj.find("unique")->boolean);
  EXPECT_EQ(obj.find("type")->bytes, "SPATIAL");
  const pr::value* members = obj.find("constraint");
  ASSERT_NE(members, nullptr);
  ASSERT_EQ(members->items.size(), 2u);
  EXPECT_EQ(members->items[0].find("member")->bytes, "$.n");
  EXPECT_EQ(members->items[0].find("type")->bytes, "INT UNSIGNED");
  EXPECT_TRUE(members->items[0].find("required")->boolean);
  EXPECT_EQ(members->items[1].find("srid")->uint, 4326u);
  EXPECT_EQ(members->items[1].find("options")->uint, 2u);
}

TEST(IndexArguments, DefaultTypeIsIndex) {
  auto args =
      index_arguments("s", "c", "ix", R"j({"fields": [{"field": "$.a", "type": "TEXT(10)"}]})j");
  ASSERT_TRUE(args.ok());
  EXPECT_EQ(pr::value::of_object(args.value()).find("type")->bytes, "INDEX");
}

// Keys in any case, as Connector/C++ 8 reads them (Oracle's Ddl.create_index).
TEST(IndexArguments, KeysAreMatchedWithoutRegardToCase) {
  auto args = index_arguments("s", "c", "ix", R"j({"Fields": [
      {"field": "$.zip", "required": true, "TyPe": "TEXT(10)"},
      {"FIELD": "$.zcount", "type": "INT unsigned"}]})j");
  ASSERT_TRUE(args.ok()) << args.err().message;
  const pr::value obj = pr::value::of_object(args.value());
  const pr::value* members = obj.find("constraint");
  ASSERT_NE(members, nullptr);
  ASSERT_EQ(members->items.size(), 2u);
  EXPECT_EQ(members->items[0].find("type")->bytes, "TEXT(10)");
  EXPECT_EQ(members->items[1].find("member")->bytes, "$.zcount");
}

TEST(IndexArguments, BadDefinitionsNameTheProblem) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"fields": []})", "lists no field"},
      {R"({"type": "INDEX"})", "lists no field"},
      {R"({"fields": [{"type": "INT"}]})", "no \"field\""},
      {R"({"fields": [{"field": "$.a"}]})", "no \"type\""},
      {R"({"fields": [{"field": "$.a", "type": "INT", "required": 1}]})", "\"required\""},
      {R"({"fields": [{"field": "$.a", "type": "INT", "srid": -1}]})", "\"srid\""},
      {R"({"fields": [{"field": "$.a", "type": "INT", "bogus": 1}]})", "unknown key \"bogus\""},
      {R"({"fields": {"field": "$.a"}})", "must be an array"},
      {R"({"unique": true, "fields": [{"field": "$.a", "type": "INT"}]})",
       "unknown key \"unique\""},
  };
  for (const auto& [spec, expected] : cases) {
    auto args = index_arguments("s", "c", "ix", spec);
    ASSERT_FALSE(args.ok()) << spec;
    EXPECT_NE(args.err().message.find(expected), std::string::npos) << args.err().message;
  }
  EXPECT_THROW((void)index_arguments("s", "c", "ix", "{not json"), mysqlx::Error);
}
