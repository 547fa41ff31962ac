// The query part of a connection string ("?name=value&name=[a,b]&name"),
// shared by the grammar in uri_parser.cc. Private to cdk/parser.
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/parser/uri_parser.h"
#include "cdk/parser/uri_text.h"

#include <cstddef>
#include <string_view>
#include <vector>

namespace cdk {

// Parses the pairs that start at `pos` (just after the '?') up to the end of
// `uri`, appending them to `out`: names lower-cased, values decoded, nothing
// validated beyond the syntax. On a syntax error sets `err` and returns false.
bool parse_query(std::string_view uri, std::size_t& pos, std::vector<uri_option>& out,
                 const uri_text::quoter& quote, error& err);

} // namespace cdk
