#include "cdk/docid/sources.h"

#include <cerrno>
#include <cstdlib>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

namespace cdk::docid {

namespace {

std::uint64_t read_ms(clockid_t id) noexcept {
  timespec ts{};
  clock_gettime(id, &ts);
  if (ts.tv_sec < 0) return 0; // a clock before 1970: treat as the epoch
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000u +
         static_cast<std::uint64_t>(ts.tv_nsec) / 1000000u;
}

// Reading CLOCK_REALTIME costs more than our whole 25 ns budget per id here,
// so the default is the coarse clock whenever its tick is at most 4 ms. The
// timestamp in an id may then lag real time by up to one tick; order within
// the process is unaffected (the counter absorbs a tick's worth of ids), and 4
// ms is still far finer than server ids, which carry the server's start
// second. A kernel with a slower tick gets the precise clock.
clockid_t choose_default_clock() noexcept {
  timespec res{};
  if (clock_getres(CLOCK_REALTIME_COARSE, &res) == 0 && res.tv_sec == 0 && res.tv_nsec <= 4'000'000)
    return CLOCK_REALTIME_COARSE;
  return CLOCK_REALTIME;
}

// Zero-initialised (CLOCK_REALTIME) until dynamic initialisation runs, which
// is a safe value for ids made by other static initialisers.
const clockid_t g_default_clock = choose_default_clock();

class system_clock final : public clock_source {
public:
  explicit constexpr system_clock(clockid_t id) noexcept : m_id(id) {}
  std::uint64_t now_ms() noexcept override { return read_ms(m_id); }

private:
  clockid_t m_id;
};

class kernel_random final : public random_source {
public:
  void fill(unsigned char* out, std::size_t size) noexcept override {
    while (size > 0) {
      const ssize_t n = getrandom(out, size, 0);
      if (n < 0) {
        if (errno == EINTR) continue;
        static constexpr char msg[] = "mysqlx: getrandom() failed; cannot make document ids\n";
        (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
        std::abort();
      }
      out += n;
      size -= static_cast<std::size_t>(n);
    }
  }
};

system_clock g_precise{CLOCK_REALTIME};
system_clock g_coarse{CLOCK_REALTIME_COARSE};
kernel_random g_random;

} // namespace

clock_source& precise_system_clock() noexcept {
  return g_precise;
}
clock_source& coarse_system_clock() noexcept {
  return g_coarse;
}
std::uint64_t default_clock_ms() noexcept {
  return read_ms(g_default_clock);
}
random_source& os_random() noexcept {
  return g_random;
}

} // namespace cdk::docid
