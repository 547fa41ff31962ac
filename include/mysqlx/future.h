// Future<R>: the result of a statement sent with executeAsync(), to be had
// later. The X Protocol lets a client send many requests before it reads a
// reply, and the server answers them in order, so statements in flight
// together cost about one round trip instead of one each.
//
//   mysqlx::Future<mysqlx::Result> a = coll.add(doc1).executeAsync();
//   mysqlx::Future<mysqlx::DocResult> f = coll.find("_id = 'x'").executeAsync();
//   mysqlx::Result r = a.get();   // doc1's ids: r.getGeneratedIds()
//   mysqlx::DbDoc d = f.get().fetchOne();
//
// It behaves like std::future: get() once (it throws the statement's
// error), wait(), wait_for(), wait_until(), valid(); move-only. A future
// is waited on by reading the session's replies, in order, up to its own:
// the earlier ones are kept for their futures. A plain execute() on the
// same session first completes everything in flight. wait_for() and
// wait_until() return mysqlx::future_status (ready or timeout: the two
// values std::future_status has for a future that is not deferred), so
// that this header need not include <future>.
//
// Errors: a statement the server refuses fails its future, whatever the
// statement and on every run (the Prepare of a statement's second run and
// a split add() included), and so does a connection that breaks once its
// request may have gone out: get() throws it. executeAsync() itself
// throws only for what is wrong before anything is sent: a usage error, a
// closed session, a request above the message limit (client errors).
// After a broken connection every pending future's ConnectionError has
// mayHaveBeenApplied() true: each request had left the client.
//
// Threads: futures may be waited on from any thread. A future is ready as
// soon as any thread has read its reply, without waiting for that thread's
// other reads; one waiting thread at a time reads the replies, in order,
// and while none has arrived it waits for the socket without holding the
// connection, so executeAsync() on other threads sends meanwhile.
#pragma once

#include <chrono>
#include <memory>
#include <mysqlx/detail/duration.h>
#include <mysqlx/detail/export.h>

MYSQLX_NAMESPACE_BEGIN

namespace detail {
struct async_op; // devapi/async.h
struct access;
} // namespace detail

/// What wait_for() and wait_until() say.
enum class future_status {
  ready,  ///< the result (or the error) is there: get() does not wait
  timeout ///< the time ran out first
};

/// The result of a statement sent with executeAsync(): R is Result,
/// DocResult, RowResult or SqlResult, what the statement's execute() returns.
template <typename R> class MYSQLX_EXPORT Future {
public:
  /// No state: valid() is false.
  Future() noexcept = default;
  Future(Future&& other) noexcept = default;            ///< Takes over the state.
  Future& operator=(Future&& other) noexcept = default; ///< Takes over the state.
  Future(const Future&) = delete;
  Future& operator=(const Future&) = delete;
  /// Does not wait: the statement still completes (its session reads its
  /// reply before its next request, or when it is closed).
  ~Future() = default;

  /// Waits for the statement and returns its result, or throws its error
  /// (a mysqlx::Error). Afterwards valid() is false; get() again throws
  /// mysqlx::Error (errc::USAGE), where std::future throws future_error.
  R get();
  /// Whether the future has a state (not default-made, moved from or got).
  bool valid() const noexcept { return m_op != nullptr; }
  /// Waits until the result or the error is there.
  void wait() const;
  /// Waits at most `d`. Reading a reply that has begun to arrive is
  /// finished even when the time runs out meanwhile. `ready` counts every
  /// reply already received, wherever the connection holds it (TLS,
  /// decompression). read-timeout bounds this wait as it bounds get()'s:
  /// when `d` is as long or longer and the server sends nothing within it,
  /// the connection fails (4007), and the future is ready with that error.
  /// Any duration works: one too long to add to the clock (`hours::max()`)
  /// sets no limit of its own, zero or less only looks.
  template <typename Rep, typename Period>
  future_status wait_for(const std::chrono::duration<Rep, Period>& d) const {
    return wait_until_steady(detail::steady_deadline_after(d));
  }
  /// Waits until `t` at the latest, on any clock; `time_point::max()` sets
  /// no limit of its own, a time already past only looks.
  template <typename Clock, typename Duration>
  future_status wait_until(const std::chrono::time_point<Clock, Duration>& t) const {
    // In long double seconds, so that no difference of two times overflows.
    using seconds = std::chrono::duration<long double>;
    return wait_until_steady(detail::steady_deadline_after(
        seconds(t.time_since_epoch()) - seconds(Clock::now().time_since_epoch())));
  }

private:
  explicit Future(std::shared_ptr<detail::async_op> op) noexcept : m_op(std::move(op)) {}
  future_status wait_until_steady(std::chrono::steady_clock::time_point t) const;
  std::shared_ptr<detail::async_op> m_op;
  friend struct detail::access;
};

class Result;
class DocResult;
class RowResult;
class SqlResult;
// Defined in the library, for these four.
extern template class Future<Result>;
extern template class Future<DocResult>;
extern template class Future<RowResult>;
extern template class Future<SqlResult>;

MYSQLX_NAMESPACE_END
