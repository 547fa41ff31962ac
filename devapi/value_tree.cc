#include "devapi/value_tree.h"

#include "cdk/json/json_parser.h"
#include "devapi/access.h"
#include "devapi/doc_impl.h"

#include <algorithm>
#include <utility>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

namespace {

// Counts the deepest level of a JSON text; the parser stops past its limit.
class depth_counter final : public cdk::json::sax_handler {
public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool int64(std::int64_t) override { return true; }
  bool uint64(std::uint64_t) override { return true; }
  bool dbl(double) override { return true; }
  bool string(std::string_view) override { return true; }
  bool key(std::string_view) override { return true; }
  bool start_object(std::size_t) override { return open(); }
  bool end_object(std::size_t) override { return close(); }
  bool start_array(std::size_t) override { return open(); }
  bool end_array(std::size_t) override { return close(); }
  std::size_t deepest = 0;

private:
  bool open() {
    deepest = std::max(deepest, ++m_level);
    return true;
  }
  bool close() {
    --m_level;
    return true;
  }
  std::size_t m_level = 0;
};

} // namespace

std::size_t json_text_depth(std::string_view text, std::size_t limit) {
  depth_counter counter;
  const auto r = cdk::json::parse(text, counter, limit);
  if (r.status == cdk::json::parse_status::too_deep) return limit + 1;
  return r.ok() ? counter.deepest : 0;
}

namespace {

// The levels of a document's text (at least 1: text that does not parse is
// reported when a field is read), or `limit + 1` past it.
std::size_t document_depth(const Value& doc, std::size_t limit) {
  return std::max<std::size_t>(json_text_depth(access::doc_of(doc)->json(), limit), 1);
}

} // namespace

value_shape shape_of(const Value& v, std::size_t limit) {
  value_shape shape;
  // Most values are scalars (every cell of a table's insert()): no list.
  if (v.getType() != Value::DOCUMENT && v.getType() != Value::ARRAY) {
    shape.has_expression = access::is_expression(v);
    return shape;
  }
  struct open_item {
    const Value* value;
    std::size_t level; // of the value itself: its container's level plus one
  };
  std::vector<open_item> todo{{&v, 0}};
  while (!todo.empty() && shape.depth <= limit) {
    const open_item at = todo.back();
    todo.pop_back();
    const Value& value = *at.value;
    if (access::is_expression(value)) shape.has_expression = true;
    if (value.getType() == Value::DOCUMENT) {
      // Its own levels start at at.level + 1.
      const std::size_t room = limit >= at.level ? limit - at.level : 0;
      shape.depth = std::max(shape.depth, at.level + document_depth(value, room));
    } else if (value.getType() == Value::ARRAY) {
      shape.depth = std::max(shape.depth, at.level + 1);
      for (const Value& item : *access::array_of(value)) todo.push_back({&item, at.level + 1});
    }
  }
  shape.depth = std::min(shape.depth, limit + 1);
  return shape;
}

void release_array(std::shared_ptr<const std::vector<Value>>& arr) noexcept {
  using array_ptr = std::shared_ptr<const std::vector<Value>>;
  array_ptr last = std::move(arr);
  std::vector<array_ptr> pending;
  try {
    while (last) {
      // Another owner keeps the array alive: dropping ours frees nothing.
      // Only this owner can copy a pointer whose count is 1, so the test
      // cannot race with a copy.
      if (last.use_count() == 1) {
        for (const Value& item : *last) {
          auto& nested = access::array_of_mutable(item);
          if (nested) pending.push_back(std::move(nested));
        }
      }
      last.reset(); // its items hold no arrays any more: no recursion
      if (pending.empty()) break;
      last = std::move(pending.back());
      pending.pop_back();
    }
  } catch (...) {
    // Out of memory for the list: what is left is freed by recursion, as
    // std::shared_ptr would have done.
  }
}

} // namespace detail
MYSQLX_NAMESPACE_END
