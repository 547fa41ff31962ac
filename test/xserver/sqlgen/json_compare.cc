// MySQL's JSON comparison rules, written in MariaDB SQL.
//
// In MySQL, JSON_EXTRACT() returns a JSON value, and comparing or sorting JSON
// values follows the JSON comparator: numbers compare as numbers (9 < 20),
// strings as utf8mb4_bin strings, and values of different JSON types by type
// precedence: null < number < string < object < array < boolean. In MariaDB,
// JSON_EXTRACT() returns text: ORDER BY sorts 20 before 9 and "30" before 20,
// two paths compare as strings, and a JSON string compared to a number is
// converted to 0 with a warning. So, where an operand is a document path:
//
// - path <op> literal (or bound placeholder) of number, string or boolean type:
//     IF(<path has the literal's JSON type>, <native comparison>,
//        <type rank of path> <op> <type rank of the literal>)
//   The native comparison is MariaDB's own: path vs number compares numbers,
//   JSON_UNQUOTE(path) vs string compares strings (utf8mb4_bin, like MySQL),
//   (JSON_UNQUOTE(path)='true') vs TRUE/FALSE compares booleans. A missing
//   path gives NULL, as in MySQL.
// - path == / != path, object, array or JSON literal: JSON_EQUALS (MariaDB
//   10.7+), which compares JSON values (1 = 1.0, objects in any key order).
// - path <op> path: row comparison of sort keys (rank, number, string).
// - ORDER BY path: the same three keys, so numbers sort numerically, then
//   strings, etc.; a missing path (SQL NULL) sorts first, as in MySQL.
// - path <, <=, >, >= JSON literal (octets of content type JSON): the sort
//   keys of both, as for two paths.
// - Anything else (NULL literals, arbitrary expressions) keeps the X
//   Plugin's plain SQL.
// - path <op> `?` of a prepared statement: the SQL can't depend on the type
//   of a value that comes at Execute, so == and != are JSON_EQUALS with the
//   value's JSON text (the same results as the typed IF for numbers,
//   strings and booleans: utf8mb4_bin strings, 1 = 1.0), and <, <=, >, >=
//   compare the sort keys, the value's computed at Execute. A NULL value
//   gives NULL, as `path <op> NULL` does.
// Numbers in sort keys are DOUBLE: integers beyond 2^53 may tie.
#include "test/xserver/sqlgen/detail.h"

