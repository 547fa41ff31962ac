// Mysqlx.Expr -> canonical expression text, for error messages, logs and
// tests. The output is in the language of expr_parser.h, with the fewest
// parentheses the precedence table (expr_ops.h) allows:
//
//   print_expr(e) == "a.b > 1 AND name LIKE 'x%'"
//
// For every tree the parser builds, parsing the printed text in the same
// mode gives the same tree back (placeholders keep their names when the map
// is given). The one reordering: "INTERVAL 1 DAY + d" prints as
// "d + INTERVAL 1 DAY". Trees from elsewhere print as best they can: unknown
// operators and malformed shapes print as name(args...).
//
// Spelling: keywords in upper case, "=" for ==, strings single-quoted with
// backslash escapes, names back-ticked when not plain words, document paths
// without "$." when they start with a plain name.
#pragma once

#include "cdk/parser/expr_parser.h"

#include <string>

namespace cdk {

/// The canonical text of an expression. `names` turns placeholder positions
/// back into ":name" (otherwise ":<position>").
std::string print_expr(const Mysqlx::Expr::Expr& e, const placeholder_map* names = nullptr);

/// "expr AS alias", or just expr without an alias.
std::string print_projection(const Mysqlx::Crud::Projection& p,
                             const placeholder_map* names = nullptr);

/// "expr ASC", "expr DESC", or just expr without a direction.
std::string print_sort(const Mysqlx::Crud::Order& o, const placeholder_map* names = nullptr);

/// A document path ("a.b[0]", "$") or column ("t.c", "c->'$.a'"), as
/// parse_update_path() reads it.
std::string print_column(const Mysqlx::Expr::ColumnIdentifier& id);

} // namespace cdk
