// cdk::json::parse over RapidJSON's SAX Reader.
//
// The iterative parser is used so that nesting costs heap, not stack; the
// adapter refuses a start event beyond max_depth before RapidJSON pushes
// anything for it. RapidJSON calls StartObject()/StartArray() with the stream
// still on '{' / '[' and EndObject()/EndArray() with it still on '}' / ']',
// so Tell() there gives the exact slice of each object and array.
#include "cdk/json/json_parser.h"

#include <limits>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

namespace cdk::json {
namespace {

class adapter {
public:
  adapter(sax_handler& h, const rapidjson::MemoryStream& in) : m_h(h), m_in(in) {}

  bool Null() { return m_h.null(); }
  bool Bool(bool b) { return m_h.boolean(b); }
  bool Int(int i) { return m_h.int64(i); }
  bool Uint(unsigned u) { return m_h.int64(static_cast<std::int64_t>(u)); }
  bool Int64(std::int64_t i) { return m_h.int64(i); }
  bool Uint64(std::uint64_t u) {
    if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return m_h.int64(static_cast<std::int64_t>(u));
    return m_h.uint64(u);
  }
  bool Double(double d) { return m_h.dbl(d); }
  bool RawNumber(const char*, rapidjson::SizeType, bool) { return false; } // not enabled
  bool String(const char* s, rapidjson::SizeType n, bool) {
    return m_h.string(std::string_view(s, n));
  }
  bool Key(const char* s, rapidjson::SizeType n, bool) { return m_h.key(std::string_view(s, n)); }
  bool StartObject() { return open() && m_h.start_object(m_in.Tell()); }
  bool StartArray() { return open() && m_h.start_array(m_in.Tell()); }
  bool EndObject(rapidjson::SizeType) {
    --m_depth;
    return m_h.end_object(m_in.Tell() + 1);
  }
  bool EndArray(rapidjson::SizeType) {
    --m_depth;
    return m_h.end_array(m_in.Tell() + 1);
  }

  bool too_deep() const noexcept { return m_too_deep; }

private:
  bool open() noexcept {
    if (m_depth >= max_depth) {
      m_too_deep = true;
      return false;
    }
    ++m_depth;
    return true;
  }

  sax_handler& m_h;
  const rapidjson::MemoryStream& m_in;
  std::size_t m_depth = 0;
  bool m_too_deep = false;
};

} // namespace

std::string parse_result::describe() const {
  if (ok()) return std::string();
  return std::string(error ? error : "invalid JSON") + " at offset " + std::to_string(offset);
}

parse_result parse(std::string_view text, sax_handler& handler) {
  constexpr unsigned flags = rapidjson::kParseIterativeFlag |
                             rapidjson::kParseValidateEncodingFlag |
                             rapidjson::kParseFullPrecisionFlag;
  rapidjson::MemoryStream in(text.data(), text.size());
  adapter a(handler, in);
  rapidjson::Reader reader;
  const rapidjson::ParseResult r = reader.Parse<flags>(in, a);
  parse_result out;
  if (a.too_deep()) {
    out.status = parse_status::too_deep;
    out.offset = r.Offset();
    static_assert(max_depth == 100, "the message names the limit");
    out.error = "nested deeper than 100 levels";
    return out;
  }
  if (r.IsError()) {
    out.offset = r.Offset();
    if (r.Code() == rapidjson::kParseErrorTermination) {
      out.status = parse_status::stopped;
      out.error = "stopped by the handler";
    } else {
      out.status = parse_status::invalid_json;
      out.error = rapidjson::GetParseError_En(r.Code());
    }
    return out;
  }
  // MemoryStream reads a NUL byte as the end of the text: whatever follows
  // it was never parsed.
  if (in.Tell() != text.size()) {
    out.status = parse_status::invalid_json;
    out.offset = in.Tell();
    out.error = "unexpected NUL character";
  }
  return out;
}

} // namespace cdk::json
