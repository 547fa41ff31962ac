// std::chrono conversions that clamp instead of overflowing, for the
// durations and time points users give to settings and futures
// (`std::chrono::hours::max()` is a reasonable way to say "forever").
#pragma once

#include <chrono>
#include <mysqlx/detail/export.h>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

/// `d` in the units of `To`, as std::chrono::duration_cast gives it, but
/// clamped to `To`'s range where duration_cast would overflow (undefined
/// behaviour for integer counts); a NaN count is zero.
template <typename To, typename Rep, typename Period>
constexpr To saturating_duration_cast(const std::chrono::duration<Rep, Period>& d) noexcept {
  using wide = std::chrono::duration<long double, Period>;
  const auto count = static_cast<long double>(d.count());
  if (count != count) return To::zero(); // NaN
  // The bounds of To in d's units, in long double: exact for any 64-bit count.
  if (count >= std::chrono::duration_cast<wide>(To::max()).count()) return To::max();
  if (count <= std::chrono::duration_cast<wide>(To::min()).count()) return To::min();
  return std::chrono::duration_cast<To>(d);
}

/// The steady-clock time `d` from now: now for zero or less, and
/// time_point::max() (no deadline) where the sum would not fit.
template <typename Rep, typename Period>
std::chrono::steady_clock::time_point
steady_deadline_after(const std::chrono::duration<Rep, Period>& d) noexcept {
  using steady = std::chrono::steady_clock;
  const steady::time_point now = steady::now();
  const auto rel = saturating_duration_cast<steady::duration>(d);
  if (rel <= steady::duration::zero()) return now;
  if (rel >= steady::time_point::max() - now) return steady::time_point::max();
  return now + rel;
}

} // namespace detail
MYSQLX_NAMESPACE_END
