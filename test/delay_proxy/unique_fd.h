// An owned file descriptor: closed when its owner goes, so that no path out
// of the relay (a failed connect, a dropped pair, shutdown) leaks a socket.
#pragma once

#include <unistd.h>
#include <utility>

namespace xdelay {

class unique_fd {
public:
  unique_fd() = default;
  explicit unique_fd(int fd) noexcept : m_fd(fd) {}
  unique_fd(unique_fd&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}
  unique_fd& operator=(unique_fd&& other) noexcept {
    if (this != &other) {
      reset();
      m_fd = std::exchange(other.m_fd, -1);
    }
    return *this;
  }
  unique_fd(const unique_fd&) = delete;
  unique_fd& operator=(const unique_fd&) = delete;
  ~unique_fd() { reset(); }

  int get() const noexcept { return m_fd; }
  explicit operator bool() const noexcept { return m_fd >= 0; }
  void reset() noexcept {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
  }

private:
  int m_fd = -1;
};

} // namespace xdelay
