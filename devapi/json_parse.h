// Parsing JSON text into Values (RapidJSON SAX, no DOM). Private header.
#pragma once

#include "devapi/doc_impl.h"

#include <memory>
#include <string>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

/// Parses the JSON object `text[begin, end)` into its fields. Nested objects
/// become DbDocs sharing `text`. Throws mysqlx::Error (errc::BAD_DOCUMENT)
/// with the offset and reason if the text is not valid UTF-8 JSON, is not an
/// object, or nests deeper than MySQL's 100 levels.
field_list parse_json_object(const std::shared_ptr<const std::string>& text, std::size_t begin,
                             std::size_t end);

} // namespace detail
MYSQLX_NAMESPACE_END
