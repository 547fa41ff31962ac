// Prepared Crud messages are MariaDB server-side statements, as MySQL's X
// Plugin makes them (prepare_command_handler.cc, prepared_statement_builder.cc):
// one row in performance_schema.prepared_statements_instances per Find,
// Insert, Update and Delete, its SQL_TEXT with `?` for Execute's arguments,
// COUNT_EXECUTE growing per Execute, gone after Deallocate / Session.Reset /
// close; 1461 when max_prepared_stmt_count is exhausted. The results are
// those of the same statement unprepared. 8.0 fixture.
#include "mysqlx_cursor.pb.h"
#include "mysqlx_session.pb.h"
#include "test/xserver/tests/admin_test_util.h"
#include "test/xserver/tests/crud_test_util.h"

#include <gtest/gtest.h>
#include <set>

namespace xtest {
namespace {

using Mysqlx::Datatypes::Any;

bool ok_reply(const std::vector<frame>& r) {
  return !r.empty() && is(r.back(), server_msg::ok);
}

Scalar sint(std::int64_t v) {
  Scalar s;
  s.set_type(Scalar::V_SINT);
  s.set_v_signed_int(v);
  return s;
}

// The statements of one collection, each with its SQL_TEXT.
struct four_kinds {
  Mysqlx::Crud::Find find;     // v >= ?0 ORDER BY v LIMIT ?2, ?1
  Mysqlx::Crud::Insert insert; // the document ?0
  Mysqlx::Crud::Update update; // SET v = ?1 WHERE _id = ?0
  Mysqlx::Crud::Delete remove; // WHERE _id = ?0
  explicit four_kinds(crud_session& s) {
    s.target(find);
    *find.mutable_criteria() = binary(">=", member("v"), placeholder(0));
    *find.add_order()->mutable_expr() = member("v");
    *find.mutable_limit_expr()->mutable_row_count() = placeholder(1);
    *find.mutable_limit_expr()->mutable_offset() = placeholder(2);
    s.target(insert);
    *insert.add_row()->add_field() = placeholder(0);
    s.target(update);
    *update.mutable_criteria() = equals(member("_id"), placeholder(0));
    auto* op = update.add_operation();
    op->set_operation(Mysqlx::Crud::UpdateOperation::ITEM_SET);
    *op->mutable_source()->add_document_path() = member("v").identifier().document_path(0);
    *op->mutable_value() = placeholder(1);
    s.target(remove);
    *remove.mutable_criteria() = equals(member("_id"), placeholder(0));
  }
};

std::string rows_affected(const std::vector<frame>& r) {
  for (const auto& f : r)
    if (notice_of(f).param == 4) return std::to_string(notice_of(f).values.at(0).v_unsigned_int());
  return "none";
}

TEST(PreparedCrud80, EachKindIsOneServerStatementCountingExecutes) {
  crud_session s;
  four_kinds k(s);
  ASSERT_TRUE(ok_reply(prepare(s.c, 1, prepared(k.find))));
  ASSERT_TRUE(ok_reply(prepare(s.c, 2, prepared(k.insert))));
  ASSERT_TRUE(ok_reply(prepare(s.c, 3, prepared(k.update))));
  ASSERT_TRUE(ok_reply(prepare(s.c, 4, prepared(k.remove))));
  const std::string coll = "`" + s.schema + "`.`c`";
  auto rows = instances(s.c);
  ASSERT_EQ(rows.size(), 4u) << ::testing::PrintToString(rows);
  // Sorted by SQL_TEXT: DELETE, INSERT, SELECT, UPDATE; none executed yet.
  EXPECT_EQ(rows[0], "DELETE FROM " + coll + " WHERE (`_id` = ?)=0");
  EXPECT_EQ(rows[1], "INSERT INTO " + coll + " (doc) VALUES (?)=0");
  EXPECT_EQ(rows[2].rfind("SELECT doc FROM " + coll + " WHERE ((", 0), 0u) << rows[2];
  EXPECT_NE(rows[2].find(") >= (?,?,?)) ORDER BY "), std::string::npos) << rows[2];
  EXPECT_EQ(rows[2].substr(rows[2].size() - 2), "=0"); // the text is cut at 1024 bytes
  EXPECT_EQ(rows[3], "UPDATE " + coll +
                         " SET doc=JSON_SET(JSON_SET(doc,'$.v',?),'$._id',JSON_EXTRACT(`doc`,'$._"
                         "id')),`_id`=JSON_UNQUOTE(JSON_EXTRACT(doc,'$._id')) WHERE (`_id` = ?)=0");

  // Two runs of each, with other values.
  std::set<std::string> ids;
  for (const char* doc : {R"({"v": 5})", R"({"v": 6})"}) {
    auto r = execute(s.c, 2, {any_str(doc)});
    ASSERT_TRUE(ok(r)) << describe(r);
    for (const auto& id : generated_ids(r)) ids.insert(id);
  }
  EXPECT_EQ(ids.size(), 2u); // a new id for each execution
  auto page = execute(s.c, 1, {any_scalar(sint(2)), any_uint(2), any_uint(1)});
  ASSERT_TRUE(ok(page)) << describe(page);
  EXPECT_EQ(column_strings(page).size(), 2u); // v 5 and 6 after v 2
  auto r = execute(s.c, 3, {any_str("a"), any_scalar(sint(7))});
  EXPECT_EQ(rows_affected(r), "1") << describe(r);
  r = execute(s.c, 3, {any_str("b"), any_scalar(sint(8))});
  EXPECT_EQ(rows_affected(r), "1") << describe(r);
  page = execute(s.c, 1, {any_scalar(sint(7)), any_uint(10), any_uint(0)});
  EXPECT_EQ(column_strings(page),
            (std::vector<std::string>{R"({"v": 7, "_id": "a"})", R"({"v": 8, "_id": "b"})"}));
  EXPECT_EQ(rows_affected(execute(s.c, 4, {any_str("a")})), "1");
  EXPECT_EQ(rows_affected(execute(s.c, 4, {any_str("a")})), "0");
  rows = instances(s.c);
  ASSERT_EQ(rows.size(), 4u);
  for (const auto& row : rows) EXPECT_EQ(row.substr(row.size() - 2), "=2") << row;

  // A cursor over the prepared find runs the same statement.
  Mysqlx::Cursor::Open open;
  open.set_cursor_id(1);
  open.set_fetch_rows(10);
  open.mutable_stmt()->set_type(Mysqlx::Cursor::Open::OneOfMessage::PREPARE_EXECUTE);
  auto& pe = *open.mutable_stmt()->mutable_prepare_execute();
  pe.set_stmt_id(1);
  *pe.add_args() = any_scalar(sint(0));
  *pe.add_args() = any_uint(10);
  *pe.add_args() = any_uint(0);
  s.c.send(client_msg::cursor_open, open);
  EXPECT_EQ(column_strings(s.c.reply()).size(), 3u); // b, and the two inserted
  EXPECT_NE(instances(s.c)[2].find("=3"), std::string::npos);

  ASSERT_TRUE(ok_reply(deallocate(s.c, 1)));
  rows = instances(s.c);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2].rfind("UPDATE", 0), 0u);
}

