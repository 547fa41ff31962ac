#include "cdk/foundation/socket_stream.h"

#include "cdk/foundation/tls_server.h"
#include "cdk/foundation/tls_session.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <limits>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>

namespace cdk {

error lost_connection_error(const std::string& peer, std::string_view why) {
  std::string msg = "Lost connection to " + peer + " (";
  msg.append(why.data(), why.size());
  msg += ")";
  return error::connection(client_errc::lost_connection, std::move(msg));
}

std::string lost_connection_why(int err) {
  // A send() after the other end closed (or reset) the connection.
  if (err == EPIPE) return errno_text(err) + ": the other end had closed the connection";
  return errno_text(err);
}

error socket_errno_error(const std::string& peer, int err) {
  if (err == EAGAIN || err == EWOULDBLOCK) {
    return error::connection(client_errc::timeout, "Timed out waiting for " + peer);
  }
  if (err == ETIMEDOUT) {
    // On an established connection only keepalive or TCP_USER_TIMEOUT end
    // in ETIMEDOUT (or, with neither, Linux's own ~15 minutes of retries).
    return error::connection(client_errc::dead_peer,
                             "Lost connection to " + peer +
                                 ": the server stopped answering (no TCP acknowledgement or "
                                 "keepalive reply)");
  }
  return lost_connection_error(peer, lost_connection_why(err));
}

namespace {

// The socket calls of a plain stream: all of `bytes` sent with MSG_NOSIGNAL,
// and one recv() of at most n bytes (EOF is lost_connection). EINTR is
// retried; errors are socket_errno_error's.
status send_all(int fd, std::string_view bytes, const std::string& peer) {
  while (!bytes.empty()) {
    // MSG_NOSIGNAL: a peer that went away is EPIPE here, never SIGPIPE.
    ssize_t rc = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (rc < 0) {
      if (errno == EINTR) continue;
      return socket_errno_error(peer, errno);
    }
    bytes.remove_prefix(static_cast<std::size_t>(rc));
  }
  return ok();
}

result<std::size_t> recv_some(int fd, char* dst, std::size_t n, const std::string& peer) {
  for (;;) {
    ssize_t rc = ::recv(fd, dst, n, 0);
    if (rc > 0) return static_cast<std::size_t>(rc);
    if (rc == 0) return lost_connection_error(peer, "connection closed by peer");
    if (errno != EINTR) return socket_errno_error(peer, errno);
  }
}

} // namespace

socket_stream::socket_stream(unique_fd fd, bool local, std::string peer)
    : m_fd(std::move(fd)), m_local(local), m_peer(std::move(peer)), m_buf(read_buffer_size) {}

socket_stream::~socket_stream() {
  close();
}

error socket_stream::closed_error() const {
  return lost_connection_error(m_peer, "the connection was closed");
}

status socket_stream::write(std::string_view bytes) {
  if (!m_fd.valid()) return closed_error();
  if (m_tls) return m_tls->write(bytes);
  return send_all(m_fd.get(), bytes, m_peer);
}

result<std::size_t> socket_stream::fill(char* dst, std::size_t n) {
  if (!m_fd.valid()) return closed_error();
  if (m_tls) return m_tls->read(dst, n);
  return recv_some(m_fd.get(), dst, n, m_peer);
}

result<std::size_t> socket_stream::read_some(char* buf, std::size_t n) {
  if (n == 0) return std::size_t{0};
  if (m_pos == m_end) {
    // A large read goes straight to the caller's buffer: no extra copy.
    if (n >= m_buf.size()) return fill(buf, n);
    auto got = fill(m_buf.data(), m_buf.size());
    if (!got) return std::move(got).err();
    m_pos = 0;
    m_end = got.value();
  }
  std::size_t take = std::min(n, m_end - m_pos);
  std::memcpy(buf, m_buf.data() + m_pos, take);
  m_pos += take;
  return take;
}

result<bool> socket_stream::readable(std::chrono::milliseconds wait) {
  if (!m_fd.valid()) return closed_error();
  if (m_pos < m_end || (m_tls && m_tls->has_buffered())) return true;
  const bool bounded = m_read_timeout.count() > 0 && wait >= m_read_timeout;
  if (bounded) wait = m_read_timeout;
  pollfd p{m_fd.get(), POLLIN, 0};
  for (;;) {
    const int rc = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(wait.count(), INT_MAX)));
    // POLLHUP or POLLERR count as readable: the read then says what happened.
    if (rc == 0 && bounded) return read_timeout_error();
    if (rc >= 0) return rc > 0;
    if (errno != EINTR)
      return error::connection(client_errc::lost_connection,
                               "poll() on the connection to " + m_peer +
                                   " failed: " + std::strerror(errno));
  }
}

error socket_stream::read_timeout_error() const {
  return socket_errno_error(m_peer, EAGAIN); // what recv() past SO_RCVTIMEO becomes
}

