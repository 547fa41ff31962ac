// The X DevAPI expression language -> Mysqlx.Expr messages.
//
//   cdk::placeholder_map ph;
//   Mysqlx::Expr::Expr where;
//   cdk::status st = cdk::parse_expr("age > :min AND name LIKE 'a%'",
//                                    cdk::expr_mode::document, ph, where);
//   // ph.find("min") == 0: bind() puts the value of :min at args[0]
//
// Two modes, as in the X DevAPI:
// - document: names are document paths (a.b, $.a, a[0], a[*], a.*, **.a);
// - table: names are columns ([schema.]table.]column), with JSON paths
//   col->'$.a' and col->>'$.a' (the latter wrapped in JSON_UNQUOTE()).
//
// The grammar, the operator names sent on the wire and the places where we
// differ from other connectors are in cdk/parser/README.md.
//
// Errors: every function reports a cdk::error with code client_errc::parse
// and a message "expected ')' at position 17" followed by the input and a
// caret line; positions are 0-based byte offsets. They throw nothing but
// std::bad_alloc, never recurse deeper than max_expr_depth and reject inputs
// longer than max_expr_length. On error the output message is unspecified.
//
// The protobuf classes are only declared here: callers include the
// generated headers (mysqlx_expr.pb.h, mysqlx_crud.pb.h) in their .cc files.
// Thread safety: the functions may run on many threads at once (each thread
// builds trees in its own reused node vector); a placeholder_map is not
// synchronised. Parsing into a reused message reuses its memory.
#pragma once

#include "cdk/foundation/error.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace Mysqlx {
namespace Expr {
class Expr;
class ColumnIdentifier;
} // namespace Expr
namespace Crud {
class Projection;
class Order;
} // namespace Crud
} // namespace Mysqlx

namespace cdk {

enum class expr_mode : std::uint8_t { document, table };

// Deepest expression tree (and deepest nesting of parentheses, calls and
// literals) the parser builds. Deeper input is a parse error, not a crash.
inline constexpr std::size_t max_expr_depth = 100;

// Longest accepted expression text, in bytes.
inline constexpr std::size_t max_expr_length = std::size_t{16} * 1024 * 1024;

/// Placeholder names -> positions in the statement's `args`.
/**
 * Positions are given in order of first appearance: in "a = :x OR b = :y OR
 * c = :x", :x is 0 and :y is 1. `:0` is a name like any other (so "0"), and
 * each `?` takes a new position without a name. Share one map between all
 * the expressions of one statement (criteria, projection, sort, ...), since
 * they share its `args`.
 */
class placeholder_map {
public:
  /// The position of `name`, assigning the next one on first use.
  std::uint32_t assign(std::string_view name);
  /// A new position for an anonymous `?`.
  std::uint32_t add_anonymous();
  /// The position of `name`, if the expressions used it.
  std::optional<std::uint32_t> find(std::string_view name) const noexcept;
  /// How many positions are in use: the size `args` must have.
  std::size_t size() const noexcept { return m_names.size(); }
  bool empty() const noexcept { return m_names.empty(); }
  /// The name at a position; empty for `?`.
  const std::string& name(std::uint32_t position) const { return m_names.at(position); }
  void clear() noexcept { m_names.clear(); }
  /// Forgets positions from `size` on; the parse functions use it to undo
  /// what a failed parse assigned.
  void truncate(std::size_t size) noexcept {
    if (size < m_names.size()) m_names.resize(size);
  }

private:
  std::vector<std::string> m_names; // index = position; few, so a scan is fine
};

/// Parses a whole expression, e.g. a find() condition.
status parse_expr(std::string_view text, expr_mode mode, placeholder_map& placeholders,
                  Mysqlx::Expr::Expr& out);

/// Parses one projection, "expr [AS alias]".
/**
 * In document mode a projection without an alias gets its own text (trimmed)
 * as the alias, as Connector/Node.js does, so fields("a.b") names the result
 * field "a.b". In table mode the alias stays unset.
 */
status parse_projection(std::string_view text, expr_mode mode, placeholder_map& placeholders,
                        Mysqlx::Crud::Projection& out);

/// Parses one sort specification, "expr [ASC|DESC]"; no direction leaves
/// Order.direction unset (the server's default is ASC).
status parse_sort(std::string_view text, expr_mode mode, placeholder_map& placeholders,
                  Mysqlx::Crud::Order& out);

/// Parses the target of modify().set()/unset()/arrayAppend()... (document
/// mode: a document path, "a.b[0]" or "$.a.b", without wildcards) or of
/// update().set() (table mode: a column, optionally "col->'$.path'").
status parse_update_path(std::string_view text, expr_mode mode,
                         Mysqlx::Expr::ColumnIdentifier& out);

} // namespace cdk
