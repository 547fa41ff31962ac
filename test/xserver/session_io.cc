// The connection's read loop, with what MySQL's X Plugin does at its edges
// (ngs::Client::run, Protocol_decoder::read_header/read_and_decode_impl,
// Server_client_timeout):
// - mysqlx_wait_timeout bounds the wait for a message's 4 length bytes,
//   mysqlx_read_timeout each wait for the rest of it; past either the
//   client gets a GLOBAL warning notice (level ERROR, 1810 "IO Read error:
//   read_timeout exceeded") and the connection closes;
// - mysqlx_connect_timeout bounds the time from accept to a successful
//   authentication (not after a Session.Reset); past it the connection
//   closes without a word;
// - mysqlx_write_timeout bounds each blocking write; past it the connection
//   closes (there is no way to say anything);
// - a message whose length is above mysqlx_max_allowed_packet (the value
//   when its length is read) closes the connection without a word; one of
//   length 0 is FATAL 5000 "Messages without payload are not supported".
// Messages that arrived before a bad length are answered first, as MySQL
// reads one message at a time.
#include "test/xserver/session.h"

#include <algorithm>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>

namespace xserver {

close_reason session::run() {
  apply_write_timeout();
  // ServerHello arrived with MySQL 8.0 (mysqlx_enable_hello_notice).
  if (!emulate_57()) {
    m_out.notice_hello();
    flush();
  }
  char buf[16384];
  while (!m_closing) {
    // Serve every complete frame received so far, then flush: the replies to
    // pipelined requests leave in order and together.
    while (!m_closing) {
      auto f = m_reader.next();
      if (!f.ok()) {
        on_bad_input();
        break;
      }
      if (!f.value()) break;
      // Checked when its length arrived; the limit may have been lowered
      // since by a message before it (SET GLOBAL mysqlx_max_allowed_packet).
      if (f.value()->payload.size() + 1 > max_message_size()) {
        m_closing = true;
        break;
      }
      const std::size_t reply_start = m_out.bytes().size();
      dispatch(f.value()->type, f.value()->payload);
      if (m_db && m_db->gone()) {
        // As the X Plugin does for a killed session: no reply to the request
        // that found it gone, a GLOBAL notice, then the connection closes,
        // rather than 2006 on every later request.
        if (m_out.bytes().size() >= reply_start) m_out.bytes().resize(reply_start);
        m_out.notice_warning(3 /* ERROR */, errc::session_was_killed, "Session was killed",
                             /*local=*/false);
        m_closing = true;
        break;
      }
      if (m_faults.message_done()) {
        flush();
        m_closing = true;
      }
      if (m_out.bytes().size() > 65536) flush();
    }
    flush();
    if (m_closing) break;
    const wait_outcome w = wait_for_input();
    if (w == wait_outcome::connect_timeout) {
      m_close_reason = close_reason::connect_timeout;
      break;
    }
    if (w == wait_outcome::read_timeout) {
      m_close_reason = close_reason::read_timeout;
      m_out.notice_warning(3 /* ERROR */, errc::io_read_error,
                           "IO Read error: read_timeout exceeded", /*local=*/false);
      break;
    }
    auto n = m_io->read_some(buf, sizeof buf);
    if (!n.ok()) break; // the client went away
    // A length above the limit in force now fails next(), after the
    // messages before it.
    m_reader.set_max_size(max_message_size());
    (void)m_reader.feed({buf, n.value()});
    m_input_meter.feed({buf, n.value()});
  }
  flush();
  return m_close_reason;
}

session::wait_outcome session::wait_for_input() {
  using clock = std::chrono::steady_clock;
  if (m_io->buffered() > 0) return wait_outcome::input;
  // TLS: every read takes a whole record (at most 16 KiB of plaintext, the
  // size of buf), so nothing waits inside OpenSSL while the socket is quiet.
  const std::uint32_t limit = m_reader.buffered() >= 4 ? m_read_timeout : m_wait_timeout;
  const auto now = clock::now();
  auto deadline = limit > 0 ? now + std::chrono::seconds(limit) : clock::time_point::max();
  bool connecting = false;
  if (!m_authenticated && !m_after_reset) {
    const auto connect_deadline =
        m_accept_time + std::chrono::seconds(m_state.xvar(xvar_id::connect_timeout));
    connecting = connect_deadline <= deadline;
    deadline = std::min(deadline, connect_deadline);
  }
  // poll() waits at most ~24 days at a time: go on until the deadline.
  while (clock::now() < deadline || deadline == clock::time_point::max()) {
    const int rc = cdk::wait_fd(m_io->native_handle(), POLLIN, deadline);
    if (rc != 0) return wait_outcome::input; // input, or an error read_some() reports
  }
  return connecting ? wait_outcome::connect_timeout : wait_outcome::read_timeout;
}

void session::on_bad_input() {
  if (m_reader.fault() != cdk::protocol::compression_fault::none) return on_bad_compressed_input();
  if (m_reader.failed_length() == 0)
    return fatal(make_error(errc::x_bad_message, "Messages without payload are not supported"));
  m_closing = true; // above mysqlx_max_allowed_packet: MySQL closes without a word
}

void session::apply_write_timeout() {
  // SO_SNDTIMEO: a send() that blocks longer fails with EAGAIN, which the
  // stream reports as a timeout (TLS writes go through send() too).
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(m_write_timeout);
  ::setsockopt(m_io->native_handle(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

void session::use_timeout(xvar_id id, long long seconds) {
  const auto s = static_cast<std::uint32_t>(seconds);
  if (id == xvar_id::wait_timeout) m_wait_timeout = s;
  if (id == xvar_id::read_timeout) m_read_timeout = s;
  if (id == xvar_id::write_timeout) {
    m_write_timeout = s;
    apply_write_timeout();
  }
}

void session::set_interactive(bool interactive) {
  // Client::set_is_interactive: the GLOBAL interactive or wait timeout, for
  // the connection and as the session value.
  const long long t =
      m_state.xvar(interactive ? xvar_id::interactive_timeout : xvar_id::wait_timeout);
  m_vars[static_cast<std::size_t>(xvar_id::wait_timeout)] = t;
  use_timeout(xvar_id::wait_timeout, t);
}

} // namespace xserver
