// Schema validation of collections (create_collection with options,
// modify_collection_options, get_collection_options) and its enforcement on
// Crud.Insert and Crud.Update, on the 8.0 fixture. Expected texts are
// MySQL 8.0's (admin_cmd_collection_handler.cc, meta_schema_validator.cc,
// get_detailed_validation_error.h, sql/json_schema.cc).
#include "test/xserver/tests/admin_test_util.h"

#include <gtest/gtest.h>

namespace xtest {
namespace {

using Mysqlx::Datatypes::Any;

// {"type":"object","properties":{"i":{"type":"integer"}},"required":["i"]}
Any int_schema() {
  return any_object({{"type", s("object")},
                     {"properties", any_object({{"i", any_object({{"type", s("integer")}})}})},
                     {"required", arr({s("i")})}});
}

struct valid_session : coll_session {
  valid_session() : coll_session(false) {}
  std::vector<frame> create(const Any& options) {
    return admin("create_collection",
                 any_object({{"schema", s(schema)}, {"name", s("c")}, {"options", options}}));
  }
  std::vector<frame> modify(const Any& validation) {
    return admin("modify_collection_options",
                 any_object({{"schema", s(schema)},
                             {"name", s("c")},
                             {"options", any_object({{"validation", validation}})}}));
  }
  std::string options() {
    auto r = admin(
        "get_collection_options",
        any_object({{"schema", s(schema)}, {"name", s("c")}, {"options", arr({s("validation")})}}));
    auto v = column_strings(r);
    return v.empty() ? describe(r) : v[0];
  }
  std::vector<frame> add(const std::vector<std::string>& docs, bool upsert = false) {
    return c.insert_json(schema, "c", docs, upsert);
  }
  // Crud.Update: ITEM_SET $.i = value on every document.
  std::vector<frame> set_i(const std::string& value) {
    Mysqlx::Crud::Update u;
    u.mutable_collection()->set_schema(schema);
    u.mutable_collection()->set_name("c");
    u.set_data_model(Mysqlx::Crud::DOCUMENT);
    auto* op = u.add_operation();
    op->set_operation(Mysqlx::Crud::UpdateOperation::ITEM_SET);
    auto* path = op->mutable_source()->add_document_path();
    path->set_type(Mysqlx::Expr::DocumentPathItem::MEMBER);
    path->set_value("i");
    op->mutable_value()->set_type(Mysqlx::Expr::Expr::LITERAL);
    op->mutable_value()->mutable_literal()->set_type(Mysqlx::Datatypes::Scalar::V_STRING);
    op->mutable_value()->mutable_literal()->mutable_v_string()->set_value(value);
    c.send(client_msg::crud_update, u);
    return c.reply();
  }
  std::vector<std::string> docs() {
    return column_strings(c.sql("SELECT doc FROM " + schema + ".c ORDER BY _id"));
  }
};

const char* const bad_type =
    "Document is not valid according to the schema assigned to collection. The JSON document "
    "location '#/i' failed requirement 'type' at JSON Schema location '#/properties/i'.";

TEST(Validation, StrictSchemaRefusesAddsWithMySqlsErrorAndStoresNothing) {
  valid_session t;
  auto r = t.create(
      any_object({{"validation", any_object({{"schema", int_schema()}, {"level", s("STRICT")}})}}));
  ASSERT_TRUE(ok(r)) << describe(r);
  ASSERT_TRUE(ok(t.add({R"({"_id":"1","i":1})"})));
  r = t.add({R"({"_id":"2","i":"x"})"});
  ASSERT_EQ(code_of(r), 5180u) << describe(r);
  EXPECT_EQ(error_of(r.back()).msg(), bad_type);
  EXPECT_EQ(error_of(r.back()).sql_state(), "HY000");
  r = t.add({R"({"_id":"2"})"});
  ASSERT_EQ(code_of(r), 5180u) << describe(r);
  EXPECT_EQ(error_of(r.back()).msg(),
            "Document is not valid according to the schema assigned to collection. The JSON "
            "document location '#' failed requirement 'required' at JSON Schema location '#'.");
  // One bad document in a multi-document add: none is stored.
  EXPECT_EQ(code_of(t.add({R"({"_id":"3","i":3})", R"({"_id":"4","i":[]})"})), 5180u);
  // Upsert (replace by id) is checked too.
  EXPECT_EQ(code_of(t.add({R"({"_id":"1","i":false})"}, true)), 5180u);
  EXPECT_EQ(t.docs(), (std::vector<std::string>{R"({"i": 1, "_id": "1"})"}));
  EXPECT_NE(t.options().find(R"("level": "strict")"), std::string::npos) << t.options();
}

TEST(Validation, ValidationWithoutLevelIsStrictAndEmptyValidationIsOff) {
  valid_session t;
  ASSERT_TRUE(ok(t.create(any_object({{"validation", any_object({{"schema", int_schema()}})}}))));
  EXPECT_EQ(code_of(t.add({R"({"_id":"1"})"})), 5180u);
  valid_session off;
  ASSERT_TRUE(ok(off.create(any_object({{"validation", any_object({})}}))));
  EXPECT_EQ(off.options(), R"({ "validation": { "level": "off", "schema": {"type":"object"} } })");
}

TEST(Validation, UpdatesAreCheckedAndRolledBack) {
  valid_session t;
  ASSERT_TRUE(ok(t.create(any_object({{"validation", any_object({{"schema", int_schema()}})}}))));
  ASSERT_TRUE(ok(t.add({R"({"_id":"1","i":1})", R"({"_id":"2","i":2})"})));
  auto r = t.set_i("text");
  ASSERT_EQ(code_of(r), 5180u) << describe(r);
  EXPECT_EQ(error_of(r.back()).msg(), bad_type);
  EXPECT_EQ(t.docs(),
            (std::vector<std::string>{R"({"i": 1, "_id": "1"})", R"({"i": 2, "_id": "2"})"}));
  // Inside the client's transaction only the failed statement is undone.
  ASSERT_TRUE(ok(t.c.sql("START TRANSACTION")));
  ASSERT_TRUE(ok(t.add({R"({"_id":"3","i":3})"})));
  EXPECT_EQ(code_of(t.set_i("text")), 5180u);
  EXPECT_EQ(t.docs().size(), 3u);
  ASSERT_TRUE(ok(t.c.sql("ROLLBACK")));
  EXPECT_EQ(t.docs().size(), 2u);
}

TEST(Validation, ModifyEnforcesOnExistingDocumentsAndOffIsNotEnforced) {
  valid_session t;
  ASSERT_TRUE(ok(t.create(
      any_object({{"validation", any_object({{"schema", int_schema()}, {"level", s("off")}})}}))));
  ASSERT_TRUE(ok(t.add({R"({"_id":"1","i":"x"})"}))); // OFF: stored, not enforced
  auto r = t.modify(any_object({{"level", s("strict")}}));
  ASSERT_EQ(code_of(r), 5180u) << describe(r);
  EXPECT_EQ(error_of(r.back()).msg(), bad_type);
  EXPECT_NE(t.options().find(R"("level": "off")"), std::string::npos) << t.options();
  ASSERT_TRUE(ok(t.c.sql("DELETE FROM " + t.schema + ".c")));
  ASSERT_TRUE(ok(t.modify(any_object({{"level", s("strict")}}))));
  EXPECT_EQ(code_of(t.add({R"({"_id":"1","i":"x"})"})), 5180u);
  // A new schema alone keeps the level.
  ASSERT_TRUE(ok(t.modify(any_object({{"schema", any_object({{"type", s("object")}})}}))));
  EXPECT_EQ(t.options(), R"({ "validation": { "level": "strict", "schema": {"type":"object"} } })");
  EXPECT_TRUE(ok(t.add({R"({"_id":"1","i":"x"})"})));
}

TEST(Validation, ASchemaSetByAnotherSessionIsEnforcedAtOnce) {
  // What a session read of a collection's options is kept only until any
  // session runs a statement of its own: here another one makes it STRICT.
  valid_session t;
  ASSERT_TRUE(ok(t.create(
      any_object({{"validation", any_object({{"schema", int_schema()}, {"level", s("off")}})}}))));
  ASSERT_TRUE(ok(t.add({R"({"_id":"1","i":1})"}))); // reads the options (off)
  xclient other(env_port("XS_PORT_80"));
  other.auth("MYSQL41", "xtest", "xtest-pw");
  Mysqlx::Sql::StmtExecute m;
  m.set_namespace_("mysqlx");
  m.set_stmt("modify_collection_options");
  *m.add_args() =
      any_object({{"schema", s(t.schema)},
                  {"name", s("c")},
                  {"options", any_object({{"validation", any_object({{"level", s("strict")}})}})}});
  other.send(client_msg::sql_stmt_execute, m);
  ASSERT_TRUE(ok(other.reply()));
  EXPECT_EQ(code_of(t.add({R"({"_id":"2","i":"x"})"})), 5180u);
  EXPECT_EQ(code_of(t.set_i("text")), 5180u);
}

TEST(Validation, ArgumentErrorsAreMySqls) {
  valid_session t;
  // Schemas the draft-4 meta-schema (strict about unknown keywords) refuses.
  auto r = t.create(
      any_object({{"validation", any_object({{"schema", any_object({{"typo", s("x")}})}})}}));
  ASSERT_EQ(code_of(r), 5182u) << describe(r);
  EXPECT_EQ(error_of(r.back()).msg(),
            "The provided validation schema is invalid (JSON validation schema location #/typo "
            "failed requirement: 'additionalProperties' at meta schema location '#').");
  r = t.create(any_object({{"validation", any_object({{"schema", s("{not json")}})}}));
  EXPECT_EQ(code_of(r), 5182u) << describe(r);
  r = t.create(any_object({{"validation", any_object({{"schema", s("[1]")}})}}));
  EXPECT_EQ(error_of(r.back()).msg(), "Validation schema is not a valid JSON object");
  r = t.create(any_object({{"validation", any_object({{"level", s("medium")}})}}));
  ASSERT_EQ(code_of(r), 5017u) << describe(r);
  EXPECT_EQ(error_of(r.back()).msg(),
            "Invalid \"validation.level\" argument. Allowed values are 'OFF' and 'STRICT'");
  r = t.create(any_object({{"validation", any_object({{"whatever", s("x")}})}}));
  ASSERT_EQ(code_of(r), 5021u) << describe(r);
  EXPECT_EQ(error_of(r.back()).msg(), "'whatever' is not a valid option");
  EXPECT_EQ(code_of(t.create(any_object({{"vals", s("x")}}))), 5021u);
  // Nothing was created by the refused calls.
  ASSERT_TRUE(ok(t.create(any_object({}))));
  r = t.modify(any_object({}));
  ASSERT_EQ(code_of(r), 5020u) << describe(r);
  r = t.admin("get_collection_options",
              any_object({{"schema", s(t.schema)}, {"name", s("c")}, {"options", arr({s("x")})}}));
  ASSERT_EQ(code_of(r), 5181u) << describe(r);
  EXPECT_EQ(error_of(r.back()).msg(), "Requested collection option 'x' doesn't exist.");
}

} // namespace
} // namespace xtest
