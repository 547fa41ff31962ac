// Short constructors for the protobuf messages the sqlgen tests feed in.
#pragma once

#include "test/xserver/sqlgen/sqlgen.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace sqlgen_test {

using Mysqlx::Datatypes::Scalar;
using Mysqlx::Expr::DocumentPathItem;
using Mysqlx::Expr::Expr;

inline Scalar s_int(std::int64_t v) {
  Scalar s;
  s.set_type(Scalar::V_SINT);
  s.set_v_signed_int(v);
  return s;
}
inline Scalar s_uint(std::uint64_t v) {
  Scalar s;
  s.set_type(Scalar::V_UINT);
  s.set_v_unsigned_int(v);
  return s;
}
inline Scalar s_str(const std::string& v) {
  Scalar s;
  s.set_type(Scalar::V_STRING);
  s.mutable_v_string()->set_value(v);
  return s;
}
inline Scalar s_double(double v) {
  Scalar s;
  s.set_type(Scalar::V_DOUBLE);
  s.set_v_double(v);
  return s;
}
inline Scalar s_float(float v) {
  Scalar s;
  s.set_type(Scalar::V_FLOAT);
  s.set_v_float(v);
  return s;
}
inline Scalar s_bool(bool v) {
  Scalar s;
  s.set_type(Scalar::V_BOOL);
  s.set_v_bool(v);
  return s;
}
inline Scalar s_null() {
  Scalar s;
  s.set_type(Scalar::V_NULL);
  return s;
}
// content type: 0 plain, 1 geometry, 2 JSON, 3 XML
inline Scalar s_octets(const std::string& v, std::uint32_t content_type = 0) {
  Scalar s;
  s.set_type(Scalar::V_OCTETS);
  s.mutable_v_octets()->set_value(v);
  if (content_type != 0) s.mutable_v_octets()->set_content_type(content_type);
  return s;
}

inline Expr lit(const Scalar& s) {
  Expr e;
  e.set_type(Expr::LITERAL);
  *e.mutable_literal() = s;
  return e;
}
inline Expr num(std::int64_t v) {
  return lit(s_int(v));
}
inline Expr str(const std::string& v) {
  return lit(s_str(v));
}
inline Expr plain(const std::string& v) {
  return lit(s_octets(v));
} // cast types, units

inline DocumentPathItem member(const std::string& name) {
  DocumentPathItem i;
  i.set_type(DocumentPathItem::MEMBER);
  i.set_value(name);
  return i;
}
inline DocumentPathItem index(std::uint32_t n) {
  DocumentPathItem i;
  i.set_type(DocumentPathItem::ARRAY_INDEX);
  i.set_index(n);
  return i;
}
inline DocumentPathItem item(DocumentPathItem::Type t) {
  DocumentPathItem i;
  i.set_type(t);
  return i;
}

// A document path on `doc` (or on column `column` when given).
inline Expr path(std::initializer_list<DocumentPathItem> items, const std::string& column = "") {
  Expr e;
  e.set_type(Expr::IDENT);
  for (const auto& i : items) *e.mutable_identifier()->add_document_path() = i;
  if (!column.empty()) e.mutable_identifier()->set_name(column);
  return e;
}
inline Expr field(const std::string& name) {
  return path({member(name)});
}

inline Expr column(const std::string& name, const std::string& table = "",
                   const std::string& schema = "") {
  Expr e;
  e.set_type(Expr::IDENT);
  auto* id = e.mutable_identifier();
  if (!name.empty()) id->set_name(name);
  if (!table.empty()) id->set_table_name(table);
  if (!schema.empty()) id->set_schema_name(schema);
  return e;
}

inline Expr op(const std::string& name, std::initializer_list<Expr> params = {}) {
  Expr e;
  e.set_type(Expr::OPERATOR);
  e.mutable_operator_()->set_name(name);
  for (const auto& p : params) *e.mutable_operator_()->add_param() = p;
  return e;
}

inline Expr fn(const std::string& name, std::initializer_list<Expr> params = {},
               const std::string& schema = "") {
  Expr e;
  e.set_type(Expr::FUNC_CALL);
  e.mutable_function_call()->mutable_name()->set_name(name);
  if (!schema.empty()) e.mutable_function_call()->mutable_name()->set_schema_name(schema);
  for (const auto& p : params) *e.mutable_function_call()->add_param() = p;
  return e;
}

inline Expr placeholder(std::uint32_t pos) {
  Expr e;
  e.set_type(Expr::PLACEHOLDER);
  e.set_position(pos);
  return e;
}

inline Expr object(std::initializer_list<std::pair<std::string, Expr>> fields) {
  Expr e;
  e.set_type(Expr::OBJECT);
  for (const auto& [k, v] : fields) {
    auto* f = e.mutable_object()->add_fld();
    f->set_key(k);
    *f->mutable_value() = v;
  }
  return e;
}

inline Expr array(std::initializer_list<Expr> values) {
  Expr e;
  e.set_type(Expr::ARRAY);
  for (const auto& v : values) *e.mutable_array()->add_value() = v;
  return e;
}

inline Mysqlx::Crud::Collection collection(const std::string& name, const std::string& schema) {
  Mysqlx::Crud::Collection c;
  c.set_name(name);
  if (!schema.empty()) c.set_schema(schema);
  return c;
}

} // namespace sqlgen_test
