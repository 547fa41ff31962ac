// Find and update messages as Connector/C++ 8 builds them, where the X
// Plugin reads them only that way: fields(expr("{...}")) is one aliased
// projection per key, HAVING names the projection's aliases, and a table's
// set() of a JSON path is an ITEM_SET.
#include "devapi/crud_build.h"
#include "devapi/session_impl.h"
#include "mysqlx_crud.pb.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <mysqlx/xdevapi.h>

using namespace mysqlx;
using Mysqlx::Expr::DocumentPathItem;
using Mysqlx::Expr::Expr;

namespace {

detail::statement_impl collection_find() {
  detail::statement_impl st;
  st.schema = "s";
  st.name = "c";
  return st;
}

} // namespace

TEST(FindBuild, ADocumentProjectionIsOneAliasedProjectionPerKey) {
  auto st = collection_find();
  st.fields.push_back(expr(R"({"user": user, "bday": {"date": birthday}})"));
  Mysqlx::Crud::Find msg;
  detail::build_find(st, msg);
  ASSERT_EQ(msg.projection_size(), 2);
  EXPECT_EQ(msg.projection(0).alias(), "user");
  EXPECT_EQ(msg.projection(0).source().type(), Expr::IDENT);
  EXPECT_EQ(msg.projection(0).source().identifier().document_path(0).value(), "user");
  EXPECT_EQ(msg.projection(1).alias(), "bday");
  EXPECT_EQ(msg.projection(1).source().type(), Expr::OBJECT);
}

TEST(FindBuild, HavingNamesTheProjectionAliases) {
  auto st = collection_find();
  st.fields = {Value("max(age) AS my_age"), Value("birthday AS bday")};
  st.group_by = {"name"};
  st.having = "my_age = 5 AND bday.date.day > 20";
  Mysqlx::Crud::Find msg;
  detail::build_find(st, msg);
  const Expr& all = msg.grouping_criteria();
  ASSERT_EQ(all.type(), Expr::OPERATOR);
  ASSERT_EQ(all.operator_().param_size(), 2);
  // my_age: the column my_age, no document path.
  const auto& age = all.operator_().param(0).operator_().param(0).identifier();
  EXPECT_EQ(age.name(), "my_age");
  EXPECT_EQ(age.document_path_size(), 0);
  // bday.date.day: bday->$.date.day.
  const auto& day = all.operator_().param(1).operator_().param(0).identifier();
  EXPECT_EQ(day.name(), "bday");
  ASSERT_EQ(day.document_path_size(), 2);
  EXPECT_EQ(day.document_path(0).type(), DocumentPathItem::MEMBER);
  EXPECT_EQ(day.document_path(0).value(), "date");
  EXPECT_EQ(day.document_path(1).value(), "day");
  // The WHERE clause still reads documents.
  st.condition = "age > 1";
  detail::build_find(st, msg);
  EXPECT_FALSE(msg.criteria().operator_().param(0).identifier().has_name());
}

// A table's set() of a JSON column's path is an ITEM_SET of that column's
// item (Connector/C++ 8's message); of a whole column, a SET.
TEST(UpdateBuild, TableSetOfAJsonPathIsAnItemSet) {
  detail::statement_impl st;
  st.schema = "s";
  st.name = "t";
  st.table = true;
  st.ops.push_back({Mysqlx::Crud::UpdateOperation::SET, "doc->$.name", Value("bar")});
  st.ops.push_back({Mysqlx::Crud::UpdateOperation::SET, "age", Value(3)});
  Mysqlx::Crud::Update msg;
  detail::build_update(st, msg);
  ASSERT_EQ(msg.operation_size(), 2);
  EXPECT_EQ(msg.operation(0).operation(), Mysqlx::Crud::UpdateOperation::ITEM_SET);
  EXPECT_EQ(msg.operation(0).source().name(), "doc");
  EXPECT_EQ(msg.operation(0).source().document_path(0).value(), "name");
  EXPECT_EQ(msg.operation(1).operation(), Mysqlx::Crud::UpdateOperation::SET);
  EXPECT_EQ(msg.operation(1).source().name(), "age");
}

// replaceOne(id, expr("{...}")) refuses another string _id before sending.
TEST(UpdateBuild, AnExpressionReplacementKeepsTheGivenId) {
  EXPECT_NO_THROW(detail::check_replacement_id(expr(R"({"name": "x", "n": n + 1})"), "id3"));
  EXPECT_NO_THROW(detail::check_replacement_id(expr(R"({"_id": "id3", "name": "x"})"), "id3"));
  try {
    detail::check_replacement_id(expr(R"({"_id": "id4", "name": "x"})"), "id3");
    ADD_FAILURE() << "no error for another _id";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("\"id4\" differs from the id given (\"id3\")"),
              std::string::npos)
        << e.what();
  }
}

