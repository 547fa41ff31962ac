#include "cdk/foundation/fd.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace cdk {

void unique_fd::reset(int fd) noexcept {
  if (m_fd >= 0) {
    // close() is not retried on EINTR: on Linux the descriptor is released
    // even then, and a retry could close a descriptor another thread reused.
    ::close(m_fd);
  }
  m_fd = fd;
}

std::string errno_text(int err) {
  char buf[256] = {};
  // GNU strerror_r may return a static string instead of filling buf.
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
  return ::strerror_r(err, buf, sizeof buf);
#else
  if (::strerror_r(err, buf, sizeof buf) != 0) return "error " + std::to_string(err);
  return buf;
#endif
}

steady_deadline deadline_after(std::chrono::milliseconds timeout) {
  if (timeout.count() <= 0) return steady_deadline::max();
  return std::chrono::steady_clock::now() + timeout;
}

int poll_timeout_ms(steady_deadline deadline) {
  if (deadline == steady_deadline::max()) return -1;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  if (left.count() <= 0) return 0;
  // Round up so that a wait never ends a little before the deadline.
  return left.count() > 0x7fffffff ? 0x7fffffff : static_cast<int>(left.count()) + 1;
}

int wait_fd(int fd, short events, steady_deadline deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    int rc = ::poll(&p, 1, poll_timeout_ms(deadline));
    if (rc >= 0) return rc > 0 ? 1 : 0;
    if (errno != EINTR) return -1;
  }
}

std::string endpoint_text(const std::string& host, unsigned port) {
  bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

bool set_nonblocking(int fd, bool on) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0) return false;
  flags = on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK);
  return ::fcntl(fd, F_SETFL, flags) == 0;
}

} // namespace cdk
