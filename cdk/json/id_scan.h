// Top-level `_id` detection in a JSON text, without building a DOM.
//
// add() needs three answers per document before anything is sent: is it a
// JSON object, is it valid JSON, and does it carry a top-level `_id`? The
// server answers the last one by a SAX scan that stops at the first top-level
// `_id` (facts §2.3); we do the same with RapidJSON's SAX Reader, but by
// default go on to the end of the text so that a broken document gets a clear
// client-side error naming it, on 8.0 and 5.7 alike.
//
// Left out on purpose: the decoded `_id` value. The layer above only needs the
// raw text (it is sent unchanged) and its type (to reject or accept it).
#pragma once

#include "cdk/foundation/error.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cdk::json {

enum class value_type : std::uint8_t { null, boolean, number, string, object, array };

// "null", "a boolean", "a number", "a string", "an object", "an array".
const char* describe(value_type type) noexcept;

enum class id_scan_status : std::uint8_t {
  no_id,        // a valid JSON object with no top-level `_id`
  has_id,       // a top-level `_id` was found (any value type, `null` included)
  not_object,   // the text starts with an array or a scalar
  invalid_json, // a syntax or encoding error (RapidJSON's message and offset)
  too_deep,     // valid JSON, but nested deeper than MySQL stores (max_depth)
};

enum class scan_mode : std::uint8_t {
  validate,   // parse to the end: invalid JSON after `_id` is still reported
  stop_at_id, // stop after the first top-level `_id` value, like the server
};

// MySQL's JSON_DOCUMENT_MAX_DEPTH: the server counts one level per object or
// array and rejects a document with more than 100. Checking it here also bounds
// the recursion of the parser, so a hostile "[[[[..." cannot overflow the stack.
inline constexpr std::size_t max_depth = 100;

struct id_scan {
  id_scan_status status = id_scan_status::invalid_json;
  // has_id: the type of the `_id` value; not_object: the type of the root.
  value_type type = value_type::null;
  // has_id: the raw text of the first top-level `_id` value is [begin, end).
  std::size_t begin = 0;
  std::size_t end = 0;
  // has_id in validate mode: the object names `_id` more than once. The server
  // uses the first for its "has an id" test but MySQL 8 stores the last, so the
  // layer above should refuse such a document rather than guess.
  bool duplicate_id = false;
  // invalid_json / too_deep: where and why. `error` points to static text.
  std::size_t error_offset = 0;
  const char* error = nullptr;

  bool ok() const noexcept {
    return status == id_scan_status::no_id || status == id_scan_status::has_id;
  }
  std::string_view raw_id(std::string_view doc) const noexcept {
    return doc.substr(begin, end - begin);
  }
};

// Never throws. In validate mode it works on a private copy of the text (on
// the stack up to 4 KB, else on the heap), which halves the parse time; if
// the copy cannot be allocated, and in stop_at_id mode, it scans in place.
id_scan scan_for_id(std::string_view doc, scan_mode mode = scan_mode::validate) noexcept;

namespace detail {
// The same scan without copying the text: about half as fast. Exposed so that
// tests can check both paths give the same answers.
id_scan scan_in_place(std::string_view doc, scan_mode mode) noexcept;
// The hand scan scan_for_id() tries first in validate mode: an answer only
// for a valid object of printable ASCII without escapes, exponents or long
// numbers (the usual document); nullopt for anything else, RapidJSON's to
// judge. Exposed for the tests.
std::optional<id_scan> scan_simple(std::string_view doc) noexcept;
} // namespace detail

// For a scan that is not ok(): "Document 3 is not valid JSON: Missing a colon
// after a name of object member at offset 17". `number` counts from 1, as
// every message a person reads does (the first document is Document 1).
std::string describe_bad_document(std::size_t number, const id_scan& scan);

// The same text as a cdk::error (client_errc::bad_document).
cdk::error bad_document_error(std::size_t number, const id_scan& scan);

} // namespace cdk::json