// MySQL stores 100 levels of JSON, and the X Plugin refuses a message nested
// more than 100 protobuf messages deep. A value nested deeper than the
// first is refused before sending, as add() refuses such a document; one
// deeper than an expression can carry goes as JSON text.
namespace {
Value arrays_around(Value v, int levels) {
  for (int i = 0; i < levels; ++i) v = Value{v};
  return v;
}
detail::statement_impl modify_with(int kind, const std::string& path, Value v) {
  detail::statement_impl st = collection_find();
  st.condition = "true";
  st.ops.push_back({kind, path, std::move(v)});
  return st;
}
void expect_too_deep(const detail::statement_impl& st, const std::string& what) {
  Mysqlx::Crud::Update msg;
  try {
    detail::build_update(st, msg);
    ADD_FAILURE() << "no error for " << what;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::BAD_DOCUMENT);
    EXPECT_NE(std::string(e.what()).find(what + ": the value cannot be stored: JSON nesting "
                                                "deeper than 100 levels (MySQL's limit)"),
              std::string::npos)
        << e.what();
  }
}
int protobuf_depth(const Expr& e) {
  int deepest = 0;
  for (const auto& v : e.array().value()) deepest = std::max(deepest, protobuf_depth(v));
  for (const auto& f : e.object().fld()) deepest = std::max(deepest, protobuf_depth(f.value()) + 1);
  return deepest + (e.type() == Expr::ARRAY || e.type() == Expr::OBJECT ? 2 : 1);
}
} // namespace

TEST(UpdateBuild, AValueNestedDeeperThanMySqlStoresIsRefusedBeforeSending) {
  using Op = Mysqlx::Crud::UpdateOperation;
  for (int levels : {101, 50'000}) {
    const Value deep = arrays_around(1, levels);
    expect_too_deep(modify_with(Op::ITEM_SET, "w", deep), "set()");
    expect_too_deep(modify_with(Op::ARRAY_APPEND, "w", deep), "arrayAppend()");
    expect_too_deep(modify_with(Op::ARRAY_INSERT, "w[0]", deep), "arrayInsert()");
  }
  std::string doc;
  for (int i = 0; i < 101; ++i) doc += "{\"a\":";
  doc += "1" + std::string(101, '}');
  expect_too_deep(modify_with(Op::MERGE_PATCH, "", Value(doc)), "patch()");
  expect_too_deep(modify_with(Op::ITEM_SET, "w", Value(DbDoc(doc))), "set()");
}

TEST(UpdateBuild, ADeepValueGoesAsJsonTextAShallowOneAsAnExpression) {
  using Op = Mysqlx::Crud::UpdateOperation;
  Mysqlx::Crud::Update msg;
  detail::build_update(modify_with(Op::ITEM_SET, "w", arrays_around(1, 100)), msg);
  const Expr& deep = msg.operation(0).value();
  ASSERT_EQ(deep.type(), Expr::LITERAL);
  EXPECT_EQ(deep.literal().v_octets().content_type(), 2U); // JSON
  EXPECT_EQ(deep.literal().v_octets().value(), std::string(100, '[') + "1" + std::string(100, ']'));

  detail::build_update(modify_with(Op::ITEM_SET, "w", arrays_around(1, 16)), msg);
  const Expr& shallow = msg.operation(0).value();
  ASSERT_EQ(shallow.type(), Expr::ARRAY);
  EXPECT_LE(protobuf_depth(shallow), 40); // well inside the X Plugin's 100
  // A document deeper than an expression carries goes as its own text.
  std::string doc;
  for (int i = 0; i < 40; ++i) doc += "{\"a\":";
  doc += "[1, 2.5, \"x\"]" + std::string(40, '}');
  detail::build_update(modify_with(Op::MERGE_PATCH, "", Value(doc)), msg);
  EXPECT_EQ(msg.operation(0).value().literal().v_octets().value(), doc);
}

TEST(UpdateBuild, ADeepArrayHoldingAnExpressionIsRefusedWithItsReason) {
  using Op = Mysqlx::Crud::UpdateOperation;
  Mysqlx::Crud::Update msg;
  try {
    detail::build_update(modify_with(Op::ITEM_SET, "w", arrays_around(expr("n + 1"), 30)), msg);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("holding expr() nests 30 levels"), std::string::npos)
        << e.what();
  }
}
