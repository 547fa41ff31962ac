// Wire values and column metadata to DevAPI Values and Columns: which
// mysqlx::Type a column has and how each field becomes a Value (the mapping
// is described at the top of include/mysqlx/value.h).
#include "devapi/result_convert.h"

#include "devapi/access.h"
#include "devapi/doc_impl.h"
#include "devapi/json_parse.h"
#include "devapi/result_data.h"

#include <charconv>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

namespace pr = cdk::protocol;

namespace {

Type column_type(const pr::column_meta& c) {
  switch (c.type) {
  case pr::field_type::sint:
  case pr::field_type::uint:
    // Display widths, as Connector/C++ maps them.
    return c.length <= 4    ? Type::TINYINT
           : c.length <= 6  ? Type::SMALLINT
           : c.length <= 9  ? Type::MEDIUMINT
           : c.length <= 11 ? Type::INT
                            : Type::BIGINT;
  case pr::field_type::dbl:
    return Type::DOUBLE;
  case pr::field_type::flt:
    return Type::FLOAT;
  case pr::field_type::decimal:
    return Type::DECIMAL;
  case pr::field_type::bytes:
    if (c.content_type == 1) return Type::GEOMETRY;
    if (c.content_type == 2) return Type::JSON;
    return c.collation == 63 ? Type::BYTES : Type::STRING;
  case pr::field_type::time:
    return Type::TIME;
  case pr::field_type::datetime:
    if (c.content_type == 1) return Type::DATE;
    return (c.flags & 1u) != 0 ? Type::TIMESTAMP : Type::DATETIME;
  case pr::field_type::set:
    return Type::SET;
  case pr::field_type::enumeration:
    return Type::ENUM;
  case pr::field_type::bit:
    return Type::BIT;
  }
  return Type::STRING;
}

// MySQL 8.0.30's name of a collation; one it does not have is shown by number.
std::string collation_name(std::uint64_t id) {
  if (id <= UINT32_MAX)
    if (const CollationInfo* info = find_collation(static_cast<unsigned>(id)))
      return info->getName();
  return id == 0 ? std::string() : std::to_string(id);
}

// DECIMAL: the decoder's exact text ("-12.50") and its nearest double.
Value decimal_value(const std::string& text) {
  double d = 0;
  std::from_chars(text.data(), text.data() + text.size(), d);
  return value_access::make_decimal(text, d);
}

// DATE / DATETIME / TIMESTAMP / TIME: the decoder's text, and the field's
// bytes exactly as the server sent them (Connector/C++ 8's getRawBytes():
// 6 bytes for "2014-05-11 10:40", whose zero seconds the server leaves out).
// A zero time part that the server left out of a DATETIME or TIMESTAMP is
// added to the text, not to the bytes.
Value temporal_value(std::string text, std::string_view wire, const pr::column_meta& c) {
  const bool has_time = c.content_type == 2 || (c.flags & 1u) != 0;
  if (c.type == pr::field_type::datetime && has_time && text.size() == 10) text += " 00:00:00";
  return value_access::make_raw_with_text(std::move(text), std::string(wire));
}

// SET: RAW, as in Connector/C++ 8, with the field's bytes as sent and the
// SQL text of the set, "a,b,c" ("" for the empty set), as MySQL shows it.
Value set_value(const pr::value& v, std::string_view wire) {
  std::string text;
  for (std::size_t i = 0; i < v.items.size(); ++i) {
    if (i > 0) text += ',';
    text += v.items[i].bytes;
  }
  return value_access::make_raw_with_text(std::move(text), wire);
}

// A JSON column: objects stay text until a field is read, like any DbDoc;
// arrays and scalars are parsed now. Text that is not JSON (never sent by a
// server) stays a string, so nothing is lost.
Value json_value(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{')
    return access::make_document(
        std::make_shared<const doc_impl>(std::string(text), doc_impl::from_server_t{}));
  auto v = parse_json_value(std::make_shared<const std::string>(text));
  return v ? std::move(*v) : Value(std::string(text));
}

// A BYTES field's text: JSON, binary (the binary collation) or a string.
Value octets_value(std::string_view text, std::uint32_t content_type, const pr::column_meta& c) {
  if (content_type == 2) return json_value(text);
  if (c.collation == 63 && content_type == 0)
    return Value(bytes(reinterpret_cast<const byte*>(text.data()), text.size()));
  return Value(std::string(text));
}

} // namespace

Column make_column(const pr::column_meta& c) {
  auto d = std::make_unique<column_data>();
  d->schema = c.schema;
  d->table = c.original_table;
  d->table_label = c.table;
  d->name = c.original_name;
  d->label = c.name;
  d->type = column_type(c);
  d->length = c.length;
  d->fractional_digits = static_cast<unsigned short>(c.fractional_digits);
  d->is_signed = c.type == pr::field_type::sint ||
                 ((c.type == pr::field_type::dbl || c.type == pr::field_type::flt ||
                   c.type == pr::field_type::decimal) &&
                  (c.flags & 1u) == 0);
  d->padded = c.type == pr::field_type::bytes && (c.flags & 1u) != 0;
  if (c.type == pr::field_type::bytes || c.type == pr::field_type::enumeration ||
      c.type == pr::field_type::set) {
    d->collation = collation_name(c.collation);
    d->collation_id = c.collation <= UINT32_MAX ? static_cast<unsigned>(c.collation) : 0;
    d->charset = d->collation.substr(0, d->collation.find('_'));
  }
  return access::make_column(std::move(d));
}

Value to_value(const pr::value& v, const pr::column_meta& c, std::string_view wire) {
  switch (v.type) {
  case pr::value::kind::null:
    return Value();
  case pr::value::kind::sint:
    return Value(v.sint);
  case pr::value::kind::uint:
    return Value(v.uint);
  case pr::value::kind::dbl:
    if (c.type == pr::field_type::flt) return Value(static_cast<float>(v.dbl));
    return Value(v.dbl);
  case pr::value::kind::boolean:
    return Value(v.boolean);
  case pr::value::kind::string:
    if (c.type == pr::field_type::decimal) return decimal_value(v.bytes);
    if (c.type == pr::field_type::datetime || c.type == pr::field_type::time)
      return temporal_value(v.bytes, wire, c);
    return Value(v.bytes);
  case pr::value::kind::octets:
    return octets_value(v.bytes, v.content_type, c);
  case pr::value::kind::array: {
    if (c.type == pr::field_type::set) return set_value(v, wire);
    std::vector<Value> items;
    for (const pr::value& i : v.items) items.push_back(to_value(i, c));
    return access::make_array(std::move(items));
  }
  case pr::value::kind::object:
    break;
  }
  return Value();
}

cdk::result<Value> to_value(std::string_view field, const pr::column_meta& c) {
  if (c.type == pr::field_type::bytes && !field.empty()) {
    // Straight from the wire, without the '\0' that ends every BYTES field.
    return octets_value(field.substr(0, field.size() - 1), c.content_type, c);
  }
  auto v = pr::decode_field(c, field);
  if (!v) return std::move(v).err();
  return to_value(v.value(), c, field);
}

} // namespace detail
MYSQLX_NAMESPACE_END
