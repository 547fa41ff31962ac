// A SAX-style JSON parser: the text is read once and each value is reported
// to a handler as an event, with no DOM and no third-party type in sight, so
// that devapi can build its Values without including RapidJSON.
//
// What it guarantees (devapi relies on each):
// - strict RFC 8259 JSON, valid UTF-8 only, any value at the root;
// - at most max_depth (MySQL's 100) nested objects and arrays, or the
//   limit the caller gives: deeper text is refused before the start event
//   past it, so a hostile "[[[[..." costs neither stack nor memory;
// - the offsets of every '{', '[' and of the matching '}' / ']', so a nested
//   object can be kept as the exact slice of text the user wrote;
// - integers as int64 when they fit, as uint64 above INT64_MAX, doubles
//   otherwise (full precision);
// - a NUL byte inside the text is an error, never an early end.
#pragma once

#include "cdk/json/id_scan.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cdk::json {

// Receives the events of one parse. Returning false stops the parse
// (parse_status::stopped). Strings and keys are views of decoded text
// (escapes resolved) valid only during the call.
class sax_handler {
public:
  virtual ~sax_handler() = default;
  virtual bool null() = 0;
  virtual bool boolean(bool b) = 0;
  virtual bool int64(std::int64_t i) = 0;   // every integer that fits in int64_t
  virtual bool uint64(std::uint64_t u) = 0; // integers above INT64_MAX only
  virtual bool dbl(double d) = 0;           // fraction, exponent or beyond uint64
  virtual bool string(std::string_view s) = 0;
  virtual bool key(std::string_view k) = 0;
  // `offset`: of '{' or '[' in the text; `end`: just past the matching '}' or ']'.
  virtual bool start_object(std::size_t offset) = 0;
  virtual bool end_object(std::size_t end) = 0;
  virtual bool start_array(std::size_t offset) = 0;
  virtual bool end_array(std::size_t end) = 0;

protected:
  sax_handler() = default;
  sax_handler(const sax_handler&) = default;
  sax_handler& operator=(const sax_handler&) = default;
};

enum class parse_status : std::uint8_t {
  ok,
  invalid_json, // syntax or encoding error
  too_deep,     // nested deeper than the limit
  stopped,      // the handler returned false
};

struct parse_result {
  parse_status status = parse_status::ok;
  std::size_t offset = 0;      // where the error was found
  const char* error = nullptr; // static English text naming it, for errors
  std::size_t levels = 0;      // too_deep: the limit
  bool ok() const noexcept { return status == parse_status::ok; }
  // "Missing a colon after a name of object member at offset 17",
  // "nested deeper than 100 levels at offset 100". Empty when ok().
  std::string describe() const;
};

// Parses `text` as one JSON value, nested at most `max_levels` deep,
// reporting it to `handler`. Throws nothing of its own but std::bad_alloc (it
// works on a copy of `text`: on the stack up to 4 KB); what the handler
// throws passes through.
parse_result parse(std::string_view text, sax_handler& handler, std::size_t max_levels = max_depth);

} // namespace cdk::json
