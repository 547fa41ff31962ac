#include "cdk/json/id_scan.h"

#include "cdk/json/json_string.h"

#include <cmath>
#include <rapidjson/allocators.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

namespace cdk::json {

namespace {

constexpr bool is_json_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Why a scan was stopped by the handler (RapidJSON only says "terminated").
enum class stop_reason : std::uint8_t { none, found_id, not_object, too_deep, not_finite };

// SAX handler: tracks the nesting depth and the span of the first top-level
// `_id` value. RapidJSON calls a value's handler after consuming the value, so
// the stream position at that moment is the value's end.
class id_handler {
public:
  id_handler(const rapidjson::MemoryStream& in, std::string_view doc, scan_mode mode)
      : m_in(in), m_doc(doc), m_mode(mode) {}

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
    if (m_depth != 1 || n != 3 || s[0] != '_' || s[1] != 'i' || s[2] != 'd') return true;
    if (m_found) {
      m_result.duplicate_id = true;
      return true;
    }
    m_capturing = true;
    m_result.begin = value_start(m_in.Tell());
    return true;
  }

  stop_reason reason() const noexcept { return m_reason; }
  bool found() const noexcept { return m_found; }
  id_scan& result() noexcept { return m_result; }

private:
  // After a key's closing quote: whitespace, ':', whitespace, then the value.
  // RapidJSON has checked this syntax by the time the value is reported.
  std::size_t value_start(std::size_t pos) const noexcept {
    while (pos < m_doc.size() && (is_json_space(m_doc[pos]) || m_doc[pos] == ':')) ++pos;
    return pos;
  }

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
    if (++m_depth > max_depth) {
      m_result.error_offset = m_in.Tell() - 1;
      return stop(stop_reason::too_deep);
    }
    if (m_capturing && m_depth == 2) m_id_type = type;
    return true;
  }

  bool close() {
    --m_depth;
    if (m_capturing && m_depth == 1) return found(m_id_type);
    return true;
  }

  bool root_not_object(value_type type) {
    m_result.type = type;
    return stop(stop_reason::not_object);
  }

  bool found(value_type type) {
    m_capturing = false;
    m_found = true;
    m_result.type = type;
    m_result.end = m_in.Tell();
    if (m_mode == scan_mode::stop_at_id) return stop(stop_reason::found_id);
    return true;
  }

  const rapidjson::MemoryStream& m_in;
  std::string_view m_doc;
  scan_mode m_mode;
  std::size_t m_depth = 0;
  bool m_capturing = false; // between the top-level `_id` key and the end of its value
  bool m_found = false;
  value_type m_id_type = value_type::null;
  stop_reason m_reason = stop_reason::none;
  id_scan m_result;
};

// RapidJSON's English messages end with a full stop; ours add " at offset N".
std::string_view without_full_stop(const char* text) {
  std::string_view s(text);
  if (!s.empty() && s.back() == '.') s.remove_suffix(1);
  return s;
}

} // namespace

const char* describe(value_type type) noexcept {
  switch (type) {
  case value_type::null:
    return "null";
  case value_type::boolean:
    return "a boolean";
  case value_type::number:
    return "a number";
  case value_type::string:
    return "a string";
  case value_type::object:
    return "an object";
  case value_type::array:
    return "an array";
  }
  return "a value";
}

id_scan scan_for_id(std::string_view doc, scan_mode mode) noexcept {
  // Keys and strings are unescaped into the reader's stack. A small buffer on
  // our stack serves typical documents with no heap allocation at all.
  alignas(std::max_align_t) unsigned char buffer[1024];
  rapidjson::MemoryPoolAllocator<> pool(buffer, sizeof buffer);
  rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>, rapidjson::MemoryPoolAllocator<>>
      reader(&pool, 256);
  rapidjson::MemoryStream in(doc.data(), doc.size());
  id_handler handler(in, doc, mode);

  const rapidjson::ParseResult parsed = reader.Parse<rapidjson::kParseDefaultFlags>(in, handler);
  id_scan result = handler.result();

  // UTF-8 is checked here rather than by the reader (kParseValidateEncodingFlag
  // doubled the cost of a scan): MySQL stores utf8mb4 and would refuse the
  // text later, with a message that does not name the document. Only the part
  // the reader accepted is checked, so an earlier bad byte wins over a later
  // syntax error, as it would with the reader's own check.
  const std::size_t parsed_up_to = parsed ? in.Tell() : parsed.Offset();
  const std::size_t bad_byte = find_invalid_utf8(doc.substr(0, parsed_up_to));
  if (bad_byte != std::string_view::npos) {
    result.status = id_scan_status::invalid_json;
    result.error = rapidjson::GetParseError_En(rapidjson::kParseErrorStringInvalidEncoding);
    result.error_offset = bad_byte;
    return result;
  }
  if (parsed) {
    // MemoryStream reports a NUL byte as the end of the input, so a document
    // with a NUL after its root parses "successfully"; the server would not.
    if (in.Tell() != doc.size()) {
      result.status = id_scan_status::invalid_json;
      result.error = "The document contains a NUL byte";
      result.error_offset = in.Tell();
      return result;
    }
    result.status = handler.found() ? id_scan_status::has_id : id_scan_status::no_id;
    return result;
  }
  switch (handler.reason()) {
  case stop_reason::found_id:
    result.status = id_scan_status::has_id;
    return result;
  case stop_reason::not_object:
    result.status = id_scan_status::not_object;
    return result;
  case stop_reason::too_deep:
    result.status = id_scan_status::too_deep;
    result.error = "JSON nesting deeper than 100 levels (MySQL's limit)";
    return result;
  case stop_reason::not_finite:
    result.status = id_scan_status::invalid_json;
    result.error = rapidjson::GetParseError_En(rapidjson::kParseErrorNumberTooBig);
    result.error_offset = in.Tell();
    return result;
  case stop_reason::none:
    break;
  }
  result.status = id_scan_status::invalid_json;
  result.error = rapidjson::GetParseError_En(parsed.Code());
  result.error_offset = parsed.Offset();
  return result;
}

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
