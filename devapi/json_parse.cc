// JSON text -> Values, over cdk::json's SAX parser.
//
// The parser enforces JSON's syntax, valid UTF-8 and a nesting limit
// (read_max_depth, json_parse.h), which also bounds what a hostile
// "[[[[..." can make us allocate; this file only builds Values.
//
// Nested objects keep their place in the text: the parser reports the offset
// of each '{' and just past its '}', so a nested DbDoc prints (and would go
// on the wire) as the very text the user wrote, sharing the parent's string.
#include "devapi/json_parse.h"

#include "cdk/foundation/error.h"
#include "cdk/json/json_parser.h"
#include "devapi/access.h"
#include "devapi/throw_error.h"

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

MYSQLX_NAMESPACE_BEGIN
namespace detail {
namespace {

struct frame {
  bool is_object = false;
  std::size_t begin = 0;    // offset of '{' or '['
  field_list fields;        // objects
  std::vector<Value> items; // arrays
  std::string key;          // objects: the name of the value being read
};

class builder final : public cdk::json::sax_handler {
public:
  // `object_only`: stop at once if the root is not an object (DbDoc text).
  builder(const std::shared_ptr<const std::string>& text, std::size_t base, bool object_only)
      : m_text(text), m_base(base), m_object_only(object_only) {}

  bool null() override { return put(Value()); }
  bool boolean(bool b) override { return put(Value(b)); }
  // A non-negative integer is UINT64, a negative one INT64, as in
  // Connector/C++ 8 (code switching on getType() for JSON numbers expects
  // it); both convert to every integer type they fit.
  bool int64(std::int64_t i) override {
    return i >= 0 ? put(Value(static_cast<std::uint64_t>(i))) : put(Value(i));
  }
  bool uint64(std::uint64_t u) override { return put(Value(u)); }
  bool dbl(double d) override { return put(Value(d)); }
  bool string(std::string_view s) override { return put(Value(std::string(s))); }
  bool key(std::string_view k) override {
    m_stack.back().key.assign(k);
    return true;
  }
  bool start_object(std::size_t offset) override { return open(true, offset); }
  bool start_array(std::size_t offset) override { return open(false, offset); }
  bool end_object(std::size_t end) override {
    frame done = std::move(m_stack.back());
    m_stack.pop_back();
    if (m_stack.empty()) {
      m_root_fields = std::move(done.fields);
      m_root_is_object = true;
      m_root_begin = done.begin;
      m_root_end = m_base + end;
      return true;
    }
    auto doc =
        std::make_shared<const doc_impl>(m_text, done.begin, m_base + end, std::move(done.fields));
    return put(access::make_document(std::move(doc)));
  }
  bool end_array(std::size_t) override {
    frame done = std::move(m_stack.back());
    m_stack.pop_back();
    return put(access::make_array(std::move(done.items)));
  }

  bool root_not_object() const noexcept { return m_root_not_object; }
  field_list take_fields() { return std::move(m_root_fields); }
  // The root as a Value: an object becomes a DbDoc over its own slice.
  Value take_root() {
    if (!m_root_is_object) return std::move(m_root);
    return access::make_document(std::make_shared<const doc_impl>(m_text, m_root_begin, m_root_end,
                                                                  std::move(m_root_fields)));
  }

private:
  bool open(bool is_object, std::size_t offset) {
    if (m_stack.empty() && !is_object && m_object_only) {
      m_root_not_object = true;
      return false;
    }
    frame f;
    f.is_object = is_object;
    f.begin = m_base + offset;
    m_stack.push_back(std::move(f));
    return true;
  }
  bool put(Value&& v) {
    if (m_stack.empty()) { // a scalar or an array at the root
      if (m_object_only) {
        m_root_not_object = true;
        return false;
      }
      m_root = std::move(v);
      return true;
    }
    frame& top = m_stack.back();
    if (top.is_object) {
      top.fields.emplace_back(std::move(top.key), std::move(v));
      top.key.clear();
    } else {
      top.items.push_back(std::move(v));
    }
    return true;
  }

  const std::shared_ptr<const std::string>& m_text;
  std::size_t m_base;
  bool m_object_only;
  std::vector<frame> m_stack;
  field_list m_root_fields;
  Value m_root;
  bool m_root_is_object = false;
  std::size_t m_root_begin = 0, m_root_end = 0;
  bool m_root_not_object = false;
};

// The values a document's field most often holds, read without the parser
// (a field read by name parses only its value: devapi/dbdoc.cc): an integer
// that fits in int64_t, true, false, null, and a string of printable ASCII
// without escapes. Nothing for anything else, which the parser then reads.
std::optional<Value> simple_scalar(std::string_view t) {
  if (t.empty()) return std::nullopt;
  if (t == "true") return Value(true);
  if (t == "false") return Value(false);
  if (t == "null") return Value();
  if (t.front() == '"') {
    if (t.size() < 2 || t.back() != '"') return std::nullopt;
    const std::string_view body = t.substr(1, t.size() - 2);
    for (const char c : body)
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') return std::nullopt;
    return Value(std::string(body));
  }
  // JSON's integers: -?(0|[1-9][0-9]*)
  const std::size_t digits = t.front() == '-' ? 1 : 0;
  if (digits == t.size() || (t[digits] == '0' && t.size() > digits + 1)) return std::nullopt;
  std::int64_t i = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), i);
  if (ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
  return i >= 0 ? Value(static_cast<std::uint64_t>(i)) : Value(i); // as builder::int64()
}

[[noreturn]] void bad_json(const char* what, const cdk::json::parse_result& r) {
  throw_error(cdk::error::client(cdk::client_errc::bad_document, std::string(what) + r.describe()));
}

} // namespace

field_list parse_json_object(const std::shared_ptr<const std::string>& text, std::size_t begin,
                             std::size_t end) {
  builder b(text, begin, true);
  const auto r =
      cdk::json::parse(std::string_view(*text).substr(begin, end - begin), b, read_max_depth);
  if (b.root_not_object()) {
    throw_error(cdk::error::client(cdk::client_errc::bad_document,
                                   "DbDoc: the JSON text is not an object"));
  }
  if (!r.ok()) bad_json("DbDoc: not a valid JSON object: ", r);
  return b.take_fields();
}

std::optional<Value> parse_json_value(const std::shared_ptr<const std::string>& text) {
  return parse_json_value(text, 0, text->size());
}

std::optional<Value> parse_json_value(const std::shared_ptr<const std::string>& text,
                                      std::size_t begin, std::size_t end) {
  if (auto v = simple_scalar(std::string_view(*text).substr(begin, end - begin))) return v;
  builder b(text, begin, false);
  if (!cdk::json::parse(std::string_view(*text).substr(begin, end - begin), b, read_max_depth).ok())
    return std::nullopt;
  return b.take_root();
}

} // namespace detail
MYSQLX_NAMESPACE_END
