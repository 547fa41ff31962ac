// The shared, immutable state of a DbDoc: its JSON text, and the fields,
// parsed on first use. Private header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <mysqlx/value.h>
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

  std::shared_ptr<const std::string> m_text;
  std::size_t m_begin = 0;
  std::size_t m_end = 0;
  mutable std::once_flag m_parsed;
  mutable field_list m_fields;
  mutable std::vector<std::uint32_t> m_by_name; // indexes into m_fields, sorted by name
};

} // namespace detail
MYSQLX_NAMESPACE_END
