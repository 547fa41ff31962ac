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

#include "cdk/json/insitu_copy.h"
#include "cdk/json/parse_error.h"

#include <charconv>
#include <clocale>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <locale.h>
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>
#include <string>

namespace cdk::json {
namespace {

template <typename Stream> class adapter {
public:
  adapter(sax_handler& h, Stream& in, std::size_t max_levels)
      : m_h(h), m_in(in), m_max_levels(max_levels) {}

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
  // Numbers arrive as text (kParseNumbersAsStringsFlag) and are converted
  // here: RapidJSON 1.1's full-precision double path has undefined behaviour
  // on some long inputs (found by fuzz_json_parser under UBSan), and glibc's
  // strtod is exact.
  bool RawNumber(const char* s, rapidjson::SizeType n, bool) {
    const char* const end = s + n;
    if (std::string_view(s, n).find_first_of(".eE") == std::string_view::npos) {
      std::int64_t i = 0;
      if (auto [p, ec] = std::from_chars(s, end, i); ec == std::errc() && p == end)
        return m_h.int64(i);
      std::uint64_t u = 0;
      if (auto [p, ec] = std::from_chars(s, end, u); ec == std::errc() && p == end)
        return m_h.uint64(u);
      // Beyond 64 bits: a double, as RapidJSON does.
    }
    char local[64];
    std::string heap;
    const char* text = local;
    if (n < sizeof local) {
      std::memcpy(local, s, n);
      local[n] = '\0';
    } else {
      heap.assign(s, n);
      text = heap.c_str();
    }
    static const locale_t c_locale = newlocale(LC_ALL_MASK, "C", nullptr);
    const double d = strtod_l(text, nullptr, c_locale);
    if (std::isinf(d)) {
      m_too_big = true;
      return false;
    }
    return m_h.dbl(d);
  }
  bool String(const char* s, rapidjson::SizeType n, bool) {
    return text_ok(s, n) && m_h.string(std::string_view(s, n));
  }
  bool Key(const char* s, rapidjson::SizeType n, bool) {
    return text_ok(s, n) && m_h.key(std::string_view(s, n));
  }
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
  bool lone_surrogate() const noexcept { return m_lone_surrogate; }
  bool too_big() const noexcept { return m_too_big; }

private:
  // RapidJSON checks the raw bytes, but decodes a lone "\uDC00".."\uDFFF"
  // escape to the UTF-8 form of a surrogate (ED A0..BF xx), which is not
  // UTF-8. Valid text never holds ED followed by A0..BF, so that pair is all
  // there is to look for (found by fuzz_json_parser).
  bool text_ok(const char* s, std::size_t n) noexcept {
    const char* const end = s + n;
    for (const char* p = s; p < end; ++p) {
      p = static_cast<const char*>(std::memchr(p, '\xed', static_cast<std::size_t>(end - p)));
      if (p == nullptr) return true;
      if (p + 1 < end && static_cast<unsigned char>(p[1]) >= 0xa0) {
        m_lone_surrogate = true;
        return false;
      }
    }
    return true;
  }

  bool open() noexcept {
    if (m_depth >= m_max_levels) {
      m_too_deep = true;
      return false;
    }
    ++m_depth;
    return true;
  }

  sax_handler& m_h;
  Stream& m_in; // Tell() is not const on every stream
  std::size_t m_max_levels;
  std::size_t m_depth = 0;
  bool m_too_deep = false;
  bool m_lone_surrogate = false;
  bool m_too_big = false;
};

template <unsigned Extra, typename Stream>
parse_result parse_stream(Stream& in, std::string_view text, sax_handler& handler,
                          std::size_t max_levels) {
  const std::size_t size = text.size();
  constexpr unsigned flags = rapidjson::kParseIterativeFlag |
                             rapidjson::kParseValidateEncodingFlag |
                             rapidjson::kParseNumbersAsStringsFlag | Extra;
  alignas(std::max_align_t) unsigned char buffer[512];
  rapidjson::MemoryPoolAllocator<> pool(buffer, sizeof buffer);
  rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>, rapidjson::MemoryPoolAllocator<>>
      reader(&pool, 128);
  adapter<Stream> a(handler, in, max_levels);
  const rapidjson::ParseResult r = reader.template Parse<flags>(in, a);
  parse_result out;
  if (a.too_deep()) {
    out.status = parse_status::too_deep;
    out.offset = r.Offset();
    out.levels = max_levels;
    out.error = "nested deeper than the limit"; // describe() names it
    return out;
  }
  if (a.too_big()) {
    out.status = parse_status::invalid_json;
    out.offset = r.Offset();
    out.error = rapidjson::GetParseError_En(rapidjson::kParseErrorNumberTooBig);
    return out;
  }
  if (a.lone_surrogate()) {
    out.status = parse_status::invalid_json;
    out.offset = r.Offset();
    out.error = "a \\u escape of a lone surrogate, which is not a character";
    return out;
  }
  if (r.IsError()) {
    out.offset = r.Offset();
    if (r.Code() == rapidjson::kParseErrorTermination) {
      out.status = parse_status::stopped;
      out.error = "stopped by the handler";
    } else {
      out.status = parse_status::invalid_json;
      out.error = parse_error_text(r.Code(), text, r.Offset());
    }
    return out;
  }
  // Both streams read a NUL byte as the end of the text: whatever follows it
  // was never parsed.
  if (in.Tell() != size) {
    out.status = parse_status::invalid_json;
    out.offset = in.Tell();
    out.error = "a NUL byte after the JSON value";
  }
  return out;
}

} // namespace

std::string parse_result::describe() const {
  if (ok()) return std::string();
  if (status == parse_status::too_deep)
    return "nested deeper than " + std::to_string(levels) + " levels at offset " +
           std::to_string(offset);
  std::string_view what(error ? error : "invalid JSON");
  if (!what.empty() && what.back() == '.') what.remove_suffix(1); // RapidJSON's full stop
  return std::string(what) + " at offset " + std::to_string(offset);
}

parse_result parse(std::string_view text, sax_handler& handler, std::size_t max_levels) {
  detail::insitu_copy copy(text);
  rapidjson::InsituStringStream in(copy.data());
  return parse_stream<rapidjson::kParseInsituFlag>(in, text, handler, max_levels);
}

} // namespace cdk::json