status socket_stream::upgrade(result<std::unique_ptr<tls_session>> session) {
  if (!session) return std::move(session).err();
  m_tls = std::move(session).value();
  m_pos = m_end = 0; // the buffered bytes were handed to the handshake
  return ok();
}

status socket_stream::start_tls(const tls_options& opts, std::string_view host) {
  if (!m_fd.valid()) return closed_error();
  if (m_tls) return error::client(client_errc::usage, "TLS is already active on this connection");
  if (opts.mode == ssl_mode::disabled) {
    return error::client(client_errc::usage, "start_tls() called with ssl-mode=DISABLED");
  }
  auto ctx = make_client_ctx(opts, host);
  if (!ctx) return std::move(ctx).err();
  std::string_view pending(m_buf.data() + m_pos, m_end - m_pos);
  return upgrade(tls_session::handshake(ctx.value().get(), m_fd.get(), pending,
                                        tls_session::role::client, host, m_peer));
}

status socket_stream::accept_tls(const tls_server_context& ctx) {
  if (!m_fd.valid()) return closed_error();
  if (m_tls) return error::client(client_errc::usage, "TLS is already active on this connection");
  std::string_view pending(m_buf.data() + m_pos, m_end - m_pos);
  return upgrade(tls_session::handshake(ctx.native(), m_fd.get(), pending,
                                        tls_session::role::server, {}, m_peer));
}

namespace {
timeval to_timeval(std::chrono::milliseconds t) {
  timeval tv{}; // zero: no bound
  if (t.count() > 0) {
    tv.tv_sec = static_cast<time_t>(t.count() / 1000);
    tv.tv_usec = static_cast<suseconds_t>(t.count() % 1000 * 1000);
  }
  return tv;
}
} // namespace

status socket_stream::set_timeouts(std::chrono::milliseconds read,
                                   std::chrono::milliseconds write) {
  if (!m_fd.valid()) return closed_error();
  m_read_timeout = read;
  const timeval r = to_timeval(read), w = to_timeval(write);
  if (::setsockopt(m_fd.get(), SOL_SOCKET, SO_RCVTIMEO, &r, sizeof r) != 0 ||
      ::setsockopt(m_fd.get(), SOL_SOCKET, SO_SNDTIMEO, &w, sizeof w) != 0) {
    return error::client(client_errc::usage, "Can't set an I/O timeout: " + errno_text(errno));
  }
  return ok();
}

// Keepalive covers a wait for a reply (nothing of ours unacknowledged):
// after `idle` without a byte from the peer, `count` probes `interval`
// apart, so a dead peer is found within about idle + count * interval = t.
// TCP_USER_TIMEOUT covers our unacknowledged bytes (a request sent into the
// cut), and also caps the keepalive probing: Linux ends it once that long
// passed since the peer's last byte, so a t below idle + count * interval
// is kept to the next probe. Seconds are keepalive's unit.
keepalive_params keepalive_for(std::chrono::milliseconds t) {
  const auto s = std::max<std::int64_t>(2, (t.count() + 999) / 1000);
  keepalive_params k;
  k.count = 3;
  k.interval = static_cast<int>(std::max<std::int64_t>(1, s / 5));
  k.idle = static_cast<int>(std::max<std::int64_t>(1, s - k.count * k.interval));
  return k;
}

status socket_stream::set_dead_peer_timeout(std::chrono::milliseconds t) {
  if (!m_fd.valid()) return closed_error();
  if (m_local) return ok();
  const int fd = m_fd.get();
  const int on = t.count() > 0 ? 1 : 0;
  const auto k = keepalive_for(t);
  // 0 restores the kernel's default (no user timeout).
  const unsigned user_timeout =
      static_cast<unsigned>(std::min<std::int64_t>(t.count(), std::numeric_limits<int>::max()));
  bool set =
      ::setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on) == 0 &&
      ::setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_timeout, sizeof user_timeout) == 0;
  if (set && on) {
    set = ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &k.idle, sizeof k.idle) == 0 &&
          ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &k.interval, sizeof k.interval) == 0 &&
          ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &k.count, sizeof k.count) == 0;
  }
  if (!set) {
    return error::client(client_errc::usage,
                         "Can't set dead-peer-timeout (TCP keepalive): " + errno_text(errno));
  }
  return ok();
}

std::string socket_stream::tls_version() const {
  return m_tls ? m_tls->version() : "";
}
std::string socket_stream::tls_cipher() const {
  return m_tls ? m_tls->cipher() : "";
}

std::string socket_stream::tls_server_name() const {
  return m_tls ? m_tls->server_name() : "";
}

void socket_stream::close() noexcept {
  if (m_tls && m_fd.valid()) m_tls->shutdown();
  m_tls.reset();
  m_fd.reset();
  m_pos = m_end = 0;
}

} // namespace cdk
