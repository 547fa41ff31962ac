// Durations and time points users give to settings and futures: clamped,
// never overflowed (std::chrono::duration_cast of hours::max() to
// milliseconds is undefined behaviour, and UBSan reported it).
#include <chrono>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <mysqlx/detail/duration.h>

namespace {

using namespace std::chrono;
using mysqlx::detail::saturating_duration_cast;
using mysqlx::detail::steady_deadline_after;

TEST(SaturatingDurationCast, ExactWhereItFitsClampedWhereItDoesNot) {
  EXPECT_EQ(saturating_duration_cast<milliseconds>(seconds(5)), milliseconds(5000));
  EXPECT_EQ(saturating_duration_cast<milliseconds>(microseconds(1999)), milliseconds(1));
  EXPECT_EQ(saturating_duration_cast<milliseconds>(microseconds(-1999)), milliseconds(-1));
  // The value: wrapped to 2,048,384 ms before.
  EXPECT_EQ(saturating_duration_cast<milliseconds>(hours(5124095576031)), milliseconds::max());
  EXPECT_EQ(saturating_duration_cast<milliseconds>(seconds::max()), milliseconds::max());
  EXPECT_EQ(saturating_duration_cast<milliseconds>(seconds::min()), milliseconds::min());
  EXPECT_EQ(saturating_duration_cast<nanoseconds>(hours::max()), nanoseconds::max());
  EXPECT_EQ(saturating_duration_cast<milliseconds>(milliseconds::max()), milliseconds::max());
  const hours largest_fitting(milliseconds::max().count() / 3'600'000);
  EXPECT_EQ(saturating_duration_cast<milliseconds>(largest_fitting),
            milliseconds(largest_fitting.count() * 3'600'000));
  EXPECT_EQ(saturating_duration_cast<milliseconds>(duration<double>(1e300)), milliseconds::max());
  EXPECT_EQ(saturating_duration_cast<milliseconds>(
                duration<double>(std::numeric_limits<double>::infinity())),
            milliseconds::max());
  EXPECT_EQ(saturating_duration_cast<milliseconds>(duration<double>(std::nan(""))),
            milliseconds::zero());
  EXPECT_EQ(saturating_duration_cast<milliseconds>(duration<unsigned long long>::max()),
            milliseconds::max());
}

TEST(SteadyDeadlineAfter, NoLimitWhenTheSumWouldNotFit) {
  EXPECT_EQ(steady_deadline_after(hours::max()), steady_clock::time_point::max());
  EXPECT_EQ(steady_deadline_after(nanoseconds::max()), steady_clock::time_point::max());
  const auto before = steady_clock::now();
  const auto past = steady_deadline_after(seconds::min()); // now: only look
  const auto soon = steady_deadline_after(seconds(10));
  const auto after = steady_clock::now();
  EXPECT_GE(past, before);
  EXPECT_LE(past, after);
  EXPECT_GE(soon, before + seconds(10));
  EXPECT_LE(soon, after + seconds(10));
}

} // namespace
