// The blocking driver: connects, runs the handshake state machine over a
// cdk::stream, then carries requests and replies for the layers above.
//
//   auto c = cdk::session::connection::open(opts);       // or an error
//   encode_expect_close(c.value()->pipeline().output()); // any messages.h encoder
//   c.value()->pipeline().expect(protocol::replies::ok);
//   auto reply = c.value()->read_reply();                // flushes, then reads
//
// A reply can instead be read part by part (read_part()), so a result set's
// rows are taken from the socket as the application fetches them.
//
// Errors: open() fails with the handshake's error (server errors keep their
// code and SQLSTATE); no error text contains the password. After a fatal
// error (I/O, malformed frame, FATAL server error) the stream is closed and
// every later call returns that error. That error's maybe_applied is set
// when bytes of a request had gone out and not every reply was read.
// Timeouts: connect_timeout bounds each wait during open(), then
// read_timeout / write_timeout (options.h); one that expires is fatal.
// Thread safety: none; one thread uses a connection at a time. A caller
// may poll() poll_handle() meanwhile without it (devapi/async.cc).
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/foundation/options.h"
#include "cdk/foundation/stream.h"
#include "cdk/protocol/compression.h"
#include "cdk/protocol/pipeline.h"
#include "cdk/session/handshake.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cdk::session {

class connection {
public:
  // Tries opts.hosts by priority (highest first; given order without
  // priorities). With opts.dns_srv, hosts[0] is first looked up as a DNS SRV
  // name (expand_dns_srv, cdk/foundation/dns_srv.h) and its targets are
  // tried in SRV order. Transport-level failures move on to the next host,
  // and so does a cluster member that cannot take work (member_probe.h:
  // 1047 at login, or, with several hosts, wsrep_ready OFF when asked right
  // after it); a refused login or another server error ends the attempt.
  static result<std::unique_ptr<connection>> open(const connect_options& opts);
  // Sets a session up over an established stream; host names the server for
  // TLS (SNI and identity checks).
  static result<std::unique_ptr<connection>> open(std::unique_ptr<stream> s,
                                                  const connect_options& opts, std::string host);

  // Closes the transport without a goodbye; call close() first for that.
  ~connection();
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;

  const session_info& info() const noexcept { return m_info; }
  // The docid probe's answer: the server generates document ids (8.0). It is
  // false when the probe did not run (docid_mode::client) or got 5160.
  // The probe's Expect.Close is sent with the first request (no round trip
  // of its own); its Ok is consumed before that request's reply.
  bool server_generates_ids() const noexcept { return m_info.server_generates_ids; }
  std::string tls_version() const { return m_stream ? m_stream->tls_version() : std::string(); }
  std::string tls_cipher() const { return m_stream ? m_stream->tls_cipher() : std::string(); }
  const std::string& compression() const noexcept { return m_info.compression; }
  std::optional<std::uint64_t> client_id() const noexcept { return m_info.client_id; }
  const std::string& host() const noexcept { return m_host; }

  // The server's mysqlx_max_allowed_packet, once someone asked it
  // (message_limit.h); a pooled connection keeps it between sessions.
  std::optional<std::uint64_t> server_message_limit() const noexcept { return m_server_limit; }
  // Remembers it (nullopt: forget it) and cuts compressed flights to it.
  void set_server_message_limit(std::optional<std::uint64_t> n);

  // Requests are queued here; flush() or read_reply() sends them.
  protocol::pipeline& pipeline() noexcept { return m_pipe; }
  status flush();
  // The next reply, in request order. A non-fatal server error is a reply
  // with error set; fatal errors are returned as errors. The rest of a reply
  // being streamed (read_part()) is skipped first.
  result<protocol::reply> read_reply();
  // The next part of the front reply, which is streamed from now on until it
  // ends: one message with reply::more set, or the last one with the
  // reply's notices, info and error. Errors as read_reply().
  result<protocol::reply> read_part();
  // Whether a reply's bytes are here or arrive within `wait`, so that a read
  // now does not wait long (it may still wait for the rest of a frame that
  // has begun to arrive). Flushes first.
  result<bool> readable(std::chrono::milliseconds wait);
  // readable(0) without a system call: only what is buffered already.
  result<bool> has_input();
  // The caller's own poll() of poll_handle() found the socket readable and
  // nothing was read since (stream::found_readable()).
  void found_readable() noexcept {
    if (m_stream) m_stream->found_readable();
  }
  // Reads of a frame begun so far: a waiter that polled the socket without
  // the connection tells by it whether another thread read meanwhile.
  std::uint64_t frame_reads() const noexcept { return m_frame_reads; }
  // For a caller that waits for the server outside the connection, without
  // holding it, once readable(0) said nothing is here (readable_waiter.h):
  // the socket to poll (-1: none, use readable()), the read timeout that
  // bounds such a wait, and, once the wait passed it with no byte, the
  // connection's failure with the timeout error a read would have met.
  int poll_handle() const noexcept { return m_stream ? m_stream->poll_handle() : -1; }
  std::chrono::milliseconds read_timeout() const noexcept { return m_read_timeout; }
  error read_timed_out();
  // GLOBAL notices received so far (drained).
  std::vector<protocol::notice> take_global_notices();

  // Connection.Close, then its Ok, then closes the transport.
  status close();
  bool is_open() const noexcept { return m_stream != nullptr && !m_failed; }
  /// The error that broke the connection, if one did.
  const std::optional<error>& failure() const noexcept { return m_failed; }

  // Only open() can make one (the key is private): a connection exists only
  // once set-up has succeeded.
  struct key {
  private:
    explicit key() = default; // explicit: not an aggregate, so only friends make one
    friend class connection;
  };
  connection(key, std::unique_ptr<stream> s, std::string host, std::uint64_t max_size);

private:
  status run_handshake(const connect_options& opts);
  result<protocol::frame> read_frame();
  // Frames until the pipeline hands back a reply or a part of one.
  result<protocol::reply> next_from_pipeline();
  // Flushes, checks a reply of the caller's is queued, and reads the replies
  // of internal requests that come before it.
  status before_read(const char* what);
  error broken(error e);
  // A timeout error says which bound expired and what we waited for.
  error timed_out(error e, bool reading) const;

  std::unique_ptr<stream> m_stream;
  std::string m_host;
  protocol::frame_reader m_reader;
  protocol::frame_compressor m_compressor;
  protocol::pipeline m_pipe;
  std::string m_sending; // the flight being written (flush())
  session_info m_info;
  std::optional<error> m_failed;
  std::uint64_t m_frame_reads = 0;
  std::optional<std::uint64_t> m_server_limit;
  // The largest message of the last flight sent (0: none above what every
  // server reads): when the server then closes the connection, the error
  // says whether its size can be why (lost_connection.h).
  std::uint64_t m_largest_message = 0;
  std::uint64_t m_configured_limit = 0; // max-message-size, for flights while none is known
  std::size_t m_internal = 0;           // queued replies that are ours (the probe's Expect.Close)
  // Bytes of a request went out and not every reply is in: a failure now
  // may leave a statement run (error::maybe_applied).
  bool m_unanswered = false;
  std::chrono::milliseconds m_read_timeout{0}, m_write_timeout{0};
  std::chrono::milliseconds m_dead_peer_timeout{0}; // named in a dead_peer error
  std::string m_first_bytes; // the server's first bytes, until other_protocol() can tell
  bool m_first_checked = false;
  bool m_handshaking = false; // connect-timeout bounds the waits, not read/write-timeout
};

} // namespace cdk::session
