// What the xdelay tests run: an echo server on a thread, the xdelay program
// as a child process in front of it, and a blocking client socket.
// XDELAY_BIN (the program's path) is defined by the CMake target.
#pragma once

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <mutex>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <spawn.h>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

extern char** environ;

namespace xdelay_test {

using clock = std::chrono::steady_clock;

[[noreturn]] inline void fail(const std::string& what) {
  throw std::runtime_error(what + ": " + std::strerror(errno));
}

class socket_fd {
public:
  explicit socket_fd(int fd = -1) : m_fd(fd) {}
  socket_fd(socket_fd&& o) noexcept : m_fd(std::exchange(o.m_fd, -1)) {}
  socket_fd& operator=(socket_fd&& o) noexcept {
    if (this != &o) {
      close();
      m_fd = std::exchange(o.m_fd, -1);
    }
    return *this;
  }
  socket_fd(const socket_fd&) = delete;
  socket_fd& operator=(const socket_fd&) = delete;
  ~socket_fd() { close(); }
  int get() const { return m_fd; }
  void close() {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
  }

  void send_all(const void* data, std::size_t size) const {
    for (auto p = static_cast<const char*>(data); size > 0;) {
      const ssize_t n = ::send(m_fd, p, size, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) fail("send");
      p += n;
      size -= static_cast<std::size_t>(n);
    }
  }
  void send_all(const std::string& s) const { send_all(s.data(), s.size()); }
  // Up to `size` bytes, fewer only at the end of the stream.
  std::string receive(std::size_t size) const {
    std::string s(size, '\0');
    std::size_t got = 0;
    while (got < size) {
      const ssize_t n = ::recv(m_fd, s.data() + got, size - got, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) fail("recv");
      if (n == 0) break;
      got += static_cast<std::size_t>(n);
    }
    s.resize(got);
    return s;
  }

private:
  int m_fd;
};

// A blocking client on 127.0.0.1:port; a timeout turns a lost byte into a
// failure instead of a hung test.
inline socket_fd connect_to(std::uint16_t port) {
  socket_fd s(::socket(AF_INET, SOCK_STREAM, 0));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  if (::connect(s.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0) fail("connect");
  const int one = 1;
  ::setsockopt(s.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  const timeval limit{30, 0};
  ::setsockopt(s.get(), SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  ::setsockopt(s.get(), SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
  return s;
}

// Echoes every connection; at the end of a client's stream it answers
// "bye" and closes, so a test sees that the end went through and back.
class echo_server {
public:
  echo_server() : m_listener(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(m_listener.get(), reinterpret_cast<sockaddr*>(&addr), len) < 0 ||
        ::listen(m_listener.get(), 64) < 0 ||
        ::getsockname(m_listener.get(), reinterpret_cast<sockaddr*>(&addr), &len) < 0)
      fail("echo server");
    m_port = ntohs(addr.sin_port);
    m_acceptor = std::thread([this] { accept_loop(); });
  }
  echo_server(const echo_server&) = delete;
  echo_server& operator=(const echo_server&) = delete;
  ~echo_server() {
    m_stop = true;
    m_acceptor.join();
    // Connections end when their peer (the proxy, stopped first) closes.
    for (std::thread& t : m_connections) t.join();
  }
  std::uint16_t port() const { return m_port; }
  // Waits until `n` clients' streams have ended here.
  bool wait_ends(int n, std::chrono::milliseconds limit) {
    std::unique_lock<std::mutex> lock(m_mutex);
    return m_changed.wait_for(lock, limit, [&] { return m_ends >= n; });
  }

private:
  void accept_loop() {
    while (!m_stop) {
      pollfd p{m_listener.get(), POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      const int fd = ::accept(m_listener.get(), nullptr, nullptr);
      if (fd < 0) continue;
      const int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      m_connections.emplace_back([this, fd] { echo(socket_fd(fd)); });
    }
  }
  void echo(socket_fd s) {
    std::vector<char> buffer(std::size_t{64} << 10);
    for (;;) {
      const ssize_t n = ::recv(s.get(), buffer.data(), buffer.size(), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      try {
        s.send_all(buffer.data(), static_cast<std::size_t>(n));
      } catch (const std::runtime_error&) {
        break;
      }
    }
    (void)::send(s.get(), "bye", 3, MSG_NOSIGNAL);
    s.close();
    const std::lock_guard<std::mutex> lock(m_mutex);
    ++m_ends;
    m_changed.notify_all();
  }

  socket_fd m_listener;
  std::uint16_t m_port = 0;
  std::atomic<bool> m_stop{false};
  std::thread m_acceptor;
  std::vector<std::thread> m_connections; // only the acceptor adds, before join
  std::mutex m_mutex;
  std::condition_variable m_changed;
  int m_ends = 0;
};

inline double cpu_seconds_of_children() {
  rusage u{};
  ::getrusage(RUSAGE_CHILDREN, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// xdelay in front of `target_port`, started and ready (it printed its port).
class xdelay_process {
public:
  // flights_log: passed as --flights-log when not empty.
  xdelay_process(std::uint16_t target_port, const std::string& delay_ms,
                 const std::string& flights_log = "") {
    int out[2];
    if (::pipe(out) < 0) fail("pipe");
    m_out = socket_fd(out[0]);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_adddup2(&files, out[1], 1);
    posix_spawn_file_actions_addclose(&files, out[0]);
    const std::string target = "127.0.0.1:" + std::to_string(target_port);
    std::vector<std::string> args{XDELAY_BIN, "--listen",   "0",     "--target",
                                  target,     "--delay-ms", delay_ms};
    if (!flights_log.empty()) {
      args.emplace_back("--flights-log");
      args.push_back(flights_log);
    }
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int rc = ::posix_spawn(&m_pid, XDELAY_BIN, &files, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&files);
    ::close(out[1]);
    if (rc != 0)
      throw std::runtime_error("posix_spawn " XDELAY_BIN ": " + std::string(std::strerror(rc)));
    m_port = static_cast<std::uint16_t>(std::stoi(read_line()));
  }
  xdelay_process(const xdelay_process&) = delete;
  xdelay_process& operator=(const xdelay_process&) = delete;
  ~xdelay_process() { (void)stop(); }

  std::uint16_t port() const { return m_port; }
  pid_t pid() const { return m_pid; }
  // The proxy's descriptors: the listener and stdio, plus two per pair.
  int open_fds() const {
    int n = 0;
    if (DIR* d = ::opendir(("/proc/" + std::to_string(m_pid) + "/fd").c_str())) {
      while (const dirent* e = ::readdir(d)) n += e->d_name[0] != '.';
      ::closedir(d);
    }
    return n;
  }
  // SIGTERM; the exit status, and the CPU time the proxy used.
  int stop(double* cpu_seconds = nullptr) {
    if (m_pid <= 0) return -1;
    const double before = cpu_seconds_of_children();
    ::kill(m_pid, SIGTERM);
    int status = 0;
    while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
    }
    m_pid = -1;
    if (cpu_seconds) *cpu_seconds = cpu_seconds_of_children() - before;
    return status;
  }

private:
  std::string read_line() {
    std::string line;
    const auto deadline = clock::now() + std::chrono::seconds(20);
    char c = 0;
    while (clock::now() < deadline) {
      pollfd p{m_out.get(), POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      if (::read(m_out.get(), &c, 1) != 1) break;
      if (c == '\n') return line;
      line += c;
    }
    throw std::runtime_error("xdelay did not print its port");
  }

  pid_t m_pid = -1;
  socket_fd m_out;
  std::uint16_t m_port = 0;
};

} // namespace xdelay_test
