#include "devapi/json_print.h"

#include "cdk/json/json_string.h"
#include "devapi/access.h"
#include "devapi/doc_impl.h"

#include <charconv>
#include <cmath>
#include <string>
#include <vector>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

std::string format_double(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, d); // shortest round-trip form
  return std::string(buf, r.ptr);
}

namespace {

void append_number(std::string& out, double d) {
  if (!std::isfinite(d)) {
    out += "null"; // JSON has no NaN or infinity
    return;
  }
  const std::string text = format_double(d);
  out += text;
  if (text.find_first_of(".e") == std::string::npos) out += ".0";
}

void append_hex(std::string& out, const std::string& raw) {
  static const char digits[] = "0123456789abcdef";
  out += '"';
  for (unsigned char c : raw) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  out += '"';
}

// Everything but an array.
void append_leaf(std::string& out, const Value& v) {
  switch (v.getType()) {
  case Value::VNULL:
    out += "null";
    return;
  case Value::INT64:
    out += std::to_string(v.get<std::int64_t>());
    return;
  case Value::UINT64:
    out += std::to_string(v.get<std::uint64_t>());
    return;
  case Value::FLOAT:
    append_number(out, v.get<float>());
    return;
  case Value::DOUBLE:
    if (value_access::is_decimal(v)) {
      out += value_access::text_of(v); // exact, and already a JSON number
      return;
    }
    append_number(out, v.get<double>());
    return;
  case Value::BOOL:
    out += v.get<bool>() ? "true" : "false";
    return;
  case Value::STRING:
    cdk::json::append_json_string(out, access::text_of(v));
    return;
  case Value::RAW:
    if (value_access::has_text(v)) {
      cdk::json::append_json_string(out, value_access::text_of(v));
      return;
    }
    append_hex(out, access::text_of(v));
    return;
  case Value::DOCUMENT:
    out += access::doc_of(v)->json();
    return;
  case Value::ARRAY:
    return; // append_json() opens arrays
  }
}

} // namespace

// Arrays nest as deep as a program makes them: the open ones are kept in a
// list, not on the stack (value_tree.h).
void append_json(std::string& out, const Value& v) {
  struct open_array {
    const std::vector<Value>* items;
    std::size_t next;
  };
  std::vector<open_array> open;
  const Value* item = &v;
  for (;;) {
    if (item != nullptr && item->getType() == Value::ARRAY) {
      out += '[';
      open.push_back({access::array_of(*item).get(), 0});
    } else if (item != nullptr) {
      append_leaf(out, *item);
    }
    if (open.empty()) return;
    open_array& top = open.back();
    if (top.next == top.items->size()) {
      out += ']';
      open.pop_back();
      item = nullptr;
      continue;
    }
    if (top.next != 0) out += ", ";
    item = &(*top.items)[top.next++];
  }
}

} // namespace detail
MYSQLX_NAMESPACE_END
