// A walk over Mysqlx.Expr trees, shared by the canonical printer
// (expr_printer.cc) and by any Expr -> SQL renderer (xserverd's sqlgen).
//
// expr_visitor::visit() dispatches on Expr.type and hands operators over
// together with their entry in the operator table (expr_ops.h): precedence,
// shape and keyword, so a renderer does not re-derive them from the name.
// The text helpers below produce MySQL-compatible spellings: quoted strings
// are valid SQL string literals, json_path() is a valid MySQL JSON path.
//
// This header includes the generated protobuf headers, so include it from
// .cc files only (see proto/README.md).
#pragma once

#include "cdk/parser/expr_ops.h"
#include "mysqlx_expr.pb.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace cdk::expr_walk {

class expr_visitor {
public:
  virtual ~expr_visitor() = default;

  /// Calls the on_*() member for e.type(); on_invalid() when the type is
  /// missing or unknown.
  void visit(const Mysqlx::Expr::Expr& e);

protected:
  virtual void on_ident(const Mysqlx::Expr::ColumnIdentifier& id) = 0;
  virtual void on_literal(const Mysqlx::Datatypes::Scalar& value) = 0;
  virtual void on_variable(const std::string& name) = 0;
  virtual void on_call(const Mysqlx::Expr::FunctionCall& call) = 0;
  /// `info` is null for a name the X Plugin does not know.
  virtual void on_operator(const Mysqlx::Expr::Operator& op, const expr_ops::op_info* info) = 0;
  virtual void on_placeholder(std::uint32_t position) = 0;
  virtual void on_object(const Mysqlx::Expr::Object& obj) = 0;
  virtual void on_array(const Mysqlx::Expr::Array& arr) = 0;
  virtual void on_invalid(const Mysqlx::Expr::Expr& e) = 0;
};

/// How tightly `e` binds when written out: its operator's level, `unary` for
/// a negative number, `atom` for everything else.
expr_ops::prec binding(const Mysqlx::Expr::Expr& e) noexcept;

/// True for "$": a path of one MEMBER with an empty name (the X Plugin's
/// spelling of the whole document).
bool is_whole_document(const Mysqlx::Expr::ColumnIdentifier& id) noexcept;

/// The operator's parameter as an octets or string literal value (the cast
/// type, the interval unit); false if it is something else.
bool literal_text(const Mysqlx::Expr::Expr& e, std::string_view& out) noexcept;

/// A word the lexer reads as one identifier token (keywords included).
bool is_word_name(std::string_view name) noexcept;

/// A word the lexer reads as one identifier and not as a reserved word.
bool is_plain_name(std::string_view name) noexcept;

/// `name` with back-ticks doubled; used when !is_plain_name(name).
void append_backticked(std::string_view name, std::string& out);

/// 'text' with MySQL escapes: \\ \' \0 \n \r \t \b \Z.
void append_string_literal(std::string_view text, std::string& out);

/// A double that reads back as the same double: shortest digits, with ".0"
/// added to integral values so they stay floating point.
void append_double(double value, std::string& out);

/// The MySQL JSON path of the items: $, $.a, $."a b"[3].*, $**.c ...
/// Member names that are not plain words are double-quoted with JSON escapes.
void append_json_path(const Mysqlx::Expr::ColumnIdentifier& id, std::string& out);

/// How a member name that is not a word is quoted after '.'.
enum class member_quote : std::uint8_t {
  json,     // "a b", as MySQL JSON paths write it
  backtick, // `a b`, as the expression language also reads it
};

/// The items of id's document path from index `first` on: .a[0].*[*]**
void append_path_items(const Mysqlx::Expr::ColumnIdentifier& id, int first, member_quote quote,
                       std::string& out);

} // namespace cdk::expr_walk
