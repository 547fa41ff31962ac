// Crud.Find / Update / Delete on a collection (8.0 fixture): the SQL comes
// from sqlgen; these tests check what a client sees.
#include "mysqlx_resultset.pb.h"
#include "test/xserver/tests/crud_test_util.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace xtest {
namespace {

TEST(Crud80, FindByIdReturnsTheDocument) {
  crud_session s;
  auto r = s.find_by_id("b");
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  auto docs = column_strings(r);
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0], R"({"v": 2, "_id": "b"})"); // MySQL's order and spacing
  EXPECT_TRUE(column_strings(s.find_by_id("zz")).empty());
}

TEST(Crud80, UpdateSetsAFieldAndRefusesToChangeId) {
  crud_session s;
  Mysqlx::Crud::Update u;
  s.target(u);
  *u.mutable_criteria() = equals(member("_id"), placeholder(0));
  *u.add_args() = str("a");
  auto* op = u.add_operation();
  op->set_operation(Mysqlx::Crud::UpdateOperation::ITEM_SET);
  auto* path = op->mutable_source()->add_document_path();
  path->set_type(Mysqlx::Expr::DocumentPathItem::MEMBER);
  path->set_value("v");
  op->mutable_value()->set_type(Expr::LITERAL);
  op->mutable_value()->mutable_literal()->set_type(Scalar::V_SINT);
  op->mutable_value()->mutable_literal()->set_v_signed_int(42);
  s.c.send(client_msg::crud_update, u);
  auto r = s.c.reply();
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  EXPECT_NE(column_strings(s.find_by_id("a")).at(0).find("42"), std::string::npos);
  path->set_value("_id");
  s.c.send(client_msg::crud_update, u);
  EXPECT_EQ(error_of(s.c.reply().back()).code(), 5053u);
}

// MariaDB's JSON_CONTAINS compares numbers as doubles; MySQL's compares
// integers exactly (Oracle's Crud.PS_table_update: `...801 in c2->$.age`).
TEST(Crud80, ContInComparesBigIntegersExactly) {
  crud_session s;
  auto ins = s.c.insert_json(s.schema, "c",
                             {R"({"_id":"n0","age":9223372036854775800})",
                              R"({"_id":"n1","age":9223372036854775801})",
                              R"({"_id":"n2","age":[1,9223372036854775801]})",
                              R"({"_id":"n3","age":[9223372036854775800]})"});
  ASSERT_TRUE(is(ins.back(), server_msg::sql_stmt_execute_ok)) << describe(ins);
  Mysqlx::Crud::Find f;
  s.target(f);
  *f.mutable_criteria() =
      binary("cont_in", sqlgen_test::lit(sqlgen_test::s_uint(9223372036854775801u)), member("age"));
  auto* order = f.add_order();
  *order->mutable_expr() = member("_id");
  s.c.send(client_msg::crud_find, f);
  auto r = s.c.reply();
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  const auto docs = column_strings(r);
  ASSERT_EQ(docs.size(), 2u) << describe(r);
  EXPECT_NE(docs[0].find("\"n1\""), std::string::npos) << docs[0];
  EXPECT_NE(docs[1].find("\"n2\""), std::string::npos) << docs[1];
}

TEST(Crud80, DeleteReportsRowsAffected) {
  crud_session s;
  Mysqlx::Crud::Delete d;
  s.target(d);
  *d.mutable_criteria() = equals(member("_id"), placeholder(0));
  *d.add_args() = str("a");
  s.c.send(client_msg::crud_delete, d);
  auto r = s.c.reply();
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  bool saw_rows = false;
  for (const auto& f : r) {
    auto n = notice_of(f);
    if (n.param == 4) {
      saw_rows = true;
      EXPECT_EQ(n.values.at(0).v_unsigned_int(), 1u);
    }
  }
  EXPECT_TRUE(saw_rows);
  EXPECT_TRUE(column_strings(s.find_by_id("a")).empty());
  EXPECT_EQ(column_strings(s.find_by_id("b")).size(), 1u);
}

