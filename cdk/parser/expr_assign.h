// Private to cdk/parser: writes the parser's tree (expr_tree.h) into the
// caller's message in one top-down pass, overwriting what a reused message
// already holds instead of clearing it first.
//
// Each field the tree has is set, each sub-message and repeated element that
// already exists is reused, and fields the tree lacks are cleared (keeping
// their memory, as Clear() would) or dropped, as are unknown fields. The
// result equals a fresh message's, byte for byte (tested:
// expr_entry_test.cc and the fuzz target compare reused and fresh
// messages). Every field of every message reachable from Expr is handled; a
// new field in proto/mysqlx_expr.proto must be added here.
#pragma once

#include "cdk/parser/expr_parser_impl.h"
#include "mysqlx_crud.pb.h"
#include "mysqlx_expr.pb.h"

namespace cdk::expr_detail {

void assign(Mysqlx::Expr::Expr& dst, const tree& nodes, const parsed& src);
void assign(Mysqlx::Expr::ColumnIdentifier& dst, const tree& nodes, const parsed& src);
void assign(Mysqlx::Crud::Projection& dst, const tree& nodes, const parsed& src);
void assign(Mysqlx::Crud::Order& dst, const tree& nodes, const parsed& src);

} // namespace cdk::expr_detail
