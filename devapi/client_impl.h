// The state behind Client: a thread-safe pool of open connections. Private
// header.
#pragma once

#include "cdk/docid/policy.h"
#include "cdk/foundation/options.h"
#include "cdk/session/connection.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <mysqlx/settings.h>
#include <vector>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

struct session_impl;

struct client_impl {
  cdk::connect_options opts;
  PoolOptions pool;

  /// Fills `sess` with a connection: an idle one (Session.Reset with
  /// keep_open first; one that fails the reset is dropped) or a new one
  /// (which runs the handshake and the docid probe). Waits up to
  /// queue_timeout when max_size connections are in use; throws on timeout,
  /// on a closed client and on connection errors.
  void acquire(session_impl& sess);
  /// Takes a connection back from a closing session; closes it instead when
  /// the pool is closed or the connection broken.
  void release(std::unique_ptr<cdk::session::connection> conn, cdk::docid::docid_policy policy);
  /// Closes the idle connections; later acquire() calls throw. With
  /// `end_sessions` (Client::close()), the sessions in use end too, as in
  /// Connector/C++ 8: each fails its next call and gives its connection
  /// back then (ended()), so no connection is closed under the thread
  /// that uses it.
  void close(bool end_sessions) noexcept;
  /// Client::close() was called: sessions of this pool are over.
  bool ended() const noexcept { return m_ended.load(std::memory_order_acquire); }

private:
  struct idle_conn {
    std::unique_ptr<cdk::session::connection> conn;
    cdk::docid::docid_policy policy;
    std::chrono::steady_clock::time_point since;
  };
  void drop_expired(std::vector<std::unique_ptr<cdk::session::connection>>& out);

  std::mutex m_mutex;
  std::condition_variable m_freed;
  std::vector<idle_conn> m_idle; // guarded by m_mutex
  std::size_t m_in_use = 0;      // guarded by m_mutex
  bool m_closed = false;         // guarded by m_mutex
  std::atomic<bool> m_ended{false};
};

/// Opens a connection for `opts` and decides its docid policy (throws).
void open_session(session_impl& sess, const cdk::connect_options& opts);

} // namespace detail
MYSQLX_NAMESPACE_END
