// Value: construction, checked conversions, document and array access.
//
// Conversion rules (all others throw errc::USAGE naming both types):
// - integers: from INT64, UINT64 and BOOL when the value fits the target;
// - floating point: from FLOAT and DOUBLE (double -> float must be within
//   float's range; rounding is accepted, as in any float conversion), and
//   from integers only when the integer is exactly representable, so a
//   conversion never silently changes an id or a counter;
// - bool: from BOOL and integers (non-zero is true: MySQL stores BOOL as
//   TINYINT);
// - std::string: from STRING and RAW (bytes are kept as they are), and the
//   text of DECIMAL, temporal and SET values read from rows;
// - bytes: from RAW and STRING; DbDoc: from DOCUMENT, and null from VNULL;
// - a DECIMAL (a DOUBLE with its text) converts to integers from its text,
//   exactly, when it has no fractional part and fits the target.
#include "cdk/foundation/error.h"
#include "devapi/doc_impl.h"
#include "devapi/json_print.h"
#include "devapi/throw_error.h"
#include "devapi/value_tree.h"

#include <cfloat>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <mysqlx/error.h>
#include <mysqlx/value.h>
#include <ostream>
#include <stdexcept>
#include <string>

MYSQLX_NAMESPACE_BEGIN
namespace {

const char* type_name(Value::Type t) noexcept {
  switch (t) {
  case Value::VNULL:
    return "null";
  case Value::UINT64:
    return "an unsigned integer (UINT64)";
  case Value::INT64:
    return "an integer (INT64)";
  case Value::FLOAT:
    return "a float";
  case Value::DOUBLE:
    return "a double";
  case Value::BOOL:
    return "a bool";
  case Value::STRING:
    return "a string";
  case Value::DOCUMENT:
    return "a document";
  case Value::RAW:
    return "raw bytes";
  case Value::ARRAY:
    return "an array";
  }
  return "an unknown type";
}

[[noreturn]] void usage_error(const std::string& message) {
  detail::throw_error(cdk::error::client(cdk::client_errc::usage, "Value: " + message));
}
[[noreturn]] void type_error(const std::string& from, const char* to) {
  usage_error("cannot convert " + from + " to " + to);
}
template <typename N> [[noreturn]] void range_error(N value, const char* to) {
  usage_error(std::to_string(value) + " does not fit in " + to);
}

// The integer value of a DECIMAL's text ("-12", "12.00"), or why there is
// none: the text is the server's, so it is digits with an optional sign and
// point.
struct decimal_integer {
  enum class problem { none, fraction, too_big, not_a_number };
  bool negative = false;
  std::uint64_t magnitude = 0;
  problem why = problem::none;
};

decimal_integer integer_of_decimal(std::string_view text) {
  decimal_integer out;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    out.negative = text[0] == '-';
    text.remove_prefix(1);
  }
  const auto point = text.find('.');
  if (point != std::string_view::npos) {
    if (text.find_first_not_of('0', point + 1) != std::string_view::npos) {
      out.why = decimal_integer::problem::fraction;
      return out;
    }
    text = text.substr(0, point);
  }
  const auto r = std::from_chars(text.data(), text.data() + text.size(), out.magnitude);
  if (r.ec == std::errc::result_out_of_range)
    out.why = decimal_integer::problem::too_big;
  else if (r.ec != std::errc() || r.ptr != text.data() + text.size())
    out.why = decimal_integer::problem::not_a_number;
  if (out.magnitude == 0) out.negative = false; // "-0.00"
  return out;
}

[[noreturn]] void decimal_error(std::string_view text, decimal_integer::problem why,
                                const char* to) {
  const std::string head = "DECIMAL " + std::string(text);
  switch (why) {
  case decimal_integer::problem::fraction:
    usage_error(head + " has a fractional part: use double or std::string, not " + to);
  case decimal_integer::problem::not_a_number:
    usage_error(head + " is not a number: cannot convert it to " + to);
  default:
    usage_error(head + " does not fit in " + to);
  }
}

std::int64_t decimal_to_signed(std::string_view text, std::int64_t lo, std::int64_t hi,
                               const char* to) {
  const decimal_integer d = integer_of_decimal(text);
  if (d.why != decimal_integer::problem::none) decimal_error(text, d.why, to);
  const bool fits = d.negative ? d.magnitude <= static_cast<std::uint64_t>(-(lo + 1)) + 1
                               : d.magnitude <= static_cast<std::uint64_t>(hi);
  if (!fits) decimal_error(text, decimal_integer::problem::too_big, to);
  return d.negative ? static_cast<std::int64_t>(0 - d.magnitude)
                    : static_cast<std::int64_t>(d.magnitude);
}

std::uint64_t decimal_to_unsigned(std::string_view text, std::uint64_t hi, const char* to) {
  const decimal_integer d = integer_of_decimal(text);
  if (d.why != decimal_integer::problem::none) decimal_error(text, d.why, to);
  if (d.negative || d.magnitude > hi) decimal_error(text, decimal_integer::problem::too_big, to);
  return d.magnitude;
}

} // namespace

