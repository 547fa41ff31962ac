// A TCP proxy in the bench process that counts how often the conversation
// changes direction, so round trips are counted on the wire rather than
// inferred from code: each client->server burst that follows a reply (or
// starts the conversation) is one request flight, each server->client burst
// that follows a request is one reply flight. A call that waits for the
// server once per request shows one of each per round trip; pipelined
// messages sent without waiting are one flight. X Protocol frames are counted
// too (4-byte little-endian length, then the payload).
#pragma once

#include <arpa/inet.h>
#include <atomic>
#include <netinet/in.h>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace bench_server {

class counting_proxy {
public:
  struct counts {
    long c2s_flights, s2c_flights, c2s_frames, s2c_frames;
  };

  explicit counting_proxy(int upstream_port) : m_upstream_port(upstream_port) {
    m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (::bind(m_listen, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::listen(m_listen, 1) != 0 ||
        ::getsockname(m_listen, reinterpret_cast<sockaddr*>(&a), &len) != 0)
      throw std::runtime_error("proxy: cannot listen");
    m_port = ntohs(a.sin_port);
    m_thread = std::thread([this] { serve(); });
  }
  ~counting_proxy() {
    ::shutdown(m_listen, SHUT_RDWR);
    m_thread.join();
    ::close(m_listen);
  }
  counting_proxy(const counting_proxy&) = delete;
  counting_proxy& operator=(const counting_proxy&) = delete;

  int port() const { return m_port; }
  counts snapshot() const {
    return {m_c2s_flights.load(), m_s2c_flights.load(), m_c2s_frames.load(), m_s2c_frames.load()};
  }

private:
  // Counts frame starts in a byte stream split arbitrarily into chunks.
  struct frame_counter {
    unsigned char header[4];
    int have = 0;
    std::size_t skip = 0;
    long feed(const char* p, std::size_t n) {
      long frames = 0;
      while (n > 0) {
        if (skip > 0) {
          const std::size_t k = skip < n ? skip : n;
          skip -= k, p += k, n -= k;
          continue;
        }
        header[have++] = static_cast<unsigned char>(*p++), --n;
        if (have == 4) {
          skip = header[0] | header[1] << 8 | header[2] << 16 | std::size_t{header[3]} << 24;
          have = 0;
          ++frames;
        }
      }
      return frames;
    }
  };

  void serve() {
    const int client = ::accept(m_listen, nullptr, nullptr);
    if (client < 0) return;
    const int server = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<std::uint16_t>(m_upstream_port));
    if (::connect(server, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) pump(client, server);
    ::close(server);
    ::close(client);
  }

  void pump(int client, int server) {
    frame_counter up, down;
    int last = -1; // 0: client->server, 1: server->client
    char buf[65536];
    for (;;) {
      pollfd fds[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
      if (::poll(fds, 2, -1) < 0) return;
      for (int dir = 0; dir < 2; ++dir) {
        if (!(fds[dir].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        const ssize_t n = ::read(fds[dir].fd, buf, sizeof buf);
        if (n <= 0) return;
        // Counted before forwarding: when the client has its reply, the
        // counts already include it.
        if (dir == 0) {
          m_c2s_frames += up.feed(buf, static_cast<std::size_t>(n));
          if (last != 0) ++m_c2s_flights;
        } else {
          m_s2c_frames += down.feed(buf, static_cast<std::size_t>(n));
          if (last != 1) ++m_s2c_flights;
        }
        last = dir;
        const int to = dir == 0 ? server : client;
        for (ssize_t off = 0; off < n;) {
          const ssize_t w = ::write(to, buf + off, static_cast<std::size_t>(n - off));
          if (w <= 0) return;
          off += w;
        }
      }
    }
  }

  int m_upstream_port;
  int m_listen = -1;
  int m_port = 0;
  std::atomic<long> m_c2s_flights{0}, m_s2c_flights{0}, m_c2s_frames{0}, m_s2c_frames{0};
  std::thread m_thread;
};

} // namespace bench_server
