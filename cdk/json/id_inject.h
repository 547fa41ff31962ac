// Adding `"_id":"<id>"` to a JSON object by splicing it in right after the
// opening brace. The rest of the text is copied byte for byte: no
// re-serialising, so numbers, key order and formatting stay the user's.
//
// Precondition: scan_for_id() said id_scan_status::no_id for `doc`. Injecting
// into a document that already has `_id` would give it two, and MySQL 8 keeps
// the last one, so the caller must not do that; these functions only check that
// the text starts with '{'.
#pragma once

#include "cdk/foundation/error.h"

#include <string>
#include <string_view>

namespace cdk::json {

// Appends the document with the id spliced in to `out` (which is not cleared,
// so many documents can be built into one buffer). `id` is the id's value,
// unescaped, valid UTF-8; it is escaped as a JSON string here.
cdk::status append_with_id(std::string& out, std::string_view doc, std::string_view id);

// The same, into a new string.
cdk::result<std::string> with_id(std::string_view doc, std::string_view id);

} // namespace cdk::json
