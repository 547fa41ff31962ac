// A structural dump of Mysqlx.Expr trees as S-expressions, for tests and
// debug logs: every node shows its wire-level kind, operator name and scalar
// type, which the canonical printer (expr_printer.h) deliberately hides.
//
//   "age > :min"  ->  (> (ident $.age) (ph 0))
//   "-1.5"        ->  (double -1.5)
//   "t.c->>'$.a'" ->  (call JSON_UNQUOTE (ident t.c $.a))
//
// Nodes: (ident [[schema.]table.]name [json path]), (uint N), (sint N),
// (double X), (float X), (bool true|false), (null), (string 'text'),
// (octets 'text'), (call [schema.]name args...), (OPNAME args...),
// (ph N), (object ('key' value)...), (array values...), (var name).
#pragma once

#include <string>

namespace Mysqlx {
namespace Expr {
class Expr;
} // namespace Expr
} // namespace Mysqlx

namespace cdk {

std::string dump_expr(const Mysqlx::Expr::Expr& e);

} // namespace cdk
