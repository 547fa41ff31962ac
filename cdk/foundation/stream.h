// A byte stream to the server: TCP or a Unix socket, optionally upgraded to TLS.
// The sans-I/O protocol and session code never see sockets; the blocking
// drivers above them read and write through this interface, and tests
// substitute an in-memory peer.
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/foundation/options.h"

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace cdk {

class stream {
public:
  virtual ~stream() = default;
  // Writes every byte or fails (connection error, fatal).
  virtual status write(std::string_view bytes) = 0;
  // Reads at least 1 byte, at most n. EOF is a lost_connection error.
  virtual result<std::size_t> read_some(char* buf, std::size_t n) = 0;
  // Whether read_some() would find a byte now: one buffered here or in TLS,
  // or one arriving within `wait` (0: no wait). For a caller that must not
  // block past a deadline (a future's wait_for()). The read timeout
  // (set_timeouts()) bounds this wait as it bounds a read's: when `wait` is
  // as long or longer and no byte comes within the timeout, it fails with
  // client_errc::timeout, as read_some() would have.
  virtual result<bool> readable(std::chrono::milliseconds wait) = 0;
  // The descriptor to poll() for readable(), for a caller that waits
  // without this object (readable_waiter.h) after readable(0) said no byte
  // is buffered; -1 when there is none (a test's in-memory peer).
  virtual int poll_handle() const noexcept { return -1; }
  // Whether read_some() finds a byte without a system call (buffered here
  // or in TLS): readable(0) without its poll().
  virtual bool has_buffered() const noexcept { return false; }
  // The caller's own poll() of poll_handle() found it readable, and nothing
  // was read since: the next read need not look again (one system call
  // less per reply for a future's waiter).
  virtual void found_readable() noexcept {}
  // The error of a read that waited past the read timeout.
  virtual error read_timeout_error() const {
    return error::connection(client_errc::timeout, "Timed out waiting for the server");
  }
  // Client-side TLS handshake on the established connection. host is used for
  // SNI and, with verify_identity, for the name check against SAN/CN.
  virtual status start_tls(const tls_options& opts, std::string_view host) = 0;
  virtual bool is_tls() const = 0;
  // A Unix socket: PLAIN auth is allowed over it without TLS.
  virtual bool is_local() const = 0;
  virtual std::string tls_version() const = 0; // "TLSv1.3"; empty without TLS
  virtual std::string tls_cipher() const = 0;  // OpenSSL cipher name; empty without TLS
  // Bounds each later wait for the peer to send (read) or to take our bytes
  // (write), TLS included; 0: no bound. One that expires fails with
  // client_errc::timeout, and the stream is then out of step (a reply may
  // be half read): its owner must close it.
  virtual status set_timeouts(std::chrono::milliseconds read, std::chrono::milliseconds write) = 0;
  // dead-peer-timeout (connect_options): a TCP peer silent that long fails
  // the stream with client_errc::dead_peer; 0 turns it off. Nothing to do on
  // a Unix socket or an in-memory peer.
  virtual status set_dead_peer_timeout(std::chrono::milliseconds) { return ok(); }
  virtual void close() noexcept = 0;
};

// Connects to one address, trying every address the name resolves to (IPv4
// and IPv6) within the timeout (0: none).
result<std::unique_ptr<stream>> connect_tcp(const std::string& host, std::uint16_t port,
                                            std::chrono::milliseconds timeout);
result<std::unique_ptr<stream>> connect_unix(const std::string& path,
                                             std::chrono::milliseconds timeout);

} // namespace cdk
