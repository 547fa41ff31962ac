// CollectionOptions / CollectionValidation: the create_collection and
// modify_collection_options arguments built from each form, and the client
// errors for bad options.
#include "devapi/schema_options.h"

#include <gtest/gtest.h>
#include <mysqlx/error.h>
#include <mysqlx/schema.h>

using namespace mysqlx;
using detail::create_collection_arguments;
using detail::modify_collection_arguments;
namespace pr = cdk::protocol;

namespace {

const char* const geo = R"({"type": "object", "properties": {"lat": {"type": "number"}},
                            "required": ["lat"]})";

pr::value create_args(const CollectionOptions& o) {
  return pr::value::of_object(create_collection_arguments("s", "c", o));
}

void expect_geo_schema(const pr::value* schema) {
  ASSERT_NE(schema, nullptr);
  ASSERT_EQ(schema->type, pr::value::kind::object);
  EXPECT_EQ(schema->find("type")->bytes, "object");
  EXPECT_EQ(schema->find("properties")->find("lat")->find("type")->bytes, "number");
  ASSERT_EQ(schema->find("required")->items.size(), 1u);
  EXPECT_EQ(schema->find("required")->items[0].bytes, "lat");
}

} // namespace

TEST(CollectionOptions, NoOptionsIsJustSchemaAndName) {
  auto args = create_args(CollectionOptions());
  EXPECT_EQ(args.find("schema")->bytes, "s");
  EXPECT_EQ(args.find("name")->bytes, "c");
  EXPECT_EQ(args.find("options"), nullptr);
}

TEST(CollectionOptions, JsonFormBecomesReuseExistingAndValidation) {
  auto args = create_args(CollectionOptions(std::string(R"({"reuseExisting": true,
      "validation": {"level": "strict", "schema": )") +
                                            geo + "}}"));
  const pr::value* opts = args.find("options");
  ASSERT_NE(opts, nullptr);
  EXPECT_EQ(opts->find("reuse_existing")->type, pr::value::kind::boolean);
  EXPECT_TRUE(opts->find("reuse_existing")->boolean);
  const pr::value* v = opts->find("validation");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->find("level")->bytes, "STRICT");
  expect_geo_schema(v->find("schema"));
}

TEST(CollectionOptions, PairFormsGiveTheSameArguments) {
  const CollectionOptions forms[] = {
      CollectionOptions(CollectionOptions::REUSE, true, CollectionValidation::LEVEL,
                        CollectionValidation::STRICT, CollectionValidation::SCHEMA, geo),
      CollectionOptions(CollectionValidation::SCHEMA, DbDoc(geo), CollectionValidation::LEVEL,
                        "Strict", CollectionOptions::REUSE, true),
      CollectionOptions(CollectionOptions::VALIDATION,
                        CollectionValidation(CollectionValidation::SCHEMA, geo,
                                             CollectionValidation::LEVEL, std::string("STRICT")),
                        CollectionOptions::REUSE, true),
  };
  for (const auto& o : forms) {
    auto args = create_args(o);
    const pr::value* opts = args.find("options");
    ASSERT_NE(opts, nullptr);
    EXPECT_TRUE(opts->find("reuse_existing")->boolean);
    EXPECT_EQ(opts->find("validation")->find("level")->bytes, "STRICT");
    expect_geo_schema(opts->find("validation")->find("schema"));
  }
}

TEST(CollectionOptions, SetAddsToWhatIsThere) {
  CollectionOptions o(CollectionValidation(R"({"level": "off"})"));
  o.set(CollectionOptions::REUSE, false);
  auto args = create_args(o);
  EXPECT_FALSE(args.find("options")->find("reuse_existing")->boolean);
  EXPECT_EQ(args.find("options")->find("validation")->find("level")->bytes, "OFF");
  EXPECT_EQ(args.find("options")->find("validation")->find("schema"), nullptr);
}

TEST(CollectionOptions, ModifySendsOnlyTheValidation) {
  auto args = modify_collection_arguments(
      "s", "c", CollectionOptions(CollectionValidation::LEVEL, CollectionValidation::OFF));
  ASSERT_TRUE(args.ok()) << args.err().message;
  const pr::value obj = pr::value::of_object(args.value());
  EXPECT_EQ(obj.find("schema")->bytes, "s");
  EXPECT_EQ(obj.find("name")->bytes, "c");
  const pr::value* v = obj.find("options")->find("validation");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->find("level")->bytes, "OFF");
  EXPECT_EQ(v->find("schema"), nullptr);
  EXPECT_EQ(obj.find("options")->fields.size(), 1u);
}

TEST(CollectionOptions, ModifyRefusesReuseAndNothing) {
  auto reuse = modify_collection_arguments("s", "c", CollectionOptions(R"({"reuseExisting": true,
      "validation": {"level": "off"}})"));
  ASSERT_FALSE(reuse.ok());
  EXPECT_NE(reuse.err().message.find("REUSE"), std::string::npos);
  auto nothing = modify_collection_arguments("s", "c", CollectionOptions());
  ASSERT_FALSE(nothing.ok());
  EXPECT_NE(nothing.err().message.find("no validation"), std::string::npos);
}

TEST(CollectionOptions, BadOptionsNameTheProblem) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"reuse": true})", "unknown key \"reuse\""},
      {R"({"reuseExisting": 1})", "\"reuseExisting\" must be true or false"},
      {R"({"validation": "strict"})", "\"validation\" must be a JSON object"},
      {R"({"validation": {"level": "loose"}})", "\"loose\" is neither"},
      {R"({"validation": {"level": 2}})", "\"level\" must be a string"},
      {R"({"validation": {"schema": "x"}})", "\"schema\" must be a JSON object"},
      {R"({"validation": {"lvl": "off"}})", "unknown validation key \"lvl\""},
  };
  for (const auto& [json, expected] : cases) {
    try {
      CollectionOptions o(json);
      ADD_FAILURE() << json << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(CollectionOptions("{not json"), Error);
  EXPECT_THROW(CollectionValidation(CollectionValidation::SCHEMA, "[1, 2]"), Error);
  EXPECT_THROW(CollectionOptions(CollectionOptions::REUSE, true, CollectionOptions::REUSE, false),
               Error);
  EXPECT_THROW(CollectionOptions(CollectionValidation::LEVEL, "off", CollectionOptions::VALIDATION,
                                 CollectionValidation(R"({"level": "strict"})")),
               Error);
}

TEST(CollectionOptions, FailedSetChangesNothing) {
  CollectionOptions o(CollectionOptions::REUSE, true);
  EXPECT_THROW(o.set(CollectionValidation::LEVEL, "off", CollectionOptions::REUSE, false), Error);
  auto args = create_args(o);
  EXPECT_TRUE(args.find("options")->find("reuse_existing")->boolean);
  EXPECT_EQ(args.find("options")->find("validation"), nullptr);
}
