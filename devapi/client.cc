// Client: a pool of sessions shared by threads.
#include "cdk/protocol/messages.h"
#include "cdk/session/message_limit.h"
#include "devapi/access.h"
#include "devapi/client_impl.h"
#include "devapi/session_impl.h"
#include "devapi/settings_impl.h"
#include "devapi/throw_error.h"

#include <mysqlx/session.h>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

namespace pr = cdk::protocol;
using clock = std::chrono::steady_clock;

namespace {

// Session.Reset{keep_open}: the server drops the session's state (variables,
// transactions, prepared statements, expectations) but keeps it logged in.
// A connection that knows the server's message limit asks for it again in
// the same flight (no round trip of its own): SET GLOBAL may have lowered it
// while the connection sat in the pool.
bool reset(cdk::session::connection& c) {
  pr::encode_session_reset(c.pipeline().output(), true);
  c.pipeline().expect(pr::replies::ok);
  const bool refresh = c.server_message_limit().has_value();
  if (refresh) cdk::session::queue_limit_query(c.pipeline());
  auto r = c.read_reply();
  const bool ok = r.ok() && r.value().ok();
  if (refresh) {
    auto limit = c.read_reply();
    if (!limit) return false;
    // Unreadable now: asked again when a large message needs it.
    c.set_server_message_limit(cdk::session::limit_from_reply(limit.value()));
  }
  return ok;
}

void close_all(std::vector<std::unique_ptr<cdk::session::connection>>& conns) noexcept {
  for (auto& c : conns)
    if (c) (void)c->close();
  conns.clear();
}

} // namespace

void client_impl::drop_expired(std::vector<std::unique_ptr<cdk::session::connection>>& out) {
  if (pool.max_idle_time.count() == 0) return;
  const auto now = clock::now();
  for (auto it = m_idle.begin(); it != m_idle.end();) {
    // Compared in milliseconds: the option may be as long as milliseconds
    // go, which in the clock's nanoseconds would overflow.
    if (std::chrono::duration_cast<std::chrono::milliseconds>(now - it->since) >=
        pool.max_idle_time) {
      out.push_back(std::move(it->conn));
      it = m_idle.erase(it);
    } else {
      ++it;
    }
  }
}

void client_impl::acquire(session_impl& sess) {
  const auto deadline = detail::steady_deadline_after(pool.queue_timeout); // no overflow
  std::vector<std::unique_ptr<cdk::session::connection>> to_close;
  std::unique_lock<std::mutex> lock(m_mutex);
  for (;;) {
    if (m_closed)
      throw_error(cdk::error::client(cdk::client_errc::usage, "the client (pool) is closed"));
    drop_expired(to_close);
    if (!m_idle.empty()) {
      idle_conn c = std::move(m_idle.back());
      m_idle.pop_back();
      ++m_in_use;
      lock.unlock();
      close_all(to_close);
      if (reset(*c.conn)) {
        sess.conn = std::move(c.conn);
        sess.policy = c.policy;
        return;
      }
      c.conn.reset(); // broken: forget it and try again
      lock.lock();
      --m_in_use;
      continue;
    }
    if (m_in_use < pool.max_size) {
      ++m_in_use;
      lock.unlock();
      close_all(to_close);
      try {
        open_session(sess, opts);
      } catch (...) {
        std::lock_guard<std::mutex> relock(m_mutex);
        --m_in_use;
        m_freed.notify_one();
        throw;
      }
      return;
    }
    if (pool.queue_timeout.count() == 0) {
      m_freed.wait(lock);
    } else if (m_freed.wait_until(lock, deadline) == std::cv_status::timeout) {
      throw_error(
          cdk::error::client(cdk::client_errc::timeout,
                             "no session became free in the pool within POOL_QUEUE_TIMEOUT (" +
                                 std::to_string(pool.queue_timeout.count()) + " ms; " +
                                 std::to_string(pool.max_size) + " sessions in use)"));
    }
  }
}

void client_impl::release(std::unique_ptr<cdk::session::connection> conn,
                          cdk::docid::docid_policy policy) {
  std::unique_ptr<cdk::session::connection> to_close;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    --m_in_use;
    // A connection still in the middle of a reply (the session could not
    // read it to the end) would answer the next user's request with stale
    // messages: close it.
    if (!m_closed && conn && conn->is_open() && !conn->pipeline().streaming())
      m_idle.push_back({std::move(conn), policy, clock::now()});
    else
      to_close = std::move(conn);
    m_freed.notify_one();
  }
  if (to_close) (void)to_close->close(); // outside the lock: it waits for the server
}

void client_impl::close(bool end_sessions) noexcept {
  std::vector<std::unique_ptr<cdk::session::connection>> to_close;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_closed = true;
    if (end_sessions) m_ended.store(true, std::memory_order_release);
    for (auto& i : m_idle) to_close.push_back(std::move(i.conn));
    m_idle.clear();
    m_freed.notify_all();
  }
  close_all(to_close);
}

} // namespace detail

Client::Client(const ClientSettings& settings) : m_impl(std::make_shared<detail::client_impl>()) {
  m_impl->opts = detail::connect_options_of(settings);
  m_impl->pool = detail::pool_options_of(settings);
}
Client::Client(Client&&) noexcept = default;
Client& Client::operator=(Client&&) noexcept = default;
// Destroyed, a Client stops pooling but its sessions in use go on (they
// hold the pool): only close() ends them.
Client::~Client() {
  if (m_impl) m_impl->close(false);
}

Session Client::getSession() {
  return Session(*this);
}

void Client::close() noexcept {
  if (m_impl) m_impl->close(true);
}

MYSQLX_NAMESPACE_END
