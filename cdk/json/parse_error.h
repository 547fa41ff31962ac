// What a JSON parse error was, in words that do not mislead: RapidJSON calls
// a raw tab inside a string an "Invalid escape character" and a NUL byte a
// missing quotation mark, and a UTF-16 text an "Invalid value". Private to
// cdk/json (the RapidJSON code stays an int here).
#pragma once

#include <cstddef>
#include <string_view>

namespace cdk::json {

// The message for RapidJSON's error `code` at `offset` of `text`: RapidJSON's
// own, or a more exact one where the bytes there say what went wrong.
const char* parse_error_text(int code, std::string_view text, std::size_t offset) noexcept;

} // namespace cdk::json
