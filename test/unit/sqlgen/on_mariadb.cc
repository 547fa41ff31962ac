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

// Documents with numbers, a numeric string, booleans, null and a missing
// field, so that MySQL's JSON type rules show.
void load(mariadb& db) {
  const auto err =
      db.exec("DROP SCHEMA IF EXISTS sqlgen_test; CREATE SCHEMA sqlgen_test;"
              "CREATE TABLE sqlgen_test.c (doc JSON, _id VARBINARY(32) NOT NULL PRIMARY KEY,"
              " CHECK (_id = JSON_UNQUOTE(JSON_EXTRACT(doc,'$._id'))));"
              "INSERT INTO sqlgen_test.c (_id, doc) VALUES"
              " ('1','{\"_id\":\"1\",\"name\":\"Bob\",\"age\":20,\"n\":10,\"tags\":[\"a\",\"b\"],"
              "\"flag\":true}'),"
              " ('2','{\"_id\":\"2\",\"name\":\"alice\",\"age\":9,\"n\":10,\"tags\":[\"c\"],"
              "\"flag\":false}'),"
              " ('3','{\"_id\":\"3\",\"name\":\"Carl\",\"age\":\"30\",\"tags\":[]}'),"
              " ('4','{\"_id\":\"4\",\"name\":\"Dan\",\"age\":20.5,\"nul\":null}'),"
              " ('5','{\"_id\":\"5\",\"name\":\"eve\"}');"
              "CREATE TABLE sqlgen_test.t (a INT, b VARCHAR(10), j JSON)");
  ASSERT_FALSE(err) << *err;
}

Mysqlx::Crud::Find find_in_c() {
  Mysqlx::Crud::Find f;
  *f.mutable_collection() = collection("c", "sqlgen_test");
  return f;
}

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

