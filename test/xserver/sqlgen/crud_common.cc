// Clauses every Crud statement shares: table name, WHERE, ORDER BY, LIMIT.
#include "test/xserver/sqlgen/detail.h"

namespace xserver::sqlgen::detail {

// Our .proto files make MySQL's `required` fields optional (so that a bad
// message is an error reply, not a parse failure); the X Plugin would have
// refused such a message while decoding it, with ER_X_BAD_MESSAGE.
void missing_field(std::string_view field) {
  fail(xerr::bad_message, "Invalid message: required field " + std::string(field) + " is missing");
}

void write_collection(std::string& out, const Mysqlx::Crud::Collection& c) {
  if (c.name().empty()) fail(xerr::bad_table, "Invalid name of table/collection");
  if (!c.schema().empty()) {
    append_identifier(out, c.schema());
    out.push_back('.');
  }
  append_identifier(out, c.name());
}

void write_filter(expr_writer& w, const Expr& criteria) {
  w.put(" WHERE ");
  w.condition(criteria);
}

void write_order(expr_writer& w, const google::protobuf::RepeatedPtrField<Mysqlx::Crud::Order>& o) {
  if (o.empty()) return;
  w.put(" ORDER BY ");
  for (int i = 0; i < o.size(); ++i) {
    if (!o.Get(i).has_expr()) missing_field("Mysqlx.Crud.Order.expr");
    if (i > 0) w.put(",");
    write_order_key(w, o.Get(i).expr(), o.Get(i).direction() == Mysqlx::Crud::Order::DESC);
  }
}

void check_limit_value(const Scalar& s) {
  if (s.type() == Scalar::V_SINT) {
    if (s.v_signed_int() < 0)
      fail(xerr::invalid_argument, "Invalid value, limit fields doesn't allow negative values.");
  } else if (s.type() != Scalar::V_UINT) {
    fail(xerr::invalid_argument, "Invalid scalar type used in limit field: " +
                                     std::to_string(s.type()) + ", expected types UINT, SINT");
  }
}

namespace {

// A limit_expr value: an unsigned literal, or a placeholder bound to one (a
// prepared statement's `?` is checked at Execute).
void write_limit_value(expr_writer& w, const Expr& e) {
  if (e.type() != Expr::LITERAL && e.type() != Expr::PLACEHOLDER)
    fail(xerr::invalid_argument,
         "Invalid expression type used in limit field: " + std::to_string(e.type()) +
             ", expected types PLACEHOLDER or LITERAL");
  if (w.is_param(e)) return w.put_param(param_kind::limit, e);
  const Scalar* s = w.literal_of(e);
  if (!s) fail(xerr::expr_bad_value, "Invalid value of placeholder");
  check_limit_value(*s);
  w.scalar(*s);
}

} // namespace

void write_limit_impl(expr_writer& w, const Mysqlx::Crud::Limit* limit,
                      const Mysqlx::Crud::LimitExpr* limit_expr, bool no_offset) {
  // 5.7's protocol has no limit_expr: its parser skips the unknown field.
  if (w.ctx().opts.emulate == flavor::mysql57) limit_expr = nullptr;
  if (limit && limit_expr)
    fail(xerr::bad_message,
         "Invalid message, one of 'limit' and 'limit_expr' fields is allowed. Received both");
  if (limit) {
    if (!limit->has_row_count()) missing_field("Mysqlx.Crud.Limit.row_count");
    if (no_offset && limit->offset() != 0)
      fail(xerr::invalid_argument,
           "Invalid parameter: non-zero offset value is not allowed for this operation");
    w.put(" LIMIT ");
    if (limit->has_offset() && !no_offset) w.put(std::to_string(limit->offset()) + ", ");
    w.put(std::to_string(limit->row_count()));
  }
  if (limit_expr) {
    if (!limit_expr->has_row_count()) missing_field("Mysqlx.Crud.LimitExpr.row_count");
    if (limit_expr->has_offset() && no_offset)
      fail(xerr::invalid_argument,
           "Invalid parameter: offset value is not allowed for this operation");
    w.put(" LIMIT ");
    if (limit_expr->has_offset()) {
      write_limit_value(w, limit_expr->offset());
      w.put(", ");
    }
    write_limit_value(w, limit_expr->row_count());
  }
}

} // namespace xserver::sqlgen::detail