// The same criteria with a literal and with a prepared statement's `?`
// select the same documents, for values of each type.
TEST(PreparedCrud80, ResultsAreThoseOfTheUnpreparedStatement) {
  crud_session s;
  auto more = s.c.insert_json(s.schema, "c",
                              {R"({"_id":"c","v":"2"})", R"({"_id":"d","v":true})",
                               R"({"_id":"e","v":null})", R"({"_id":"f","v":2.0})",
                               R"({"_id":"g","v":{"x":1}})", R"({"_id":"h"})"});
  ASSERT_TRUE(ok(more)) << describe(more);
  Scalar t;
  t.set_type(Scalar::V_BOOL);
  t.set_v_bool(true);
  Scalar null;
  null.set_type(Scalar::V_NULL);
  Scalar json;
  json.set_type(Scalar::V_OCTETS);
  json.mutable_v_octets()->set_value(R"({"x": 1})");
  json.mutable_v_octets()->set_content_type(2);
  std::uint32_t id = 10;
  for (const char* op : {"==", "!=", "<", ">="})
    for (const Scalar& v : {sint(2), str("2"), t, null, json}) {
      Mysqlx::Crud::Find literal;
      s.target(literal);
      *literal.add_order()->mutable_expr() = member("_id");
      Expr value;
      value.set_type(Expr::LITERAL);
      *value.mutable_literal() = v;
      *literal.mutable_criteria() = binary(op, member("v"), value);
      s.c.send(client_msg::crud_find, literal);
      const auto want = column_strings(s.c.reply());
      Mysqlx::Crud::Find with_param = literal;
      *with_param.mutable_criteria() = binary(op, placeholder(0), member("v")); // mirrored
      const std::string mirrored = op[0] == '<' ? ">" : op[0] == '>' ? "<=" : op;
      with_param.mutable_criteria()->mutable_operator_()->set_name(mirrored);
      ASSERT_TRUE(ok_reply(prepare(s.c, ++id, prepared(with_param))));
      EXPECT_EQ(column_strings(execute(s.c, id, {any_scalar(v)})), want)
          << "v " << op << " a value of type " << v.type();
    }
}

