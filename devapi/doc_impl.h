// The shared, immutable state of a DbDoc: its JSON text, and the fields,
// parsed on first use; and value_access, the door to the parts of a Value
// that only rows fill in. Private header.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <forward_list>
#include <memory>
#include <mutex>
#include <mysqlx/value.h>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

using field_list = std::vector<std::pair<std::string, Value>>;

class doc_impl {
public:
  /// A document to be parsed on first use.
  explicit doc_impl(std::string json);
  /// A document the server sent (a row of a JSON column): fields read by
  /// name before any full parse are found by scanning the text and parsing
  /// only their values (cdk/json/member_scan.h). The text is MySQL's own
  /// JSON output, so what the scan passes over is not checked, as a full
  /// parse would; text the user gives is always parsed whole.
  struct from_server_t {};
  doc_impl(std::string json, from_server_t);
  /// A nested document found while parsing its parent: its text is a slice
  /// of the parent's (shared, not copied) and its fields are already known.
  doc_impl(std::shared_ptr<const std::string> text, std::size_t begin, std::size_t end,
           field_list&& fields);

  /// The JSON text exactly as given (what goes on the wire).
  std::string_view json() const noexcept {
    return std::string_view(*m_text).substr(m_begin, m_end - m_begin);
  }
  /// The fields in document order; a duplicated name keeps its last value,
  /// as MySQL does. Parses on the first call (thread-safe); throws
  /// mysqlx::Error (errc::BAD_DOCUMENT) if the text is not a JSON object.
  const field_list& fields() const;
  /// The field named `name`, or nullptr.
  const Value* find(std::string_view name) const;

private:
  void parse() const;
  void index() const;
  std::optional<const Value*> scan_for(std::string_view name) const;

  std::shared_ptr<const std::string> m_text;
  std::size_t m_begin = 0;
  std::size_t m_end = 0;
  mutable std::once_flag m_parsed;
  mutable field_list m_fields;
  mutable std::vector<std::uint32_t> m_by_name;    // indexes into m_fields, sorted by name
  mutable std::atomic<bool> m_fields_ready{false}; // m_fields is complete
  bool m_scan = false;                             // from_server_t
  // Fields read by scanning, never erased: references handed out stay valid.
  mutable std::mutex m_scan_mutex;
  mutable std::forward_list<std::pair<std::string, Value>> m_scanned;
};

/// The Values only the connector makes: a DECIMAL, and a temporal or SET value read
/// from a row (see include/mysqlx/value.h for what users see of them).
struct value_access {
  /// A DOUBLE `d` that keeps the exact `text` the server sent.
  static Value make_decimal(std::string text, double d) {
    Value v(d);
    v.m_flavor = Value::flavor::decimal;
    v.m_str = std::move(text);
    return v;
  }
  /// A RAW value whose bytes are `wire` (the X Protocol encoding) and whose
  /// text is `text`.
  static Value make_raw_with_text(std::string text, std::string_view wire) {
    Value v;
    v.m_type = Value::RAW;
    v.m_flavor = Value::flavor::raw_with_text;
    v.m_num.u = text.size();
    v.m_str = std::move(text);
    v.m_str.append(wire);
    return v;
  }
  static bool is_decimal(const Value& v) noexcept { return v.m_flavor == Value::flavor::decimal; }
  static bool has_text(const Value& v) noexcept {
    return v.m_flavor == Value::flavor::raw_with_text;
  }
  /// The text of a STRING, DECIMAL, temporal or SET value; the bytes of a RAW one.
  static std::string_view text_of(const Value& v) noexcept { return v.text_part(); }
};

} // namespace detail
MYSQLX_NAMESPACE_END
