// Internals of sqlgen, shared by its .cc files only.
//
// Rendering recurses through arbitrarily nested expressions and stops at the
// first invalid part, so internally an error is thrown (sql_error) and turned
// into a cdk::error once, at the API boundary (guarded()).
#pragma once

#include "test/xserver/sqlgen/sqlgen.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace xserver::sqlgen::detail {

// X Plugin error numbers (plugin/x/src/xpl_error.h, mysqlx_error.h).
namespace xerr {
inline constexpr std::uint32_t bad_message = 5000;
inline constexpr std::uint32_t invalid_argument = 5012;
inline constexpr std::uint32_t missing_argument = 5013;
inline constexpr std::uint32_t bad_insert_data = 5014;
inline constexpr std::uint32_t bad_update_data = 5050;
inline constexpr std::uint32_t bad_type_of_update = 5051;
inline constexpr std::uint32_t bad_column_to_update = 5052;
inline constexpr std::uint32_t bad_member_to_update = 5053;
inline constexpr std::uint32_t bad_table = 5113;
inline constexpr std::uint32_t bad_projection = 5114;
inline constexpr std::uint32_t proj_bad_key_name = 5120;
inline constexpr std::uint32_t expr_bad_operator = 5150;
inline constexpr std::uint32_t expr_bad_num_args = 5151;
inline constexpr std::uint32_t expr_missing_arg = 5152;
inline constexpr std::uint32_t expr_bad_type_value = 5153;
inline constexpr std::uint32_t expr_bad_value = 5154;
inline constexpr std::uint32_t bad_locking = 5169;
// Prepared statements (xpl_error.h; prepare_param_handler.cc).
inline constexpr std::uint32_t prepared_execute_argument_consistency = 5134;
// MySQL's ER_INVALID_JSON_TEXT_IN_PARAM: CAST(.. AS JSON) of invalid text.
inline constexpr std::uint32_t invalid_json_text_in_param = 3141;
} // namespace xerr

struct sql_error {
  std::uint32_t code;
  std::string message;
  std::string sql_state = "HY000";
};

[[noreturn]] void fail(std::uint32_t code, std::string message);

// Runs fn (which appends SQL to its argument) and turns a sql_error into the
// cdk::error the API returns.
template <typename Fn> cdk::result<std::string> guarded(Fn&& fn) {
  std::string sql;
  try {
    fn(sql);
  } catch (const sql_error& e) {
    return cdk::error{e.code, e.sql_state, e.message, cdk::error_origin::server, false};
  }
  return sql;
}

// The same for a prepared statement: fn(sql, params) renders in placeholder
// mode.
template <typename Fn>
cdk::result<prepared_sql> guarded_prepared(int own_args, bool document_update, Fn&& fn) {
  prepared_sql out;
  out.args_offset = static_cast<std::uint32_t>(own_args);
  out.document_update = document_update;
  auto sql = guarded([&](std::string& s) { fn(s, &out.params); });
  if (!sql.ok()) return std::move(sql).err();
  out.sql = std::move(sql.value());
  return out;
}

// ---- text helpers (quote.cc)
void append_string(std::string& out, std::string_view text);     // 'text'
void append_identifier(std::string& out, std::string_view name); // `name`
void append_hex(std::string& out, std::string_view bytes);       // X'0A1B'
bool is_utf8(std::string_view s);
// Fails with MySQL's 3141 if text is not JSON: MariaDB would only warn and
// yield NULL, which an UPDATE would store as the document.
void check_json(std::string_view text);
// The same for the text CAST(<s> AS JSON) parses (operators.cc).
void check_cast_to_json(const Mysqlx::Datatypes::Scalar& s);
void append_identifier_if_needed(std::string& out, std::string_view name);
std::string json_member(std::string_view name); // a, or "a b" (JSON-quoted)
std::string number_text(double v);
std::string number_text(float v);
std::string upper(std::string_view s);

// ---- builtin function names (functions.cc)
bool is_native_function(std::string_view name);
bool is_json_function(std::string_view name);        // takes or returns JSON
bool is_json_result_function(std::string_view name); // returns JSON

using Expr = Mysqlx::Expr::Expr;
using Scalar = Mysqlx::Datatypes::Scalar;
using Operator = Mysqlx::Expr::Operator;
using Doc_path = google::protobuf::RepeatedPtrField<Mysqlx::Expr::DocumentPathItem>;

// Appends the SQL of expressions to one string. Mirrors the X Plugin's
// Expression_generator; each method documents where MariaDB needs other SQL.
class expr_writer {
public:
  expr_writer(const expr_context& ctx, std::string& out) : m_ctx(ctx), m_out(out) {}

