// Writing Values as JSON text. Private header.
#pragma once

#include <mysqlx/value.h>
#include <string>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

/// Appends `v` as JSON: documents as their own text, arrays as
/// `[1, "two", 3.0]`, doubles in their shortest exact form (with ".0" when
/// integral, so they read back as doubles), NaN and infinities as null,
/// raw bytes as a string of hex digits, DECIMALs as their exact text and
/// temporal and SET values as strings of their text.
void append_json(std::string& out, const Value& v);

/// The shortest text that reads back as `d` ("0.1", "1e+300"); "nan", "inf".
std::string format_double(double d);

} // namespace detail
MYSQLX_NAMESPACE_END
