// A protobuf-free copy of Mysqlx.Datatypes.Any / Scalar: what capabilities,
// notices and session variables carry. Owning and recursive, kept simple
// because these values are small (capability lists, one notice's ids).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cdk::protocol {

struct value_field;

struct value {
  enum class kind : std::uint8_t { null, sint, uint, dbl, boolean, octets, string, array, object };
  kind type = kind::null;
  std::int64_t sint = 0;
  std::uint64_t uint = 0;
  double dbl = 0; // V_DOUBLE and V_FLOAT
  bool boolean = false;
  std::string bytes;               // octets and string
  std::uint32_t content_type = 0;  // octets: 0 plain, 1 geometry, 2 JSON, 3 XML
  std::vector<value> items;        // array
  std::vector<value_field> fields; // object, in wire order

  static value of_bool(bool b);
  static value of_uint(std::uint64_t u);
  static value of_string(std::string s);
  static value of_array(std::vector<value> items);
  static value of_object(std::vector<value_field> fields);

  // Object member by key; nullptr when absent or not an object.
  const value* find(std::string_view key) const noexcept;
  bool is_text() const noexcept { return type == kind::string || type == kind::octets; }
  // Unsigned value of an integer scalar (V_UINT, or V_SINT >= 0).
  bool get_uint(std::uint64_t& out) const noexcept;
};

struct value_field {
  std::string key;
  value val;
};

} // namespace cdk::protocol
