// Mysqlx.Expr -> SQL: literals, placeholders, identifiers, document paths,
// objects, arrays, function calls and the errors for each.
#include "test/unit/sqlgen/expect.h"

#include <limits>

namespace sqlgen_test {
namespace {

struct expr_case {
  const char* name;
  Expr expr;
  outcome want;
  env en = {};
};

void run(const std::vector<expr_case>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    check(render(c.expr, c.en), c.want);
  }
}

TEST(SqlgenExpr, Literals) {
  run({
      {"signed", num(-5), sql("-5")},
      {"unsigned max", lit(s_uint(18446744073709551615ULL)), sql("18446744073709551615")},
      {"null", lit(s_null()), sql("NULL")},
      {"true", lit(s_bool(true)), sql("TRUE")},
      {"false", lit(s_bool(false)), sql("FALSE")},
      {"double", lit(s_double(1.5)), sql("1.5")},
      {"double shortest text", lit(s_double(0.1)), sql("0.1")},
      {"double exponent", lit(s_double(1e300)), sql("1e+300")},
      {"float", lit(s_float(1.1f)), sql("1.1")},
      {"string escapes", str("it's \"a\\b\"\n\r\x1a"), sql("'it\\'s \\\"a\\\\b\\\"\\n\\r\\Z'")},
      {"string with NUL", str(std::string("a\0b", 3)), sql("'a\\0b'")},
      {"utf-8 string kept", str("\xc3\xa9t\xc3\xa9"), sql("'\xc3\xa9t\xc3\xa9'")},
      {"plain octets", lit(s_octets("abc")), sql("'abc'")},
      {"geometry octets", lit(s_octets("\x01\xf0", 1)), sql("ST_GEOMFROMWKB(X'01F0')")},
      {"binary octets", lit(s_octets("a\xff\xfe", 0)), sql("X'61FFFE'")},
      {"truncated UTF-8 octets", lit(s_octets("\xc3", 0)), sql("X'C3'")},
      {"UTF-8 octets", lit(s_octets("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 0)),
       sql("'\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80'")},
      {"JSON octets", lit(s_octets("{\"a\":1}", 2)), sql("JSON_COMPACT('{\\\"a\\\":1}')")},
      {"XML octets", lit(s_octets("<a/>", 3)), sql("'<a/>'")},
      {"invalid JSON octets", lit(s_octets("{bad", 2)),
       error(3141,
             "Invalid JSON text in argument 1 to function cast_as_json: \"Missing a name for "
             "object member.\" at position 1.",
             "22032")},
      {"JSON octets with trailing text", lit(s_octets("[1] x", 2)),
       error(3141,
             "Invalid JSON text in argument 1 to function cast_as_json: \"The document root must "
             "not be followed by other values.\" at position 4.",
             "22032")},
      {"JSON scalar octets", lit(s_octets(" 1.5 ", 2)), sql("JSON_COMPACT(' 1.5 ')")},
      {"unknown content type", lit(s_octets("x", 9)),
       error(5153, "Invalid content type for Mysqlx::Datatypes::Scalar::Octets 9")},
      {"NaN", lit(s_double(std::numeric_limits<double>::quiet_NaN())),
       error(5154, "Invalid value for a floating point literal")},
      {"scalar without type", lit(Scalar()),
       error(5000, "Invalid message: required field Mysqlx.Datatypes.Scalar.type is missing")},
  });
}

TEST(SqlgenExpr, ExprTypes) {
  Expr variable;
  variable.set_type(Expr::VARIABLE);
  variable.set_variable("v");
  run({
      {"variable", variable, error(5153, "Mysqlx::Expr::Expr::VARIABLE is not supported yet")},
      {"no type", Expr(),
       error(5000, "Invalid message: required field Mysqlx.Expr.Expr.type is missing")},
  });
}

TEST(SqlgenExpr, ColumnsAndPaths) {
  using T = DocumentPathItem;
  run({
      {"column", column("name"), sql("`name`"), table_env()},
      {"table.column", column("c", "t"), sql("`t`.`c`"), table_env()},
      {"schema.table.column", column("c", "t", "s"), sql("`s`.`t`.`c`"), table_env()},
      {"backtick doubled", column("a`b"), sql("`a``b`"), table_env()},
      {"schema without table", column("c", "", "s"),
       error(5152, "Table name is required if schema name is specified in ColumnIdentifier."),
       table_env()},
      {"table without column", column("", "t"),
       error(5152, "Column name is required if table name is specified in ColumnIdentifier."),
       table_env()},
      {"empty identifier, table", column(""),
       error(5152, "Column name is required in ColumnIdentifier."), table_env()},
      {"empty identifier, document", column(""), sql("JSON_EXTRACT(doc,'$')")},
      {"member", field("name"), sql("JSON_EXTRACT(doc,'$.name')")},
      {"nested with index", path({member("a"), index(2), member("b")}),
       sql("JSON_EXTRACT(doc,'$.a[2].b')")},
      {"member needing quotes", path({member("b c")}), sql("JSON_EXTRACT(doc,'$.\\\"b c\\\"')")},
      {"member with quote chars", path({member("it's")}),
       sql("JSON_EXTRACT(doc,'$.\\\"it\\'s\\\"')")},
      {"member starting with digit", path({member("1a")}), sql("JSON_EXTRACT(doc,'$.\\\"1a\\\"')")},
      {"member *", path({member("a"), item(T::MEMBER_ASTERISK)}), sql("JSON_EXTRACT(doc,'$.a.*')")},
      {"index *", path({member("a"), item(T::ARRAY_INDEX_ASTERISK)}),
       sql("JSON_EXTRACT(doc,'$.a[*]')")},
      {"**", path({item(T::DOUBLE_ASTERISK), member("b")}), sql("JSON_EXTRACT(doc,'$**.b')")},
      {"root", path({member("")}), sql("JSON_EXTRACT(doc,'$')")},
      {"path in a column", path({member("a")}, "info"), sql("JSON_EXTRACT(`info`,'$.a')"),
       table_env()},
      {"path in table.column",
       [] {
         Expr e = path({member("a")}, "info");
         e.mutable_identifier()->set_table_name("t");
         return e;
       }(),
       sql("JSON_EXTRACT(`t`.`info`,'$.a')"), table_env()},
      {"$._id outside comparisons", field("_id"), sql("JSON_EXTRACT(doc,'$._id')")},
      {"empty member", path({member("a"), member("")}),
       error(5154, "Invalid empty value for Mysqlx::Expr::DocumentPathItem::MEMBER")},
      {"path item without type", path({DocumentPathItem()}),
       error(5000, "Invalid message: required field Mysqlx.Expr.DocumentPathItem.type is missing")},
  });
}

TEST(SqlgenExpr, Placeholders) {
  const env args = with_args({s_int(7), s_str("x"), s_octets("[1]", 2)});
  run({
      {"first", placeholder(0), sql("7"), args},
      {"string", placeholder(1), sql("'x'"), args},
      {"JSON octets", placeholder(2), sql("JSON_COMPACT('[1]')"), args},
      {"out of range", placeholder(3), error(5154, "Invalid value of placeholder"), args},
      {"no args", placeholder(0), error(5154, "Invalid value of placeholder")},
      {"inside an operator", op("+", {placeholder(0), placeholder(0)}), sql("(7 + 7)"), args},
  });
}

TEST(SqlgenExpr, ObjectsAndArrays) {
  Expr no_value;
  no_value.set_type(Expr::OBJECT);
  no_value.mutable_object()->add_fld()->set_key("k");
  run({
      {"object", object({{"a", num(1)}, {"b", field("x")}}),
       sql("JSON_OBJECT('a',1,'b',JSON_EXTRACT(doc,'$.x'))")},
      {"empty object", object({}), sql("JSON_OBJECT()")},
      {"nested", object({{"o", object({{"p", array({num(1), str("a")})}})}}),
       sql("JSON_OBJECT('o',JSON_OBJECT('p',JSON_ARRAY(1,'a')))")},
      {"key escaped", object({{"it's", num(1)}}), sql("JSON_OBJECT('it\\'s',1)")},
      {"array", array({num(1), str("a"), lit(s_null()), lit(s_bool(true))}),
       sql("JSON_ARRAY(1,'a',NULL,TRUE)")},
      {"empty array", array({}), sql("JSON_ARRAY()")},
      {"empty key", object({{"", num(1)}}), error(5154, "Invalid key for Mysqlx::Expr::Object")},
      {"missing value", no_value, error(5154, "Invalid value for Mysqlx::Expr::Object on key 'k'")},
  });
}

TEST(SqlgenExpr, FunctionCalls) {
  env schema;
  schema.schema = "s";
  env odd_schema;
  odd_schema.schema = "my db";
  env no_id_column;
  no_id_column.opts.id_column = false;
  run({
      {"builtin unquotes paths", fn("concat", {field("a"), str("x")}),
       sql("concat(JSON_UNQUOTE(JSON_EXTRACT(doc,'$.a')),'x')")},
      {"JSON function keeps JSON", fn("JSON_LENGTH", {field("a")}),
       sql("JSON_LENGTH(JSON_EXTRACT(doc,'$.a'))")},
      {"builtin not prefixed", fn("upper", {str("x")}), sql("upper('x')"), schema},
      {"stored function prefixed", fn("myfunc", {num(1)}), sql("s.myfunc(1)"), schema},
      {"prefix quoted if needed", fn("myfunc", {}), sql("`my db`.myfunc()"), odd_schema},
      {"explicit schema", fn("f", {}, "other"), sql("`other`.f()"), schema},
      {"name quoted if needed", fn("_f", {}), sql("`_f`()")},
      {"aggregate", fn("count", {op("*")}), sql("count(*)")},
      {"MariaDB JSON function: builtin, keeps JSON", fn("json_value", {field("a"), str("$.b")}),
       sql("json_value(JSON_EXTRACT(doc,'$.a'),'$.b')"), schema},
      {"MariaDB string function is builtin", fn("NATURAL_SORT_KEY", {field("a")}),
       sql("NATURAL_SORT_KEY(JSON_UNQUOTE(JSON_EXTRACT(doc,'$.a')))"), schema},
      {"$._id reads the key column", fn("upper", {field("_id")}), sql("upper(`_id`)")},
      {"$._id without key column", fn("upper", {field("_id")}),
       sql("upper(JSON_UNQUOTE(JSON_EXTRACT(doc,'$._id')))"), no_id_column},
      {"no name",
       [] {
         Expr e;
         e.set_type(Expr::FUNC_CALL);
         return e;
       }(),
       error(5000, "Invalid message: required field Mysqlx.Expr.Identifier.name is missing")},
  });
}

TEST(SqlgenExpr, QuoteHelpers) {
  EXPECT_EQ(xserver::sqlgen::quote_string("a'b\\"), "'a\\'b\\\\'");
  EXPECT_EQ(xserver::sqlgen::quote_identifier("we`ird"), "`we``ird`");
}

} // namespace
} // namespace sqlgen_test
