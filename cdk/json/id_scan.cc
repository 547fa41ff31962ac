#include "cdk/json/id_scan.h"

#include "cdk/json/insitu_copy.h"
#include "cdk/json/json_string.h"
#include "cdk/json/parse_error.h"

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
  // Most bytes are above ' ': one comparison for them.
  return static_cast<unsigned char>(c) <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r');
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

// The documents applications usually add -- ASCII text, no escapes, plain
// numbers -- scanned by hand: RapidJSON's reader, its template code and the
// private copy cost a single add() more than the rest of its encoding
// (issue 13). The scanner answers only for such a document; for anything
// else (an escape, a byte above 0x7f, an exponent, a long number, too deep,
// any syntax error) it declines and RapidJSON decides, so the two never
// disagree on what is valid or on what an error says. Unit tests and the
// fuzzer check that both give the same answer whenever it answers.
// Bytes a simple string may hold: printable ASCII but '"' and '\\'.
struct plain_table {
  bool plain[256] = {};
  constexpr plain_table() {
    for (int c = 0x20; c < 0x80; ++c) plain[c] = c != '"' && c != '\\';
  }
};
constexpr plain_table k_plain{};

class simple_scan {
public:
  explicit simple_scan(std::string_view d) noexcept
      : m_begin(d.data()), m_p(d.data()), m_end(d.data() + d.size()) {}

  std::optional<id_scan> run() noexcept {
    space();
    if (!object_members(1, true)) return std::nullopt;
    space();
    if (m_p != m_end) return std::nullopt; // more after the root
    return m_out;
  }

private:
  bool at(char c) const noexcept { return m_p != m_end && *m_p == c; }
  static bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
  void space() noexcept {
    while (m_p != m_end && is_json_space(*m_p)) ++m_p;
  }

  // At '"': past the closing quote, for a string of printable ASCII.
  bool string() noexcept {
    const char* p = m_p + 1;
    while (p != m_end && k_plain.plain[static_cast<unsigned char>(*p)]) ++p;
    if (p == m_end || *p != '"') return false;
    m_p = p + 1;
    return true;
  }

  // -?(0|[1-9][0-9]*)(.[0-9]+)?, at most 17 digits on either side: always
  // a finite double, as MySQL requires.
  bool number() noexcept {
    if (at('-')) ++m_p;
    const char* int_begin = m_p;
    if (at('0')) {
      ++m_p;
    } else if (digits() == 0) {
      return false;
    }
    if (m_p - int_begin > 17) return false;
    if (at('.')) {
      ++m_p;
      const std::size_t n = digits();
      if (n == 0 || n > 17) return false;
    }
    // An exponent or a digit after a leading zero: RapidJSON's to judge.
    return !(at('e') || at('E') || (m_p != m_end && is_digit(*m_p)));
  }
  std::size_t digits() noexcept {
    const char* begin = m_p;
    while (m_p != m_end && is_digit(*m_p)) ++m_p;
    return static_cast<std::size_t>(m_p - begin);
  }

  bool word(std::string_view w) noexcept {
    if (static_cast<std::size_t>(m_end - m_p) < w.size() || std::string_view(m_p, w.size()) != w)
      return false;
    m_p += w.size();
    return true;
  }

  // A value at depth `depth` (its container's depth plus one).
  bool value(std::size_t depth, value_type& type) noexcept {
    if (m_p == m_end) return false;
    switch (*m_p) {
    case '"':
      type = value_type::string;
      return string();
    case '{':
      type = value_type::object;
      return depth <= max_depth && object_members(depth, false);
    case '[':
      type = value_type::array;
      return depth <= max_depth && array_items(depth);
    case 't':
      type = value_type::boolean;
      return word("true");
    case 'f':
      type = value_type::boolean;
      return word("false");
    case 'n':
      type = value_type::null;
      return word("null");
    default:
      type = value_type::number;
      return number();
    }
  }

  // At '{' of an object at `depth`: past its '}'. For the root object,
  // notes its `_id` members.
  bool object_members(std::size_t depth, bool root) noexcept {
    if (!at('{')) return false;
    ++m_p;
    space();
    if (at('}')) {
      ++m_p;
      return true;
    }
    for (;;) {
      if (!at('"')) return false;
      const char* key = m_p + 1;
      if (!string()) return false;
      const bool is_id = root && m_p - key == 4 && key[0] == '_' && key[1] == 'i' && key[2] == 'd';
      space();
      if (!at(':')) return false;
      ++m_p;
      space();
      const char* begin = m_p;
      value_type type = value_type::null;
      if (!value(depth + 1, type)) return false;
      if (is_id) note_id(begin, type);
      space();
      if (at('}')) {
        ++m_p;
        return true;
      }
      if (!at(',')) return false;
      ++m_p;
      space();
    }
  }

  bool array_items(std::size_t depth) noexcept {
    ++m_p; // '['
    space();
    if (at(']')) {
      ++m_p;
      return true;
    }
    for (;;) {
      value_type type = value_type::null;
      if (!value(depth + 1, type)) return false;
      space();
      if (at(']')) {
        ++m_p;
        return true;
      }
      if (!at(',')) return false;
      ++m_p;
      space();
    }
  }

  void note_id(const char* begin, value_type type) noexcept {
    if (m_out.status == id_scan_status::has_id) {
      m_out.duplicate_id = true;
      return;
    }
    m_out.status = id_scan_status::has_id;
    m_out.type = type;
    m_out.begin = static_cast<std::size_t>(begin - m_begin);
    m_out.end = static_cast<std::size_t>(m_p - m_begin);
  }

  const char* m_begin;
  const char* m_p;
  const char* m_end;
  id_scan m_out{id_scan_status::no_id};
};

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
  result.error = parse_error_text(parsed.Code(), doc, parsed.Offset());
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
  if (auto simple = detail::scan_simple(doc)) return *simple;
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
std::optional<id_scan> scan_simple(std::string_view doc) noexcept {
  return simple_scan(doc).run();
}

id_scan scan_in_place(std::string_view doc, scan_mode mode) noexcept {
  rapidjson::MemoryStream in(doc.data(), doc.size());
  return parse<rapidjson::kParseDefaultFlags>(in, doc, mode);
}
} // namespace detail

std::string describe_bad_document(std::size_t number, const id_scan& scan) {
  std::string text = "Document " + std::to_string(number);
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

cdk::error bad_document_error(std::size_t number, const id_scan& scan) {
  return cdk::error::client(cdk::client_errc::bad_document, describe_bad_document(number, scan));
}

} // namespace cdk::json
