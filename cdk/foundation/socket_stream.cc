#include "cdk/foundation/socket_stream.h"

#include "cdk/foundation/tls_server.h"
#include "cdk/foundation/tls_session.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <utility>

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
    // On an established connection only keepalive ends in ETIMEDOUT (or
    // Linux's own ~15 minutes of retransmissions); await_readable() says
    // the same for bytes of ours left unacknowledged.
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
  m_last_write = std::chrono::steady_clock::now();
  if (m_tls) return m_tls->write(bytes);
  return send_all(m_fd.get(), bytes, m_peer);
}

result<std::size_t> socket_stream::fill(char* dst, std::size_t n) {
  if (!m_fd.valid()) return closed_error();
  if (auto st = await_readable(); !st) return std::move(st).err();
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

bool socket_stream::has_buffered() const noexcept {
  return m_pos < m_end || (m_tls && m_tls->has_buffered());
}

result<bool> socket_stream::readable(std::chrono::milliseconds wait) {
  if (!m_fd.valid()) return closed_error();
  if (has_buffered()) return true;
  const bool bounded = m_read_timeout.count() > 0 && wait >= m_read_timeout;
  if (bounded) wait = m_read_timeout;
  pollfd p{m_fd.get(), POLLIN, 0};
  for (;;) {
    const int rc = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(wait.count(), INT_MAX)));
    // POLLHUP or POLLERR count as readable: the read then says what happened.
    if (rc == 0 && bounded) return read_timeout_error();
    if (rc >= 0) {
      m_found_readable = rc > 0;
      return rc > 0;
    }
    if (errno != EINTR)
      return error::connection(client_errc::lost_connection,
                               "poll() on the connection to " + m_peer +
                                   " failed: " + std::strerror(errno));
  }
}

// Keepalive finds a silent peer only while nothing of ours is unacknowledged;
// with a request sent into a cut, Linux retransmits for ~15 minutes.
// TCP_USER_TIMEOUT would end that, but Linux applies it to a closed receive
// window too, so a live server that only stopped reading for a while (busy
// with the previous message of a large add()) would be taken for dead. The
// wait for a reply therefore looks at TCP_INFO itself: bytes of ours
// unacknowledged, and no acknowledgement (a window probe's counts) for
// dead-peer-timeout, nor a write of ours (the last acknowledgement may be
// a keepalive's from before the request; tcpi_last_data_sent restarts with
// every retransmission, so it cannot tell).
bool socket_stream::peer_silent() const {
  tcp_info ti{};
  socklen_t len = sizeof ti;
  if (::getsockopt(m_fd.get(), IPPROTO_TCP, TCP_INFO, &ti, &len) != 0) return false;
  const auto t = static_cast<std::uint64_t>(m_dead_peer.count());
  const auto since_write = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - m_last_write);
  return ti.tcpi_unacked > 0 && ti.tcpi_last_ack_recv >= t && since_write >= m_dead_peer;
}

status socket_stream::await_readable() {
  // A poll() that just said readable is not repeated.
  if (std::exchange(m_found_readable, false)) return ok();
  if (m_dead_peer.count() == 0 || m_local) return ok();
  if (has_buffered()) return ok();
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  // A quarter of the timeout, at most 1 s: found within t + t/4.
  const auto slice = std::clamp<std::int64_t>(m_dead_peer.count() / 4, 10, 1000);
  for (;;) {
    std::int64_t wait = slice;
    if (m_read_timeout.count() > 0) {
      const auto left = (m_read_timeout - std::chrono::duration_cast<std::chrono::milliseconds>(
                                              clock::now() - start))
                            .count();
      if (left <= 0) return read_timeout_error();
      wait = std::min(wait, left);
    }
    pollfd p{m_fd.get(), POLLIN, 0};
    const int rc = ::poll(&p, 1, static_cast<int>(wait));
    if (rc > 0) return ok(); // a byte, EOF or an error: the read says which
    if (rc < 0 && errno != EINTR) {
      return error::connection(client_errc::lost_connection,
                               "poll() on the connection to " + m_peer +
                                   " failed: " + std::strerror(errno));
    }
    if (rc == 0 && peer_silent()) return socket_errno_error(m_peer, ETIMEDOUT);
  }
}

error socket_stream::read_timeout_error() const {
  return socket_errno_error(m_peer, EAGAIN); // what recv() past SO_RCVTIMEO becomes
}

status socket_stream::upgrade(result<std::unique_ptr<tls_session>> session) {
  if (!session) return std::move(session).err();
  m_tls = std::move(session).value();
  m_pos = m_end = 0; // the buffered bytes were handed to the handshake
  m_found_readable = false;
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

// Keepalive covers a wait for a reply with nothing of ours unacknowledged:
// after `idle` without a byte from the peer, `count` probes `interval`
// apart, so a dead peer is found within about idle + count * interval = t
// (4 s for t below that: keepalive counts whole seconds). Our bytes left
// unacknowledged (a request sent into the cut) are await_readable()'s.
// Linux takes at most 32767 s for idle and interval.
keepalive_params keepalive_for(std::chrono::milliseconds t) {
  constexpr std::int64_t max_keepalive_s = 32767; // MAX_TCP_KEEPIDLE, MAX_TCP_KEEPINTVL
  const std::int64_t s = std::clamp<std::int64_t>((t.count() + 999) / 1000, 2, 3 * max_keepalive_s);
  keepalive_params k;
  k.count = 3;
  const std::int64_t interval = std::max<std::int64_t>(1, s / 5);
  k.interval = static_cast<int>(interval);
  k.idle = static_cast<int>(std::clamp<std::int64_t>(s - 3 * interval, 1, max_keepalive_s));
  return k;
}

status socket_stream::set_dead_peer_timeout(std::chrono::milliseconds t) {
  if (!m_fd.valid()) return closed_error();
  if (m_local) return ok();
  const int fd = m_fd.get();
  const int on = t.count() > 0 ? 1 : 0;
  const auto k = keepalive_for(t);
  m_dead_peer = t;
  bool set = ::setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on) == 0;
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
