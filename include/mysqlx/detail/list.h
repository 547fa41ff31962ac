// Helpers for results: lists that convert to any container, and an input
// iterator that drives fetchOne() so that results work in range-for.
#pragma once

#include <cstddef>
#include <iterator>
#include <mysqlx/detail/export.h>
#include <type_traits>
#include <utility>
#include <vector>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

/// What fetchAll() and the list getters return: a std::vector that also
/// converts to any container constructible from an iterator range, so that
/// `std::list<Row> rows = res.fetchAll();` compiles as with Connector/C++ 8.
template <typename T> class item_list : public std::vector<T> {
  using base = std::vector<T>;
  using cit = typename base::const_iterator;

public:
  using base::base; // `DocIdList{"a", "b"}`, as with the std::vector it was
  item_list() = default;
  item_list(base&& items) noexcept : base(std::move(items)) {} // NOLINT: implicit by design

  template <typename C, std::enable_if_t<!std::is_base_of_v<C, item_list> &&
                                             std::is_constructible_v<C, cit, cit>,
                                         int> = 0>
  operator C() const { // NOLINT: implicit by design
    return C(this->cbegin(), this->cend());
  }
};

/// An input iterator over a result: each step calls `fetchOne()` and the
/// iterator reaches end() at the first null item.
template <typename Result, typename Item> class fetch_iterator {
public:
  using iterator_category = std::input_iterator_tag;
  using value_type = Item;
  using difference_type = std::ptrdiff_t;
  using pointer = Item*;
  using reference = Item&;

  fetch_iterator() = default; // end()
  explicit fetch_iterator(Result& result) : m_result(&result) { ++*this; }

  Item& operator*() noexcept { return m_item; }
  Item* operator->() noexcept { return &m_item; }
  fetch_iterator& operator++() {
    m_item = m_result->fetchOne();
    if (m_item.isNull()) m_result = nullptr;
    return *this;
  }
  bool operator==(const fetch_iterator& other) const noexcept { return m_result == other.m_result; }
  bool operator!=(const fetch_iterator& other) const noexcept { return !(*this == other); }

private:
  Result* m_result = nullptr;
  Item m_item;
};

} // namespace detail
MYSQLX_NAMESPACE_END
