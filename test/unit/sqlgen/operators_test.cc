// Every Mysqlx.Expr operator, with its argument-count errors.
#include "test/unit/sqlgen/expect.h"

namespace sqlgen_test {
namespace {

TEST(SqlgenOperators, UnaryAndBinary) {
  const Expr a = column("a");
  const Expr b = column("b");
  struct c {
    const char* name;
    const char* sql;
  };
  const std::vector<c> unary{{"!", "(!`a`)"},
                             {"not", "(NOT `a`)"},
                             {"sign_minus", "(-`a`)"},
                             {"sign_plus", "(+`a`)"},
                             {"~", "(~`a`)"}};
  for (const auto& u : unary) {
    SCOPED_TRACE(u.name);
    check(render(op(u.name, {a}), table_env()), sql(u.sql));
    check(render(op(u.name, {a, b}), table_env()),
          error(5151, "Unary operations require exactly one operand in expression."));
  }
  const std::vector<c> binary{
      {"!=", "(`a` != `b`)"},         {"%", "(`a` % `b`)"},
      {"&", "(`a` & `b`)"},           {"&&", "(`a` AND `b`)"},
      {"+", "(`a` + `b`)"},           {"-", "(`a` - `b`)"},
      {"/", "(`a` / `b`)"},           {"<", "(`a` < `b`)"},
      {"<<", "(`a` << `b`)"},         {"<=", "(`a` <= `b`)"},
      {"==", "(`a` = `b`)"},          {">", "(`a` > `b`)"},
      {">=", "(`a` >= `b`)"},         {">>", "(`a` >> `b`)"},
      {"^", "(`a` ^ `b`)"},           {"div", "(`a` DIV `b`)"},
      {"is", "(`a` IS `b`)"},         {"is_not", "(`a` IS NOT `b`)"},
      {"xor", "(`a` XOR `b`)"},       {"|", "(`a` | `b`)"},
      {"||", "(`a` OR `b`)"},         {"*", "(`a` * `b`)"},
      {"regexp", "(`a` REGEXP `b`)"}, {"not_regexp", "(`a` NOT REGEXP `b`)"}};
  for (const auto& bin : binary) {
    SCOPED_TRACE(bin.name);
    check(render(op(bin.name, {a, b}), table_env()), sql(bin.sql));
    if (std::string(bin.name) != "*")
      check(render(op(bin.name, {a}), table_env()),
            error(5151, "Binary operations require exactly two operands in expression."));
  }
}

struct op_case {
  const char* name;
  Expr expr;
  outcome want;
  env en = table_env();
};

void run(const std::vector<op_case>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    check(render(c.expr, c.en), c.want);
  }
}

TEST(SqlgenOperators, Special) {
  const Expr a = column("a");
  const Expr b = column("b");
  run({
      {"* alone", op("*"), sql("*")},
      {"* with one operand", op("*", {a}),
       error(5151, "Asterisk operator require zero or two operands in expression")},
      {"* unquotes paths", op("*", {field("p"), num(2)}),
       sql("(JSON_UNQUOTE(JSON_EXTRACT(doc,'$.p')) * 2)"), env()},
      {"default", op("default"), sql("DEFAULT")},
      {"a JSON value as an AND operand is compared with 0 as JSON",
       op("&&", {field("p"), object({{"k", num(1)}})}),
       sql("((JSON_EQUALS(JSON_EXTRACT(doc,'$.p'),'0') = 0) AND "
           "(JSON_EQUALS(JSON_OBJECT('k',1),'0') = 0))"),
       env()},
      {"XOR of JSON values", op("xor", {field("p"), field("q")}),
       sql("((JSON_EQUALS(JSON_EXTRACT(doc,'$.p'),'0') = 0) XOR "
           "(JSON_EQUALS(JSON_EXTRACT(doc,'$.q'),'0') = 0))"),
       env()},
      {"NOT of a JSON value", op("not", {field("p")}),
       sql("(NOT (JSON_EQUALS(JSON_EXTRACT(doc,'$.p'),'0') = 0))"), env()},
      {"other operands stay as they are", op("||", {a, op("!", {b})}), sql("(`a` OR (!`b`))")},
      {"default with operand", op("default", {a}),
       error(5151, "Nullary operator require no operands in expression")},
      {"between", op("between", {a, num(1), num(2)}), sql("(`a` BETWEEN 1 AND 2)")},
      {"not_between", op("not_between", {a, num(1), num(2)}), sql("(`a` NOT BETWEEN 1 AND 2)")},
      {"between on a path", op("between", {field("p"), num(1), num(2)}),
       sql("(JSON_UNQUOTE(JSON_EXTRACT(doc,'$.p')) BETWEEN 1 AND 2)"), env()},
      {"between, 2 operands", op("between", {a, num(1)}),
       error(5151, "BETWEEN expression requires exactly three parameters.")},
      {"like", op("like", {a, str("x%")}), sql("(`a` LIKE 'x%')")},
      {"like escape", op("like", {a, str("x!%"), str("!")}), sql("(`a` LIKE 'x!%' ESCAPE '!')")},
      {"not_like", op("not_like", {a, str("x%")}), sql("(`a` NOT LIKE 'x%')")},
      {"like on a path", op("like", {field("p"), str("x%")}),
       sql("(JSON_UNQUOTE(JSON_EXTRACT(doc,'$.p')) LIKE 'x%')"), env()},
      {"like, 1 operand", op("like", {a}),
       error(5151, "LIKE expression requires exactly two or three parameters.")},
      {"regexp on a path", op("regexp", {field("p"), str("^x")}),
       sql("(JSON_UNQUOTE(JSON_EXTRACT(doc,'$.p')) REGEXP '^x')"), env()},
  });
}

TEST(SqlgenOperators, In) {
  const Expr a = column("a");
  const Expr b = column("b");
  run({
      {"in list", op("in", {a, num(1), num(2)}), sql("(`a` IN (1,2))")},
      {"not_in list", op("not_in", {a, num(1), num(2)}), sql("(`a` NOT IN (1,2))")},
      {"in one value", op("in", {a, num(1)}), sql("(`a` IN (1))")},
      {"in list on a path", op("in", {field("p"), num(1), str("x")}),
       sql("(JSON_UNQUOTE(JSON_EXTRACT(doc,'$.p')) IN (1,'x'))"), env()},
      {"$._id in list", op("in", {field("_id"), str("a"), str("b")}), sql("(`_id` IN ('a','b'))"),
       env()},
      {"in array, column", op("in", {a, array({num(1), num(2)})}),
       sql("JSON_CONTAINS(JSON_ARRAY(1,2),`a`)")},
      {"in array, path", op("in", {field("p"), array({num(1)})}),
       sql("JSON_CONTAINS(JSON_ARRAY(1),JSON_EXTRACT(doc,'$.p'))"), env()},
      {"in array, string", op("in", {str("x"), array({str("x"), str("y")})}),
       sql("JSON_CONTAINS(JSON_ARRAY('x','y'),JSON_QUOTE('x'))")},
      {"in array, number", op("in", {num(1), array({num(1)})}),
       sql("JSON_CONTAINS(JSON_ARRAY(1),'1')")},
      {"in array, bound placeholder", op("in", {placeholder(0), array({str("x")})}),
       sql("JSON_CONTAINS(JSON_ARRAY('x'),JSON_QUOTE('x'))"), with_args({s_str("x")})},
      {"not_in array", op("not_in", {a, array({num(1)})}),
       sql("NOT JSON_CONTAINS(JSON_ARRAY(1),`a`)")},
      {"in, 1 operand", op("in", {a}),
       error(5151, "IN expression requires at least two parameters.")},
  });
}

TEST(SqlgenOperators, ContInAndOverlaps) {
  const Expr tags = field("tags");
  const env doc;
  run({
      {"cont_in string", op("cont_in", {str("a"), tags}),
       sql("JSON_CONTAINS(JSON_EXTRACT(doc,'$.tags'),JSON_QUOTE('a'))"), doc},
      {"not_cont_in", op("not_cont_in", {str("a"), tags}),
       sql("NOT JSON_CONTAINS(JSON_EXTRACT(doc,'$.tags'),JSON_QUOTE('a'))"), doc},
      {"cont_in number", op("cont_in", {num(1), tags}),
       sql("JSON_CONTAINS(JSON_EXTRACT(doc,'$.tags'),'1')"), doc},
      {"cont_in double", op("cont_in", {lit(s_double(2.5)), tags}),
       sql("JSON_CONTAINS(JSON_EXTRACT(doc,'$.tags'),'2.5')"), doc},
      {"cont_in null", op("cont_in", {lit(s_null()), tags}),
       sql("JSON_CONTAINS(JSON_EXTRACT(doc,'$.tags'),'null')"), doc},
      {"cont_in bool", op("cont_in", {lit(s_bool(false)), tags}),
       sql("JSON_CONTAINS(JSON_EXTRACT(doc,'$.tags'),'false')"), doc},
      {"cont_in plain octets", op("cont_in", {lit(s_octets("a")), tags}),
       sql("JSON_CONTAINS(JSON_EXTRACT(doc,'$.tags'),JSON_QUOTE('a'))"), doc},
      {"cont_in JSON octets", op("cont_in", {lit(s_octets("[1,2]", 2)), tags}),
       sql("JSON_CONTAINS(JSON_EXTRACT(doc,'$.tags'),'[1,2]')"), doc},
      {"cont_in object", op("cont_in", {object({{"k", num(1)}}), tags}),
       sql("JSON_CONTAINS(JSON_EXTRACT(doc,'$.tags'),JSON_OBJECT('k',1))"), doc},
      {"cont_in placeholder", op("cont_in", {placeholder(0), tags}),
       sql("JSON_CONTAINS(JSON_EXTRACT(doc,'$.tags'),JSON_QUOTE('q'))"), with_args({s_str("q")})},
      {"cont_in unbound placeholder", op("cont_in", {placeholder(1), tags}),
       error(5154, "Invalid value of placeholder"), with_args({s_str("q")})},
      {"cont_in JSON function", op("cont_in", {fn("JSON_ARRAY", {num(1)}), tags}),
       sql("JSON_CONTAINS(JSON_EXTRACT(doc,'$.tags'),JSON_ARRAY(1))"), doc},
      {"cont_in MariaDB JSON function",
       op("cont_in", {fn("json_query", {str("[1]"), str("$")}), tags}),
       sql("JSON_CONTAINS(JSON_EXTRACT(doc,'$.tags'),json_query('[1]','$'))"), doc},
      {"cont_in other function", op("cont_in", {fn("upper", {str("a")}), tags}),
       error(5154, "CONT_IN expression requires function that produce a JSON value."), doc},
      {"cont_in cast to JSON", op("cont_in", {op("cast", {str("[1]"), plain("JSON")}), tags}),
       sql("JSON_CONTAINS(JSON_EXTRACT(doc,'$.tags'),JSON_COMPACT('[1]'))"), doc},
      {"cont_in other operator", op("cont_in", {op("+", {num(1), num(2)}), tags}),
       error(5154, "CONT_IN expression requires operator that produce a JSON value."), doc},
      {"cont_in integer beyond 2^53: exact, as MySQL compares integers",
       op("cont_in", {lit(s_uint(9223372036854775801u)), tags}),
       sql("(JSON_CONTAINS(JSON_EXTRACT(doc,'$.tags'),'9223372036854775801') AND "
           "(JSON_EQUALS(JSON_EXTRACT(doc,'$.tags'),'9223372036854775801') OR EXISTS(SELECT 1 "
           "FROM JSON_TABLE(JSON_EXTRACT(doc,'$.tags'),'$[*]' COLUMNS(v JSON PATH '$')) AS jt "
           "WHERE JSON_EQUALS(jt.v,'9223372036854775801'))))"),
       doc},
      {"not_cont_in negative integer beyond 2^53",
       op("not_cont_in", {num(-9007199254740993), column("c")}),
       sql("NOT (JSON_CONTAINS(`c`,'-9007199254740993') AND (JSON_EQUALS(`c`,'-9007199254740993') "
           "OR EXISTS(SELECT 1 FROM JSON_TABLE(`c`,'$[*]' COLUMNS(v JSON PATH '$')) AS jt WHERE "
           "JSON_EQUALS(jt.v,'-9007199254740993'))))")},
      {"cont_in 2^53 itself: a double holds it", op("cont_in", {num(9007199254740992), tags}),
       sql("JSON_CONTAINS(JSON_EXTRACT(doc,'$.tags'),'9007199254740992')"), doc},
      {"cont_in big integer, target not an identifier",
       op("cont_in", {num(9007199254740993), fn("JSON_ARRAY", {num(1)})}),
       sql("JSON_CONTAINS(JSON_ARRAY(1),'9007199254740993')")},
      {"cont_in, 3 operands", op("cont_in", {num(1), tags, tags}),
       error(5151, "CONT_IN expression requires two parameters."), doc},
      {"overlaps", op("overlaps", {tags, array({str("a"), str("b")})}),
       sql("JSON_OVERLAPS(JSON_EXTRACT(doc,'$.tags'),JSON_ARRAY('a','b'))"), doc},
      {"not_overlaps", op("not_overlaps", {tags, str("a")}),
       sql("NOT JSON_OVERLAPS(JSON_EXTRACT(doc,'$.tags'),JSON_QUOTE('a'))"), doc},
      {"overlaps other function", op("overlaps", {tags, fn("lower", {str("a")})}),
       error(5154, "OVERLAPS expression requires function that produce a JSON value."), doc},
      {"overlaps, 1 operand", op("overlaps", {tags}),
       error(5151, "OVERLAPS expression requires two parameters."), doc},
      {"5.7 has no cont_in", op("cont_in", {num(1), tags}), error(5150, "Invalid operator cont_in"),
       v57_env()},
      {"5.7 has no overlaps", op("not_overlaps", {num(1), tags}),
       error(5150, "Invalid operator not_overlaps"), v57_env()},
  });
}

TEST(SqlgenOperators, DateAndCast) {
  const Expr a = column("a");
  const Expr b = column("b");
  run({
      {"date_add", op("date_add", {a, num(1), plain("DAY")}), sql("DATE_ADD(`a`, INTERVAL 1 DAY)")},
      {"date_sub", op("date_sub", {a, num(2), plain("YEAR_MONTH")}),
       sql("DATE_SUB(`a`, INTERVAL 2 YEAR_MONTH)")},
      {"date_add on a path", op("date_add", {field("d"), num(1), plain("MICROSECOND")}),
       sql("DATE_ADD(JSON_UNQUOTE(JSON_EXTRACT(doc,'$.d')), INTERVAL 1 MICROSECOND)"), env()},
      {"bad unit", op("date_add", {a, num(1), plain("FORTNIGHT")}),
       error(5154, "DATE interval unit invalid.")},
      {"lower-case unit", op("date_add", {a, num(1), plain("day")}),
       error(5154, "DATE interval unit invalid.")},
      {"unit as a string", op("date_add", {a, num(1), str("DAY")}),
       error(5154, "DATE interval unit invalid.")},
      {"date_add, 2 operands", op("date_add", {a, num(1)}),
       error(5151, "DATE expression requires exactly three parameters.")},
      {"cast signed", op("cast", {a, plain("SIGNED")}), sql("CAST(`a` AS SIGNED)")},
      {"cast unsigned integer", op("cast", {field("n"), plain("UNSIGNED INTEGER")}),
       sql("CAST(JSON_UNQUOTE(JSON_EXTRACT(doc,'$.n')) AS UNSIGNED INTEGER)"), env()},
      {"cast decimal(m,d)", op("cast", {a, plain("DECIMAL(10,2)")}),
       sql("CAST(`a` AS DECIMAL(10,2))")},
      {"cast char(n)", op("cast", {a, plain("CHAR(5)")}), sql("CAST(`a` AS CHAR(5))")},
      {"cast binary", op("cast", {a, plain("BINARY")}), sql("CAST(`a` AS BINARY)")},
      {"cast date types", op("cast", {a, plain("DATETIME")}), sql("CAST(`a` AS DATETIME)")},
      {"cast JSON", op("cast", {a, plain("JSON")}), sql("JSON_COMPACT(`a`)")},
      {"cast invalid JSON text", op("cast", {str("[1,"), plain("JSON")}),
       error(3141,
             "Invalid JSON text in argument 1 to function cast_as_json: \"Invalid value.\" at "
             "position 3.",
             "22032")},
      {"cast bad type", op("cast", {a, plain("INT")}), error(5154, "CAST type invalid.")},
      {"cast lower case", op("cast", {a, plain("signed")}), error(5154, "CAST type invalid.")},
      {"cast injection", op("cast", {a, plain("SIGNED) OR (1")}),
       error(5154, "CAST type invalid.")},
      {"cast, 1 operand", op("cast", {a}),
       error(5151, "CAST expression requires exactly two parameters.")},
  });
}

TEST(SqlgenOperators, Unknown) {
  const Expr a = column("a");
  const Expr b = column("b");
  run({
      {"unknown", op("foo", {a}), error(5150, "Invalid operator foo")},
      {"case matters", op("AND", {a, b}), error(5150, "Invalid operator AND")},
      {"no name",
       [] {
         Expr e;
         e.set_type(Expr::OPERATOR);
         return e;
       }(),
       error(5000, "Invalid message: required field Mysqlx.Expr.Operator.name is missing")},
  });
}

} // namespace
} // namespace sqlgen_test
