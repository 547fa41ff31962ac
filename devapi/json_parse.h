// Parsing JSON text into Values (cdk::json SAX events, no DOM). Private header.
#pragma once

#include "devapi/doc_impl.h"

#include <memory>
#include <optional>
#include <string>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

/// How deep a document the connector reads: MySQL stores 100 levels (add()
/// refuses more before sending: cdk::json::id_scan), but a DbDoc is also a
/// program's own JSON, and Connector/C++ 8 reads 1,000 levels (Oracle's
/// Types.json test). The bound keeps the recursion of printing and freeing
/// nested arrays well within a thread's stack (tested at this depth).
inline constexpr std::size_t read_max_depth = 4096;

/// Parses the JSON object `text[begin, end)` into its fields. Nested objects
/// become DbDocs sharing `text`. Throws mysqlx::Error (errc::BAD_DOCUMENT)
/// with the offset and reason if the text is not valid UTF-8 JSON, is not an
/// object, or nests deeper than read_max_depth.
field_list parse_json_object(const std::shared_ptr<const std::string>& text, std::size_t begin,
                             std::size_t end);

/// Parses any JSON value (a JSON column): an object becomes a DOCUMENT, an
/// array an ARRAY, scalars the matching Value, as DbDoc fields. Nested
/// objects are DbDocs sharing `text`. Nothing when the text is not valid
/// JSON or nests deeper than 100 levels.
std::optional<Value> parse_json_value(const std::shared_ptr<const std::string>& text);
/// The same for the slice `text[begin, end)`.
std::optional<Value> parse_json_value(const std::shared_ptr<const std::string>& text,
                                      std::size_t begin, std::size_t end);

} // namespace detail
MYSQLX_NAMESPACE_END