// MySQL 8.0.20+ makes a criteria that is a JSON value into `0 <> value`, a
// JSON comparison that only a number equal to 0 fails (Oracle's
// Ddl.schema_validation removes with `{"_ix": :id}` and needs every document
// gone); MariaDB would read the JSON text as the number 0.
TEST(Crud80, CriteriaOfAJsonValueAreTrueUnlessTheValueIsTheNumberZero) {
  crud_session s;
  auto ins =
      s.c.insert_json(s.schema, "c", {R"({"_id":"f","flag":false})", R"({"_id":"z","flag":0})"});
  ASSERT_TRUE(is(ins.back(), server_msg::sql_stmt_execute_ok)) << describe(ins);
  Mysqlx::Crud::Find f;
  s.target(f);
  *f.mutable_criteria() = member("flag");
  s.c.send(client_msg::crud_find, f);
  auto r = s.c.reply();
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  const auto docs = column_strings(r);
  ASSERT_EQ(docs.size(), 1u) << describe(r);
  EXPECT_NE(docs[0].find("\"f\""), std::string::npos) << docs[0];

  Mysqlx::Crud::Delete d;
  s.target(d);
  *d.mutable_criteria() = sqlgen_test::object({{"_ix", placeholder(0)}});
  *d.add_args() = str("a");
  s.c.send(client_msg::crud_delete, d);
  r = s.c.reply();
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  EXPECT_TRUE(column_strings(s.c.sql("SELECT _id FROM " + s.schema + ".c")).empty());
}

TEST(Crud80, PreparedFindAndInsertRunWithEachExecutesArguments) {
  crud_session s;
  Mysqlx::Prepare::Prepare p;
  p.set_stmt_id(7);
  p.mutable_stmt()->set_type(Mysqlx::Prepare::Prepare::OneOfMessage::FIND);
  s.target(*p.mutable_stmt()->mutable_find());
  *p.mutable_stmt()->mutable_find()->mutable_criteria() = equals(member("_id"), placeholder(0));
  s.c.send(client_msg::prepare_prepare, p);
  ASSERT_TRUE(is(s.c.reply().back(), server_msg::ok));
  for (const char* id : {"a", "b"}) {
    Mysqlx::Prepare::Execute e;
    e.set_stmt_id(7);
    *e.add_args() = any_str(id);
    s.c.send(client_msg::prepare_execute, e);
    auto r = s.c.reply();
    ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
    auto docs = column_strings(r);
    ASSERT_EQ(docs.size(), 1u);
    EXPECT_NE(docs[0].find(std::string("\"_id\": \"") + id + "\""), std::string::npos) << docs[0];
  }
  // A prepared insert still gets server-generated ids.
  Mysqlx::Prepare::Prepare pi;
  pi.set_stmt_id(8);
  pi.mutable_stmt()->set_type(Mysqlx::Prepare::Prepare::OneOfMessage::INSERT);
  s.target(*pi.mutable_stmt()->mutable_insert());
  *pi.mutable_stmt()->mutable_insert()->add_row()->add_field() = placeholder(0);
  s.c.send(client_msg::prepare_prepare, pi);
  ASSERT_TRUE(is(s.c.reply().back(), server_msg::ok));
  Mysqlx::Prepare::Execute ei;
  ei.set_stmt_id(8);
  *ei.add_args() = any_str(R"({"v":3})");
  s.c.send(client_msg::prepare_execute, ei);
  auto r = s.c.reply();
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  EXPECT_EQ(generated_ids(r).size(), 1u);

  Mysqlx::Prepare::Deallocate d;
  d.set_stmt_id(7);
  s.c.send(client_msg::prepare_deallocate, d);
  EXPECT_TRUE(is(s.c.reply().back(), server_msg::ok));
  Mysqlx::Prepare::Execute gone;
  gone.set_stmt_id(7);
  s.c.send(client_msg::prepare_execute, gone);
  EXPECT_EQ(error_of(s.c.reply().back()).code(), 5110u);
}

