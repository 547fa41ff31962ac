// Private to cdk/parser: copies a freshly parsed tree into the caller's
// message in one top-down pass, overwriting what a reused message already
// holds instead of clearing it first.
//
// out.CopyFrom(tree) walks the old tree twice (Clear, then MergeFrom into
// the cleared sub-messages). assign() walks it once: each field is set, each
// sub-message and repeated element that already exists is reused, and only
// what the new tree lacks is cleared or dropped. The result equals
// CopyFrom's (tested: expr_entry_test.cc and the fuzz target compare reused
// and fresh messages byte for byte). Every field of every message reachable
// from Expr is handled; a new field in proto/mysqlx_expr.proto must be added
// here.
#pragma once

#include "mysqlx_crud.pb.h"
#include "mysqlx_expr.pb.h"

namespace cdk::expr_detail {

void assign(Mysqlx::Expr::Expr& dst, const Mysqlx::Expr::Expr& src);
void assign(Mysqlx::Expr::ColumnIdentifier& dst, const Mysqlx::Expr::ColumnIdentifier& src);
void assign(Mysqlx::Crud::Projection& dst, const Mysqlx::Crud::Projection& src);
void assign(Mysqlx::Crud::Order& dst, const Mysqlx::Crud::Order& src);

} // namespace cdk::expr_detail
