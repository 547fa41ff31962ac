// The hook for an application's own id generator (Snowflake-style,
// ObjectId-style, ...): a callable returning the id. The connector checks every
// value before anything is sent.
//
// What a valid custom id is: the *value* of the `_id` string, as the server
// will store it (not JSON text: no surrounding quotes, no escapes). We emit it
// as a JSON string, escaping `"` and `\`, so any text is safe to splice. It
// must be
//   - 1 to 32 bytes: the `_id` column is VARBINARY(32) on MySQL 8.0 and
//     VARCHAR(32) on 5.7; counting bytes, not characters, fits both;
//   - valid UTF-8: the document is utf8mb4 JSON;
//   - free of control characters (U+0000..U+001F, U+007F): legal in JSON when
//     escaped, but in an id they are nearly always a bug, such as a trailing
//     newline from a generator that reads a file or a pipe.
// The check does not ask whether the id looks like a server or a local id;
// mixing formats is the application's choice.
#pragma once

#include "cdk/foundation/error.h"

#include <functional>
#include <string>
#include <string_view>

namespace cdk::docid {

inline constexpr std::size_t max_custom_id_bytes = 32;

using custom_id_generator = std::function<std::string()>;

// ok, or client_errc::usage with a message that says what is wrong.
cdk::status check_custom_id(std::string_view id);

// Calls `fn` and checks what it returns. An exception thrown by `fn` becomes
// an error too, so a bad generator never escapes as a foreign exception type.
cdk::result<std::string> call_custom_generator(const custom_id_generator& fn);

} // namespace cdk::docid