std::string_view Value::text_part() const noexcept {
  std::string_view all(m_str);
  return m_flavor == flavor::raw_with_text ? all.substr(0, static_cast<std::size_t>(m_num.u)) : all;
}

std::string Value::describe() const {
  if (m_flavor == flavor::decimal) return "DECIMAL " + m_str;
  if (m_flavor == flavor::raw_with_text) return "the value '" + std::string(text_part()) + "'";
  return type_name(m_type);
}

Value::Value(const std::string& str) : m_type(STRING), m_str(str) {}
Value::Value(std::string&& str) noexcept : m_type(STRING), m_str(std::move(str)) {}
Value::Value(std::string_view str) : m_type(STRING), m_str(str) {}
// A null `const char*` is a null Value rather than undefined behaviour.
Value::Value(const char* str) : m_type(str ? STRING : VNULL), m_str(str ? str : "") {}
Value::Value(const bytes& data)
    : m_type(RAW), m_str(reinterpret_cast<const char*>(data.data()), data.size()) {}
Value::Value(const DbDoc& doc) noexcept
    : m_type(doc.isNull() ? VNULL : DOCUMENT), m_doc(doc.m_impl) {}
// The vector itself is not const, so that release_array() may take the
// arrays nested in it when the last Value holding it goes (value_tree.h).
Value::Value(std::vector<Value>&& items, array_tag)
    : m_type(ARRAY), m_arr(std::make_shared<std::vector<Value>>(std::move(items))) {}
Value::Value(std::initializer_list<Value> items) : Value(std::vector<Value>(items), array_tag{}) {}

bytes::bytes() noexcept : pair(nullptr, 0) {}
bytes::bytes(const byte* data, std::size_t size) noexcept : pair(data, size) {}
bytes::bytes(const byte* first, const byte* last) noexcept
    : pair(first, static_cast<std::size_t>(last - first)) {}
bytes::bytes(const char* text) noexcept
    : pair(reinterpret_cast<const byte*>(text), text != nullptr ? std::strlen(text) : 0) {}
bytes::bytes(std::pair<const byte*, std::size_t> buf) noexcept : pair(buf) {}

Value::Value(const Value&) = default;
// A moved-from Value is null, whatever it held: its document or array
// pointer is gone, so keeping its type would make every accessor crash.
Value::Value(Value&& other) noexcept
    : m_type(other.m_type), m_expr(other.m_expr), m_flavor(other.m_flavor), m_num(other.m_num),
      m_str(std::move(other.m_str)), m_doc(std::move(other.m_doc)), m_arr(std::move(other.m_arr)) {
  other.m_type = VNULL;
  other.m_expr = false;
  other.m_flavor = flavor::plain;
}
Value& Value::operator=(const Value& other) {
  if (this != &other) *this = Value(other);
  return *this;
}
Value& Value::operator=(Value&& other) noexcept {
  if (this != &other) {
    detail::release_array(m_arr); // the old array may be the last owner of a deep one
    m_type = other.m_type;
    m_expr = other.m_expr;
    m_flavor = other.m_flavor;
    m_num = other.m_num;
    m_str = std::move(other.m_str);
    m_doc = std::move(other.m_doc);
    m_arr = std::move(other.m_arr);
    other.m_type = VNULL;
    other.m_expr = false;
    other.m_flavor = flavor::plain;
  }
  return *this;
}
// Freeing a deeply nested array by recursion would overflow the stack.
Value::~Value() {
  if (m_arr) detail::release_array(m_arr);
}

Value::operator std::int64_t() const {
  if (m_flavor == flavor::decimal) return decimal_to_signed(m_str, INT64_MIN, INT64_MAX, "int64_t");
  switch (m_type) {
  case INT64:
    return m_num.i;
  case UINT64:
    if (m_num.u > static_cast<std::uint64_t>(INT64_MAX)) range_error(m_num.u, "int64_t");
    return static_cast<std::int64_t>(m_num.u);
  case BOOL:
    return m_num.b ? 1 : 0;
  default:
    type_error(describe(), "int64_t");
  }
}

Value::operator std::uint64_t() const {
  if (m_flavor == flavor::decimal) return decimal_to_unsigned(m_str, UINT64_MAX, "uint64_t");
  switch (m_type) {
  case UINT64:
    return m_num.u;
  case INT64:
    if (m_num.i < 0) range_error(m_num.i, "uint64_t");
    return static_cast<std::uint64_t>(m_num.i);
  case BOOL:
    return m_num.b ? 1 : 0;
  default:
    type_error(describe(), "uint64_t");
  }
}

Value::operator int() const {
  if (m_flavor == flavor::decimal)
    return static_cast<int>(decimal_to_signed(m_str, INT_MIN, INT_MAX, "int"));
  if (m_type == UINT64) {
    if (m_num.u > static_cast<std::uint64_t>(INT_MAX)) range_error(m_num.u, "int");
    return static_cast<int>(m_num.u);
  }
  if (m_type != INT64 && m_type != BOOL) type_error(describe(), "int");
  const std::int64_t i = static_cast<std::int64_t>(*this);
  if (i < INT_MIN || i > INT_MAX) range_error(i, "int");
  return static_cast<int>(i);
}

