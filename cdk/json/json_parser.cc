// cdk::json::parse over RapidJSON's SAX Reader.
//
// Speed: the text is copied (to the stack up to 4 KB) with a NUL after it and
// parsed in situ, so strings are unescaped in place instead of being pushed
// character by character onto the reader's stack; the reader's own stack
// starts in a small local buffer. Both as in id_scan.cc.
//
// The iterative parser is used so that nesting costs heap, not stack; the
// adapter refuses a start event beyond max_depth before RapidJSON pushes
// anything for it. RapidJSON calls StartObject()/StartArray() with the stream
// still on '{' / '[' and EndObject()/EndArray() with it still on '}' / ']',
// so Tell() there gives the exact slice of each object and array.
#include "cdk/json/json_parser.h"

#include <cstring>
#include <limits>
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>
#include <string>

namespace cdk::json {
namespace {

template <typename Stream> class adapter {
public:
  adapter(sax_handler& h, Stream& in) : m_h(h), m_in(in) {}

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
  Stream& m_in; // Tell() is not const on every stream
  std::size_t m_depth = 0;
  bool m_too_deep = false;
};

template <unsigned Extra, typename Stream>
parse_result parse_stream(Stream& in, std::size_t size, sax_handler& handler) {
  constexpr unsigned flags = rapidjson::kParseIterativeFlag |
                             rapidjson::kParseValidateEncodingFlag |
                             rapidjson::kParseFullPrecisionFlag | Extra;
  alignas(std::max_align_t) unsigned char buffer[512];
  rapidjson::MemoryPoolAllocator<> pool(buffer, sizeof buffer);
  rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>, rapidjson::MemoryPoolAllocator<>>
      reader(&pool, 128);
  adapter<Stream> a(handler, in);
  const rapidjson::ParseResult r = reader.template Parse<flags>(in, a);
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
  // Both streams read a NUL byte as the end of the text: whatever follows it
  // was never parsed.
  if (in.Tell() != size) {
    out.status = parse_status::invalid_json;
    out.offset = in.Tell();
    out.error = "unexpected NUL character";
  }
  return out;
}

} // namespace

std::string parse_result::describe() const {
  if (ok()) return std::string();
  std::string_view what(error ? error : "invalid JSON");
  if (!what.empty() && what.back() == '.') what.remove_suffix(1); // RapidJSON's full stop
  return std::string(what) + " at offset " + std::to_string(offset);
}

parse_result parse(std::string_view text, sax_handler& handler) {
  constexpr std::size_t padding = 16; // the NUL, with room to spare
  alignas(16) char local[4096];
  std::string heap;
  char* copy = local;
  if (text.size() + padding > sizeof local) {
    heap.reserve(text.size() + padding);
    heap.append(text).append(padding, '\0');
    copy = heap.data();
  } else {
    std::memcpy(copy, text.data(), text.size());
    std::memset(copy + text.size(), 0, padding);
  }
  rapidjson::InsituStringStream in(copy);
  return parse_stream<rapidjson::kParseInsituFlag>(in, text.size(), handler);
}

} // namespace cdk::json