TEST_F(SqlgenMariadb, Criteria) {
  mariadb& db = this->db();
  load(db);
  struct c {
    const char* name;
    Expr criteria;
    ids want;
    std::vector<Scalar> args = {};
  };
  const std::vector<c> cases{
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
      {"and/or",
       op("||", {op("&&", {op(">", {field("age"), num(10)}),
                           op("<", {field("age"), lit(s_double(20.5))})}),
                 op("==", {field("name"), str("eve")})}),
       {"1", "5"}},
  };
  for (const auto& k : cases) {
    SCOPED_TRACE(k.name);
    auto f = find_in_c();
    *f.mutable_criteria() = k.criteria;
    for (const auto& a : k.args) *f.add_args() = a;
    EXPECT_EQ(sorted(run_find(db, f)), k.want);
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

// Every operator, cast type, interval unit and literal form is SQL that
// MariaDB accepts (results are checked above where they matter).
TEST_F(SqlgenMariadb, EveryFormParses) {
  mariadb& db = this->db();
  load(db);
  const Expr a = column("a");
  std::vector<std::pair<std::string, Expr>> exprs;
  for (const char* u : {"!", "not", "sign_minus", "sign_plus", "~"})
    exprs.emplace_back(u, op(u, {a}));
  for (const char* b : {"!=",  "%",   "&",  "&&", "*",      "+",         "-",  "/",
                        "<",   "<<",  "<=", "==", ">",      ">=",        ">>", "^",
                        "div", "xor", "|",  "||", "regexp", "not_regexp"})
    exprs.emplace_back(b, op(b, {a, num(3)}));
  exprs.emplace_back("is", op("is", {a, lit(s_null())}));
  exprs.emplace_back("is_not", op("is_not", {a, lit(s_bool(true))}));
  exprs.emplace_back("between", op("not_between", {a, num(1), num(2)}));
  exprs.emplace_back("like", op("not_like", {column("b"), str("x!%"), str("!")}));
  exprs.emplace_back("in", op("not_in", {a, num(1), num(2)}));
  exprs.emplace_back("in array", op("in", {a, array({num(1), num(2)})}));
  exprs.emplace_back("cont_in", op("not_cont_in", {str("x"), path({member("k")}, "j")}));
  exprs.emplace_back("overlaps", op("overlaps", {path({member("k")}, "j"), array({num(1)})}));
  for (const char* unit : {"DAY",
                           "DAY_HOUR",
                           "DAY_MICROSECOND",
                           "DAY_MINUTE",
                           "DAY_SECOND",
                           "HOUR",
                           "HOUR_MICROSECOND",
                           "HOUR_MINUTE",
                           "HOUR_SECOND",
                           "MICROSECOND",
                           "MINUTE",
                           "MINUTE_MICROSECOND",
                           "MINUTE_SECOND",
                           "MONTH",
                           "QUARTER",
                           "SECOND",
                           "SECOND_MICROSECOND",
                           "WEEK",
                           "YEAR",
                           "YEAR_MONTH"})
    exprs.emplace_back(unit, op("date_sub", {str("2024-01-01"), num(1), plain(unit)}));
  for (const char* type :
       {"SIGNED", "SIGNED INTEGER", "UNSIGNED", "UNSIGNED INTEGER", "BINARY", "BINARY(4)", "CHAR",
        "CHAR(4)", "DATE", "DATETIME", "TIME", "DECIMAL", "DECIMAL(5)", "DECIMAL(5,2)"})
    exprs.emplace_back(type, op("cast", {a, plain(type)}));
  exprs.emplace_back("cast JSON", op("cast", {str("[1]"), plain("JSON")}));
  // POINT(1 2) as WKB: byte order, type 1, x, y.
  const std::string wkb("\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\xf0\x3f"
                        "\x00\x00\x00\x00\x00\x00\x00\x40",
                        21);
  exprs.emplace_back("geometry", fn("ST_ASTEXT", {lit(s_octets(wkb, 1))}));
  exprs.emplace_back("JSON octets", lit(s_octets("{\"k\": [1]}", 2)));
  exprs.emplace_back("XML octets", lit(s_octets("<a/>", 3)));
  exprs.emplace_back("float", lit(s_float(0.1f)));
  exprs.emplace_back("double", lit(s_double(-1e-300)));
  exprs.emplace_back("uint", lit(s_uint(18446744073709551615ULL)));
  exprs.emplace_back("string", str(std::string("\0'\"\\\n\r\x1a%_", 10)));
  exprs.emplace_back("object", object({{"k", array({path({member("k")}, "j"), lit(s_null())})}}));
  exprs.emplace_back("function", fn("JSON_LENGTH", {path({member("k")}, "j")}));
  for (const auto& [name, e] : exprs) {
    SCOPED_TRACE(name);
    Mysqlx::Crud::Find f;
    *f.mutable_collection() = collection("t", "sqlgen_test");
    f.set_data_model(Mysqlx::Crud::TABLE);
    auto* p = f.add_projection();
    *p->mutable_source() = e;
    p->set_alias("x");
    const auto sql = xserver::sqlgen::render_find(f);
    ASSERT_TRUE(sql.ok()) << sql.err().message;
    const auto err = db.exec(sql.value());
    EXPECT_FALSE(err) << sql.value() << "\n" << err.value_or("");
  }
  Mysqlx::Crud::Insert i;
  *i.mutable_collection() = collection("t", "sqlgen_test");
  i.set_data_model(Mysqlx::Crud::TABLE);
  i.add_projection()->set_name("a");
  *i.add_row()->add_field() = op("default");
  const auto sql = xserver::sqlgen::render_insert_table(i);
  ASSERT_TRUE(sql.ok());
  EXPECT_FALSE(db.exec(sql.value()));
}

// getOne / removeOne / replaceOne look documents up by `_id`: the SQL must
// use the primary key, not scan every document's JSON.
TEST_F(SqlgenMariadb, IdLookupsUseThePrimaryKey) {
  mariadb& db = this->db();
  load(db);
  auto f = find_in_c();
  *f.mutable_criteria() = op("==", {field("_id"), placeholder(0)});
  *f.add_args() = s_str("3");
  Mysqlx::Crud::Delete d;
  *d.mutable_collection() = collection("c", "sqlgen_test");
  *d.mutable_criteria() = op("in", {field("_id"), str("1"), str("2")});
  for (const auto& sql : {xserver::sqlgen::render_find(f), xserver::sqlgen::render_delete(d)}) {
    ASSERT_TRUE(sql.ok());
    const auto plan = db.query("EXPLAIN " + sql.value());
    ASSERT_EQ(plan.size(), 1u) << sql.value();
    ASSERT_GE(plan[0].size(), 6u);
    EXPECT_EQ(plan[0][5].value_or("NULL"), "PRIMARY") << sql.value(); // column `key`
  }
}

// 5.7's update SQL (JSON_MERGE, no `_id` restore) runs on MariaDB too.
TEST_F(SqlgenMariadb, Mysql57Update) {
  mariadb& db = this->db();
  load(db);
  xserver::sqlgen::options v57;
  v57.emulate = xserver::sqlgen::flavor::mysql57;
  Mysqlx::Crud::Update u;
  *u.mutable_collection() = collection("c", "sqlgen_test");
  *u.mutable_criteria() = op("==", {field("_id"), str("5")});
  auto* merge = u.add_operation();
  merge->set_operation(Mysqlx::Crud::UpdateOperation::ITEM_MERGE);
  merge->mutable_source();
  *merge->mutable_value() = object({{"_id", str("x")}, {"y", num(1)}});
  auto* set = u.add_operation();
  set->set_operation(Mysqlx::Crud::UpdateOperation::ITEM_SET);
  *set->mutable_source()->add_document_path() = member("z");
  *set->mutable_value() = num(2);
  const auto sql = xserver::sqlgen::render_update(u, v57);
  ASSERT_TRUE(sql.ok()) << sql.err().message;
  const auto err = db.exec(sql.value());
  ASSERT_FALSE(err) << sql.value() << "\n" << *err;
  EXPECT_EQ(db.query("SELECT JSON_COMPACT(doc) FROM sqlgen_test.c WHERE _id='5'"),
            (std::vector<row>{{"{\"_id\":\"5\",\"name\":\"eve\",\"y\":1,\"z\":2}"}}));
}

} // namespace
} // namespace sqlgen_test
