// JSON text -> Values, with RapidJSON's SAX reader.
//
// The iterative parser is used so that nesting depth costs heap, not stack;
// the handler itself refuses more than MySQL's 100 levels (cdk::json::max_depth),
// which also bounds what a hostile "[[[[..." can make us allocate.
//
// Nested objects keep their place in the text: RapidJSON calls StartObject()
// with the stream still on '{' and EndObject() with it still on '}', so
// Tell() there gives the object's exact slice, and a nested DbDoc prints (and
// would go on the wire) as the very text the user wrote.
#include "devapi/json_parse.h"

#include "cdk/foundation/error.h"
#include "cdk/json/id_scan.h"
#include "devapi/access.h"
#include "devapi/throw_error.h"

#include <cstdint>
#include <limits>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
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

class builder {
public:
  builder(const std::shared_ptr<const std::string>& text, rapidjson::MemoryStream& in,
          std::size_t base)
      : m_text(text), m_in(in), m_base(base) {}

  bool Null() { return put(Value()); }
  bool Bool(bool b) { return put(Value(b)); }
  bool Int(int i) { return put(Value(static_cast<std::int64_t>(i))); }
  bool Uint(unsigned u) { return put(Value(static_cast<std::int64_t>(u))); }
  bool Int64(std::int64_t i) { return put(Value(i)); }
  // Integers that fit in int64_t are INT64, so {"n": 1} reads back as INT64
  // whatever its sign; only larger ones are UINT64.
  bool Uint64(std::uint64_t u) {
    if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return put(Value(static_cast<std::int64_t>(u)));
    }
    return put(Value(u));
  }
  bool Double(double d) { return put(Value(d)); }
  bool RawNumber(const char*, rapidjson::SizeType, bool) { return false; } // not enabled
  bool String(const char* s, rapidjson::SizeType n, bool) { return put(Value(std::string(s, n))); }
  bool Key(const char* s, rapidjson::SizeType n, bool) {
    m_stack.back().key.assign(s, n);
    return true;
  }
  bool StartObject() { return open(true); }
  bool StartArray() { return open(false); }
  bool EndObject(rapidjson::SizeType) {
    frame done = std::move(m_stack.back());
    m_stack.pop_back();
    if (m_stack.empty()) {
      m_root = std::move(done.fields);
      return true;
    }
    const std::size_t end = m_base + m_in.Tell() + 1; // just past '}'
    auto doc = std::make_shared<const doc_impl>(m_text, done.begin, end, std::move(done.fields));
    return put(access::make_document(std::move(doc)));
  }
  bool EndArray(rapidjson::SizeType) {
    frame done = std::move(m_stack.back());
    m_stack.pop_back();
    if (m_stack.empty()) return false; // the root is an array: reported as "not an object"
    return put(access::make_array(std::move(done.items)));
  }

  bool too_deep() const noexcept { return m_too_deep; }
  bool root_not_object() const noexcept { return m_root_not_object; }
  field_list take_root() { return std::move(m_root); }

private:
  bool open(bool is_object) {
    if (m_stack.empty() && !is_object) {
      m_root_not_object = true;
      return false;
    }
    if (m_stack.size() >= cdk::json::max_depth) {
      m_too_deep = true;
      return false;
    }
    frame f;
    f.is_object = is_object;
    f.begin = m_base + m_in.Tell(); // on '{' or '['
    m_stack.push_back(std::move(f));
    return true;
  }
  bool put(Value&& v) {
    if (m_stack.empty()) {
      m_root_not_object = true; // a scalar root
      return false;
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
  rapidjson::MemoryStream& m_in;
  std::size_t m_base;
  std::vector<frame> m_stack;
  field_list m_root;
  bool m_too_deep = false;
  bool m_root_not_object = false;
};

[[noreturn]] void bad_json(const std::string& why, std::size_t offset) {
  throw_error(cdk::error::client(cdk::client_errc::bad_document,
                                 "DbDoc: not a valid JSON object: " + why + " at offset " +
                                     std::to_string(offset)));
}

} // namespace

field_list parse_json_object(const std::shared_ptr<const std::string>& text, std::size_t begin,
                             std::size_t end) {
  constexpr unsigned flags = rapidjson::kParseIterativeFlag |
                             rapidjson::kParseValidateEncodingFlag |
                             rapidjson::kParseFullPrecisionFlag;
  rapidjson::MemoryStream in(text->data() + begin, end - begin);
  builder b(text, in, begin);
  rapidjson::Reader reader;
  const rapidjson::ParseResult r = reader.Parse<flags>(in, b);
  if (b.root_not_object()) {
    throw_error(cdk::error::client(cdk::client_errc::bad_document,
                                   "DbDoc: the JSON text is not an object"));
  }
  if (b.too_deep()) {
    bad_json("nested deeper than " + std::to_string(cdk::json::max_depth) + " levels", r.Offset());
  }
  if (r.IsError()) bad_json(rapidjson::GetParseError_En(r.Code()), r.Offset());
  // MemoryStream reads a NUL byte as the end of the text; anything after it
  // is not JSON.
  if (in.Tell() != end - begin) bad_json("unexpected NUL character", in.Tell());
  return b.take_root();
}

} // namespace detail
MYSQLX_NAMESPACE_END
