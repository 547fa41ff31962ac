// Writing a JSON string value: UTF-8 validation and escaping. Used to emit an
// `_id` that came from a user's id generator, which may contain any text.
#pragma once

#include <string>
#include <string_view>

namespace cdk::json {

// Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above
// U+10FFFF.
bool is_valid_utf8(std::string_view text) noexcept;

// The offset of the first byte that starts an invalid sequence, or npos.
// Skips ASCII eight bytes at a time: JSON documents are mostly ASCII.
std::size_t find_invalid_utf8(std::string_view text) noexcept;

// Appends `text` as a quoted JSON string. `"` and `\` are escaped, control
// characters become \u00XX; all other bytes are copied, so `text` must already
// be valid UTF-8.
void append_json_string(std::string& out, std::string_view text);

// The length append_json_string() will add, to reserve once.
std::size_t json_string_size(std::string_view text) noexcept;

} // namespace cdk::json
