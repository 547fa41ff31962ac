// JSON values as MySQL prints them. MySQL stores JSON in a binary format
// and prints it back normalized (Json_wrapper::to_string, sql-common/
// json_dom.cc); MariaDB stores the text as inserted. xserverd re-prints
// every JSON result column the MySQL way so that clients see the bytes a
// MySQL server would send (README.md, "JSON text"):
// - object members sorted by key length, then by key bytes (the binary
//   format's order); of duplicate keys the last wins (8.0.3+), the first
//   in 5.7;
// - `": "` after each key, `", "` between members and elements, no other
//   whitespace;
// - integers as written (int64 / uint64); other numbers are doubles,
//   printed by my_gcvt() with the shortest round-trip digits: positional
//   for decimal exponents -14..15 (and 17-digit values below 1e16), else
//   `<d>[.<ddd>]e[-]<n>`; 8.0 appends ".0" to a double that shows neither
//   '.' nor 'e' (1.0, 100.0), 5.7 does not;
// - strings: `"` `\` \b \t \n \f \r escaped with a backslash, other
//   characters below 0x20 as \u00xx (lower-case hex), everything else
//   (including '/' and non-ASCII) as raw UTF-8.
// Private to xserverd.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace xserver {

enum class json_dialect { mysql80, mysql57 };

/// MySQL's text for the JSON value `json`, or nullopt when it is not JSON
/// MySQL would accept (then the caller keeps the original text).
std::optional<std::string> mysql_json_text(std::string_view json, json_dialect dialect);

/// A double as MySQL's JSON printer writes it (my_gcvt(), plus ".0" in 8.0).
std::string mysql_json_double(double d, json_dialect dialect);

} // namespace xserver
