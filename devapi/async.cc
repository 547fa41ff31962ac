// executeAsync()'s machinery: requests in flight, their replies read in
// order into their futures, and Future<R>.
#include "devapi/async.h"

#include "devapi/access.h"
#include "devapi/prepared.h"
#include "devapi/test_hooks.h"
#include "devapi/throw_error.h"

#include <algorithm>
#include <cstdint>
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
  bool wake = false;
  {
    const std::lock_guard<std::mutex> lock(progress_mx);
    op->done = true;
    wake = reader_waiting && reader_thread != std::this_thread::get_id();
  }
  progress.notify_all();
  // The reader waits for the socket, which may say nothing more now that
  // this thread read the reply it waits for.
  if (wake) waiter.wake();
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

using clock = std::chrono::steady_clock;
constexpr clock::time_point forever = clock::time_point::max();
// How often a waiter looks again at a wire another thread holds (it is
// woken at once when its op completes): a timed lock would do, but
// ThreadSanitizer (GCC 12) does not see pthread_mutex_clocklock, and
// reported every unlock after it as the unlock of a free mutex.
constexpr auto wire_poll = std::chrono::microseconds(200);

bool is_done(session_impl& s, const async_op& op) {
  const std::lock_guard<std::mutex> lock(s.progress_mx);
  return op.done;
}

// The reader role, given up on the way out: the next waiter takes it.
struct reader_role {
  session_impl& s;
  reader_role(const reader_role&) = delete;
  reader_role& operator=(const reader_role&) = delete;
  ~reader_role() {
    {
      const std::lock_guard<std::mutex> lock(s.progress_mx);
      s.reader_waiting = false;
    }
    s.progress.notify_all();
  }
};

// The reader: reads replies in order until `op`'s is in or `t` passes. The
// wire is held only while a reply is read (or one in flight is sent by
// another thread); while nothing has arrived it waits for the socket
// without it, so executeAsync() on other threads sends meanwhile. A reply
// costs two system calls here as in a blocking read: the wait's poll() and
// the read (what is buffered is read without a look at the socket, and a
// socket the wait found readable is not polled again).
future_status read_until(session_impl& s, const async_op& op, clock::time_point t) {
  // Since when the server has sent nothing (forever: it just did):
  // read-timeout bounds that wait.
  clock::time_point quiet_since = forever;
  // The last wait found the socket readable after this many frame reads
  // (none: it did not).
  constexpr std::uint64_t none = ~std::uint64_t{0};
  std::uint64_t readable_at = none;
  for (;;) {
    wire_lock wire(s.wire, std::defer_lock);
    while (!wire.try_lock()) {
      // Another thread sends, or reads for itself (execute(), a pool): it
      // may complete op meanwhile, and notifies then.
      std::unique_lock<std::mutex> lock(s.progress_mx);
      if (op.done) return future_status::ready;
      if (clock::now() >= t) return future_status::timeout;
      s.progress.wait_for(lock, wire_poll);
    }
    if (is_done(s, op)) return future_status::ready;
    if (s.in_flight.empty()) complete(s, op); // says what is wrong
    cdk::session::connection& c = reading(s);
    const int fd = c.poll_handle();
    if (fd < 0 || !s.waiter.prepare()) {
      // Nothing to poll outside the connection: wait with the wire held.
      if (t == forever) {
        s.complete_front();
        continue;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(t - clock::now());
      auto ready = c.readable(std::max(left, std::chrono::milliseconds(0)));
      if (ready && !ready.value()) return future_status::timeout;
      s.complete_front(); // reads the reply, or meets the connection's error
      continue;
    }
    auto ready = c.has_input();
    if (ready && !ready.value() && readable_at == c.frame_reads()) {
      // Nobody read since the wait found the socket readable.
      c.found_readable();
      ready = true;
    }
    readable_at = none;
    const auto now = clock::now();
    if (ready && !ready.value() && now >= t) {
      // No time to wait: a last look at the socket (wait_for(0) polls).
      ready = c.readable(std::chrono::milliseconds(0));
      if (ready && !ready.value()) return future_status::timeout;
    }
    if (!ready || ready.value()) {
      quiet_since = forever;
      s.complete_front(); // reads the reply, or meets the connection's error
      continue;
    }
    if (quiet_since == forever) quiet_since = now;
    clock::time_point until = t;
    if (const auto rt = c.read_timeout(); rt.count() > 0) {
      // read-timeout bounds each wait for the server, this one as a read's
      // (README): past it the connection fails, as get()'s read would.
      if (now - quiet_since >= rt) {
        (void)c.read_timed_out();
        s.complete_front(); // meets that error
        continue;
      }
      until = std::min(until, quiet_since + rt);
    }
    const std::uint64_t reads = c.frame_reads();
    wire.unlock();
    // Readable, woken by a thread that read replies, or timed out: all
    // looked at again with the wire.
    if (s.waiter.wait(fd, until) == cdk::readable_waiter::outcome::readable) readable_at = reads;
  }
}

// Waits until `op` is done or `t` passes (forever: no limit).
future_status await(const async_op& op, clock::time_point t) {
  session_impl& s = *op.sess;
  {
    std::unique_lock<std::mutex> lock(s.progress_mx);
    for (;;) {
      if (op.done) return future_status::ready;
      if (!s.reader_waiting) break;
      // Another waiter reads replies in order, this one's too: wait until
      // it has, or until it gives the role up.
      if (t == forever) {
        s.progress.wait(lock);
      } else if (s.progress.wait_until(lock, t) == std::cv_status::timeout) {
        if (op.done) return future_status::ready;
        if (s.reader_waiting) return future_status::timeout;
      }
    }
    s.reader_waiting = true;
    s.reader_thread = std::this_thread::get_id();
  }
  const reader_role role{s};
  return read_until(s, op, t);
}

} // namespace

} // namespace detail

template <typename R> R Future<R>::get() {
  if (!m_op) detail::no_state();
  const std::shared_ptr<detail::async_op> op = std::move(m_op);
  detail::await(*op, detail::forever);
  if (op->error) std::rethrow_exception(op->error);
  return detail::access::make_result<R>(std::move(op->result));
}

template <typename R> void Future<R>::wait() const {
  if (!m_op) detail::no_state();
  detail::await(*m_op, detail::forever);
}

template <typename R>
future_status Future<R>::wait_until_steady(std::chrono::steady_clock::time_point t) const {
  if (!m_op) detail::no_state();
  return detail::await(*m_op, t);
}

template class Future<Result>;
template class Future<DocResult>;
template class Future<RowResult>;
template class Future<SqlResult>;

MYSQLX_NAMESPACE_END
