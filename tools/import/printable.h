// Text that echoes the input (a file name, a byte of an entry, a server
// message quoting a document) made safe to print or to store in a utf8mb4
// column: valid UTF-8 stays as it is; a byte that is not part of a valid
// UTF-8 character, a control character and DEL become \xNN, so that no
// message carries a raw NUL, 0xFF or line break.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace mysqlx_import {

// `text` with control characters and invalid UTF-8 escaped as \xNN. With
// `escape_backslash`, a backslash becomes \\ so that the escaped form can be
// told from a name that holds "\x" itself.
std::string printable(std::string_view text, bool escape_backslash = false);

// printable(text, true) cut to at most `max_chars` characters, between two
// characters or escapes, never inside one; "..." ends a cut text and counts
// in `max_chars`.
std::string printable_prefix(std::string_view text, std::size_t max_chars);

} // namespace mysqlx_import
