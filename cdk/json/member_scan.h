// One top-level member of a JSON object, found by name without a DOM.
//
// Reading one field of a fetched document is the common case (issue 13): a
// full parse builds a Value for every member, while this scan only steps over
// the text (strings, numbers, nested brackets) until the object ends and
// reports where the named member's value lies, so that only that value is
// parsed.
//
// What it guarantees:
// - it reads nothing outside `text`, allocates nothing and does not recurse,
//   whatever the input;
// - `found` and `absent` are only answered for text whose top level is a
//   well-formed object: members `"key": value` separated by commas, strings
//   without control characters, brackets matched and nested at most
//   max_depth levels, nothing but white space after the closing brace;
// - with several members of that name, the last one is reported (MySQL keeps
//   the last);
// - the values it steps over are not checked beyond that (a number or a
//   literal is any run of characters up to a separator): the caller parses
//   the value found strictly, and when the whole text must be valid JSON
//   (text a user gave) it parses the whole text instead.
// Anything else, and keys with escapes, which would have to be decoded to be
// compared, is `unsure`: the caller parses the whole text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace cdk::json {

enum class member_status : std::uint8_t {
  found,  // [begin, end) is the raw text of the member's value
  absent, // the object has no member of that name
  unsure, // not answered here: parse the whole text
};

struct member_scan {
  member_status status = member_status::unsure;
  std::size_t begin = 0;
  std::size_t end = 0;
};

member_scan find_member(std::string_view text, std::string_view name) noexcept;

} // namespace cdk::json