Value::operator unsigned() const {
  if (m_flavor == flavor::decimal)
    return static_cast<unsigned>(decimal_to_unsigned(m_str, UINT_MAX, "unsigned"));
  if (m_type != UINT64 && m_type != INT64 && m_type != BOOL) type_error(describe(), "unsigned");
  if (m_type == INT64 && m_num.i < 0) range_error(m_num.i, "unsigned");
  const std::uint64_t u = static_cast<std::uint64_t>(*this);
  if (u > UINT_MAX) range_error(u, "unsigned");
  return static_cast<unsigned>(u);
}

// An integer converts to the nearest float or double, as C++ and
// Connector/C++ 8 convert it (the float of 2^32 - 1 is 2^32). A double does
// not narrow to float: a DOUBLE column is read as double (Connector/C++ 8
// refuses it too); a DECIMAL, which keeps its text, gives its nearest float.
Value::operator double() const {
  switch (m_type) {
  case DOUBLE:
    return m_num.d;
  case FLOAT:
    return m_num.f;
  case INT64:
    return static_cast<double>(m_num.i);
  case UINT64:
    return static_cast<double>(m_num.u);
  default:
    type_error(describe(), "double");
  }
}

Value::operator float() const {
  switch (m_type) {
  case FLOAT:
    return m_num.f;
  case DOUBLE:
    if (m_flavor != flavor::decimal) type_error("a double", "float (read it as double)");
    if (std::isfinite(m_num.d) && std::fabs(m_num.d) > FLT_MAX) {
      usage_error(describe() + " does not fit in float");
    }
    return static_cast<float>(m_num.d);
  case INT64:
    return static_cast<float>(m_num.i);
  case UINT64:
    return static_cast<float>(m_num.u);
  default:
    type_error(describe(), "float");
  }
}

Value::operator bool() const {
  switch (m_type) {
  case BOOL:
    return m_num.b;
  case INT64:
    return m_num.i != 0;
  case UINT64:
    return m_num.u != 0;
  default:
    type_error(describe(), "bool");
  }
}

Value::operator std::string() const {
  return static_cast<string>(*this);
}
Value::operator string() const {
  return text_for("std::string");
}
string Value::text_for(const char* target) const {
  if (m_flavor != flavor::plain) return std::string(text_part());
  if (m_type != STRING && m_type != RAW) type_error(describe(), target);
  return m_str;
}

Value::operator bytes() const {
  return getRawBytes();
}

Value::operator DbDoc() const {
  if (m_type == VNULL) return DbDoc();
  if (m_type != DOCUMENT) type_error(describe(), "DbDoc");
  return DbDoc(m_doc);
}

bytes Value::getRawBytes() const {
  const auto* data = reinterpret_cast<const byte*>(m_str.data());
  if (m_flavor == flavor::raw_with_text) {
    const auto text = static_cast<std::size_t>(m_num.u);
    return bytes(data + text, m_str.size() - text);
  }
  if (m_type != RAW && m_type != STRING && m_flavor != flavor::decimal)
    type_error(describe(), "bytes");
  return bytes(data, m_str.size());
}

bool Value::hasField(const Field& name) const {
  if (m_type != DOCUMENT) type_error(describe(), "a document");
  return m_doc->find(name) != nullptr;
}

const Value& Value::operator[](const Field& name) const {
  if (m_type != DOCUMENT) type_error(describe(), "a document");
  return DbDoc(m_doc)[name];
}

const Value& Value::operator[](const char* name) const {
  return (*this)[Field(name ? name : "")];
}

Value::const_iterator Value::begin() const {
  if (m_type != ARRAY) type_error(describe(), "an array");
  return m_arr->cbegin();
}

Value::const_iterator Value::end() const {
  if (m_type != ARRAY) type_error(describe(), "an array");
  return m_arr->cend();
}

std::size_t Value::elementCount() const {
  if (m_type != ARRAY) type_error(describe(), "an array");
  return m_arr->size();
}

const Value& Value::operator[](std::size_t pos) const {
  if (m_type != ARRAY) type_error(describe(), "an array");
  // std::out_of_range, as a missing DbDoc field (dbdoc.cc says why).
  if (pos >= m_arr->size()) {
    throw std::out_of_range("index " + std::to_string(pos) + " is out of range for an array of " +
                            std::to_string(m_arr->size()) + " elements");
  }
  return (*m_arr)[pos];
}

const Value& Value::operator[](unsigned pos) const {
  return (*this)[std::size_t{pos}];
}

const Value& Value::operator[](int pos) const {
  if (pos < 0) throw std::out_of_range("negative array index " + std::to_string(pos));
  return (*this)[static_cast<std::size_t>(pos)];
}

void Value::print(std::ostream& out) const {
  // A string (or raw bytes) on its own prints as its text, so that
  // `std::cout << row[0]` shows a name, not a JSON literal.
  if (m_type == STRING || m_type == RAW || m_flavor != flavor::plain) {
    out << text_part();
    return;
  }
  std::string text;
  detail::append_json(text, *this);
  out << text;
}

MYSQLX_NAMESPACE_END