std::vector<std::string> ids_of(const std::vector<std::string>& docs) {
  std::vector<std::string> ids;
  for (const std::string& d : docs) ids.push_back(d.substr(d.find("\"_id\": \"") + 8, 1));
  return ids;
}

// What connectors send to page with one prepared statement (MySQL 8.0.14+):
// limit_expr placeholders after the statement's own, their values in each
// Execute.
TEST(Crud80, PreparedFindTakesLimitAndOffsetFromEachExecute) {
  crud_session s;
  auto more = s.c.insert_json(s.schema, "c", {R"({"_id":"c","v":3})"});
  ASSERT_TRUE(is(more.back(), server_msg::sql_stmt_execute_ok)) << describe(more);
  Mysqlx::Prepare::Prepare p;
  p.set_stmt_id(9);
  p.mutable_stmt()->set_type(Mysqlx::Prepare::Prepare::OneOfMessage::FIND);
  Mysqlx::Crud::Find& f = *p.mutable_stmt()->mutable_find();
  s.target(f);
  Expr not_z = equals(member("_id"), placeholder(0));
  not_z.mutable_operator_()->set_name("!=");
  *f.mutable_criteria() = not_z;
  *f.add_order()->mutable_expr() = member("_id");
  *f.mutable_limit_expr()->mutable_row_count() = placeholder(1);
  *f.mutable_limit_expr()->mutable_offset() = placeholder(2);
  s.c.send(client_msg::prepare_prepare, p);
  ASSERT_TRUE(is(s.c.reply().back(), server_msg::ok));
  struct page {
    std::uint64_t rows, offset;
    std::vector<std::string> ids;
  };
  for (const page& pg :
       {page{1, 0, {"a"}}, page{1, 1, {"b"}}, page{2, 1, {"b", "c"}}, page{5, 3, {}}}) {
    Mysqlx::Prepare::Execute e;
    e.set_stmt_id(9);
    *e.add_args() = any_str("z"); // _id != "z": every document
    *e.add_args() = any_uint(pg.rows);
    *e.add_args() = any_uint(pg.offset);
    s.c.send(client_msg::prepare_execute, e);
    auto r = s.c.reply();
    ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
    EXPECT_EQ(ids_of(column_strings(r)), pg.ids) << pg.rows << "," << pg.offset;
  }
  // A limit_expr placeholder with no value is refused, as MySQL does
  // (prepare_param_handler.cc: ER_X_PREPARED_EXECUTE_ARGUMENT_CONSISTENCY).
  Mysqlx::Prepare::Execute short_args;
  short_args.set_stmt_id(9);
  *short_args.add_args() = any_str("z");
  s.c.send(client_msg::prepare_execute, short_args);
  const auto err = error_of(s.c.reply().back());
  EXPECT_EQ(err.code(), 5134u);
  // The first `?` without a value, in the SQL's order: LIMIT <offset>, <count>.
  EXPECT_EQ(err.msg(), "There is no argument for statement placeholder at position: 2");
}

