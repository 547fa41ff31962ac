// The relay: one thread, non-blocking sockets and ppoll. Every chunk read
// from one side is stamped with its arrival time plus the delay and written
// to the other side when that time comes, so the delay is a property of each
// byte, not of the queue: back-to-back requests all arrive D later, together.
#pragma once

#include "cdk/foundation/fd.h"

#include <chrono>
#include <csignal>
#include <cstddef>
#include <deque>
#include <list>
#include <optional>
#include <string>
#include <sys/socket.h>
#include <vector>

namespace xdelay {

using cdk::unique_fd; // closed when its owner goes: no path out of the relay leaks a socket

using clock = std::chrono::steady_clock;

// Bytes held from one socket for the other in one direction of a pair.
class direction {
public:
  direction(int from, int to) : m_from(from), m_to(to) {}

  // Reading stops past a cap, so a slow reader holds the sender back through
  // TCP instead of the proxy buffering without bound. Like a TCP window it
  // bounds throughput to max_queued per delay: 3 GB/s at 5 ms, 800 MB/s at 20.
  bool wants_read() const { return !m_eof && m_queued < max_queued; }
  // Due bytes wait for the destination to take them (a full socket buffer).
  bool waits_writable() const { return m_blocked && !m_done; }
  // When flush() has something to do next, if it is not waiting for POLLOUT.
  std::optional<clock::time_point> next_due() const;
  bool done() const { return m_done; }
  // Reads that returned bytes so far (for counting flights).
  std::size_t reads() const { return m_reads; }

  // Reads what the source has (through `buffer`, the relay's scratch space).
  void read(clock::duration delay, std::vector<char>& buffer);
  void writable() { m_blocked = false; }
  // Writes what is due; the end of the stream becomes a shutdown of the
  // destination's sending side once the bytes before it are delivered.
  void flush(clock::time_point now);

  static constexpr std::size_t max_queued = std::size_t{16} << 20;

private:
  struct chunk {
    clock::time_point due;
    std::string bytes;
    std::size_t sent = 0;
  };
  // The destination is gone: what it would have received is dropped.
  void abandon();

  int m_from, m_to;
  std::deque<chunk> m_queue;
  std::size_t m_queued = 0;
  bool m_eof = false;          // the source has ended (EOF or error) ...
  clock::time_point m_eof_due; // ... and the destination learns it then
  bool m_blocked = false;
  bool m_done = false;
  std::size_t m_reads = 0;
};

// A client connection and the proxy's connection to the target.
struct pair {
  pair(unique_fd c, unique_fd s, bool is_connected)
      : client(std::move(c)), server(std::move(s)), connected(is_connected),
        up(client.get(), server.get()), down(server.get(), client.get()) {}
  unique_fd client, server;
  bool connected;
  bool failed = false; // the connection to the target could not be made
  direction up, down;
  // The client's flights: runs of client bytes, each begun after server
  // bytes (or first). A flight after a reply is a round trip the client
  // waited for; the TCP handshake is not one of them (not delayed).
  int flights = 0;
  bool client_spoke_last = false;
};

// Non-blocking, close-on-exec, TCP_NODELAY: every socket the relay uses.
void make_relay_socket(int fd);

class relay {
public:
  relay(unique_fd listener, const sockaddr_storage& target, socklen_t target_len,
        clock::duration delay)
      : m_listener(std::move(listener)), m_target(target), m_target_len(target_len),
        m_delay(delay) {}

  // Relays until `stop` is set by a signal handler; the signals are blocked
  // outside ppoll and `wait_mask` unblocks them inside it, so none is missed.
  void run(const volatile std::sig_atomic_t& stop, const sigset_t& wait_mask);
  // Appends `flights N` to this file for each connection that closes
  // (empty: no log). Opened per line, so a test can read it at any time.
  void set_flights_log(std::string path) { m_flights_log = std::move(path); }

private:
  void accept_all();
  void finish_connect(pair& p);
  void log_flights(const pair& p) const;
  std::optional<clock::time_point> next_due() const;

  unique_fd m_listener;
  sockaddr_storage m_target;
  socklen_t m_target_len;
  clock::duration m_delay;
  std::list<pair> m_pairs;
  bool m_accepting = true; // false while out of descriptors
  std::string m_flights_log;
  std::vector<char> m_buffer = std::vector<char>(std::size_t{256} << 10);
};

} // namespace xdelay
