// See expr_assign.h: CopyFrom without the Clear() pass.
#include "cdk/parser/expr_assign.h"

namespace cdk::expr_detail {

using Mysqlx::Datatypes::Scalar;
using Mysqlx::Expr::Expr;

namespace {

// Every overload is declared up front: the repeated-field template and the
// message overloads call each other.
using expr_detail::assign; // the public overloads of expr_assign.h
void assign(Scalar::String& dst, const Scalar::String& src);
void assign(Scalar::Octets& dst, const Scalar::Octets& src);
void assign(Scalar& dst, const Scalar& src);
void assign(Mysqlx::Expr::DocumentPathItem& dst, const Mysqlx::Expr::DocumentPathItem& src);
void assign(Mysqlx::Expr::Identifier& dst, const Mysqlx::Expr::Identifier& src);
void assign(Mysqlx::Expr::FunctionCall& dst, const Mysqlx::Expr::FunctionCall& src);
void assign(Mysqlx::Expr::Operator& dst, const Mysqlx::Expr::Operator& src);
void assign(Mysqlx::Expr::Object::ObjectField& dst, const Mysqlx::Expr::Object::ObjectField& src);
void assign(Mysqlx::Expr::Object& dst, const Mysqlx::Expr::Object& src);
void assign(Mysqlx::Expr::Array& dst, const Mysqlx::Expr::Array& src);
template <typename T>
void assign(google::protobuf::RepeatedPtrField<T>& dst,
            const google::protobuf::RepeatedPtrField<T>& src);

// Field helpers: copy a set field, clear an unset one (clear_x() keeps a
// sub-message's memory for the next parse, as Clear() would).
#define ASSIGN_VALUE(f)                                                                            \
  do {                                                                                             \
    if (src.has_##f())                                                                             \
      dst.set_##f(src.f());                                                                        \
    else                                                                                           \
      dst.clear_##f();                                                                             \
  } while (false)

#define ASSIGN_MESSAGE(f)                                                                          \
  do {                                                                                             \
    if (src.has_##f())                                                                             \
      assign(*dst.mutable_##f(), src.f());                                                         \
    else                                                                                           \
      dst.clear_##f();                                                                             \
  } while (false)

template <typename M> void drop_unknown(M& dst) {
  if (!dst.unknown_fields().empty()) dst.mutable_unknown_fields()->clear();
}

void assign(Scalar::String& dst, const Scalar::String& src) {
  drop_unknown(dst);
  ASSIGN_VALUE(value);
  ASSIGN_VALUE(collation);
}

void assign(Scalar::Octets& dst, const Scalar::Octets& src) {
  drop_unknown(dst);
  ASSIGN_VALUE(value);
  ASSIGN_VALUE(content_type);
}

void assign(Scalar& dst, const Scalar& src) {
  drop_unknown(dst);
  ASSIGN_VALUE(type);
  ASSIGN_VALUE(v_signed_int);
  ASSIGN_VALUE(v_unsigned_int);
  ASSIGN_MESSAGE(v_octets);
  ASSIGN_VALUE(v_double);
  ASSIGN_VALUE(v_float);
  ASSIGN_VALUE(v_bool);
  ASSIGN_MESSAGE(v_string);
}

void assign(Mysqlx::Expr::DocumentPathItem& dst, const Mysqlx::Expr::DocumentPathItem& src) {
  drop_unknown(dst);
  ASSIGN_VALUE(type);
  ASSIGN_VALUE(value);
  ASSIGN_VALUE(index);
}

void assign(Mysqlx::Expr::Identifier& dst, const Mysqlx::Expr::Identifier& src) {
  drop_unknown(dst);
  ASSIGN_VALUE(name);
  ASSIGN_VALUE(schema_name);
}

// Elements that exist are overwritten; extra ones are removed (RemoveLast
// keeps them cleared for reuse by Add, as Clear() does).
template <typename T>
void assign(google::protobuf::RepeatedPtrField<T>& dst,
            const google::protobuf::RepeatedPtrField<T>& src) {
  const int n = src.size();
  while (dst.size() > n) dst.RemoveLast();
  int i = 0;
  for (; i < dst.size(); ++i) assign(*dst.Mutable(i), src.Get(i));
  for (; i < n; ++i) assign(*dst.Add(), src.Get(i));
}

void assign(Mysqlx::Expr::FunctionCall& dst, const Mysqlx::Expr::FunctionCall& src) {
  drop_unknown(dst);
  ASSIGN_MESSAGE(name);
  assign(*dst.mutable_param(), src.param());
}

void assign(Mysqlx::Expr::Operator& dst, const Mysqlx::Expr::Operator& src) {
  drop_unknown(dst);
  ASSIGN_VALUE(name);
  assign(*dst.mutable_param(), src.param());
}

void assign(Mysqlx::Expr::Object::ObjectField& dst, const Mysqlx::Expr::Object::ObjectField& src) {
  drop_unknown(dst);
  ASSIGN_VALUE(key);
  ASSIGN_MESSAGE(value);
}

void assign(Mysqlx::Expr::Object& dst, const Mysqlx::Expr::Object& src) {
  drop_unknown(dst);
  assign(*dst.mutable_fld(), src.fld());
}

void assign(Mysqlx::Expr::Array& dst, const Mysqlx::Expr::Array& src) {
  drop_unknown(dst);
  assign(*dst.mutable_value(), src.value());
}

} // namespace

void assign(Mysqlx::Expr::ColumnIdentifier& dst, const Mysqlx::Expr::ColumnIdentifier& src) {
  drop_unknown(dst);
  assign(*dst.mutable_document_path(), src.document_path());
  ASSIGN_VALUE(name);
  ASSIGN_VALUE(table_name);
  ASSIGN_VALUE(schema_name);
}

void assign(Expr& dst, const Expr& src) {
  drop_unknown(dst);
  ASSIGN_VALUE(type);
  ASSIGN_MESSAGE(identifier);
  ASSIGN_VALUE(variable);
  ASSIGN_MESSAGE(literal);
  ASSIGN_MESSAGE(function_call);
  ASSIGN_MESSAGE(operator_);
  ASSIGN_VALUE(position);
  ASSIGN_MESSAGE(object);
  ASSIGN_MESSAGE(array);
}

void assign(Mysqlx::Crud::Projection& dst, const Mysqlx::Crud::Projection& src) {
  drop_unknown(dst);
  ASSIGN_MESSAGE(source);
  ASSIGN_VALUE(alias);
}

void assign(Mysqlx::Crud::Order& dst, const Mysqlx::Crud::Order& src) {
  drop_unknown(dst);
  ASSIGN_MESSAGE(expr);
  ASSIGN_VALUE(direction);
}

#undef ASSIGN_VALUE
#undef ASSIGN_MESSAGE

} // namespace cdk::expr_detail
