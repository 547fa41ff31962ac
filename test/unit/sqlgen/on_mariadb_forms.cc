// More generated SQL on MariaDB: every syntactic form is accepted, `_id`
// lookups use the primary key, 5.7's update SQL runs. Part of
// sqlgen_on_mariadb (see on_mariadb.cc).
#include "test/unit/sqlgen/expect.h"
#include "test/unit/sqlgen/mariadb_support.h"

namespace sqlgen_test {
namespace {

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
  exprs.emplace_back("string", str(std::string("\0'\"\\\n\r\x1a%_", 9)));
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
