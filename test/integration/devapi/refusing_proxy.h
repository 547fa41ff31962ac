// A TCP proxy in front of xserverd that answers every Mysqlx.Prepare.Prepare
// itself with Error 1047 "Unexpected message received", as MySQL 5.7's X
// Plugin does (xserverd's 5.7 emulation takes Prepare). Frames are forwarded
// whole; clients must disable TLS and compression so frames are visible.
#pragma once

#include <arpa/inet.h>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <netinet/in.h>
#include <stdexcept>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace devapi_it {

class refusing_proxy {
public:
  /// `upstream`: mysqlx://user:pw@127.0.0.1:PORT of the real server. The
  /// proxy listens on a port the kernel picks, so tests running in parallel
  /// (ctest -j) never compete for one; uri() names it.
  explicit refusing_proxy(const std::string& upstream) {
    const auto colon = upstream.rfind(':');
    m_prefix = upstream.substr(0, colon);
    m_upstream_port = std::atoi(upstream.c_str() + colon + 1);
    m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a = loopback(0);
    socklen_t len = sizeof a;
    if (::bind(m_listen, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::listen(m_listen, 4) != 0 ||
        ::getsockname(m_listen, reinterpret_cast<sockaddr*>(&a), &len) != 0)
      throw std::runtime_error("refusing_proxy: cannot listen on 127.0.0.1");
    m_port = ntohs(a.sin_port);
    m_accepter = std::thread([this] { accept_loop(); });
  }
  ~refusing_proxy() {
    ::shutdown(m_listen, SHUT_RDWR);
    ::close(m_listen);
    m_accepter.join();
    // Connections still open (an idle pooled session) end here: the server
    // "goes away" for them too.
    for (auto& l : m_links) {
      ::shutdown(l->client, SHUT_RDWR);
      ::shutdown(l->server, SHUT_RDWR);
    }
    for (auto& t : m_pumps) t.join();
    for (auto& l : m_links) {
      ::close(l->client);
      ::close(l->server);
    }
  }
  refusing_proxy(const refusing_proxy&) = delete;
  refusing_proxy& operator=(const refusing_proxy&) = delete;

  std::string uri() const { return m_prefix + ":" + std::to_string(m_port); }
  int prepares_refused() const { return m_refused.load(); }

private:
  struct link {
    int client, server;
    std::mutex to_client; // whole frames only, from both directions' threads
  };

  static sockaddr_in loopback(int port) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
  }
  static bool read_all(int fd, char* buf, std::size_t n) {
    while (n > 0) {
      const ssize_t got = ::recv(fd, buf, n, 0);
      if (got <= 0) return false;
      buf += got;
      n -= static_cast<std::size_t>(got);
    }
    return true;
  }
  static bool write_all(int fd, const std::string& s) {
    std::size_t off = 0;
    while (off < s.size()) {
      const ssize_t put = ::send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
      if (put <= 0) return false;
      off += static_cast<std::size_t>(put);
    }
    return true;
  }
  // One whole frame: 4-byte little-endian length (type + payload), type, payload.
  static bool read_frame(int fd, std::string& frame) {
    frame.assign(4, '\0');
    if (!read_all(fd, frame.data(), 4)) return false;
    const auto* b = reinterpret_cast<const unsigned char*>(frame.data());
    const std::uint32_t len = b[0] | b[1] << 8 | b[2] << 16 | std::uint32_t(b[3]) << 24;
    frame.resize(4 + len);
    return len > 0 && read_all(fd, frame.data() + 4, len);
  }
  static std::string error_1047() {
    const std::string text = "Unexpected message received";
    std::string p;
    p += '\x10'; // code = 1047 (varint 0x97 0x08)
    p += '\x97';
    p += '\x08';
    p += '\x1a';
    p += static_cast<char>(text.size());
    p += text;
    p += '\x22'; // sql_state
    p += '\x05';
    p += "HY000";
    std::string f(4, '\0');
    const std::uint32_t len = static_cast<std::uint32_t>(p.size() + 1);
    for (int i = 0; i < 4; ++i) f[i] = static_cast<char>(len >> (8 * i));
    f += '\x01'; // Mysqlx.Error
    return f + p;
  }

  void accept_loop() {
    for (;;) {
      const int c = ::accept(m_listen, nullptr, nullptr);
      if (c < 0) return;
      const int s = ::socket(AF_INET, SOCK_STREAM, 0);
      sockaddr_in a = loopback(m_upstream_port);
      if (::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        ::close(c);
        ::close(s);
        continue;
      }
      m_links.push_back(std::make_unique<link>());
      link* l = m_links.back().get();
      l->client = c;
      l->server = s;
      m_pumps.emplace_back([this, l] { client_to_server(*l); });
      m_pumps.emplace_back([l] { server_to_client(*l); });
    }
  }
  void client_to_server(link& l) {
    std::string f;
    while (read_frame(l.client, f)) {
      if (static_cast<unsigned char>(f[4]) == 40) { // Mysqlx.Prepare.Prepare
        ++m_refused;
        std::lock_guard<std::mutex> g(l.to_client);
        if (!write_all(l.client, error_1047())) break;
      } else if (!write_all(l.server, f)) {
        break;
      }
    }
    ::shutdown(l.server, SHUT_RDWR);
    ::shutdown(l.client, SHUT_RDWR);
  }
  static void server_to_client(link& l) {
    std::string f;
    while (read_frame(l.server, f)) {
      std::lock_guard<std::mutex> g(l.to_client);
      if (!write_all(l.client, f)) break;
    }
    ::shutdown(l.client, SHUT_RDWR);
    ::shutdown(l.server, SHUT_RDWR);
  }

  std::string m_prefix;
  int m_upstream_port = 0, m_port = 0, m_listen = -1;
  std::atomic<int> m_refused{0};
  std::thread m_accepter;
  std::vector<std::unique_ptr<link>> m_links; // touched by the accepter only
  std::vector<std::thread> m_pumps;           // joined after the accepter
};

} // namespace devapi_it
