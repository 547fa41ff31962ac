// Comparisons and sort keys on document paths follow MySQL's JSON comparator
// (rule in test/xserver/sqlgen/json_compare.cc). mariadb_test.cc checks the
// results on a server; these pin the SQL.
#include "test/unit/sqlgen/expect.h"

namespace sqlgen_test {
namespace {

const char* const P = "JSON_EXTRACT(doc,'$.age')";

std::string rank(const std::string& p) {
  return "CASE JSON_TYPE(" + p +
         ") WHEN 'NULL' THEN 1 WHEN 'INTEGER' THEN 2 WHEN 'DOUBLE' THEN 2 WHEN 'STRING' THEN 3"
         " WHEN 'OBJECT' THEN 4 WHEN 'ARRAY' THEN 5 WHEN 'BOOLEAN' THEN 6 END";
}
std::string number(const std::string& p) {
  return "CASE JSON_TYPE(" + p + ") WHEN 'INTEGER' THEN CAST(JSON_UNQUOTE(" + p +
         ") AS DOUBLE) WHEN 'DOUBLE' THEN CAST(JSON_UNQUOTE(" + p +
         ") AS DOUBLE) WHEN 'BOOLEAN' THEN JSON_UNQUOTE(" + p + ")='true' ELSE 0 END";
}
std::string text(const std::string& p) {
  return "IF(JSON_TYPE(" + p + ") IN ('STRING','OBJECT','ARRAY'),JSON_UNQUOTE(" + p + "),'')";
}

TEST(SqlgenJsonCompare, PathAgainstLiterals) {
  const std::string p = P;
  const std::string name = "JSON_EXTRACT(doc,'$.name')";
  const std::string flag = "JSON_EXTRACT(doc,'$.flag')";
  struct c {
    const char* name;
    Expr expr;
    std::string want;
    env en = {};
  };
  const std::vector<c> cases{
      {"number", op(">", {field("age"), num(18)}),
       "IF(JSON_TYPE(" + p + ") IN ('INTEGER','DOUBLE')," + p + " > 18," + rank(p) + " > 2)"},
      {"number on the left", op("<", {num(5), field("age")}),
       "IF(JSON_TYPE(" + p + ") IN ('INTEGER','DOUBLE'),5 < " + p + ",2 < " + rank(p) + ")"},
      {"double placeholder", op(">=", {field("age"), placeholder(0)}),
       "IF(JSON_TYPE(" + p + ") IN ('INTEGER','DOUBLE')," + p + " >= 1.5," + rank(p) + " >= 2)",
       with_args({s_double(1.5)})},
      {"string", op("==", {field("name"), str("Bob")}),
       "IF(JSON_TYPE(" + name + ")='STRING',JSON_UNQUOTE(" + name + ") = 'Bob'," + rank(name) +
           " = 3)"},
      {"string !=", op("!=", {field("name"), str("Bob")}),
       "IF(JSON_TYPE(" + name + ")='STRING',JSON_UNQUOTE(" + name + ") != 'Bob'," + rank(name) +
           " != 3)"},
      {"boolean", op("==", {field("flag"), lit(s_bool(true))}),
       "IF(JSON_TYPE(" + flag + ")='BOOLEAN',(JSON_UNQUOTE(" + flag + ")='true') = TRUE," +
           rank(flag) + " = 6)"},
  };
  for (const auto& k : cases) {
    SCOPED_TRACE(k.name);
    check(render(k.expr, k.en), sql(k.want));
  }
}

TEST(SqlgenJsonCompare, PathAgainstPath) {
  const std::string a = P;
  const std::string b = "JSON_EXTRACT(doc,'$.n')";
  check(render(op("<", {field("age"), field("n")})),
        sql("((" + rank(a) + "," + number(a) + "," + text(a) + ") < (" + rank(b) + "," + number(b) +
            "," + text(b) + "))"));
}

TEST(SqlgenJsonCompare, Equality) {
  struct c {
    const char* name;
    Expr expr;
    const char* want;
    env en = {};
  };
  const std::vector<c> cases{
      {"path == path", op("==", {field("a"), field("b")}),
       "(JSON_EQUALS(JSON_EXTRACT(doc,'$.a'),JSON_EXTRACT(doc,'$.b')) = 1)"},
      {"path != object", op("!=", {field("a"), object({{"k", num(1)}})}),
       "(JSON_EQUALS(JSON_EXTRACT(doc,'$.a'),JSON_OBJECT('k',1)) = 0)"},
      {"array == path", op("==", {array({num(1)}), field("a")}),
       "(JSON_EQUALS(JSON_ARRAY(1),JSON_EXTRACT(doc,'$.a')) = 1)"},
      {"path == JSON placeholder", op("==", {field("a"), placeholder(0)}),
       "(JSON_EQUALS(JSON_EXTRACT(doc,'$.a'),JSON_COMPACT('{}')) = 1)",
       with_args({s_octets("{}", 2)})},
  };
  for (const auto& k : cases) {
    SCOPED_TRACE(k.name);
    check(render(k.expr, k.en), sql(k.want));
  }
}

TEST(SqlgenJsonCompare, PlainSqlWhereItAgrees) {
  struct c {
    const char* name;
    Expr expr;
    const char* want;
    env en = {};
  };
  const std::vector<c> cases{
      {"NULL literal", op("==", {field("age"), lit(s_null())}),
       "(JSON_EXTRACT(doc,'$.age') = NULL)"},
      {"array, not a path", op("==", {array({num(1)}), array({num(1)})}),
       "(JSON_ARRAY(1) = JSON_ARRAY(1))"},
      {"function", op(">", {field("age"), fn("abs", {num(-1)})}),
       "(JSON_EXTRACT(doc,'$.age') > abs(-1))"},
      {"columns", op(">", {column("a"), num(1)}), "(`a` > 1)", table_env()},
      {"$._id uses the key", op("==", {field("_id"), str("abc")}), "(`_id` = 'abc')"},
      {"$._id on the right", op("<", {placeholder(0), field("_id")}), "('x' < `_id`)",
       with_args({s_str("x")})},
      {"not a comparison", op("+", {field("age"), num(1)}), "(JSON_EXTRACT(doc,'$.age') + 1)"},
  };
  for (const auto& k : cases) {
    SCOPED_TRACE(k.name);
    check(render(k.expr, k.en), sql(k.want));
  }
  // Ordered against a JSON value, MariaDB would compare texts: the sort
  // keys of both instead, as for two paths.
  const std::string keys = "CASE JSON_TYPE(JSON_COMPACT('[1]')) WHEN 'NULL' THEN 1";
  auto json_less = render(op("<", {field("age"), lit(s_octets("[1]", 2))}));
  ASSERT_TRUE(json_less.ok());
  EXPECT_EQ(json_less.value().rfind("((CASE JSON_TYPE(JSON_EXTRACT(doc,'$.age'))", 0), 0u);
  EXPECT_NE(json_less.value().find(") < (" + keys), std::string::npos) << json_less.value();
  env no_key;
  no_key.opts.id_column = false;
  check(render(op("==", {field("_id"), str("abc")}), no_key),
        sql("(JSON_UNQUOTE(JSON_EXTRACT(doc,'$._id')) = 'abc')"));
}

TEST(SqlgenJsonCompare, OrderKeys) {
  Mysqlx::Crud::Find find;
  *find.mutable_collection() = collection("c", "s");
  auto* by_age = find.add_order();
  *by_age->mutable_expr() = field("age");
  by_age->set_direction(Mysqlx::Crud::Order::DESC);
  *find.add_order()->mutable_expr() = fn("length", {field("name")});
  const std::string p = P;
  check(xserver::sqlgen::render_find(find),
        sql("SELECT doc FROM `s`.`c` ORDER BY " + rank(p) + " DESC," + number(p) + " DESC," +
            text(p) + " DESC,length(JSON_UNQUOTE(JSON_EXTRACT(doc,'$.name')))"));
}

} // namespace
} // namespace sqlgen_test
