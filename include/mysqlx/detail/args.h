// The type-erased core of variadic entry points.
//
// add(a, b, c), add(container), add(first, last), fields("a", "b"),
// values(1, "x"), rows(r1, r2), bind(v1, v2): each is a tiny template that
// turns its arguments into a std::vector of one item type and hands it to a
// non-template member compiled into the library. An argument is
//   - an item if it converts to the item type (a string, a DbDoc, a Value...),
//   - otherwise a container whose elements are items, expanded in order;
// and exactly two arguments of the same iterator type are a range. Where the
// items are names or expressions (std::string), UTF-16 and wide text are
// items too, converted to UTF-8 as a mysqlx::string parameter takes them. An
// iterator type is one with std::iterator_traits, or any type that can be
// dereferenced, incremented and compared with `!=` (Connector/C++ 8 takes such
// hand-written iterators too).
#pragma once

#include <iterator>
#include <mysqlx/detail/export.h>
#include <mysqlx/string.h>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

template <typename T, typename Item>
inline constexpr bool is_item_v = std::is_convertible_v<const T&, Item> ||
                                  (std::is_same_v<Item, std::string> &&
                                   std::is_convertible_v<const T&, string>);

template <typename T, typename Item, typename = void> struct is_item_range : std::false_type {};
template <typename T, typename Item>
struct is_item_range<T, Item,
                     std::void_t<decltype(std::declval<const T&>().begin()),
                                 decltype(std::declval<const T&>().end())>>
    : std::bool_constant<!is_item_v<T, Item>> {};

template <typename T, typename = void> struct has_iterator_traits : std::false_type {};
template <typename T>
struct has_iterator_traits<T, std::void_t<typename std::iterator_traits<T>::iterator_category>>
    : std::true_type {};
template <typename T, typename = void> struct is_hand_iterator : std::false_type {};
template <typename T>
struct is_hand_iterator<T,
                        std::void_t<decltype(*std::declval<T&>()), decltype(++std::declval<T&>()),
                                    decltype(std::declval<T&>() != std::declval<T&>())>>
    : std::true_type {};
template <typename T>
struct is_iterator_like
    : std::bool_constant<has_iterator_traits<T>::value || is_hand_iterator<T>::value> {};

template <typename T, typename Item>
struct is_item_iterator : std::bool_constant<is_iterator_like<T>::value && !is_item_v<T, Item>> {};

template <typename Item, typename... A> struct is_iterator_pair : std::false_type {};
template <typename Item, typename It>
struct is_iterator_pair<Item, It, It> : is_item_iterator<It, Item> {};

template <typename Item, typename T> void append_one(std::vector<Item>& out, const T& item) {
  if constexpr (std::is_convertible_v<const T&, Item>) {
    out.emplace_back(item);
  } else {
    out.emplace_back(string(item)); // UTF-16 or wide text as UTF-8
  }
}

template <typename Item, typename T> void append_item(std::vector<Item>& out, const T& arg) {
  if constexpr (is_item_range<T, Item>::value) {
    for (const auto& element : arg) append_one<Item>(out, element);
  } else {
    append_one<Item>(out, arg);
  }
}

template <typename Item, typename It> void append_range(std::vector<Item>& out, It first, It last) {
  for (; first != last; ++first) append_one<Item>(out, *first);
}

/// The arguments of a variadic entry point as one list of items.
template <typename Item, typename... A> std::vector<Item> collect(const A&... args) {
  std::vector<Item> out;
  if constexpr (is_iterator_pair<Item, A...>::value) {
    append_range<Item>(out, args...);
  } else {
    out.reserve(sizeof...(A));
    (append_item<Item>(out, args), ...);
  }
  return out;
}

} // namespace detail
MYSQLX_NAMESPACE_END
