// executeAsync()'s machinery: requests in flight, their replies read in
// order into their futures, and Future<R>.
#include "devapi/async.h"

#include "devapi/access.h"
#include "devapi/prepared.h"
#include "devapi/test_hooks.h"
#include "devapi/throw_error.h"

#include <mysqlx/error.h>
#include <mysqlx/result.h>
#include <thread>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

namespace pr = cdk::protocol;
using wire_lock = std::unique_lock<std::recursive_mutex>;

void session_impl::complete_front() {
  std::shared_ptr<async_op> op = std::move(in_flight.front());
  in_flight.pop_front();
  in_flight_bytes -= op->request_bytes;
  // After a broken connection each later reply fails the same way, with
  // its own request's ids (an add's) and "may have been applied": each
  // request was sent.
  try {
    op->result = op->finish(op->sess);
  } catch (const ServerError& e) {
    note_execute_error(op->prepared, e.code());
    op->error = std::current_exception();
  } catch (...) {
    op->error = std::current_exception();
  }
  op->finish = nullptr;
  op->done = true;
}

void session_impl::drain() {
  while (!in_flight.empty()) complete_front();
}

std::shared_ptr<async_op>
async_send(const std::shared_ptr<session_impl>& sess, const encoder& encode, pr::reply_end end,
           std::function<std::unique_ptr<result_impl>(const std::shared_ptr<session_impl>&)> finish,
           std::shared_ptr<prepared_id> prepared) {
  session_impl& s = *sess;
  const wire_lock lock(s.wire);
  while (s.in_flight.size() >= s.max_in_flight) s.complete_front();
  // The request's size is known once it is encoded: encode it into a
  // scratch buffer first, so that room is made before it joins the flight.
  std::string request;
  check(encode(request));
  while (!s.in_flight.empty() &&
         s.in_flight_bytes + request.size() > session_impl::max_in_flight_bytes)
    s.complete_front();
  const std::size_t deallocates = s.queue(
      [&](std::string& out) {
        out += request;
        return cdk::ok();
      },
      end, true);
  auto op = std::make_shared<async_op>();
  op->sess = sess;
  if (deallocates > 0) {
    // Their replies come before this request's, which goes out with them:
    // a connection that breaks now fails the future, not executeAsync().
    try {
      s.read_deallocated(deallocates);
    } catch (const Error&) {
      op->error = std::current_exception();
      op->done = true;
      return op;
    }
  }
  op->finish = std::move(finish);
  op->prepared = std::move(prepared); // before another thread may read the reply
  op->request_bytes = request.size();
  s.in_flight_bytes += op->request_bytes;
  s.in_flight.push_back(op);
  // Out now, not with the next request or read: the server starts on it. A
  // connection that breaks here fails this future (and those before it
  // whose replies are not read), not executeAsync(): the request may have
  // gone out, and the caller collects every outcome the same way.
  (void)s.conn->flush();
  return op;
}

std::shared_ptr<async_op> async_ready(std::unique_ptr<result_impl> result) {
  auto op = std::make_shared<async_op>();
  op->sess = result->sess;
  op->result = std::move(result);
  op->done = true;
  return op;
}

std::shared_ptr<async_op> async_failed(const std::shared_ptr<session_impl>& sess,
                                       std::exception_ptr error) {
  auto op = std::make_shared<async_op>();
  op->sess = sess;
  op->error = std::move(error);
  op->done = true;
  return op;
}

cdk::session::connection& reading(session_impl& s) {
  if (!s.conn)
    throw_error(cdk::error::client(cdk::client_errc::usage,
                                   "the session is closed: its connection is gone"));
  return *s.conn;
}

std::unique_ptr<result_impl> finish_whole(const std::shared_ptr<session_impl>& s) {
  pr::reply r = value_or_throw(reading(*s).read_reply());
  if (r.error) throw_error(*r.error);
  return make_result(s, r);
}

std::unique_ptr<result_impl> finish_rows(const std::shared_ptr<session_impl>& s) {
  reading(*s);
  auto out = std::make_unique<result_impl>();
  out->sess = s;
  out->complete = false;
  s->streaming = out.get();
  out->read_to_end(); // the rows are kept: later replies are behind them
  if (out->failure) throw_error(*out->failure);
  return out;
}

std::size_t in_flight_of(const Session& s) {
  const auto& impl = access::impl(s);
  const wire_lock lock(impl->wire);
  return impl->in_flight.size();
}

namespace {

[[noreturn]] void no_state() {
  throw_error(cdk::error::client(cdk::client_errc::usage,
                                 "the future has no state (default-made, moved from, or its "
                                 "get() was called)"));
}

// Reads replies until `op`'s is in; the wire is held.
void complete(session_impl& s, const async_op& op) {
  while (!op.done) {
    if (s.in_flight.empty()) {
      // Cannot happen: an op not done is in flight. Said rather than spun.
      throw_error(
          cdk::error::client(cdk::client_errc::usage, "the future's request is not in flight"));
    }
    s.complete_front();
  }
}

} // namespace

} // namespace detail

template <typename R> R Future<R>::get() {
  if (!m_op) detail::no_state();
  const std::shared_ptr<detail::async_op> op = std::move(m_op);
  {
    const detail::wire_lock lock(op->sess->wire);
    detail::complete(*op->sess, *op);
  }
  if (op->error) std::rethrow_exception(op->error);
  return detail::access::make_result<R>(std::move(op->result));
}

template <typename R> void Future<R>::wait() const {
  if (!m_op) detail::no_state();
  const detail::wire_lock lock(m_op->sess->wire);
  detail::complete(*m_op->sess, *m_op);
}

template <typename R>
future_status Future<R>::wait_until_steady(std::chrono::steady_clock::time_point t) const {
  if (!m_op) detail::no_state();
  detail::session_impl& s = *m_op->sess;
  // Another thread may be reading this session's replies: wait for it, at
  // most until t. Polled, not try_lock_until(): a timed mutex locks through
  // pthread_mutex_clocklock, which ThreadSanitizer (GCC 12) does not see,
  // so every unlock after it was reported as the unlock of a free mutex.
  detail::wire_lock lock(s.wire, std::defer_lock);
  while (!lock.try_lock()) {
    if (std::chrono::steady_clock::now() >= t) return future_status::timeout;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  while (!m_op->done) {
    if (s.in_flight.empty()) detail::complete(s, *m_op); // says what is wrong
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(t - std::chrono::steady_clock::now());
    // The next reply is read only once it has begun to arrive.
    auto ready = detail::reading(s).readable(std::max(left, std::chrono::milliseconds(0)));
    if (ready && !ready.value()) return future_status::timeout;
    s.complete_front(); // reads the reply, or meets the connection's error
  }
  return future_status::ready;
}

template class Future<Result>;
template class Future<DocResult>;
template class Future<RowResult>;
template class Future<SqlResult>;

MYSQLX_NAMESPACE_END
