// The common base of statement builders (CollectionFind, TableSelect, ...).
#pragma once

#include <memory>
#include <mysqlx/detail/export.h>
#include <mysqlx/detail/impl_ptr.h>
#include <utility>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

struct statement_impl; // defined with the session layer

/// Holds a statement's state. Copying a statement copies its state (a copy
/// can be changed and executed on its own); the state refers to the session
/// through a shared reference, so a statement may outlive its Collection.
/// Moving copies too, as in Connector/C++ 8: a moved-from statement is still
/// the same statement and may be changed and executed.
class MYSQLX_EXPORT statement_base {
protected:
  explicit statement_base(std::unique_ptr<statement_impl> impl) noexcept;
  statement_base(const statement_base& other);
  // NOLINTNEXTLINE(performance-noexcept-move-constructor): a move copies
  statement_base(statement_base&& other);
  statement_base& operator=(const statement_base& other);
  // NOLINTNEXTLINE(performance-noexcept-move-constructor): a move copies
  statement_base& operator=(statement_base&& other);
  ~statement_base();

  impl_ptr<statement_impl> m_impl;
  friend struct access;
};

/// `bind(map)` for statements with named placeholders: binds every entry of
/// any map-like container through the statement's own `bind(name, value)`.
template <typename Derived> class bind_map {
public:
  template <typename Map>
  auto bind(const Map& args) -> decltype(args.begin()->second, std::declval<Derived&>()) {
    auto& self = static_cast<Derived&>(*this);
    for (const auto& kv : args) self.bind(kv.first, kv.second);
    return self;
  }
};

} // namespace detail
MYSQLX_NAMESPACE_END