// Delete (and Update) take a row count but no offset, in limit_expr too.
TEST(Crud80, PreparedDeleteTakesARowCountButNoOffset) {
  crud_session s;
  Mysqlx::Prepare::Prepare p;
  p.set_stmt_id(3);
  p.mutable_stmt()->set_type(Mysqlx::Prepare::Prepare::OneOfMessage::DELETE);
  Mysqlx::Crud::Delete& d = *p.mutable_stmt()->mutable_delete_();
  s.target(d);
  *d.add_order()->mutable_expr() = member("_id");
  *d.mutable_limit_expr()->mutable_row_count() = placeholder(0);
  s.c.send(client_msg::prepare_prepare, p);
  ASSERT_TRUE(is(s.c.reply().back(), server_msg::ok));
  Mysqlx::Prepare::Execute e;
  e.set_stmt_id(3);
  *e.add_args() = any_uint(1);
  s.c.send(client_msg::prepare_execute, e);
  ASSERT_TRUE(is(s.c.reply().back(), server_msg::sql_stmt_execute_ok));
  EXPECT_TRUE(column_strings(s.find_by_id("a")).empty()); // the first by _id went
  EXPECT_EQ(column_strings(s.find_by_id("b")).size(), 1u);

  // MySQL builds the statement at Prepare: an offset is refused there.
  *d.mutable_limit_expr()->mutable_offset() = placeholder(1);
  p.set_stmt_id(4);
  s.c.send(client_msg::prepare_prepare, p);
  EXPECT_EQ(error_of(s.c.reply().back()).code(), 5012u);
  e.set_stmt_id(4);
  *e.add_args() = any_uint(0);
  s.c.send(client_msg::prepare_execute, e);
  EXPECT_EQ(error_of(s.c.reply().back()).code(), 5110u); // nothing was prepared
  EXPECT_EQ(column_strings(s.find_by_id("b")).size(), 1u);
}

// One document-model update of document "a" with one operation on member `m`.
std::vector<frame> update_a(crud_session& s, Mysqlx::Crud::UpdateOperation::UpdateType type,
                            const std::string& m, const Scalar& value) {
  Mysqlx::Crud::Update u;
  s.target(u);
  *u.mutable_criteria() = equals(member("_id"), placeholder(0));
  *u.add_args() = str("a");
  auto* op = u.add_operation();
  op->set_operation(type);
  auto* path = op->mutable_source()->add_document_path();
  path->set_type(Mysqlx::Expr::DocumentPathItem::MEMBER);
  path->set_value(m);
  op->mutable_value()->set_type(Expr::LITERAL);
  *op->mutable_value()->mutable_literal() = value;
  s.c.send(client_msg::crud_update, u);
  return s.c.reply();
}

TEST(Crud80, ArrayAppendToAMissingPathLeavesTheDocumentUnchanged) {
  crud_session s;
  // MySQL ignores the missing path; MariaDB's JSON_ARRAY_APPEND would give NULL.
  auto r = update_a(s, Mysqlx::Crud::UpdateOperation::ARRAY_APPEND, "nope", str("x"));
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  EXPECT_EQ(column_strings(s.find_by_id("a")).at(0), R"({"v": 1, "_id": "a"})");
  // An existing path still gets the value appended (a scalar becomes an array).
  r = update_a(s, Mysqlx::Crud::UpdateOperation::ARRAY_APPEND, "v", str("x"));
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  EXPECT_EQ(column_strings(s.find_by_id("a")).at(0), R"({"v": [1, "x"], "_id": "a"})");
}

TEST(Crud80, DocumentUpdateWithInvalidJsonGives5050) {
  crud_session s;
  // MariaDB rejects the merge of text that is not JSON with 4038 (MySQL: 3141);
  // the X Plugin reports it as 5050 for a document-model update.
  Mysqlx::Crud::Update u;
  s.target(u);
  auto* op = u.add_operation();
  op->set_operation(Mysqlx::Crud::UpdateOperation::ITEM_MERGE);
  op->mutable_source();
  op->mutable_value()->set_type(Expr::LITERAL);
  *op->mutable_value()->mutable_literal() = str("{not json");
  s.c.send(client_msg::crud_update, u);
  auto r = s.c.reply();
  auto e = error_of(r.back());
  EXPECT_EQ(e.code(), 5050u) << describe(r);
  EXPECT_EQ(e.msg(), "Invalid data for update operation on document collection table");
  EXPECT_EQ(e.sql_state(), "HY000");
  EXPECT_EQ(column_strings(s.find_by_id("a")).at(0), R"({"v": 1, "_id": "a"})");
}

} // namespace
} // namespace xtest
