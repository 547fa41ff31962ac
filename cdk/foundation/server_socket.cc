#include "cdk/foundation/server_socket.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace cdk {

namespace {

error listen_error(const std::string& where, int err) {
  return error::connection(client_errc::connection_error,
                           "Can't listen on " + where + " (" + errno_text(err) + ")");
}

// The peer as "ip:port", for error messages on the accepted stream.
std::string peer_text(const sockaddr_storage& ss) {
  char host[INET6_ADDRSTRLEN] = "?";
  unsigned port = 0;
  if (ss.ss_family == AF_INET) {
    const auto& in = reinterpret_cast<const sockaddr_in&>(ss);
    inet_ntop(AF_INET, &in.sin_addr, host, sizeof host);
    port = ntohs(in.sin_port);
  } else if (ss.ss_family == AF_INET6) {
    const auto& in6 = reinterpret_cast<const sockaddr_in6&>(ss);
    inet_ntop(AF_INET6, &in6.sin6_addr, host, sizeof host);
    port = ntohs(in6.sin6_port);
  } else {
    return "local client";
  }
  return endpoint_text(host, port);
}

} // namespace

listener::listener(unique_fd fd, std::uint16_t port, std::string address, std::string unix_path)
    : m_fd(std::move(fd)), m_port(port), m_address(std::move(address)),
      m_unix_path(std::move(unix_path)) {}

listener& listener::operator=(listener&& other) noexcept {
  if (this != &other) {
    remove_socket_file();
    m_fd = std::move(other.m_fd);
    m_port = other.m_port;
    m_address = std::move(other.m_address);
    m_unix_path = std::move(other.m_unix_path);
    other.m_unix_path.clear();
  }
  return *this;
}

listener::~listener() {
  remove_socket_file();
}

void listener::remove_socket_file() noexcept {
  // Only the listener that still owns its socket removes the file.
  if (!m_unix_path.empty() && m_fd.valid()) ::unlink(m_unix_path.c_str());
  m_unix_path.clear();
}

result<listener> listener::listen_tcp(const std::string& host, std::uint16_t port, int backlog) {
  std::string where = endpoint_text(host, port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV;
  addrinfo* ai = nullptr;
  std::string service = std::to_string(port);
  if (int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &ai); rc != 0) {
    return error::client(client_errc::bad_option, "Can't listen on '" + host +
                                                      "': not a numeric address (" +
                                                      gai_strerror(rc) + ")");
  }
  // Non-blocking: accept() after poll() must not block when the client went
  // away in between. Accepted sockets do not inherit it.
  unique_fd fd(::socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  int err = errno;
  if (fd.valid()) {
    int one = 1;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (ai->ai_family == AF_INET6) {
      ::setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    }
    if (::bind(fd.get(), ai->ai_addr, ai->ai_addrlen) != 0 || ::listen(fd.get(), backlog) != 0) {
      err = errno;
      fd.reset();
    }
  }
  freeaddrinfo(ai);
  if (!fd.valid()) return listen_error(where, err);
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  ::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&bound), &len);
  std::uint16_t actual = bound.ss_family == AF_INET6
                             ? ntohs(reinterpret_cast<sockaddr_in6&>(bound).sin6_port)
                             : ntohs(reinterpret_cast<sockaddr_in&>(bound).sin_port);
  return listener(std::move(fd), actual, endpoint_text(host, actual), {});
}

result<listener> listener::listen_unix(const std::string& path, int backlog) {
  sockaddr_un addr{};
  if (path.empty() || path.size() >= sizeof addr.sun_path) {
    return error::client(client_errc::bad_option,
                         "Unix socket path '" + path + "' is empty or too long");
  }
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.data(), path.size());
  // A socket file left by a previous run would make bind() fail; anything
  // else at that path is not ours to delete.
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) ::unlink(path.c_str());
  unique_fd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!fd.valid()) return listen_error(path, errno);
  if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(fd.get(), backlog) != 0) {
    return listen_error(path, errno);
  }
  return listener(std::move(fd), 0, path, path);
}

result<std::unique_ptr<socket_stream>> listener::accept(std::chrono::milliseconds timeout) {
  steady_deadline deadline = deadline_after(timeout);
  for (;;) {
    if (!m_fd.valid()) return error::client(client_errc::usage, "The listener is closed");
    int ready = wait_fd(m_fd.get(), POLLIN, deadline);
    if (ready == 0) {
      return error::client(client_errc::timeout, "No connection on " + m_address + " within " +
                                                     std::to_string(timeout.count()) + " ms");
    }
    sockaddr_storage ss{};
    socklen_t len = sizeof ss;
    int rc = ready < 0
                 ? -1
                 : ::accept4(m_fd.get(), reinterpret_cast<sockaddr*>(&ss), &len, SOCK_CLOEXEC);
    if (rc >= 0) {
      unique_fd fd(rc);
      bool local = ss.ss_family == AF_UNIX;
      if (!local) {
        int one = 1;
        ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      }
      return std::make_unique<socket_stream>(std::move(fd), local, peer_text(ss));
    }
    // The client may have gone between poll() and accept(): wait again.
    if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED) {
      continue;
    }
    if (errno == EINVAL) return error::client(client_errc::usage, "The listener was shut down");
    return error::connection(client_errc::connection_error,
                             "accept() on " + m_address + " failed (" + errno_text(errno) + ")");
  }
}

void listener::shutdown() noexcept {
  if (m_fd.valid()) ::shutdown(m_fd.get(), SHUT_RDWR);
}

} // namespace cdk
