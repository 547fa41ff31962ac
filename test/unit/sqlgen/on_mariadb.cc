// The generated SQL on a real MariaDB gives the results MySQL's X Plugin
// gives: which documents match, in which order, and what updates produce.
// Built as sqlgen_on_mariadb; ctest runs it only when MYSQLX_TEST_MARIADB_SOCKET
// was set at configure time (CMakeLists.txt).
#include "test/unit/sqlgen/expect.h"
#include "test/unit/sqlgen/mariadb_support.h"

#include <algorithm>
#include <regex>

namespace sqlgen_test {
namespace {

using ids = std::vector<std::string>;

// The `_id` of each returned document, in result order.
ids run_find(mariadb& db, const Mysqlx::Crud::Find& f) {
  const auto sql = xserver::sqlgen::render_find(f);
  EXPECT_TRUE(sql.ok()) << sql.err().message;
  if (!sql.ok()) return {};
  ids out;
  static const std::regex id_re("\"_id\": ?\"([^\"]*)\"");
  for (const auto& r : db.query(sql.value())) {
    std::smatch m;
    if (r.at(0) && std::regex_search(*r.at(0), m, id_re)) out.push_back(m[1]);
  }
  EXPECT_EQ(db.warnings(), 0u) << sql.value();
  return out;
}

ids sorted(ids v) {
  std::sort(v.begin(), v.end());
  return v;
}

struct criteria_case {
  const char* name;
  Expr criteria;
  ids want;
  std::vector<Scalar> args = {};
};

std::vector<criteria_case> criteria_cases() {
  return {
      {"number >: numbers compare, a JSON string is greater",
       op(">", {field("age"), num(18)}),
       {"1", "3", "4"}},
      {"number <", op("<", {field("age"), num(18)}), {"2"}},
      {"number ==", op("==", {field("age"), num(20)}), {"1"}},
      {"number !=: missing field is NULL", op("!=", {field("age"), num(20)}), {"2", "3", "4"}},
      {"literal on the left", op("<", {num(18), field("age")}), {"1", "3", "4"}},
      {"double placeholder",
       op(">=", {field("age"), placeholder(0)}),
       {"3", "4"},
       {s_double(20.5)}},
      {"string ==", op("==", {field("name"), str("Bob")}), {"1"}},
      {"string == is case sensitive", op("==", {field("name"), str("bob")}), {}},
      {"string > is binary", op(">", {field("name"), str("a")}), {"2", "5"}},
      {"number vs string literal", op(">", {field("age"), str("10")}), {"3"}},
      {"boolean true", op("==", {field("flag"), lit(s_bool(true))}), {"1"}},
      {"boolean false", op("==", {field("flag"), lit(s_bool(false))}), {"2"}},
      {"path vs path compares numbers", op(">", {field("age"), field("n")}), {"1"}},
      {"array equality", op("==", {field("tags"), array({str("a"), str("b")})}), {"1"}},
      {"array inequality", op("!=", {field("tags"), array({str("c")})}), {"1", "3"}},
      {"JSON array <: MySQL's type order (null first), not text order",
       op("<", {field("nul"), lit(s_octets("[1]", 2))}),
       {"4"}},
      {"JSON number equality", op("==", {field("n"), lit(s_octets("10.0", 2))}), {"1", "2"}},
      {"object equality, any key order",
       op("==", {path({member("o")}), object({{"y", num(2)}, {"x", num(1)}})}),
       {"4"}},
      {"in list", op("in", {field("name"), str("Bob"), str("eve")}), {"1", "5"}},
      {"in array", op("in", {field("name"), array({str("Bob"), str("eve")})}), {"1", "5"}},
      {"cont_in", op("cont_in", {str("a"), field("tags")}), {"1"}},
      {"not_cont_in", op("not_cont_in", {str("a"), field("tags")}), {"2", "3"}},
      {"overlaps", op("overlaps", {field("tags"), array({str("c"), str("z")})}), {"2"}},
      {"like", op("like", {field("name"), str("%a%")}), {"2", "3", "4"}},
      {"regexp is case sensitive", op("regexp", {field("name"), str("^[A-Z]")}), {"1", "3", "4"}},
      {"between", op("between", {field("age"), num(10), num(25)}), {"1", "4"}},
      {"$._id ==", op("==", {field("_id"), placeholder(0)}), {"3"}, {s_str("3")}},
      {"$._id in", op("in", {field("_id"), str("1"), str("2")}), {"1", "2"}},
      {"function on a path", op("==", {fn("upper", {field("name")}), str("EVE")}), {"5"}},
      {"arithmetic", op("==", {op("+", {field("n"), num(1)}), num(11)}), {"1", "2"}},
      // MySQL 8.0.20+ makes a condition of a JSON value into `0 <> value`:
      // true for any JSON value but a number equal to 0.
      {"a path alone: false, a string and null are true too", field("flag"), {"1", "2"}},
      {"a path alone: numbers", field("age"), {"1", "2", "3", "4"}},
      {"a path alone: JSON null", field("nul"), {"4"}},
      {"a missing path is NULL", field("none"), {}},
      {"an object literal is true", object({{"_ix", str("5")}}), {"1", "2", "3", "4", "5"}},
      {"an array literal is true", array({num(0)}), {"1", "2", "3", "4", "5"}},
      {"JSON 0 is false", op("cast", {num(0), plain("JSON")}), {}},
      {"NOT of a path: only a number 0 would pass", op("not", {field("flag")}), {}},
      {"! of JSON 0", op("!", {op("cast", {num(0), plain("JSON")})}), {"1", "2", "3", "4", "5"}},
      {"a path as an AND operand",
       op("&&", {field("flag"), op("==", {field("name"), str("alice")})}),
       {"2"}},
      {"a path as an OR operand", op("||", {field("nul"), field("tags")}), {"1", "2", "3", "4"}},
      {"a path as an XOR operand: false is true too",
       op("xor", {field("flag"), op("==", {field("name"), str("alice")})}),
       {"1"}},
      {"and/or",
       op("||", {op("&&", {op(">", {field("age"), num(10)}),
                           op("<", {field("age"), lit(s_double(20.5))})}),
                 op("==", {field("name"), str("eve")})}),
       {"1", "5"}},
  };
}

TEST_F(SqlgenMariadb, Criteria) {
  mariadb& db = this->db();
  load(db);
  for (const auto& k : criteria_cases()) {
    SCOPED_TRACE(k.name);
    auto f = find_in_c();
    *f.mutable_criteria() = k.criteria;
    for (const auto& a : k.args) *f.add_args() = a;
    EXPECT_EQ(sorted(run_find(db, f)), k.want);
  }
}

// e with every literal operand a placeholder whose value is appended to
// args (keywords such as CAST types and interval units stay literals).
void literals_to_placeholders(Expr& e, std::vector<Scalar>& args) {
  if (e.type() == Expr::LITERAL) {
    args.push_back(e.literal());
    e = placeholder(static_cast<std::uint32_t>(args.size() - 1));
    return;
  }
  if (e.type() == Expr::OPERATOR) {
    auto& o = *e.mutable_operator_();
    const bool keyword_last =
        o.name() == "cast" || o.name() == "date_add" || o.name() == "date_sub";
    for (int i = 0; i < o.param_size() - (keyword_last ? 1 : 0); ++i)
      literals_to_placeholders(*o.mutable_param(i), args);
  }
  if (e.type() == Expr::FUNC_CALL)
    for (auto& p : *e.mutable_function_call()->mutable_param()) literals_to_placeholders(p, args);
  if (e.type() == Expr::ARRAY)
    for (auto& v : *e.mutable_array()->mutable_value()) literals_to_placeholders(v, args);
  if (e.type() == Expr::OBJECT)
    for (auto& f : *e.mutable_object()->mutable_fld())
      literals_to_placeholders(*f.mutable_value(), args);
}

// A prepared statement gives the same documents as the unprepared one, with
// each literal (and each of the message's args) an Execute argument: the
// type-independent forms of its `?`s (json_compare.cc) agree with the typed
// SQL that literals get.
TEST_F(SqlgenMariadb, CriteriaPrepared) {
  mariadb& db = this->db();
  load(db);
  for (const auto& k : criteria_cases()) {
    SCOPED_TRACE(k.name);
    std::vector<Scalar> values = k.args;
    Expr criteria = k.criteria;
    literals_to_placeholders(criteria, values);
    auto f = find_in_c();
    *f.mutable_criteria() = criteria;
    const auto stmt = xserver::sqlgen::prepare_find(f);
    ASSERT_TRUE(stmt.ok()) << stmt.err().message;
    xserver::sqlgen::arg_list args;
    for (const auto& v : values) *args.Add() = v;
    const auto bound = xserver::sqlgen::bind_params(stmt.value(), args);
    ASSERT_TRUE(bound.ok()) << bound.err().message;
    std::string exec = "EXECUTE s";
    for (std::size_t i = 0; i < bound.value().size(); ++i)
      exec += (i == 0 ? " USING " : ", ") + bound.value()[i];
    const auto err = db.exec("PREPARE s FROM " + xserver::sqlgen::quote_string(stmt.value().sql));
    ASSERT_FALSE(err) << *err << "\n" << stmt.value().sql;
    ids got;
    static const std::regex id_re("\"_id\": ?\"([^\"]*)\"");
    for (const auto& r : db.query(exec)) {
      std::smatch m;
      if (r.at(0) && std::regex_search(*r.at(0), m, id_re)) got.push_back(m[1]);
    }
    EXPECT_EQ(sorted(got), k.want) << stmt.value().sql << "\n" << exec;
  }
}

TEST_F(SqlgenMariadb, OrderAndLimit) {
  mariadb& db = this->db();
  load(db);
  auto by = [](const char* f, bool desc) {
    auto find = find_in_c();
    auto* o = find.add_order();
    *o->mutable_expr() = field(f);
    if (desc) o->set_direction(Mysqlx::Crud::Order::DESC);
    return find;
  };
  // MySQL: SQL NULL first, then JSON numbers by value, then strings.
  EXPECT_EQ(run_find(db, by("age", false)), (ids{"5", "2", "1", "4", "3"}));
  EXPECT_EQ(run_find(db, by("age", true)), (ids{"3", "4", "1", "2", "5"}));
  EXPECT_EQ(run_find(db, by("name", false)), (ids{"1", "3", "4", "2", "5"}));
  auto page = by("age", false);
  page.mutable_limit()->set_row_count(2);
  page.mutable_limit()->set_offset(1);
  EXPECT_EQ(run_find(db, page), (ids{"2", "1"}));
  auto locked = page;
  locked.set_locking(Mysqlx::Crud::Find::EXCLUSIVE_LOCK);
  locked.set_locking_options(Mysqlx::Crud::Find::SKIP_LOCKED);
  EXPECT_EQ(run_find(db, locked), (ids{"2", "1"}));
  locked.set_locking(Mysqlx::Crud::Find::SHARED_LOCK);
  locked.set_locking_options(Mysqlx::Crud::Find::NOWAIT);
  EXPECT_EQ(run_find(db, locked), (ids{"2", "1"}));
}

TEST_F(SqlgenMariadb, ProjectionAndGrouping) {
  mariadb& db = this->db();
  load(db);
  auto f = find_in_c();
  *f.mutable_criteria() = op("==", {field("_id"), str("1")});
  auto* p = f.add_projection();
  *p->mutable_source() = field("name");
  p->set_alias("who");
  p = f.add_projection();
  *p->mutable_source() = field("tags");
  p->set_alias("t");
  auto sql = xserver::sqlgen::render_find(f);
  ASSERT_TRUE(sql.ok());
  EXPECT_EQ(db.query(sql.value()),
            (std::vector<row>{{"{\"who\": \"Bob\", \"t\": [\"a\", \"b\"]}"}}));

  auto g = find_in_c();
  p = g.add_projection();
  *p->mutable_source() = field("n");
  p->set_alias("n");
  p = g.add_projection();
  *p->mutable_source() = fn("count", {op("*")});
  p->set_alias("cnt");
  *g.add_grouping() = field("n");
  *g.mutable_grouping_criteria() = op(">", {fn("count", {op("*")}), num(1)});
  *g.add_order()->mutable_expr() = fn("count", {op("*")});
  sql = xserver::sqlgen::render_find(g);
  ASSERT_TRUE(sql.ok());
  EXPECT_EQ(db.query(sql.value()),
            (std::vector<row>{{"{\"n\": 10, \"cnt\": 2}"}, {"{\"n\": null, \"cnt\": 3}"}}));
}

// information_schema.collations read as a table gives MySQL 8.0's rows, with
// MySQL's column types (ID and SORTLEN unsigned integers).
TEST_F(SqlgenMariadb, MysqlCollations) {
  mariadb& db = this->db();
  Mysqlx::Crud::Find f;
  *f.mutable_collection() = collection("collations", "information_schema");
  f.set_data_model(Mysqlx::Crud::TABLE);
  for (const char* c : {"ID", "COLLATION_NAME", "CHARACTER_SET_NAME", "IS_DEFAULT", "IS_COMPILED",
                        "SORTLEN", "PAD_ATTRIBUTE"})
    *f.add_projection()->mutable_source() = column(c);
  *f.mutable_criteria() = op("in", {column("id"), num(45), num(255), num(304)});
  *f.add_order()->mutable_expr() = column("id");
  auto sql = xserver::sqlgen::render_find(f);
  ASSERT_TRUE(sql.ok()) << sql.err().message;
  EXPECT_EQ(db.query(sql.value()),
            (std::vector<row>{
                {"45", "utf8mb4_general_ci", "utf8mb4", "", "Yes", "1", "PAD SPACE"},
                {"255", "utf8mb4_0900_ai_ci", "utf8mb4", "Yes", "Yes", "0", "NO PAD"},
                {"304", "utf8mb4_ja_0900_as_cs_ks", "utf8mb4", "", "Yes", "24", "NO PAD"}}));
  EXPECT_EQ(db.warnings(), 0u);

  Mysqlx::Crud::Find all;
  *all.mutable_collection() = collection("COLLATIONS", "information_schema");
  all.set_data_model(Mysqlx::Crud::TABLE);
  sql = xserver::sqlgen::render_find(all);
  ASSERT_TRUE(sql.ok());
  EXPECT_EQ(db.query(sql.value()).size(), 286u);
  ASSERT_FALSE(db.exec("DROP SCHEMA IF EXISTS sqlgen_types; CREATE SCHEMA sqlgen_types; "
                       "CREATE TABLE sqlgen_types.t AS " +
                       sql.value()));
  EXPECT_EQ(db.query("SELECT COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS WHERE "
                     "TABLE_SCHEMA = 'sqlgen_types' AND TABLE_NAME = 't' AND COLUMN_NAME IN "
                     "('ID','SORTLEN') ORDER BY 1"),
            (std::vector<row>{{"ID", "bigint(20) unsigned"}, {"SORTLEN", "bigint(20) unsigned"}}));
  ASSERT_FALSE(db.exec("DROP SCHEMA sqlgen_types"));
}

// The document after one Update on a fresh copy of the data.
std::string updated(mariadb& db, const Mysqlx::Crud::UpdateOperation& o, const char* id) {
  load(db);
  Mysqlx::Crud::Update u;
  *u.mutable_collection() = collection("c", "sqlgen_test");
  *u.add_operation() = o;
  *u.mutable_criteria() = op("==", {field("_id"), str(id)});
  const auto sql = xserver::sqlgen::render_update(u);
  EXPECT_TRUE(sql.ok()) << sql.err().message;
  if (!sql.ok()) return "";
  const auto err = db.exec(sql.value());
  EXPECT_FALSE(err) << sql.value() << "\n" << err.value_or("");
  auto rows =
      db.query(std::string("SELECT JSON_COMPACT(doc) FROM sqlgen_test.c WHERE _id='") + id + "'");
  return rows.empty() || !rows[0][0] ? "" : *rows[0][0];
}

Mysqlx::Crud::UpdateOperation update_op(Mysqlx::Crud::UpdateOperation::UpdateType t,
                                        std::initializer_list<DocumentPathItem> p,
                                        std::optional<Expr> v) {
  Mysqlx::Crud::UpdateOperation o;
  o.set_operation(t);
  o.mutable_source(); // present even when empty (the root), as clients send it
  for (const auto& i : p) *o.mutable_source()->add_document_path() = i;
  if (v) *o.mutable_value() = *v;
  return o;
}

TEST_F(SqlgenMariadb, Update) {
  mariadb& db = this->db();
  using U = Mysqlx::Crud::UpdateOperation;
  const std::string five = "{\"_id\":\"5\",\"name\":\"eve\"";
  EXPECT_EQ(updated(db, update_op(U::ITEM_SET, {member("age")}, num(21)), "5"),
            five + ",\"age\":21}");
  EXPECT_EQ(updated(db, update_op(U::ITEM_SET, {member("o")}, object({{"k", field("name")}})), "5"),
            five + ",\"o\":{\"k\":\"eve\"}}");
  EXPECT_EQ(updated(db, update_op(U::ITEM_SET, {member("j")}, lit(s_octets("[1,2]", 2))), "5"),
            five + ",\"j\":[1,2]}");
  EXPECT_EQ(updated(db, update_op(U::ITEM_REPLACE, {member("name")}, str("E")), "5"),
            "{\"_id\":\"5\",\"name\":\"E\"}");
  EXPECT_EQ(updated(db, update_op(U::ITEM_REPLACE, {member("none")}, str("E")), "5"), five + "}");
  EXPECT_EQ(updated(db, update_op(U::ITEM_REMOVE, {member("name")}, std::nullopt), "5"),
            "{\"_id\":\"5\"}");
  EXPECT_EQ(updated(db, update_op(U::ARRAY_APPEND, {member("tags")}, str("d")), "3"),
            "{\"_id\":\"3\",\"name\":\"Carl\",\"age\":\"30\",\"tags\":[\"d\"]}");
  // As in MySQL, an append to a missing path leaves the document unchanged.
  EXPECT_EQ(updated(db, update_op(U::ARRAY_APPEND, {member("none")}, str("d")), "5"), five + "}");
  EXPECT_EQ(updated(db, update_op(U::ARRAY_INSERT, {member("tags"), index(0)}, str("z")), "2"),
            "{\"_id\":\"2\",\"name\":\"alice\",\"age\":9,\"n\":10,\"tags\":[\"z\",\"c\"],"
            "\"flag\":false}");
  // The X Plugin keeps the original `_id` through merges and replaces.
  EXPECT_EQ(
      updated(db, update_op(U::MERGE_PATCH, {}, object({{"_id", str("x")}, {"y", num(1)}})), "5"),
      five + ",\"y\":1}");
  EXPECT_EQ(updated(db, update_op(U::ITEM_MERGE, {}, object({{"name", str("z")}})), "5"),
            "{\"_id\":\"5\",\"name\":[\"eve\",\"z\"]}");
  EXPECT_EQ(updated(db, update_op(U::ITEM_SET, {}, object({{"whole", num(1)}})), "5"),
            "{\"whole\":1,\"_id\":\"5\"}");
}

// As in MySQL, where `_id` is generated from doc: an update that leaves the
// document without `_id` fails with 1048 (5115 once xserverd remaps it) and
// changes nothing. (Invalid JSON text fails anyway: MariaDB's strict mode
// turns JSON warnings in an UPDATE into errors, e.g. 4038.)
TEST_F(SqlgenMariadb, UpdateThatLosesIdFails) {
  mariadb& db = this->db();
  using U = Mysqlx::Crud::UpdateOperation;
  // Valid JSON, but the result is a scalar / an array, which has no `_id`.
  for (const auto& o : {update_op(U::MERGE_PATCH, {}, lit(s_octets("\"scalar\"", 2))),
                        update_op(U::ITEM_SET, {}, array({num(1)}))}) {
    load(db);
    Mysqlx::Crud::Update u;
    *u.mutable_collection() = collection("c", "sqlgen_test");
    *u.add_operation() = o;
    *u.mutable_criteria() = op("==", {field("_id"), str("5")});
    const auto sql = xserver::sqlgen::render_update(u);
    ASSERT_TRUE(sql.ok());
    const auto err = db.exec(sql.value());
    ASSERT_TRUE(err) << sql.value();
    EXPECT_EQ(err->substr(0, 5), "1048:") << *err;
    EXPECT_EQ(db.query("SELECT JSON_COMPACT(doc) FROM sqlgen_test.c WHERE _id='5'"),
              (std::vector<row>{{"{\"_id\":\"5\",\"name\":\"eve\"}"}}));
  }
}

TEST_F(SqlgenMariadb, DeleteAndTableInsert) {
  mariadb& db = this->db();
  load(db);
  Mysqlx::Crud::Delete d;
  *d.mutable_collection() = collection("c", "sqlgen_test");
  *d.mutable_criteria() = op(">", {field("age"), num(18)});
  auto sql = xserver::sqlgen::render_delete(d);
  ASSERT_TRUE(sql.ok());
  ASSERT_FALSE(db.exec(sql.value()));
  EXPECT_EQ(db.query("SELECT _id FROM sqlgen_test.c ORDER BY _id"),
            (std::vector<row>{{"2"}, {"5"}}));

  Mysqlx::Crud::Insert i;
  *i.mutable_collection() = collection("t", "sqlgen_test");
  i.set_data_model(Mysqlx::Crud::TABLE);
  for (const char* c : {"a", "b", "j"}) i.add_projection()->set_name(c);
  auto* r = i.add_row();
  for (const auto& e : {num(1), str("it's"), object({{"k", array({num(1), lit(s_null())})}})})
    *r->add_field() = e;
  sql = xserver::sqlgen::render_insert_table(i);
  ASSERT_TRUE(sql.ok());
  ASSERT_FALSE(db.exec(sql.value()));
  EXPECT_EQ(db.query("SELECT a, b, JSON_COMPACT(j) FROM sqlgen_test.t"),
            (std::vector<row>{{"1", "it's", "{\"k\":[1,null]}"}}));
  ASSERT_FALSE(db.exec("DROP SCHEMA sqlgen_test"));
}

} // namespace
} // namespace sqlgen_test
