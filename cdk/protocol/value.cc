#include "cdk/protocol/value.h"

#include "cdk/protocol/value_pb.h"

namespace cdk::protocol {

using Mysqlx::Datatypes::Any;
using Mysqlx::Datatypes::Scalar;

value value::of_bool(bool b) {
  value v;
  v.type = kind::boolean;
  v.boolean = b;
  return v;
}

value value::of_uint(std::uint64_t u) {
  value v;
  v.type = kind::uint;
  v.uint = u;
  return v;
}

value value::of_string(std::string s) {
  value v;
  v.type = kind::string;
  v.bytes = std::move(s);
  return v;
}

value value::of_array(std::vector<value> items) {
  value v;
  v.type = kind::array;
  v.items = std::move(items);
  return v;
}

value value::of_object(std::vector<value_field> fields) {
  value v;
  v.type = kind::object;
  v.fields = std::move(fields);
  return v;
}

const value* value::find(std::string_view key) const noexcept {
  if (type != kind::object) return nullptr;
  for (const auto& f : fields)
    if (f.key == key) return &f.val;
  return nullptr;
}

bool value::get_uint(std::uint64_t& out) const noexcept {
  if (type == kind::uint) {
    out = uint;
    return true;
  }
  if (type == kind::sint && sint >= 0) {
    out = static_cast<std::uint64_t>(sint);
    return true;
  }
  return false;
}

value from_scalar(const Scalar& s) {
  value v;
  switch (s.type()) {
  case Scalar::V_SINT:
    v.type = value::kind::sint, v.sint = s.v_signed_int();
    break;
  case Scalar::V_UINT:
    v.type = value::kind::uint, v.uint = s.v_unsigned_int();
    break;
  case Scalar::V_DOUBLE:
    v.type = value::kind::dbl, v.dbl = s.v_double();
    break;
  case Scalar::V_FLOAT:
    v.type = value::kind::dbl, v.dbl = s.v_float();
    break;
  case Scalar::V_BOOL:
    v.type = value::kind::boolean, v.boolean = s.v_bool();
    break;
  case Scalar::V_OCTETS:
    v.type = value::kind::octets;
    v.bytes = s.v_octets().value();
    v.content_type = s.v_octets().content_type();
    break;
  case Scalar::V_STRING:
    v.type = value::kind::string;
    v.bytes = s.v_string().value();
    break;
  case Scalar::V_NULL:
    break;
  }
  return v;
}

// Protobuf's parser already limits nesting depth (100), so recursion here is
// bounded for anything that came off the wire.
value from_any(const Any& a) {
  switch (a.type()) {
  case Any::SCALAR:
    return from_scalar(a.scalar());
  case Any::ARRAY: {
    std::vector<value> items;
    items.reserve(static_cast<std::size_t>(a.array().value_size()));
    for (const Any& item : a.array().value()) items.push_back(from_any(item));
    return value::of_array(std::move(items));
  }
  case Any::OBJECT: {
    std::vector<value_field> fields;
    fields.reserve(static_cast<std::size_t>(a.obj().fld_size()));
    for (const auto& f : a.obj().fld()) fields.push_back({f.key(), from_any(f.value())});
    return value::of_object(std::move(fields));
  }
  }
  return value{};
}

void to_scalar(const value& v, Scalar& out) {
  switch (v.type) {
  case value::kind::null:
    out.set_type(Scalar::V_NULL);
    break;
  case value::kind::sint:
    out.set_type(Scalar::V_SINT), out.set_v_signed_int(v.sint);
    break;
  case value::kind::uint:
    out.set_type(Scalar::V_UINT), out.set_v_unsigned_int(v.uint);
    break;
  case value::kind::dbl:
    out.set_type(Scalar::V_DOUBLE), out.set_v_double(v.dbl);
    break;
  case value::kind::boolean:
    out.set_type(Scalar::V_BOOL), out.set_v_bool(v.boolean);
    break;
  case value::kind::octets:
    out.set_type(Scalar::V_OCTETS);
    out.mutable_v_octets()->set_value(v.bytes);
    if (v.content_type != 0) out.mutable_v_octets()->set_content_type(v.content_type);
    break;
  case value::kind::string:
    out.set_type(Scalar::V_STRING);
    out.mutable_v_string()->set_value(v.bytes);
    break;
  case value::kind::array:
  case value::kind::object:
    out.set_type(Scalar::V_NULL);
    break; // not scalars
  }
}

void to_any(const value& v, Any& out) {
  if (v.type == value::kind::array) {
    out.set_type(Any::ARRAY);
    auto* arr = out.mutable_array();
    for (const value& item : v.items) to_any(item, *arr->add_value());
  } else if (v.type == value::kind::object) {
    out.set_type(Any::OBJECT);
    auto* obj = out.mutable_obj();
    for (const value_field& f : v.fields) {
      auto* fld = obj->add_fld();
      fld->set_key(f.key);
      to_any(f.val, *fld->mutable_value());
    }
  } else {
    out.set_type(Any::SCALAR);
    to_scalar(v, *out.mutable_scalar());
  }
}

} // namespace cdk::protocol
