#include "relay.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/uio.h>
#include <system_error>

namespace xdelay {
namespace {

bool would_block(int err) {
  return err == EAGAIN || err == EWOULDBLOCK;
}

void warn(const char* what, int err) {
  std::fprintf(stderr, "xdelay: %s: %s\n", what, std::strerror(err));
}

} // namespace

void make_relay_socket(int fd) {
  // Nagle would hold a small write until the previous one is acknowledged,
  // which over a delayed link is a whole round trip later.
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
}

std::optional<clock::time_point> direction::next_due() const {
  if (m_done || m_blocked) return std::nullopt;
  if (!m_queue.empty()) return m_queue.front().due;
  if (m_eof) return m_eof_due;
  return std::nullopt;
}

void direction::read(clock::duration delay, std::vector<char>& buffer) {
  while (wants_read()) {
    const ssize_t n = ::recv(m_from, buffer.data(), buffer.size(), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && would_block(errno)) return;
    // Stamped when read: the loop is idle between events, so this is when
    // the bytes arrived, give or take a wake-up.
    const auto due = clock::now() + delay;
    if (n <= 0) { // the end; a reset ends the stream the same way
      m_eof = true;
      m_eof_due = due;
      return;
    }
    m_queue.push_back({due, std::string(buffer.data(), static_cast<std::size_t>(n))});
    ++m_reads;
    m_queued += static_cast<std::size_t>(n);
    // A short read emptied the socket: asking again would only say EAGAIN
    // (ppoll reports anything that comes later).
    if (static_cast<std::size_t>(n) < buffer.size()) return;
  }
}

void direction::flush(clock::time_point now) {
  while (!m_done && !m_blocked && !m_queue.empty() && m_queue.front().due <= now) {
    // Everything due goes out in one call, so pipelined requests that came
    // in separate reads leave together as they would from a real link.
    std::array<iovec, 64> iov{};
    std::size_t count = 0, total = 0;
    for (auto it = m_queue.begin(); it != m_queue.end() && it->due <= now && count < iov.size();
         ++it, ++count) {
      iov[count] = {it->bytes.data() + it->sent, it->bytes.size() - it->sent};
      total += iov[count].iov_len;
    }
    msghdr msg{};
    msg.msg_iov = iov.data();
    msg.msg_iovlen = count;
    const ssize_t sent = ::sendmsg(m_to, &msg, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent < 0 && would_block(errno)) {
      m_blocked = true;
    } else if (sent < 0) {
      abandon();
    } else {
      for (auto left = static_cast<std::size_t>(sent); left > 0;) {
        chunk& c = m_queue.front();
        const std::size_t take = std::min(left, c.bytes.size() - c.sent);
        c.sent += take;
        left -= take;
        m_queued -= take;
        if (c.sent == c.bytes.size()) m_queue.pop_front();
      }
      // A short write means the socket buffer is full: wait for POLLOUT.
      m_blocked = static_cast<std::size_t>(sent) < total;
    }
  }
  if (!m_done && m_queue.empty() && m_eof && m_eof_due <= now) {
    ::shutdown(m_to, SHUT_WR);
    m_done = true;
  }
}

void direction::abandon() {
  m_queue.clear();
  m_queued = 0;
  m_eof = true;
  m_blocked = false;
  m_done = true;
}

void relay::run(const volatile std::sig_atomic_t& stop, const sigset_t& wait_mask) {
  std::vector<pollfd> fds;
  std::vector<pair*> owners; // fds[1 + 2i] and fds[2 + 2i] are owners[i]'s
  while (!stop) {
    fds.assign(1, {m_accepting ? m_listener.get() : -1, POLLIN, 0});
    owners.clear();
    for (pair& p : m_pairs) {
      const auto c = static_cast<short>((p.up.wants_read() ? POLLIN : 0) |
                                        (p.down.waits_writable() ? POLLOUT : 0));
      const auto s = static_cast<short>(!p.connected ? POLLOUT
                                                     : (p.down.wants_read() ? POLLIN : 0) |
                                                           (p.up.waits_writable() ? POLLOUT : 0));
      // A socket with nothing to wait for is left out (-1): poll reports a
      // hang-up whether asked or not, and would return at once until the
      // bytes in flight are due.
      fds.push_back({c != 0 ? p.client.get() : -1, c, 0});
      fds.push_back({s != 0 ? p.server.get() : -1, s, 0});
      owners.push_back(&p);
    }
    timespec wait{};
    const timespec* timeout = nullptr;
    if (const auto due = next_due()) {
      const auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::max(clock::duration::zero(), *due - clock::now()));
      wait.tv_sec = static_cast<time_t>(left.count() / 1'000'000'000);
      wait.tv_nsec = static_cast<long>(left.count() % 1'000'000'000);
      timeout = &wait;
    }
    if (::ppoll(fds.data(), fds.size(), timeout, &wait_mask) < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno, std::generic_category(), "ppoll");
    }
    for (std::size_t i = 0; i < owners.size(); ++i) {
      pair& p = *owners[i];
      const short c = fds[1 + 2 * i].revents, s = fds[2 + 2 * i].revents;
      const std::size_t down_reads = p.down.reads(), up_reads = p.up.reads();
      if (!p.connected) {
        if (s != 0) finish_connect(p);
      } else {
        if (s & (POLLIN | POLLHUP | POLLERR)) p.down.read(m_delay, m_buffer);
        if (s & (POLLOUT | POLLHUP | POLLERR)) p.up.writable();
      }
      if (c & (POLLIN | POLLHUP | POLLERR)) p.up.read(m_delay, m_buffer);
      if (p.down.reads() != down_reads) p.client_spoke_last = false;
      if (p.up.reads() != up_reads) {
        if (!p.client_spoke_last) ++p.flights;
        p.client_spoke_last = true;
      }
      if (c & (POLLOUT | POLLHUP | POLLERR)) p.down.writable();
    }
    if (fds[0].revents & POLLIN) accept_all();
    const auto now = clock::now();
    for (auto it = m_pairs.begin(); it != m_pairs.end();) {
      if (it->connected) {
        it->up.flush(now);
        it->down.flush(now);
      }
      if (it->failed || (it->up.done() && it->down.done())) {
        log_flights(*it);
        it = m_pairs.erase(it);
        m_accepting = true;
      } else {
        ++it;
      }
    }
  }
}

void relay::accept_all() {
  for (;;) {
    unique_fd client(::accept(m_listener.get(), nullptr, nullptr));
    if (!client.valid()) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (would_block(errno)) return;
      // Out of descriptors: the listener would stay readable and spin the
      // loop, so it waits until a pair is dropped.
      warn("accept", errno);
      m_accepting = false;
      return;
    }
    make_relay_socket(client.get());
    unique_fd server(::socket(m_target.ss_family, SOCK_STREAM, 0));
    if (!server.valid()) {
      warn("socket", errno);
      continue; // the client is closed
    }
    make_relay_socket(server.get());
    const int rc =
        ::connect(server.get(), reinterpret_cast<const sockaddr*>(&m_target), m_target_len);
    if (rc < 0 && errno != EINPROGRESS) {
      warn("connect to the target", errno);
      continue;
    }
    m_pairs.emplace_back(std::move(client), std::move(server), rc == 0);
  }
}

void relay::finish_connect(pair& p) {
  int err = 0;
  socklen_t len = sizeof err;
  if (::getsockopt(p.server.get(), SOL_SOCKET, SO_ERROR, &err, &len) < 0) err = errno;
  if (err == 0) {
    p.connected = true;
  } else {
    // The client learns it as a closed connection, the nearest a proxy
    // that has already accepted it can say "refused".
    warn("connect to the target", err);
    p.failed = true;
  }
}

void relay::log_flights(const pair& p) const {
  if (m_flights_log.empty() || p.failed) return;
  std::ofstream f(m_flights_log, std::ios::app);
  f << "flights " << p.flights << '\n';
  if (!f.flush()) warn("--flights-log", errno);
}

std::optional<clock::time_point> relay::next_due() const {
  std::optional<clock::time_point> first;
  const auto consider = [&first](std::optional<clock::time_point> t) {
    if (t && (!first || *t < *first)) first = t;
  };
  for (const pair& p : m_pairs) {
    if (!p.connected) continue;
    consider(p.up.next_due());
    consider(p.down.next_due());
  }
  return first;
}

} // namespace xdelay
