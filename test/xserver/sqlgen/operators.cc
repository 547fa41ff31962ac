// Mysqlx.Expr.Operator: the X Plugin's operator names, their SQL and their
// argument checks (error 5151 texts are the X Plugin's).
#include "cdk/parser/expr_ops.h"
#include "test/xserver/sqlgen/detail.h"

#include <algorithm>
#include <array>
#include <regex>

namespace xserver::sqlgen::detail {
namespace {

enum class kind {
  unary,
  binary,
  logical,     // AND, OR, XOR: operands are conditions (expr_writer::condition)
  logical_not, // NOT, !: likewise
  compare,     // binary, with `$._id` unquoted and JSON comparison rules
  unquoted,    // binary on unquoted operands (regexp)
  asterisk,    // `*` alone or multiplication
  nullary,
  between,
  like,
  in,
  cont_in,  // 8.0 only
  overlaps, // 8.0 only
  date,
  cast,
};

struct op_def {
  std::string_view name;
  kind k;
  std::string_view sql;
};

// Sorted by name (binary search).
constexpr std::array<op_def, 43> k_operators{{
    {"!", kind::logical_not, "!"},
    {"!=", kind::compare, " != "},
    {"%", kind::binary, " % "},
    {"&", kind::binary, " & "},
    {"&&", kind::logical, " AND "},
    {"*", kind::asterisk, " * "},
    {"+", kind::binary, " + "},
    {"-", kind::binary, " - "},
    {"/", kind::binary, " / "},
    {"<", kind::compare, " < "},
    {"<<", kind::binary, " << "},
    {"<=", kind::compare, " <= "},
    {"==", kind::compare, " = "},
    {">", kind::compare, " > "},
    {">=", kind::compare, " >= "},
    {">>", kind::binary, " >> "},
    {"^", kind::binary, " ^ "},
    {"between", kind::between, " BETWEEN "},
    {"cast", kind::cast, ""},
    {"cont_in", kind::cont_in, ""},
    {"date_add", kind::date, "DATE_ADD"},
    {"date_sub", kind::date, "DATE_SUB"},
    {"default", kind::nullary, "DEFAULT"},
    {"div", kind::binary, " DIV "},
    {"in", kind::in, ""},
    {"is", kind::binary, " IS "},
    {"is_not", kind::binary, " IS NOT "},
    {"like", kind::like, " LIKE "},
    {"not", kind::logical_not, "NOT "},
    {"not_between", kind::between, " NOT BETWEEN "},
    {"not_cont_in", kind::cont_in, "NOT "},
    {"not_in", kind::in, "NOT "},
    {"not_like", kind::like, " NOT LIKE "},
    {"not_overlaps", kind::overlaps, "NOT "},
    {"not_regexp", kind::unquoted, " NOT REGEXP "},
    {"overlaps", kind::overlaps, ""},
    {"regexp", kind::unquoted, " REGEXP "},
    {"sign_minus", kind::unary, "-"},
    {"sign_plus", kind::unary, "+"},
    {"xor", kind::logical, " XOR "},
    {"|", kind::binary, " | "},
    {"||", kind::logical, " OR "},
    {"~", kind::unary, "~"},
}};

const op_def* find_operator(std::string_view name) {
  auto it = std::lower_bound(k_operators.begin(), k_operators.end(), name,
                             [](const op_def& d, std::string_view n) { return d.name < n; });
  return it != k_operators.end() && it->name == name ? &*it : nullptr;
}

void need_args(bool ok, const char* message) {
  if (!ok) fail(xerr::expr_bad_num_args, message);
}

// The keyword argument of cast / date_add: plain octets from a fixed set.
const std::string& keyword_arg(const Expr& e, bool (*valid)(const std::string&),
                               const char* message) {
  if (!is_plain_octets(e) || !valid(e.literal().v_octets().value()))
    fail(xerr::expr_bad_value, message);
  return e.literal().v_octets().value();
}

// The X Plugin's list, kept once in cdk/parser (upper case only, as the
// X Plugin compares).
bool valid_interval_unit(const std::string& unit) {
  return cdk::expr_ops::is_interval_unit(unit);
}

bool valid_cast_type(const std::string& type) {
  static const std::regex re("BINARY(\\([0-9]+\\))?|DATE|DATETIME|TIME|JSON|CHAR(\\([0-9]+\\))?|"
                             "DECIMAL(\\([0-9]+(,[0-9]+)?\\))?|SIGNED( INTEGER)?|"
                             "UNSIGNED( INTEGER)?");
  return std::regex_match(type, re);
}

void write_in(expr_writer& w, const Operator& o, std::string_view negate) {
  need_args(o.param_size() >= 2, "IN expression requires at least two parameters.");
  if (o.param_size() == 2 && o.param(1).type() == Expr::ARRAY) {
    // x IN [a, b]: membership in a JSON array.
    w.put(negate);
    w.put("JSON_CONTAINS(");
    w.expr(o.param(1));
    w.put(",");
    if (const Scalar* s = w.literal_of(o.param(0)))
      w.json_literal(*s);
    else if (w.is_param(o.param(0)))
      w.put_param(param_kind::json, o.param(0));
    else
      w.expr(o.param(0));
    w.put(")");
    return;
  }
  w.put("(");
  w.unquoted(o.param(0));
  w.put(" ");
  w.put(negate);
  w.put("IN (");
  for (int i = 1; i < o.param_size(); ++i) {
    if (i > 1) w.put(",");
    w.unquoted(o.param(i));
  }
  w.put("))");
}

} // namespace

void check_cast_to_json(const Scalar& s) {
  if (s.type() == Scalar::V_STRING) check_json(s.v_string().value());
  if (s.type() == Scalar::V_OCTETS && s.v_octets().content_type() == 0)
    check_json(s.v_octets().value());
}

namespace {

void write_cast(expr_writer& w, const Operator& o) {
  need_args(o.param_size() == 2, "CAST expression requires exactly two parameters.");
  const std::string& type = keyword_arg(o.param(1), valid_cast_type, "CAST type invalid.");
  if (type == "JSON") {
    // MariaDB has no JSON type to cast to; JSON_COMPACT parses the text and
    // returns a value JSON functions embed as JSON.
    w.put("JSON_COMPACT(");
    if (w.is_param(o.param(0))) {
      w.put_param(param_kind::json_cast, o.param(0)); // checked at Execute
      w.put(")");
      return;
    }
    if (const Scalar* s = w.literal_of(o.param(0))) check_cast_to_json(*s);
    w.unquoted(o.param(0));
    w.put(")");
    return;
  }
  w.put("CAST(");
  w.unquoted(o.param(0));
  w.put(" AS ");
  w.put(type);
  w.put(")");
}

// An integer literal that a double cannot hold exactly (beyond 2^53).
bool is_inexact_integer(const Scalar& s) {
  constexpr std::uint64_t exact = std::uint64_t{1} << 53;
  if (s.type() == Scalar::V_UINT) return s.v_unsigned_int() > exact;
  if (s.type() != Scalar::V_SINT) return false;
  const std::int64_t v = s.v_signed_int();
  return v > static_cast<std::int64_t>(exact) || v < -static_cast<std::int64_t>(exact);
}

// `N cont_in target` for an integer literal N beyond 2^53 and a column or
// document path: MariaDB's JSON_CONTAINS compares JSON numbers as doubles,
// so 9223372036854775801 would match ...800; MySQL compares integers
// exactly. JSON_CONTAINS still decides which values may match, and
// JSON_EQUALS (exact on numbers) confirms: the target itself, or one element
// of a target array (MySQL: a scalar is contained in an array when it is
// contained in one of its elements). Not covered: N inside an array nested
// in the target array, which JSON_CONTAINS alone matches. The target is
// written three times, so only identifiers (which hold no `?`) qualify.
bool write_exact_integer_cont_in(expr_writer& w, const Operator& o) {
  const Scalar* n = w.literal_of(o.param(0));
  if (!n || !is_inexact_integer(*n) || o.param(1).type() != Mysqlx::Expr::Expr::IDENT) return false;
  std::string candidate;
  expr_writer(w.ctx(), candidate).json_literal(*n);
  const std::string target = w.text(o.param(1));
  w.put("(JSON_CONTAINS(" + target + "," + candidate + ") AND (JSON_EQUALS(" + target + "," +
        candidate + ") OR EXISTS(SELECT 1 FROM JSON_TABLE(" + target +
        ",'$[*]' COLUMNS(v JSON PATH '$')) AS jt WHERE JSON_EQUALS(jt.v," + candidate + "))))");
  return true;
}

void write_binary(expr_writer& w, const Operator& o, std::string_view sql, bool unquote_a,
                  bool unquote_b) {
  w.put("(");
  unquote_a ? w.unquoted(o.param(0)) : w.expr(o.param(0));
  w.put(sql);
  unquote_b ? w.unquoted(o.param(1)) : w.expr(o.param(1));
  w.put(")");
}

} // namespace

void expr_writer::json_only(const Expr& e, std::string_view op_name) {
  switch (e.type()) {
  case Expr::LITERAL:
    return json_literal(e.literal());
  case Expr::PLACEHOLDER:
    if (const Scalar* s = literal_of(e)) return json_literal(*s);
    if (is_param(e)) return put_param(param_kind::json, e);
    fail(xerr::expr_bad_value, "Invalid value of placeholder");
  case Expr::FUNC_CALL:
    if (!is_json_result_function(e.function_call().name().name()))
      fail(xerr::expr_bad_value,
           std::string(op_name) + " expression requires function that produce a JSON value.");
    return expr(e);
  case Expr::OPERATOR:
    if (!is_cast_to_json(e.operator_()))
      fail(xerr::expr_bad_value,
           std::string(op_name) + " expression requires operator that produce a JSON value.");
    return expr(e);
  default:
    return expr(e);
  }
}

void expr_writer::op(const Operator& o) {
  if (!o.has_name()) missing_field("Mysqlx.Expr.Operator.name");
  const op_def* d = find_operator(o.name());
  const bool v80 = m_ctx.opts.emulate == flavor::mysql80;
  if (!d || (!v80 && (d->k == kind::cont_in || d->k == kind::overlaps)))
    fail(xerr::expr_bad_operator, "Invalid operator " + o.name());
  const int n = o.param_size();
  switch (d->k) {
  case kind::unary:
  case kind::logical_not:
    need_args(n == 1, "Unary operations require exactly one operand in expression.");
    put("(");
    put(d->sql);
    d->k == kind::logical_not ? condition(o.param(0)) : expr(o.param(0));
    put(")");
    break;
  case kind::binary:
    need_args(n == 2, "Binary operations require exactly two operands in expression.");
    write_binary(*this, o, d->sql, false, false);
    break;
  case kind::logical:
    need_args(n == 2, "Binary operations require exactly two operands in expression.");
    put("(");
    condition(o.param(0));
    put(d->sql);
    condition(o.param(1));
    put(")");
    break;
  case kind::compare:
    need_args(n == 2, "Binary operations require exactly two operands in expression.");
    // The X Plugin unquotes `$._id` so that the `_id` key is used.
    if (is_id_path(o.param(0)) || is_id_path(o.param(1)))
      write_binary(*this, o, d->sql, is_id_path(o.param(0)), is_id_path(o.param(1)));
    else if (!write_json_compare(*this, o, d->sql))
      write_binary(*this, o, d->sql, false, false);
    break;
  case kind::unquoted:
    need_args(n == 2, "Binary operations require exactly two operands in expression.");
    write_binary(*this, o, d->sql, true, true);
    break;
  case kind::asterisk:
    need_args(n == 0 || n == 2, "Asterisk operator require zero or two operands in expression");
    if (n == 0)
      put("*");
    else
      write_binary(*this, o, d->sql, true, true);
    break;
  case kind::nullary:
    need_args(n == 0, "Nullary operator require no operands in expression");
    put(d->sql);
    break;
  case kind::between:
    need_args(n == 3, "BETWEEN expression requires exactly three parameters.");
    put("(");
    unquoted(o.param(0));
    put(d->sql);
    unquoted(o.param(1));
    put(" AND ");
    unquoted(o.param(2));
    put(")");
    break;
  case kind::like:
    need_args(n == 2 || n == 3, "LIKE expression requires exactly two or three parameters.");
    put("(");
    unquoted(o.param(0));
    put(d->sql);
    unquoted(o.param(1));
    if (n == 3) {
      put(" ESCAPE ");
      unquoted(o.param(2));
    }
    put(")");
    break;
  case kind::in:
    write_in(*this, o, d->sql);
    break;
  case kind::cont_in:
    need_args(n == 2, "CONT_IN expression requires two parameters.");
    put(d->sql);
    if (write_exact_integer_cont_in(*this, o)) break;
    put("JSON_CONTAINS(");
    json_only(o.param(1), "CONT_IN");
    put(",");
    json_only(o.param(0), "CONT_IN");
    put(")");
    break;
  case kind::overlaps:
    need_args(n == 2, "OVERLAPS expression requires two parameters.");
    put(d->sql);
    put("JSON_OVERLAPS(");
    json_only(o.param(0), "OVERLAPS");
    put(",");
    json_only(o.param(1), "OVERLAPS");
    put(")");
    break;
  case kind::date:
    need_args(n == 3, "DATE expression requires exactly three parameters.");
    put(d->sql);
    put("(");
    unquoted(o.param(0));
    put(", INTERVAL ");
    unquoted(o.param(1));
    put(" ");
    put(keyword_arg(o.param(2), valid_interval_unit, "DATE interval unit invalid."));
    put(")");
    break;
  case kind::cast:
    write_cast(*this, o);
    break;
  }
}

} // namespace xserver::sqlgen::detail
