#include "cdk/json/id_scan.h"

#include "cdk/json/insitu_copy.h"
#include "cdk/json/json_string.h"

// RAPIDJSON_SSE2 stays off: Debian's RapidJSON 1.1.0 SIMD string scanner
// lets control characters 0x1a..0x1f through unescaped (found by
// fuzz_docid_json comparing the two scan paths); MySQL would refuse them.
#include <cmath>
#include <cstring>
#include <iterator>
#include <new>
#include <optional>
#include <rapidjson/allocators.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#include <string>

namespace cdk::json {

namespace {

constexpr bool is_json_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Why a scan was stopped by the handler (RapidJSON only says "terminated").
enum class stop_reason : std::uint8_t { none, found_id, not_object, too_deep, not_finite };

// SAX handler: tracks the nesting depth, which top-level member is the first
// `_id`, and that value's type. It never asks the stream for a position:
// RapidJSON parses strings and numbers on a local copy of a string stream, so
// the position seen from a callback can be stale. The span of the value is
// found afterwards by member_value().
class id_handler {
public:
  explicit id_handler(scan_mode mode) : m_mode(mode) {}

  bool Null() { return scalar(value_type::null); }
  bool Bool(bool) { return scalar(value_type::boolean); }
  bool Int(int) { return scalar(value_type::number); }
  bool Uint(unsigned) { return scalar(value_type::number); }
  bool Int64(std::int64_t) { return scalar(value_type::number); }
  bool Uint64(std::uint64_t) { return scalar(value_type::number); }
  bool Double(double d) {
    // MySQL refuses non-finite doubles even when the reader lets one through.
    if (!std::isfinite(d)) return stop(stop_reason::not_finite);
    return scalar(value_type::number);
  }
  bool RawNumber(const char*, rapidjson::SizeType, bool) { return scalar(value_type::number); }
  bool String(const char*, rapidjson::SizeType, bool) { return scalar(value_type::string); }
  bool StartObject() { return open(value_type::object); }
  bool StartArray() { return open(value_type::array); }
  bool EndObject(rapidjson::SizeType) { return close(); }
  bool EndArray(rapidjson::SizeType) { return close(); }

  // Keys arrive unescaped, so "\u005fid" is seen as "_id", and a key with an
  // embedded NUL ("_id\u0000") has length 4 and is not `_id`.
  bool Key(const char* s, rapidjson::SizeType n, bool) {
    if (m_depth != 1) return true;
    const std::size_t index = m_members++;
    if (n != 3 || s[0] != '_' || s[1] != 'i' || s[2] != 'd') return true;
    if (m_found || m_capturing) {
      m_duplicate = true;
      return true;
    }
    m_capturing = true;
    m_id_member = index;
    return true;
  }

  stop_reason reason() const noexcept { return m_reason; }
  bool found() const noexcept { return m_found; }
  bool duplicate() const noexcept { return m_duplicate; }
  std::size_t id_member() const noexcept { return m_id_member; }
  value_type type() const noexcept { return m_type; }

private:
  bool stop(stop_reason why) noexcept {
    m_reason = why;
    return false;
  }

  bool scalar(value_type type) {
    if (m_depth == 0) return root_not_object(type);
    if (m_capturing && m_depth == 1) return found(type);
    return true;
  }

  bool open(value_type type) {
    if (m_depth == 0 && type != value_type::object) return root_not_object(type);
    if (++m_depth > max_depth) return stop(stop_reason::too_deep);
    if (m_capturing && m_depth == 2) m_type = type;
    return true;
  }

  bool close() {
    --m_depth;
    if (m_capturing && m_depth == 1) return found(m_type);
    return true;
  }

  bool root_not_object(value_type type) {
    m_type = type;
    return stop(stop_reason::not_object);
  }

  bool found(value_type type) {
    m_capturing = false;
    m_found = true;
    m_type = type;
    if (m_mode == scan_mode::stop_at_id) return stop(stop_reason::found_id);
    return true;
  }