TEST(PreparedCrud80, InsertIntoAStrictCollectionIsValidatedAtEachExecute) {
  coll_session v(false);
  auto made = v.admin(
      "create_collection",
      any_object(
          {{"schema", s(v.schema)},
           {"name", s("c")},
           {"options",
            any_object({{"validation",
                         any_object({{"schema", any_object({{"required", arr({s("i")})}})}})}})}}));
  ASSERT_TRUE(ok(made)) << describe(made);
  Mysqlx::Crud::Insert ins;
  ins.mutable_collection()->set_schema(v.schema);
  ins.mutable_collection()->set_name("c");
  *ins.add_row()->add_field() = placeholder(0);
  ASSERT_TRUE(ok_reply(prepare(v.c, 1, prepared(ins))));
  EXPECT_EQ(code_of(execute(v.c, 1, {any_str(R"({"j": 1})")})), 5180u);
  auto good = execute(v.c, 1, {any_str(R"({"i": 1})")});
  ASSERT_TRUE(ok(good)) << describe(good);
  EXPECT_EQ(generated_ids(good).size(), 1u);
  EXPECT_EQ(column_strings(v.c.sql("SELECT CAST(COUNT(*) AS CHAR) FROM `" + v.schema + "`.c")),
            (std::vector<std::string>{"1"}));
  // Both Executes ran the one statement: the failed one stopped before it.
  EXPECT_EQ(instances(v.c),
            (std::vector<std::string>{"INSERT INTO `" + v.schema + "`.`c` (doc) VALUES (?)=1"}));
}

TEST(PreparedCrud80, ArgumentErrorsAreMysqls) {
  crud_session s;
  four_kinds k(s);
  ASSERT_TRUE(ok_reply(prepare(s.c, 1, prepared(k.update))));
  auto missing = execute(s.c, 1, {any_str("a")});
  EXPECT_EQ(code_of(missing), 5134u);
  EXPECT_EQ(error_of(missing.back()).msg(),
            "There is no argument for statement placeholder at position: 1");
  auto object = execute(s.c, 1, {any_str("a"), any_object({{"k", any_str("v")}})});
  EXPECT_EQ(code_of(object), 5133u);
  EXPECT_EQ(error_of(object.back()).msg(), "Argument at index '1' and of type "
                                           "'Mysqlx.Datatypes.Any' is not supported for binding "
                                           "to prepared statement");
  // A missing collection: MariaDB's error at PREPARE, as MySQL's at Prepare.
  k.remove.mutable_collection()->set_name("nope");
  EXPECT_EQ(code_of(prepare(s.c, 2, prepared(k.remove))), 1146u);
  EXPECT_EQ(code_of(execute(s.c, 2, {any_str("a")})), 5110u);
}

// performance_schema rows of other sessions whose SQL_TEXT names schema.
std::string rows_naming(const std::string& schema) {
  xclient o = authed(env_port("XS_PORT_80"));
  auto n = column_strings(
      o.sql("SELECT CAST(COUNT(*) AS CHAR) FROM performance_schema.prepared_statements_instances "
            "WHERE SQL_TEXT LIKE '%" +
            schema + "%'"));
  return n.empty() ? "?" : n[0];
}

TEST(PreparedCrud80, ResetAndCloseRemoveThem) {
  crud_session s;
  four_kinds k(s);
  Mysqlx::Session::Reset reset;
  for (bool keep_open : {true, false}) {
    ASSERT_TRUE(ok_reply(prepare(s.c, 1, prepared(k.find))));
    ASSERT_TRUE(ok_reply(prepare(s.c, 2, prepared(k.insert))));
    EXPECT_EQ(rows_naming(s.schema), "2");
    reset.set_keep_open(keep_open);
    s.c.send(client_msg::sess_reset, reset);
    ASSERT_TRUE(ok_reply(s.c.reply()));
    EXPECT_EQ(rows_naming(s.schema), "0") << "keep_open " << keep_open;
    if (!keep_open) s.c.auth("MYSQL41", "xtest", "xtest-pw");
  }
  ASSERT_TRUE(ok_reply(prepare(s.c, 3, prepared(k.update))));
  EXPECT_EQ(rows_naming(s.schema), "1");
  s.c.send(client_msg::sess_close, Mysqlx::Session::Close());
  s.c.reply();
  EXPECT_EQ(rows_naming(s.schema), "0");
  // Connection.Close: gone before the answer, not when MariaDB gets round
  // to the disconnect.
  xclient other = authed(env_port("XS_PORT_80"));
  ASSERT_TRUE(ok_reply(prepare(other, 1, prepared(k.remove))));
  EXPECT_EQ(rows_naming(s.schema), "1");
  other.send(client_msg::con_close, Mysqlx::Connection::Close());
  ASSERT_TRUE(ok_reply(other.reply()));
  EXPECT_EQ(rows_naming(s.schema), "0");
}

TEST(PreparedCrud80, ExhaustedCountIsMysqldsErrorForCrudToo) {
  crud_session s;
  four_kinds k(s);
  // The count is global: restored at once (this binary's tests run one at a
  // time on this fixture).
  auto saved =
      column_strings(s.c.sql("SELECT CAST(@@global.max_prepared_stmt_count AS CHAR)")).at(0);
  ASSERT_TRUE(ok(s.c.sql("SET GLOBAL max_prepared_stmt_count = 0")));
  auto r = prepare(s.c, 1, prepared(k.find));
  s.c.sql("SET GLOBAL max_prepared_stmt_count = " + saved);
  EXPECT_EQ(code_of(r), 1461u) << describe(r);
  EXPECT_EQ(code_of(execute(s.c, 1, {any_scalar(sint(0)), any_uint(1), any_uint(0)})), 5110u);
}

} // namespace
} // namespace xtest
