// POSIX descriptor helpers shared by the client connect code, the server-side
// listener and socket_stream. No OpenSSL here: this header is included by
// socket_stream.h, which xserverd uses.
#pragma once

#include <chrono>
#include <string>
#include <utility>

namespace cdk {

// Owns one file descriptor; closes it on destruction. Move-only.
class unique_fd {
public:
  unique_fd() = default;
  explicit unique_fd(int fd) noexcept : m_fd(fd) {}
  unique_fd(unique_fd&& other) noexcept : m_fd(other.release()) {}
  unique_fd& operator=(unique_fd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  unique_fd(const unique_fd&) = delete;
  unique_fd& operator=(const unique_fd&) = delete;
  ~unique_fd() { reset(); }

  int get() const noexcept { return m_fd; }
  bool valid() const noexcept { return m_fd >= 0; }
  int release() noexcept { return std::exchange(m_fd, -1); }
  void reset(int fd = -1) noexcept;

private:
  int m_fd = -1;
};

// strerror_r() text for an errno value ("Connection refused").
std::string errno_text(int err);

using steady_deadline = std::chrono::steady_clock::time_point;

// Milliseconds left until the deadline as a poll() timeout: -1 when there is
// no deadline (time_point::max()), 0 when it has passed.
int poll_timeout_ms(steady_deadline deadline);

// A deadline `timeout` from now; 0 means none (time_point::max()).
steady_deadline deadline_after(std::chrono::milliseconds timeout);

// Waits until fd is ready for `events` (POLLIN/POLLOUT), retrying on EINTR.
// Returns 1 when ready, 0 on timeout, -1 with errno set on failure.
int wait_fd(int fd, short events, steady_deadline deadline);

// "host:port", with an IPv6 literal in brackets ("[::1]:33060").
std::string endpoint_text(const std::string& host, unsigned port);

// O_NONBLOCK on or off. Returns false with errno set on failure.
bool set_nonblocking(int fd, bool on);

} // namespace cdk