namespace xserver::sqlgen::detail {
namespace {

enum class json_kind { number, string, boolean, other };

json_kind kind_of(const Scalar& s) {
  switch (s.type()) {
  case Scalar::V_SINT:
  case Scalar::V_UINT:
  case Scalar::V_DOUBLE:
  case Scalar::V_FLOAT:
    return json_kind::number;
  case Scalar::V_STRING:
    return json_kind::string;
  case Scalar::V_OCTETS:
    return s.v_octets().content_type() == 0 || s.v_octets().content_type() == 3 ? json_kind::string
                                                                                : json_kind::other;
  case Scalar::V_BOOL:
    return json_kind::boolean;
  default:
    return json_kind::other;
  }
}

std::string json_type(const std::string& p) {
  return "JSON_TYPE(" + p + ")";
}

} // namespace

std::string rank_key(const std::string& p) {
  return "CASE " + json_type(p) +
         " WHEN 'NULL' THEN 1 WHEN 'INTEGER' THEN 2 WHEN 'DOUBLE' THEN 2 WHEN 'STRING' THEN 3"
         " WHEN 'OBJECT' THEN 4 WHEN 'ARRAY' THEN 5 WHEN 'BOOLEAN' THEN 6 END";
}

std::string number_key(const std::string& p) {
  const std::string as_double = "CAST(JSON_UNQUOTE(" + p + ") AS DOUBLE)";
  return "CASE " + json_type(p) + " WHEN 'INTEGER' THEN " + as_double + " WHEN 'DOUBLE' THEN " +
         as_double + " WHEN 'BOOLEAN' THEN JSON_UNQUOTE(" + p + ")='true' ELSE 0 END";
}

std::string string_key(const std::string& p) {
  return "IF(" + json_type(p) + " IN ('STRING','OBJECT','ARRAY'),JSON_UNQUOTE(" + p + "),'')";
}

namespace {

// One side of a typed comparison.
struct side {
  std::string type_test; // empty for the literal
  std::string value;     // what the native comparison uses
  std::string rank;      // type rank, SQL or a constant
};

side path_side(const std::string& p, json_kind k) {
  switch (k) {
  case json_kind::number:
    return {json_type(p) + " IN ('INTEGER','DOUBLE')", p, rank_key(p)};
  case json_kind::string:
    return {json_type(p) + "='STRING'", "JSON_UNQUOTE(" + p + ")", rank_key(p)};
  default:
    return {json_type(p) + "='BOOLEAN'", "(JSON_UNQUOTE(" + p + ")='true')", rank_key(p)};
  }
}

side literal_side(const std::string& text, json_kind k) {
  const char* rank = k == json_kind::number ? "2" : k == json_kind::string ? "3" : "6";
  return {"", text, rank};
}

// One operand of a comparison of a document path with a prepared `?` or a
// JSON value.
void write_keyed_operand(expr_writer& w, const Expr& e, bool equality) {
  if (equality) {
    if (w.is_param(e))
      w.put_param(param_kind::json_compare, e);
    else
      w.expr(e);
    return;
  }
  if (w.is_param(e)) {
    w.put_param(param_kind::rank_key, e);
    w.put(",");
    w.put_param(param_kind::number_key, e);
    w.put(",");
    w.put_param(param_kind::string_key, e);
    return;
  }
  const std::string p = w.text(e);
  w.put(rank_key(p) + "," + number_key(p) + "," + string_key(p));
}

void write_keyed_compare(expr_writer& w, const Operator& o, std::string_view sql_op) {
  const bool equality = sql_op == " = " || sql_op == " != ";
  w.put(equality ? "(JSON_EQUALS(" : "((");
  write_keyed_operand(w, o.param(0), equality);
  w.put(equality ? "," : ")" + std::string(sql_op) + "(");
  write_keyed_operand(w, o.param(1), equality);
  w.put(equality ? (sql_op == " = " ? ") = 1)" : ") = 0)") : "))");
}

} // namespace

bool write_json_compare(expr_writer& w, const Operator& o, std::string_view sql_op) {
  const Expr& a = o.param(0);
  const Expr& b = o.param(1);
  const bool path_a = is_doc_path(a);
  const bool path_b = is_doc_path(b);
  if ((path_a && w.is_param(b)) || (path_b && w.is_param(a))) {
    write_keyed_compare(w, o, sql_op);
    return true;
  }
  auto json_valued = [&w](const Expr& e) {
    if (is_doc_path(e) || e.type() == Expr::OBJECT || e.type() == Expr::ARRAY) return true;
    const Scalar* s = w.literal_of(e);
    return s && is_json_octets(*s);
  };
  const bool equality = sql_op == " = " || sql_op == " != ";
  if (equality && (path_a || path_b) && json_valued(a) && json_valued(b)) {
    // Compared to 1/0, not used bare: MariaDB 10.11 takes a bare NULL
    // JSON_EQUALS (a missing path) as true in WHERE.
    w.put("(JSON_EQUALS(");
    w.expr(a);
    w.put(",");
    w.expr(b);
    w.put(sql_op == " = " ? ") = 1)" : ") = 0)");
    return true;
  }
  if (path_a && path_b) {
    const std::string pa = w.text(a);
    const std::string pb = w.text(b);
    w.put("((" + rank_key(pa) + "," + number_key(pa) + "," + string_key(pa) + ")");
    w.put(sql_op);
    w.put("(" + rank_key(pb) + "," + number_key(pb) + "," + string_key(pb) + "))");
    return true;
  }
  if (path_a == path_b) return false;
  const Scalar* lit = w.literal_of(path_a ? b : a);
  const json_kind k = lit ? kind_of(*lit) : json_kind::other;
  if (k == json_kind::other && !equality && lit && is_json_octets(*lit)) {
    // A JSON value (an object, say): MySQL's JSON order, not MariaDB's text
    // order. The same SQL as for a prepared `?` holding it.
    write_keyed_compare(w, o, sql_op);
    return true;
  }
  if (k == json_kind::other) return false;
  const std::string p = w.text(path_a ? a : b);
  const std::string l = w.text(path_a ? b : a);
  const side ps = path_side(p, k);
  const side ls = literal_side(l, k);
  const side& left = path_a ? ps : ls;
  const side& right = path_a ? ls : ps;
  w.put("IF(" + ps.type_test + ",");
  w.put(left.value);
  w.put(sql_op);
  w.put(right.value + ",");
  w.put(left.rank);
  w.put(sql_op);
  w.put(right.rank + ")");
  return true;
}

void write_order_key(expr_writer& w, const Expr& e, bool desc) {
  const char* dir = desc ? " DESC" : "";
  if (!is_doc_path(e)) {
    w.expr(e);
    w.put(dir);
    return;
  }
  const std::string p = w.text(e);
  w.put(rank_key(p) + dir + "," + number_key(p) + dir + "," + string_key(p) + dir);
}

} // namespace xserver::sqlgen::detail