  void expr(const Expr& e);
  // e where MySQL 8.0.20+ needs a truth value (WHERE, HAVING, the operands of
  // AND, OR, XOR and NOT): its parser makes a non-boolean `e` into `0 <> e`
  // (make_condition(), WL#12358), which for a JSON value is a JSON
  // comparison: TRUE for any value but a number equal to 0 (an object, a
  // string, JSON false or null too), NULL for SQL NULL. MariaDB would take
  // the JSON text as a number instead (`{...}`, `"x"` and `false` are 0).
  void condition(const Expr& e);
  // Doc paths as plain SQL text (JSON_UNQUOTE), used where the X Plugin
  // compares or passes values to non-JSON functions.
  void unquoted(const Expr& e);
  void scalar(const Scalar& s);
  // A scalar as JSON text for JSON_CONTAINS / JSON_OVERLAPS.
  void json_literal(const Scalar& s);
  // cont_in / overlaps operands: JSON-valued expressions only.
  void json_only(const Expr& e, std::string_view op_name);
  void path(const Doc_path& p);
  void column(const Mysqlx::Expr::ColumnIdentifier& c);
  void op(const Operator& o); // operators.cc

  // The scalar a literal or a bound placeholder stands for, or nullptr.
  // (nullptr for a prepared statement's `?`: its value comes at Execute.)
  const Scalar* literal_of(const Expr& e) const;
  // A placeholder that placeholder mode renders as `?`.
  bool is_param(const Expr& e) const;
  // `?` for such a placeholder, filled at Execute as k says.
  void put_param(param_kind k, const Expr& e);
  // e rendered on its own (for SQL that repeats an operand). In placeholder
  // mode its `?`s are listed when rendered, so the text must be used once,
  // where it was rendered.
  std::string text(const Expr& e) const;
  std::string unquoted_text(const Expr& e) const;

  const expr_context& ctx() const { return m_ctx; }
  std::string& out() { return m_out; }
  void put(std::string_view s) { m_out.append(s); }

private:
  void function(const Mysqlx::Expr::FunctionCall& f);
  void object(const Mysqlx::Expr::Object& o);
  void placeholder(std::uint32_t pos);
  void octets(const Scalar::Octets& o);

  const expr_context& m_ctx;
  std::string& m_out;
};

bool is_doc_path(const Expr& e);         // an identifier with a document path
bool is_id_path(const Expr& e);          // exactly `$._id`
bool is_plain_octets(const Expr& e);     // a literal of octets, content type 0
bool is_cast_to_json(const Operator& o); // cast(x, 'JSON')
bool is_json_octets(const Scalar& s);    // octets of content type JSON
// e renders as a JSON value: a document path, an object or array, a function
// returning JSON, CAST(.. AS JSON), or a JSON literal (or bound placeholder).
bool is_json_valued(const expr_writer& w, const Expr& e);

// ---- MariaDB JSON comparison and sorting (json_compare.cc)
// Sort keys of the JSON value p (SQL): type rank, number, string.
std::string rank_key(const std::string& p);
std::string number_key(const std::string& p);
std::string string_key(const std::string& p);
// Writes `a <op> b` with MySQL's JSON comparison rules when an operand is a
// document path; returns false (writing nothing) when plain SQL already agrees.
bool write_json_compare(expr_writer& w, const Operator& o, std::string_view sql_op);
// ORDER BY item for e, one key or three for a document path.
void write_order_key(expr_writer& w, const Expr& e, bool desc);

// ---- clauses shared by the statements (crud_common.cc)
// What a Crud message's expressions are evaluated against.
template <typename M>
expr_context context_of(const M& msg, const options& opts, std::vector<param>* params) {
  return expr_context{msg.data_model() == Mysqlx::Crud::TABLE, &msg.args(),
                      msg.collection().schema(), opts, params};
}
void write_collection(std::string& out, const Mysqlx::Crud::Collection& c);
// A Find's FROM source: the table, or for information_schema tables MySQL 8.0
// fills differently from MariaDB (info_schema.cc), a derived table of MySQL's
// rows under the table's name.
void write_find_source(std::string& out, const Mysqlx::Crud::Collection& c, bool relational,
                       const options& opts);
void write_filter(expr_writer& w, const Expr& criteria);
void write_order(expr_writer& w, const google::protobuf::RepeatedPtrField<Mysqlx::Crud::Order>& o);
[[noreturn]] void missing_field(std::string_view field);

// As the X Plugin remaps MySQL's 3141 for a document-model update: 5050.
cdk::error update_error(cdk::error e, bool document);

// 5012 unless s is a limit value (an unsigned integer).
void check_limit_value(const Scalar& s);
void write_limit_impl(expr_writer& w, const Mysqlx::Crud::Limit* limit,
                      const Mysqlx::Crud::LimitExpr* limit_expr, bool no_offset);
template <typename Msg> void write_limit(expr_writer& w, const Msg& msg, bool no_offset) {
  write_limit_impl(w, msg.has_limit() ? &msg.limit() : nullptr,
                   msg.has_limit_expr() ? &msg.limit_expr() : nullptr, no_offset);
}

} // namespace xserver::sqlgen::detail
