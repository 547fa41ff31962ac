// Pipelining: queue several requests into one write buffer, then read their
// replies in order. Sans-I/O: the owner writes output() to the transport and
// feeds decoded frames to on_frame().
//
// A reply is every server message up to and including the one that ends it
// for that kind of request (reply_end below), or Mysqlx.Error, which ends any
// reply. Notices are not part of `frames`: LOCAL ones go to the reply being
// read (summed up in its `info`), GLOBAL ones to global_notices().
//
// A reply can also be streamed (stream_front()): each of its messages is
// handed back as it arrives, so a result set's rows need not all be in
// memory at once; the last part carries the terminator, what the notices said and the
// error, as a whole reply would.
//
// After a FATAL server error or a protocol error the pipeline is broken: the
// replies still queued can never arrive, and every further on_frame() fails.
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/protocol/frame.h"
#include "cdk/protocol/msg_types.h"
#include "cdk/protocol/notice.h"

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace cdk::protocol {

// Which server message types end a reply (besides Mysqlx.Error): a bit mask
// over type numbers.
using reply_end = std::uint32_t;
constexpr reply_end ends_with(server_msg t) noexcept {
  return reply_end{1} << type_byte(t);
}
namespace replies {
inline constexpr reply_end ok = ends_with(server_msg::ok); // Expect, Reset, Close, CapSet
inline constexpr reply_end capabilities = ends_with(server_msg::conn_capabilities);
// AuthenticateStart / Continue: a challenge (Continue) or the final AuthenticateOk.
inline constexpr reply_end auth =
    ends_with(server_msg::sess_authenticate_continue) | ends_with(server_msg::sess_authenticate_ok);
// StmtExecute, CRUD, Prepare.Execute: result sets (if any), then StmtExecuteOk.
inline constexpr reply_end statement = ends_with(server_msg::sql_stmt_execute_ok);
// Cursor.Fetch / Cursor.Open: a suspended fetch also ends the reply.
inline constexpr reply_end cursor = statement | ends_with(server_msg::resultset_fetch_suspended);
} // namespace replies

struct reply {
  std::vector<frame> frames;       // non-notice messages in order; the terminator is last
  statement_info info;             // what the LOCAL notices within this reply said
  std::optional<cdk::error> error; // set when the reply ended with Mysqlx.Error
  // A part of a streamed reply: frames holds one message and more of the
  // reply follows (info comes with the last part).
  bool more = false;

  bool ok() const noexcept { return !error.has_value(); }
  const frame& last() const { return frames.back(); }
};

class pipeline {
public:
  // Encoders append requests here (messages.h); call expect() once per
  // request, in the same order.
  std::string& output() noexcept { return m_out; }
  void expect(reply_end end) { m_pending.push_back(end); }
  // The bytes to write; the buffer is empty afterwards.
  std::string take_output();

  // Feeds one server frame. Returns a reply when one is complete, or a part
  // (reply::more) of a streamed one.
  result<std::optional<reply>> on_frame(frame f);
  // The most frequent server message, a LOCAL SessionStateChanged notice of
  // the reply being read, taken from a view of the read buffer with no frame
  // built (issue 13): true when applied; otherwise nothing changed and the
  // frame goes to on_frame() as usual.
  bool take_state_notice(const frame_view& f);
  // The front reply's messages are handed back one at a time from now on,
  // until it ends; call it between replies or while one is streamed.
  void stream_front() noexcept { m_stream_front = !m_pending.empty(); }
  // The front reply is being streamed and has not ended yet.
  bool streaming() const noexcept { return m_stream_front; }

  std::size_t pending() const noexcept { return m_pending.size(); }
  bool broken() const noexcept { return m_broken.has_value(); }
  std::vector<notice>& global_notices() noexcept { return m_global; }

private:
  error fail(error e);

  std::string m_out;
  std::deque<reply_end> m_pending;
  reply m_current; // the reply being read (for m_pending.front())
  bool m_stream_front = false;
  std::vector<notice> m_global;
  std::optional<error> m_broken;
};

} // namespace cdk::protocol
