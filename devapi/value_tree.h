// Walking nested Values without recursion. Private header.
//
// A program decides how deep its Values nest (`for (...) v = Value{v};`
// makes a million levels in a second), so freeing, printing and measuring
// one must not take stack in proportion to its depth: each walk here keeps
// its own list of the arrays still open. Documents nest only as deep as
// their text, which the parser bounds (json_parse.h: read_max_depth).
#pragma once

#include <cstddef>
#include <memory>
#include <mysqlx/value.h>
#include <string_view>
#include <vector>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

/// MySQL's limit on nested objects and arrays in a JSON document; what goes
/// to the server is checked against it before anything is sent.
inline constexpr std::size_t sent_max_depth = 100;

/// How a Value nests: the levels of documents and arrays (a scalar is 0, `[1]`
/// and `{}` are 1) and whether an expr() is inside.
struct value_shape {
  std::size_t depth = 0;
  bool has_expression = false;
};

/// The shape of `v`, counted up to `limit` levels: a deeper Value reports
/// `limit + 1` without its rest being looked at.
value_shape shape_of(const Value& v, std::size_t limit);

/// The levels of objects and arrays in a JSON text (a scalar is 0), or
/// `limit + 1` when it nests deeper; 0 for text that is not JSON.
std::size_t json_text_depth(std::string_view text, std::size_t limit);

/// Drops `arr`; when it was the last owner of arrays nested inside, frees
/// them one at a time instead of by recursion. Leaves `arr` empty.
void release_array(std::shared_ptr<const std::vector<Value>>& arr) noexcept;

} // namespace detail
MYSQLX_NAMESPACE_END
