// Server-side sockets, for xserverd (the connector never listens): listen on
// a TCP address or a Unix socket path and accept connections as
// cdk::socket_stream, which can then be upgraded with accept_tls().
//
//   auto l = cdk::listener::listen_tcp("127.0.0.1", 0);   // 0: any free port
//   std::uint16_t port = l.value().port();
//   auto conn = l.value().accept(std::chrono::milliseconds(0));  // wait forever
//
// Accepted sockets are blocking, close-on-exec, with TCP_NODELAY.
// accept() may be woken from another thread by shutdown(); it then fails
// with client_errc::usage.
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/foundation/fd.h"
#include "cdk/foundation/socket_stream.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace cdk {

class listener {
public:
  // host: a numeric IPv4 or IPv6 address ("127.0.0.1", "::1"); port 0 picks
  // a free port (see port()). SO_REUSEADDR is set.
  static result<listener> listen_tcp(const std::string& host, std::uint16_t port, int backlog = 64);
  // Creates the socket file at path (an existing socket file there is
  // replaced) and removes it again when the listener is destroyed.
  static result<listener> listen_unix(const std::string& path, int backlog = 64);

  listener(listener&&) noexcept = default;
  listener& operator=(listener&&) noexcept;
  ~listener();

  // timeout 0: wait forever. A timeout is client_errc::timeout.
  result<std::unique_ptr<socket_stream>> accept(std::chrono::milliseconds timeout);
  // Wakes a thread blocked in accept() and makes further accepts fail.
  void shutdown() noexcept;

  std::uint16_t port() const noexcept { return m_port; }            // 0 for Unix sockets
  const std::string& address() const noexcept { return m_address; } // "127.0.0.1:33060" or the path
  int native_handle() const noexcept { return m_fd.get(); }

private:
  listener(unique_fd fd, std::uint16_t port, std::string address, std::string unix_path);
  void remove_socket_file() noexcept;

  unique_fd m_fd;
  std::uint16_t m_port = 0;
  std::string m_address;
  std::string m_unix_path; // removed on destruction
};

} // namespace cdk
