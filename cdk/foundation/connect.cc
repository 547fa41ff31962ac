// connect_tcp() and connect_unix() (stream.h).
//
// Every address a name resolves to is tried in getaddrinfo() order (which
// follows RFC 6724, so IPv6 and IPv4 are both covered); the first that
// accepts wins. The timeout bounds the whole attempt, resolution excepted
// (getaddrinfo has no timeout): a connect timeout is what the user waits at
// most, whatever the number of addresses. Each connect is non-blocking with
// poll(); the socket is switched back to blocking once connected, because the
// layers above do blocking I/O.
#include "cdk/foundation/connect_detail.h"
#include "cdk/foundation/socket_stream.h"

#include <cerrno>
#include <cstring>
#include <memory>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>

namespace cdk {

namespace {

struct addrinfo_deleter {
  void operator()(addrinfo* ai) const noexcept { freeaddrinfo(ai); }
};

// One non-blocking connect. Returns the connected fd, or an invalid one with
// err set (ETIMEDOUT when the deadline passed).
unique_fd connect_one(int family, const sockaddr* addr, socklen_t len, steady_deadline deadline,
                      int& err) {
  unique_fd fd(::socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!fd.valid()) {
    err = errno;
    return {};
  }
  int rc = ::connect(fd.get(), addr, len);
  if (rc != 0 && errno != EINPROGRESS && errno != EINTR) {
    err = errno;
    return {};
  }
  if (rc != 0) {
    // EINTR: the connect goes on asynchronously, exactly like EINPROGRESS.
    int ready = wait_fd(fd.get(), POLLOUT, deadline);
    if (ready <= 0) {
      err = ready == 0 ? ETIMEDOUT : errno;
      return {};
    }
    socklen_t elen = sizeof err;
    if (::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &elen) != 0) err = errno;
    if (err != 0) return {};
  }
  if (!set_nonblocking(fd.get(), false)) {
    err = errno;
    return {};
  }
  return fd;
}

} // namespace

result<std::unique_ptr<stream>> connect_resolved(const addrinfo* list, const std::string& host,
                                                 std::uint16_t port,
                                                 std::chrono::milliseconds timeout) {
  steady_deadline deadline = deadline_after(timeout);
  std::string where = endpoint_text(host, port);
  int err = ENOENT;
  for (const addrinfo* ai = list; ai != nullptr; ai = ai->ai_next) {
    unique_fd fd = connect_one(ai->ai_family, ai->ai_addr, ai->ai_addrlen, deadline, err);
    if (fd.valid()) {
      // Frames are written whole; Nagle would only delay small requests.
      int one = 1;
      ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      return std::unique_ptr<stream>(std::make_unique<socket_stream>(std::move(fd), false, where));
    }
    if (err == ETIMEDOUT && poll_timeout_ms(deadline) == 0) {
      return error::connection(client_errc::timeout, "Connect to " + where + " timed out after " +
                                                         std::to_string(timeout.count()) + " ms");
    }
  }
  return error::connection(client_errc::conn_host_error,
                           "Can't connect to " + where + " (" + errno_text(err) + ")");
}

result<std::unique_ptr<stream>> connect_tcp(const std::string& host, std::uint16_t port,
                                            std::chrono::milliseconds timeout) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_ADDRCONFIG;
  std::string service = std::to_string(port);
  addrinfo* raw = nullptr;
  int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &raw);
  if (rc == EAI_NONAME || rc == EAI_ADDRFAMILY) {
    // AI_ADDRCONFIG hides ::1 on a host without a non-loopback IPv6 address;
    // retry without it before calling the host unknown.
    hints.ai_flags = 0;
    rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &raw);
  }
  if (rc != 0) {
    std::string why = rc == EAI_SYSTEM ? errno_text(errno) : gai_strerror(rc);
    return error::connection(client_errc::unknown_host,
                             "Unknown host '" + host + "' (" + why + ")");
  }
  std::unique_ptr<addrinfo, addrinfo_deleter> list(raw);
  return connect_resolved(list.get(), host, port, timeout);
}

result<std::unique_ptr<stream>> connect_unix(const std::string& path,
                                             std::chrono::milliseconds timeout) {
  sockaddr_un addr{};
  if (path.empty() || path.size() >= sizeof addr.sun_path) {
    return error::client(client_errc::bad_option,
                         "Unix socket path '" + path + "' is empty or longer than " +
                             std::to_string(sizeof addr.sun_path - 1) + " bytes");
  }
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.data(), path.size());
  int err = 0;
  unique_fd fd = connect_one(AF_UNIX, reinterpret_cast<const sockaddr*>(&addr), sizeof addr,
                             deadline_after(timeout), err);
  if (!fd.valid()) {
    if (err == ETIMEDOUT) {
      return error::connection(client_errc::timeout, "Connect to local socket '" + path +
                                                         "' timed out after " +
                                                         std::to_string(timeout.count()) + " ms");
    }
    return error::connection(client_errc::connection_error, "Can't connect to local socket '" +
                                                                path + "' (" + errno_text(err) +
                                                                ")");
  }
  return std::unique_ptr<stream>(std::make_unique<socket_stream>(std::move(fd), true, path));
}

} // namespace cdk
