#include "cdk/session/connection.h"

#include "cdk/foundation/dns_srv.h"
#include "cdk/protocol/messages.h"
#include "cdk/session/lost_connection.h"
#include "cdk/session/member_probe.h"
#include "cdk/session/message_limit.h"
#include "cdk/session/negotiate.h"
#include "cdk/session/scramble.h"

#include <algorithm>

namespace cdk::session {

namespace pr = cdk::protocol;

connection::connection(key, std::unique_ptr<stream> s, std::string host, std::uint64_t max_size)
    : m_stream(std::move(s)), m_host(std::move(host)), m_reader(max_size) {}

connection::~connection() {
  if (m_stream) m_stream->close();
}

result<std::unique_ptr<connection>>
connection::open(std::unique_ptr<stream> s, const connect_options& opts, std::string host) {
  auto c =
      std::make_unique<connection>(key{}, std::move(s), std::move(host), opts.max_incoming_size);
  // A server that accepts the TCP connection and then says nothing (or
  // stops mid-handshake) fails within connect-timeout, so fail-over moves on.
  c->m_handshaking = true;
  c->m_read_timeout = c->m_write_timeout = opts.connect_timeout;
  c->m_dead_peer_timeout = opts.dead_peer_timeout;
  auto st = c->m_stream->set_timeouts(opts.connect_timeout, opts.connect_timeout);
  if (st) st = c->m_stream->set_dead_peer_timeout(opts.dead_peer_timeout);
  if (st) st = c->run_handshake(opts);
  if (st) {
    c->m_handshaking = false;
    c->m_read_timeout = opts.read_timeout;
    c->m_write_timeout = opts.write_timeout;
    st = c->m_stream->set_timeouts(opts.read_timeout, opts.write_timeout);
  }
  if (!st) return st.err();
  return c;
}

namespace {

constexpr std::size_t k_min_compressed_flight = 1000;

// The server's last word before it closed the connection: MySQL queues a
// GLOBAL warning notice of level ERROR (1810 read_timeout exceeded, 1053
// shutdown, 3169 killed: ngs::Client::queue_up_disconnection_notice).
const pr::warning* disconnect_notice(const std::vector<pr::notice>& global) {
  for (auto it = global.rbegin(); it != global.rend(); ++it)
    if (it->is(pr::notice_type::warning) && it->warn.level == pr::warning::level_t::error)
      return &it->warn;
  return nullptr;
}

std::vector<host_address> by_priority(std::vector<host_address> hosts) {
  std::stable_sort(hosts.begin(), hosts.end(), [](const host_address& a, const host_address& b) {
    return a.priority.value_or(0) > b.priority.value_or(0);
  });
  return hosts;
}

// A host that failed this way is passed by for the next one: it did not
// answer (a connection error), or it is a cluster member that cannot take
// work (Galera's 1047 during the login). A refused login, an unknown schema
// and the like end the attempt: every member would say the same.
bool try_next_host(const error& e) {
  return e.origin == error_origin::connection ||
         (e.origin == error_origin::server && e.code == wsrep_not_ready);
}

// With several hosts, a member that logs the client in but refuses work (a
// Galera member cut off from its cluster) is passed by too: asked once, one
// round trip, before the connection is handed out. The error says why.
result<std::unique_ptr<connection>> usable_member(std::unique_ptr<connection> c) {
  queue_member_probe(c->pipeline());
  auto r = c->read_reply();
  if (!r) return std::move(r).err();
  if (auto why = member_unusable(r.value())) {
    error e{wsrep_not_ready, "08S01", *why, error_origin::server, false};
    return e;
  }
  return c;
}

std::string describe(const host_address& h) {
  if (!h.socket.empty()) return h.socket;
  const bool v6 = h.host.find(':') != std::string::npos;
  return (v6 ? "[" + h.host + "]" : h.host) + ":" + std::to_string(h.port);
}

} // namespace

result<std::unique_ptr<connection>> connection::open(const connect_options& opts) {
  // Before any DNS lookup or socket: these settings can never connect.
  if (auto st = check_connectable(opts); !st) return std::move(st).err();
  if (opts.dns_srv) {
    // mysqlx+srv://: the SRV records become the host list, in RFC 2782 order
    // and without priorities, so the loop below keeps that order.
    auto expanded = expand_dns_srv(opts);
    if (!expanded) return std::move(expanded).err();
    return open(expanded.value());
  }
  if (opts.hosts.empty()) return error::client(client_errc::bad_option, "no host to connect to");
  // TLS is not used on a Unix socket (the socket's permissions guard it), so
  // TLS asked for with nothing but sockets to connect to cannot be had: an
  // error, in Connector/C++ 8's words, rather than a connection without it.
  // With a TCP host in the list too, the mode applies to that host.
  const bool only_sockets = std::all_of(opts.hosts.begin(), opts.hosts.end(),
                                        [](const host_address& h) { return !h.socket.empty(); });
  if (only_sockets && opts.tls.mode_given && opts.tls.mode != ssl_mode::disabled) {
    return error::client(client_errc::bad_option,
                         "SSL connection over Unix domain socket requested: TLS is not used on a "
                         "Unix socket (leave ssl-mode out, or give DISABLED)");
  }
  std::optional<error> last;
  // Why each host failed, in the order tried: the final error names them all
  // (messages never hold the password, so neither does this).
  std::string why;
  const auto hosts = by_priority(opts.hosts);
  for (const host_address& h : hosts) {
    auto s = h.socket.empty() ? connect_tcp(h.host, h.port, opts.connect_timeout)
                              : connect_unix(h.socket, opts.connect_timeout);
    if (s) {
      auto c = open(std::move(s.value()), opts, h.socket.empty() ? h.host : std::string());
      if (c && hosts.size() > 1) c = usable_member(std::move(c).value());
      if (c || !try_next_host(c.err())) return c;
      last = std::move(c).err();
    } else {
      last = std::move(s).err();
      // "Connect to ... timed out after N ms": say which option bounds it.
      if (last->code == client_errc::timeout) last->message += " (connect-timeout)";
    }
    if (hosts.size() > 1) why += "; " + describe(h) + ": " + last->message;
  }
  // The first words are Connector/C++ 8's, which programs look for.
  if (hosts.size() > 1)
    last->message = "Could not connect to any of the given data sources: all " +
                    std::to_string(hosts.size()) + " hosts failed, tried in priority order" + why;
  return *last;
}

status connection::run_handshake(const connect_options& opts) {
  handshake_env env;
  env.local_transport = m_stream->is_local();
  env.compression_supported = pr::supported_compression();
  env.defer_probe_close = true;
  handshake hs(opts, std::move(env));
  next_action a = hs.start();
  for (;;) {
    switch (a.what) {
    case next_action::kind::write: {
      auto st = m_stream->write(a.bytes);
      secure_wipe(a.bytes); // may hold the password (PLAIN)
      if (!st) return broken(timed_out(st.err(), false));
      a = hs.resume();
      break;
    }
    case next_action::kind::read: {
      auto f = read_frame();
      if (!f) return f.err();
      a = hs.on_frame(std::move(f.value()));
      break;
    }
    case next_action::kind::start_tls:
      a = hs.on_tls(m_stream->start_tls(opts.tls, m_host));
      break;
    case next_action::kind::enable_compression: {
      // Incoming frames may be compressed from the end of authentication on;
      // ours are compressed only once set-up is over.
      auto st = m_reader.enable_compression(a.algorithm);
      if (!st) return broken(st.err());
      a = hs.resume();
      break;
    }
    case next_action::kind::done:
      // A TLS handshake that timed out names connect-timeout too.
      if (a.err) return broken(timed_out(*a.err, true));
      m_info = hs.info();
      if (!m_info.compression.empty()) {
        // Flights under 1000 bytes go plain, as Connector/C++ sends them:
        // compressing a single small statement costs more CPU than the few
        // bytes it saves, and MySQL takes plain frames at any time. zstd
        // makes a frame per flight: compressed in one pass, with no copy of
        // the flight into zstd's window (18% less CPU per added document
        // than the flushed stream, callgrind, bench_devapi_server). lz4 puts
        // a large flight in blocks above 64 KiB: fewer resets of its match
        // table (lz4_message_compressor).
        m_configured_limit = opts.max_message_size;
        pr::compression_params params;
        params.frame_per_message = true;
        params.lz4_large_blocks = true;
        auto st = m_compressor.enable(m_info.compression, opts.max_message_size, params,
                                      k_min_compressed_flight);
        if (!st) return broken(st.err());
      }
      m_pipe = std::move(hs.pipeline());
      if (m_info.probe_close_pending) {
        // Rides with the first request; its Ok is read before that reply.
        pr::encode_expect_close(m_pipe.output());
        m_pipe.expect(pr::replies::ok);
        ++m_internal;
      }
      return ok();
    }
  }
}

result<bool> connection::readable(std::chrono::milliseconds wait) {
  if (m_failed) return *m_failed;
  if (auto st = flush(); !st) return st.err();
  // Every layer that may hold a reply: our frames (inflated ones too),
  // then the stream's buffer and TLS, then the socket.
  if (m_reader.holds_input()) return true;
  // A wait past read-timeout fails as a read would (stream::readable()).
  auto r = m_stream->readable(wait);
  if (!r) return broken(timed_out(std::move(r).err(), true));
  return r.value();
}

result<bool> connection::has_input() {
  if (m_failed) return *m_failed;
  if (auto st = flush(); !st) return st.err();
  return m_reader.holds_input() || (m_stream && m_stream->has_buffered());
}

error connection::read_timed_out() {
  if (m_failed) return *m_failed;
  if (!m_stream) return error::client(client_errc::usage, "the connection is closed");
  return broken(timed_out(m_stream->read_timeout_error(), true));
}

result<pr::frame> connection::read_frame() {
  ++m_frame_reads;
  char buf[16 * 1024];
  for (;;) {
    // Notices the pipeline takes in place never become frames.
    while (auto v = m_reader.peek_plain()) {
      if (!m_pipe.take_state_notice(*v)) break;
      m_reader.skip_plain();
    }
    auto f = m_reader.next();
    if (!f) return broken(std::move(f).err());
    if (f.value()) return std::move(*f.value());
    auto n = m_stream->read_some(buf, sizeof buf);
    if (!n) return broken(timed_out(std::move(n).err(), true));
    if (!m_first_checked) {
      // A wrong port answers in another protocol, which would otherwise
      // read as "frame of 1347703880 bytes" (HTTP) or "message type 10".
      m_first_bytes.append(buf, std::min<std::size_t>(n.value(), 64 - m_first_bytes.size()));
      if (m_first_bytes.size() >= 5) {
        m_first_checked = true;
        if (auto other = pr::other_protocol(m_first_bytes)) return broken(*other);
        std::string().swap(m_first_bytes);
      }
    }
    auto st = m_reader.feed(std::string_view(buf, n.value()));
    if (!st) return broken(st.err());
  }
}

void connection::set_server_message_limit(std::optional<std::uint64_t> n) {
  m_server_limit = n;
  if (m_configured_limit != 0) m_compressor.set_max_uncompressed(n ? *n : m_configured_limit);
}

error connection::timed_out(error e, bool reading) const {
  if (e.code == client_errc::dead_peer) {
    e.message += " (dead-peer-timeout=" + std::to_string(m_dead_peer_timeout.count()) + " ms)";
    return e;
  }
  if (e.code != client_errc::timeout) return e;
  const char* option = m_handshaking ? "connect-timeout"
                       : reading     ? "read-timeout"
                                     : "write-timeout";
  const auto bound = reading ? m_read_timeout : m_write_timeout;
  // What was waited for: a silent server and one that stopped reading look
  // different to the application (a long query, a full disk, a dead host).
  const char* what = m_handshaking ? ""
                     : reading     ? " passed without a byte from the server"
                                   : " passed without the server reading more of the request";
  e.message +=
      std::string(" (") + option + "=" + std::to_string(bound.count()) + " ms" + what + ")";
  return e;
}

error connection::broken(error e) {
  // Once broken, every call gets the first error, which says whether the
  // requests then unanswered may have been applied: a later read meets only
  // the closed socket ("the connection was closed"), which knows nothing of
  // them, and reporting that would tell a caller whose request went out
  // before the break that nothing was applied (issue 34).
  if (m_failed) {
    if (m_stream) m_stream->close();
    return *m_failed;
  }
  e.fatal = true;
  e.maybe_applied = m_unanswered;
  request_facts facts;
  facts.largest_message = m_largest_message;
  facts.server_limit = m_server_limit;
  facts.notice = disconnect_notice(m_pipe.global_notices());
  explain_broken_request(e, facts);
  m_failed = e;
  if (m_stream) m_stream->close();
  return e;
}

status connection::flush() {
  if (m_failed) return *m_failed;
  if (m_pipe.output().empty()) return ok();
  // The requests go out from m_sending and the pipeline gets that buffer
  // back, empty: both keep their capacity, so a request costs no allocation
  // (issue 13). A big flight's buffer is not kept for the connection's life.
  constexpr std::size_t keep_capacity = std::size_t{64} * 1024;
  std::string& out = m_sending;
  out.clear();
  out.swap(m_pipe.output());
  // Walking the frame headers costs a read per message, and only flights
  // that could hold a message the server may refuse are walked.
  const bool large = out.size() > always_accepted_message_size;
  m_largest_message = large ? largest_message(out) : 0;
  auto st = m_compressor.wrap(out);
  if (!st) return broken(st.err());
  // The server also checks the Compression frames' own length.
  if (large && m_compressor.enabled())
    m_largest_message = std::max(m_largest_message, largest_message(out));
  m_unanswered = true; // from the first byte on, the server may run what it got
  st = m_stream->write(out);
  if (!st) return broken(timed_out(st.err(), false));
  if (out.capacity() > keep_capacity) std::string().swap(out);
  return ok();
}

result<pr::reply> connection::next_from_pipeline() {
  for (;;) {
    auto f = read_frame();
    if (!f) return f.err();
    auto r = m_pipe.on_frame(std::move(f.value()));
    if (!r) return broken(std::move(r).err());
    if (!r.value()) continue;
    if (r.value()->error && r.value()->error->fatal) return broken(*r.value()->error);
    if (!r.value()->more && m_pipe.pending() == 0) m_unanswered = false;
    return std::move(*r.value());
  }
}

status connection::before_read(const char* what) {
  if (auto st = flush(); !st) return st.err();
  const std::size_t streamed = m_pipe.streaming() ? 1 : 0;
  if (m_pipe.pending() <= m_internal + streamed)
    return error::client(client_errc::usage, std::string(what) + " with no request pending");
  // Internal replies are never streamed: they come before any of the caller's.
  for (; m_internal > 0; --m_internal) {
    auto r = next_from_pipeline();
    if (!r) return r.err();
    if (r.value().error) return broken(*r.value().error); // the probe's Close failed
  }
  return ok();
}

result<pr::reply> connection::read_reply() {
  if (m_failed) return *m_failed;
  if (m_pipe.streaming()) {
    // Nobody reads the rest of the streamed reply: skip it, so the reply
    // returned is the caller's.
    for (;;) {
      auto r = next_from_pipeline();
      if (!r) return r.err();
      if (!r.value().more) break;
    }
  }
  if (auto st = before_read("read_reply()"); !st) return st.err();
  return next_from_pipeline();
}

result<pr::reply> connection::read_part() {
  if (m_failed) return *m_failed;
  if (!m_pipe.streaming()) {
    if (auto st = before_read("read_part()"); !st) return st.err();
    m_pipe.stream_front();
  } else if (auto st = flush(); !st) {
    return st.err();
  }
  return next_from_pipeline();
}

std::vector<pr::notice> connection::take_global_notices() {
  std::vector<pr::notice> out;
  out.swap(m_pipe.global_notices());
  return out;
}

status connection::close() {
  if (m_failed) return *m_failed;
  if (!m_stream) return ok();
  pr::encode_connection_close(m_pipe.output());
  m_pipe.expect(pr::replies::ok);
  status result = ok();
  // Replies to requests still in flight come first; skip them.
  while (m_pipe.pending() > 0) {
    auto r = read_reply();
    if (!r) {
      result = r.err();
      break;
    }
  }
  m_stream->close();
  m_stream.reset();
  return result;
}

} // namespace cdk::session
