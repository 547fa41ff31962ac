// executeAsync(): requests sent without waiting for their replies, which the
// session reads in order as futures are waited on (the X Protocol's
// pipelining). Private header.
//
// Threads: the session's `wire` mutex (recursive) is held by whatever reads
// or writes its connection: sending a request, reading a reply into its
// future, and the synchronous calls (run(), stream_result(), a streamed
// result's reads, a split add, close()). So requests go out in one order.
// A future's own state (`done`, under the session's progress_mx) says when
// it is ready, without the wire; one waiter at a time, the reader, reads
// replies, holding the wire only while one is there to read, and waits for
// the socket without it (session_impl's progress_mx, reader_waiting,
// waiter), so a waiting thread never makes a sender wait for a reply.
#pragma once

#include "devapi/session_impl.h"

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <mysqlx/future.h>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

/// One request in flight.
struct async_op {
  /// Reads this request's reply (the next one on the wire) and builds its
  /// result; throws its error. Run once, with the wire held.
  std::function<std::unique_ptr<result_impl>(const std::shared_ptr<session_impl>&)> finish;
  std::unique_ptr<result_impl> result;
  std::exception_ptr error;
  // The session, until the reply is read (a future may outlive its Session
  // object: the state stays until the reply is in).
  std::shared_ptr<session_impl> sess;
  std::size_t request_bytes = 0;
  // A prepared statement's Execute: the id it ran, told if the server no
  // longer holds it (prepared.h, note_execute_error()).
  std::shared_ptr<prepared_id> prepared;
  // Written with the wire and the session's progress_mx held; read with
  // either (before the op is shared: by its maker).
  bool done = false;
};

/// Sends one request (`encode` appends it, `end` ends its reply) without
/// reading its reply, and returns its op; `finish` will read it. Before
/// sending, replies are read to stay within the session's limits on
/// requests and bytes in flight. Errors before the request is sent are
/// thrown here.
std::shared_ptr<async_op>
async_send(const std::shared_ptr<session_impl>& sess, const encoder& encode,
           cdk::protocol::reply_end end,
           std::function<std::unique_ptr<result_impl>(const std::shared_ptr<session_impl>&)> finish,
           std::shared_ptr<prepared_id> prepared = nullptr);

/// A future that is ready now: for a statement completed synchronously
/// (a split add) or with nothing to send.
std::shared_ptr<async_op> async_ready(std::unique_ptr<result_impl> result);

/// A future that is ready with `error`: a statement the server refused
/// before its request could go out in flight (a Prepare, a split add()).
std::shared_ptr<async_op> async_failed(const std::shared_ptr<session_impl>& sess,
                                       std::exception_ptr error);

/// The session's connection for reading a reply; a client error once it is
/// gone (the session closed).
cdk::session::connection& reading(session_impl& s);
/// The finish of a statement whose whole reply makes its result (make_result()).
std::unique_ptr<result_impl> finish_whole(const std::shared_ptr<session_impl>& s);
/// The finish of a statement with result sets: every row is read now.
std::unique_ptr<result_impl> finish_rows(const std::shared_ptr<session_impl>& s);

} // namespace detail
MYSQLX_NAMESPACE_END