  scan_mode m_mode;
  std::size_t m_depth = 0;
  std::size_t m_members = 0; // top-level keys seen so far
  std::size_t m_id_member = 0;
  bool m_capturing = false; // between the top-level `_id` key and the end of its value
  bool m_found = false;
  bool m_duplicate = false;
  value_type m_type = value_type::null;
  stop_reason m_reason = stop_reason::none;
};

// A minimal lexer over text the reader has already accepted, so it only has
// to find boundaries: strings (with escapes) and bracket depth.
std::size_t skip_space(std::string_view d, std::size_t p) noexcept {
  while (p < d.size() && is_json_space(d[p])) ++p;
  return p;
}

std::size_t skip_string(std::string_view d, std::size_t p) noexcept {
  for (++p; p < d.size(); ++p) {
    if (d[p] == '\\')
      ++p;
    else if (d[p] == '"')
      return p + 1;
  }
  return d.size();
}

std::size_t skip_value(std::string_view d, std::size_t p) noexcept {
  if (p >= d.size()) return d.size();
  if (d[p] == '"') return skip_string(d, p);
  if (d[p] == '{' || d[p] == '[') {
    std::size_t depth = 0;
    while (p < d.size()) {
      const char c = d[p];
      if (c == '"') {
        p = skip_string(d, p);
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      if ((c == '}' || c == ']') && --depth == 0) return p + 1;
      ++p;
    }
    return p;
  }
  // A number, true, false or null runs to the next delimiter.
  while (p < d.size() && !is_json_space(d[p]) && d[p] != ',' && d[p] != '}' && d[p] != ']') ++p;
  return p;
}

// The raw text of the value of top-level member number `index`.
void member_value(std::string_view d, std::size_t index, id_scan& out) noexcept {
  std::size_t p = skip_space(d, 0) + 1; // past '{'
  for (std::size_t i = 0; p < d.size(); ++i) {
    p = skip_string(d, skip_space(d, p));    // the key
    p = skip_space(d, skip_space(d, p) + 1); // past ':'
    const std::size_t begin = p;
    p = skip_value(d, p);
    if (i == index) {
      out.begin = begin;
      out.end = p;
      return;
    }
    p = skip_space(d, p) + 1; // past ','
  }
}

// RapidJSON's English messages end with a full stop; ours add " at offset N".
std::string_view without_full_stop(const char* text) {
  std::string_view s(text);
  if (!s.empty() && s.back() == '.') s.remove_suffix(1);
  return s;
}

template <unsigned Flags, typename Stream>
id_scan parse(Stream& in, std::string_view doc, scan_mode mode) noexcept {
  // Only the copying reader (no kParseInsituFlag) unescapes strings into its
  // stack; a small buffer here serves typical documents without the heap.
  alignas(std::max_align_t) unsigned char buffer[512];
  rapidjson::MemoryPoolAllocator<> pool(buffer, sizeof buffer);
  rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>, rapidjson::MemoryPoolAllocator<>>
      reader(&pool, 128);
  id_handler handler(mode);
  const rapidjson::ParseResult parsed = reader.Parse<Flags>(in, handler);

  id_scan result;
  result.type = handler.type();
  // UTF-8 is checked here rather than by the reader (kParseValidateEncodingFlag
  // doubled the cost of a scan): MySQL stores utf8mb4 and would refuse the
  // text later, with a message that does not name the document. Only the part
  // the reader accepted is checked, so an earlier bad byte wins over a later
  // syntax error, as it would with the reader's own check.
  const std::size_t parsed_up_to = parsed ? in.Tell() : parsed.Offset();
  const std::size_t bad_byte = find_invalid_utf8(doc.substr(0, parsed_up_to));
  if (bad_byte != std::string_view::npos) {
    result.error = rapidjson::GetParseError_En(rapidjson::kParseErrorStringInvalidEncoding);
    result.error_offset = bad_byte;
    return result;
  }
  if (parsed && in.Tell() != doc.size()) {
    // A NUL byte ends the input for RapidJSON's streams, so a document with
    // one after its root parses "successfully"; the server would refuse it.
    result.error = "The document contains a NUL byte";
    result.error_offset = in.Tell();
    return result;
  }
  if (parsed || handler.reason() == stop_reason::found_id) {
    result.status = handler.found() ? id_scan_status::has_id : id_scan_status::no_id;
    result.duplicate_id = handler.duplicate();
    if (handler.found()) member_value(doc, handler.id_member(), result);
    return result;
  }
  switch (handler.reason()) {
  case stop_reason::not_object:
    result.status = id_scan_status::not_object;
    return result;
  case stop_reason::too_deep:
    result.status = id_scan_status::too_deep;
    result.error = "JSON nesting deeper than 100 levels (MySQL's limit)";
    result.error_offset = parsed.Offset() - 1; // the reader stopped just past the bracket
    return result;
  case stop_reason::not_finite:
    result.error = rapidjson::GetParseError_En(rapidjson::kParseErrorNumberTooBig);
    result.error_offset = parsed.Offset();
    return result;
  case stop_reason::found_id:
  case stop_reason::none:
    break;
  }
  result.error = rapidjson::GetParseError_En(parsed.Code());
  result.error_offset = parsed.Offset();
  return result;
}

} // namespace

const char* describe(value_type type) noexcept {
  // In the order of the enumerators.
  static constexpr const char* names[] = {"null",     "a boolean", "a number",
                                          "a string", "an object", "an array"};
  const auto i = static_cast<std::size_t>(type);
  return i < std::size(names) ? names[i] : "a value";
}

id_scan scan_for_id(std::string_view doc, scan_mode mode) noexcept {
  // A private NUL-terminated copy lets RapidJSON parse in situ: strings are
  // unescaped in place instead of pushed character by character onto its
  // stack. Documents up to 4 KB are copied to our stack, larger ones to the
  // heap; if that fails, the text is parsed where it is, more slowly.
  // stop_at_id usually stops within the first few bytes (applications that
  // supply ids tend to put `_id` first), so copying the whole text would cost
  // more than it saves.
  if (mode == scan_mode::stop_at_id) return detail::scan_in_place(doc, mode);
  std::optional<detail::insitu_copy> copy;
  try {
    copy.emplace(doc);
  } catch (const std::bad_alloc&) {
    return detail::scan_in_place(doc, mode);
  }
  rapidjson::InsituStringStream in(copy->data());
  return parse<rapidjson::kParseInsituFlag>(in, doc, mode);
}

namespace detail {
id_scan scan_in_place(std::string_view doc, scan_mode mode) noexcept {
  rapidjson::MemoryStream in(doc.data(), doc.size());
  return parse<rapidjson::kParseDefaultFlags>(in, doc, mode);
}
} // namespace detail

std::string describe_bad_document(std::size_t index, const id_scan& scan) {
  std::string text = "Document " + std::to_string(index);
  switch (scan.status) {
  case id_scan_status::not_object:
    return text + " is not a JSON object: it is " + describe(scan.type);
  case id_scan_status::invalid_json:
  case id_scan_status::too_deep:
    text +=
        scan.status == id_scan_status::too_deep ? " cannot be stored: " : " is not valid JSON: ";
    text += without_full_stop(scan.error != nullptr ? scan.error : "unknown error");
    return text + " at offset " + std::to_string(scan.error_offset);
  case id_scan_status::no_id:
  case id_scan_status::has_id:
    break;
  }
  return text + " is a valid JSON object";
}

cdk::error bad_document_error(std::size_t index, const id_scan& scan) {
  return cdk::error::client(cdk::client_errc::bad_document, describe_bad_document(index, scan));
}

} // namespace cdk::json
