#include "cdk/foundation/readable_waiter.h"

#include <cerrno>
#include <cstdint>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace cdk {

bool readable_waiter::prepare() noexcept {
  if (!m_event.valid()) m_event.reset(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  return m_event.valid();
}

readable_waiter::outcome readable_waiter::wait(int fd, steady_deadline deadline) noexcept {
  pollfd p[2] = {{fd, POLLIN, 0}, {m_event.get(), POLLIN, 0}};
  for (;;) {
    const int rc = ::poll(p, 2, poll_timeout_ms(deadline));
    if (rc < 0 && errno == EINTR) continue;
    if (rc < 0) return outcome::readable; // the read says what is wrong
    if (rc == 0) return outcome::timeout;
    if (p[1].revents != 0) {
      std::uint64_t n = 0;
      while (::read(m_event.get(), &n, sizeof n) < 0 && errno == EINTR) {
      }
      return outcome::woken;
    }
    return outcome::readable;
  }
}

void readable_waiter::wake() noexcept {
  if (!m_event.valid()) return;
  const std::uint64_t one = 1;
  while (::write(m_event.get(), &one, sizeof one) < 0 && errno == EINTR) {
  }
}

} // namespace cdk
