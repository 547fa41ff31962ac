// An in-process peer for transport tests: accepts one connection on a
// thread and runs a handler on it, using the server-side API that xserverd
// uses (server_socket.h, tls_server.h).
#pragma once

#include "cdk/foundation/server_socket.h"

#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

namespace test_server {

class one_shot {
public:
  using handler = std::function<void(cdk::socket_stream&)>;

  one_shot(cdk::listener l, handler h) : m_listener(std::move(l)) {
    m_thread = std::thread([this, h = std::move(h)] {
      auto conn = m_listener.accept(std::chrono::seconds(20));
      // A broken peer fails the test instead of hanging it.
      if (conn && conn.value()->set_io_timeout(std::chrono::seconds(20))) h(*conn.value());
    });
  }
  ~one_shot() { join(); }
  one_shot(const one_shot&) = delete;
  one_shot& operator=(const one_shot&) = delete;

  void join() {
    if (m_thread.joinable()) m_thread.join();
  }
  std::uint16_t port() const { return m_listener.port(); }

private:
  cdk::listener m_listener;
  std::thread m_thread;
};

inline cdk::listener listen_local() {
  auto l = cdk::listener::listen_tcp("127.0.0.1", 0);
  if (!l) throw std::runtime_error(l.err().message);
  return std::move(l).value();
}

// Reads exactly n bytes (or fails); a test helper over read_some().
inline cdk::result<std::string> read_exact(cdk::stream& s, std::size_t n) {
  std::string out(n, '\0');
  std::size_t got = 0;
  while (got < n) {
    auto r = s.read_some(out.data() + got, n - got);
    if (!r) return std::move(r).err();
    got += r.value();
  }
  return out;
}

} // namespace test_server
