// cdk::socket_stream: the one concrete cdk::stream over a socket (TCP or
// Unix), plain or TLS. connect_tcp()/connect_unix() return it as a
// cdk::stream; the server-side listener (server_socket.h) returns it as
// itself, so that xserverd can call accept_tls().
//
// Design notes:
// - Reads are buffered (16 KiB) so that the framing layer can ask for a 4-byte
//   header and then the body without one syscall (or SSL_read) each.
// - Writes go out at once: callers batch a whole frame (or a pipeline of
//   frames) into one write().
// - SIGPIPE: plain writes use send(MSG_NOSIGNAL); TLS writes go through a
//   custom OpenSSL BIO that also calls send(MSG_NOSIGNAL) (tls_session.cc).
//   So a peer that went away becomes an EPIPE error, never a signal, and the
//   connector changes no process-wide signal disposition.
// - Not thread-safe: one thread uses a stream at a time.
// - No OpenSSL types here: the TLS state is the private tls_session.
#pragma once

#include "cdk/foundation/fd.h"
#include "cdk/foundation/stream.h"

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cdk {

class tls_session;        // tls_session.h (private, OpenSSL)
class tls_server_context; // tls_server.h

class socket_stream final : public stream {
public:
  static constexpr std::size_t read_buffer_size = std::size_t{16} * 1024;

  // fd: a connected socket in blocking mode. local: a Unix socket. peer: how
  // error messages name the other end ("127.0.0.1:33060", "/run/x.sock").
  socket_stream(unique_fd fd, bool local, std::string peer);
  ~socket_stream() override;
  socket_stream(const socket_stream&) = delete;
  socket_stream& operator=(const socket_stream&) = delete;

  status write(std::string_view bytes) override;
  result<std::size_t> read_some(char* buf, std::size_t n) override;
  result<bool> readable(std::chrono::milliseconds wait) override;
  int poll_handle() const noexcept override { return m_fd.get(); }
  bool has_buffered() const noexcept override;
  void found_readable() noexcept override { m_found_readable = true; }
  error read_timeout_error() const override;
  status start_tls(const tls_options& opts, std::string_view host) override;

  // Server side of the TLS upgrade (xserverd): runs the handshake as the
  // server with a context from tls_server.h. Bytes already buffered (a client
  // that sent its ClientHello early) are fed to the handshake, not lost.
  status accept_tls(const tls_server_context& ctx);

  // SO_RCVTIMEO / SO_SNDTIMEO: each recv() and send() (and so each TLS
  // read, write and handshake step) waits at most that long.
  status set_timeouts(std::chrono::milliseconds read, std::chrono::milliseconds write) override;
  status set_dead_peer_timeout(std::chrono::milliseconds t) override;
  // The same bound both ways (0: no bound, the default).
  status set_io_timeout(std::chrono::milliseconds timeout) {
    return set_timeouts(timeout, timeout);
  }

  bool is_tls() const override { return m_tls != nullptr; }
  bool is_local() const override { return m_local; }
  std::string tls_version() const override;
  std::string tls_cipher() const override;
  // Sends a TLS close_notify (best effort) and closes the socket. Later
  // reads and writes fail with lost_connection.
  void close() noexcept override;

  // Server side after accept_tls(): the host name the client sent as SNI
  // (empty when it sent none, as for an IP address).
  std::string tls_server_name() const;

  const std::string& peer() const noexcept { return m_peer; }
  // The socket, for poll() in a server loop; -1 once closed. Data may wait
  // in buffered() (or inside TLS) without the socket being readable.
  int native_handle() const noexcept { return m_fd.get(); }
  // Bytes received and not yet returned by read_some().
  std::size_t buffered() const noexcept { return m_end - m_pos; }

private:
  result<std::size_t> fill(char* dst, std::size_t n); // one recv() / SSL_read()
  // With dead-peer-timeout: waits for a byte to read in slices, and fails
  // with client_errc::dead_peer once bytes of ours have gone unacknowledged
  // that long (peer_silent()); read-timeout still bounds the wait.
  status await_readable();
  bool peer_silent() const;
  status upgrade(result<std::unique_ptr<tls_session>> session);
  error closed_error() const;

  unique_fd m_fd;
  bool m_local;
  std::string m_peer;
  std::unique_ptr<tls_session> m_tls;
  std::vector<char> m_buf;
  std::size_t m_pos = 0;
  // A poll() said the socket is readable and no read has looked since:
  // await_readable() need not poll again.
  bool m_found_readable = false;
  std::size_t m_end = 0;
  std::chrono::milliseconds m_read_timeout{0};          // set_timeouts(): bounds readable() too
  std::chrono::milliseconds m_dead_peer{0};             // set_dead_peer_timeout(); 0: off
  std::chrono::steady_clock::time_point m_last_write{}; // peer_silent() counts from it
};

// "Lost connection to <peer> (<why>)": the one wording for a failed read or
// write, shared with the TLS code.
error lost_connection_error(const std::string& peer, std::string_view why);
// Why a send()/recv() failed, for lost_connection_error(): errno's text,
// with EPIPE ("Broken pipe") said in words a user reads.
std::string lost_connection_why(int err);

// The keepalive settings dead-peer-timeout `t` gives (set_dead_peer_timeout).
struct keepalive_params {
  int idle = 0, interval = 0, count = 0; // seconds, seconds, probes
};
keepalive_params keepalive_for(std::chrono::milliseconds t);
// A failed send()/recv(): EAGAIN (the I/O timeout expired) is
// client_errc::timeout, ETIMEDOUT (dead-peer-timeout) dead_peer, anything
// else lost_connection.
error socket_errno_error(const std::string& peer, int err);

} // namespace cdk
