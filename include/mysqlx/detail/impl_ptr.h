// detail::impl_ptr<T>: the pointer a public class keeps its private state in.
#pragma once

#include <memory>
#include <mysqlx/detail/export.h>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

/// Owns a T as std::unique_ptr<T> does (move-only; it deletes the T through
/// a std::unique_ptr), and converts from and to one. It exists for parse
/// time: g++ spends about 20 million instructions (5 ms) instantiating each
/// std::unique_ptr<T> (its std::tuple and their traits), and the six pimpl
/// types of these headers made that 30% of what our own declarations cost
/// every file that includes <mysqlx/xdevapi.h>; this class costs next to
/// nothing. What needs T complete (destruction) is instantiated only where
/// the owner's out-of-line members are defined, in the library.
template <typename T> class impl_ptr {
public:
  impl_ptr() noexcept = default;
  impl_ptr(std::unique_ptr<T> p) noexcept : m_p(p.release()) {} // NOLINT: implicit by design
  impl_ptr(impl_ptr&& other) noexcept : m_p(other.release()) {}
  impl_ptr& operator=(impl_ptr&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  impl_ptr& operator=(std::unique_ptr<T> p) noexcept {
    reset(p.release());
    return *this;
  }
  impl_ptr(const impl_ptr&) = delete;
  impl_ptr& operator=(const impl_ptr&) = delete;
  ~impl_ptr() { reset(nullptr); }

  T* get() const noexcept { return m_p; }
  T& operator*() const noexcept { return *m_p; }
  T* operator->() const noexcept { return m_p; }
  explicit operator bool() const noexcept { return m_p != nullptr; }
  /// Gives the T up: the caller owns it and this becomes null.
  T* release() noexcept {
    T* p = m_p;
    m_p = nullptr;
    return p;
  }
  /// Hands the T on as a std::unique_ptr (`return std::move(x.m_impl);`).
  operator std::unique_ptr<T>() && noexcept { return std::unique_ptr<T>(release()); } // NOLINT

private:
  void reset(T* p) noexcept {
    const std::unique_ptr<T> old(m_p); // deletes the T held before, if any
    m_p = p;
  }
  T* m_p = nullptr;
};

} // namespace detail
MYSQLX_NAMESPACE_END
