// A benchmark run that takes far longer than it should has hung (the
// official client spins forever on compressed replies it misreads): the
// watchdog names the run, stops what the program started (on_hang) and ends
// the program with status 3, so `./dev bench` fails instead of hanging.
// Shared by bench_devapi_server and bench_async, ours and the peer builds.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

namespace bench_watchdog {

namespace detail {
struct state {
  std::mutex mutex;
  std::string watched; // the run in progress; empty: none
  std::chrono::steady_clock::time_point deadline;
  int seconds = 0;
};
inline state& shared() {
  static state s;
  return s;
}
} // namespace detail

// The run `what` is in progress while this lives.
class watch {
public:
  explicit watch(const std::string& what) {
    auto& s = detail::shared();
    const std::lock_guard<std::mutex> lock(s.mutex);
    s.watched = what;
    s.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(s.seconds);
  }
  watch(const watch&) = delete;
  watch& operator=(const watch&) = delete;
  ~watch() {
    auto& s = detail::shared();
    const std::lock_guard<std::mutex> lock(s.mutex);
    s.watched.clear();
  }
};

// Starts the watchdog: a run may take $MYSQLX_BENCH_HANG_SECONDS, else
// default_seconds.
inline void start(const char* program, int default_seconds, std::function<void()> on_hang) {
  auto& s = detail::shared();
  {
    const std::lock_guard<std::mutex> lock(s.mutex);
    s.seconds = default_seconds;
    if (const char* v = std::getenv("MYSQLX_BENCH_HANG_SECONDS")) s.seconds = std::atoi(v);
  }
  std::thread([program, on_hang = std::move(on_hang)] {
    auto& st = detail::shared();
    for (;;) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      std::string what;
      int seconds = 0;
      {
        const std::lock_guard<std::mutex> lock(st.mutex);
        if (st.watched.empty() || std::chrono::steady_clock::now() < st.deadline) continue;
        what = st.watched;
        seconds = st.seconds;
      }
      std::fprintf(stderr, "%s: %s hung (over %d s); stopping\n", program, what.c_str(), seconds);
      if (on_hang) on_hang();
      std::_Exit(3);
    }
  }).detach();
}

} // namespace bench_watchdog
