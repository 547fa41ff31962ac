// Session: connection set-up, the document-id policy, requests and replies,
// schema calls and transactions.
#include "cdk/protocol/messages.h"
#include "devapi/access.h"
#include "devapi/client_impl.h"
#include "devapi/prepared.h"
#include "devapi/session_impl.h"
#include "devapi/settings_impl.h"
#include "devapi/throw_error.h"

#include <algorithm>
#include <atomic>
#include <mysqlx/session.h>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

namespace pr = cdk::protocol;

cdk::session::connection& session_impl::connection(bool pipelining) {
  if (pool && pool->ended()) {
    // Client::close() ends its sessions in use (Connector/C++ 8): the pool,
    // being closed, closes the connection it gets back. Futures pending
    // get their replies first.
    drain();
    pool->release(std::move(conn), policy);
    pool.reset();
    throw_error(cdk::error::client(cdk::client_errc::usage,
                                   "the session is closed: its Client was closed"));
  }
  if (!conn || !conn->is_open()) {
    // After a broken connection, later calls say what broke it: only the
    // call that failed was told, and a bare "closed" sends users looking.
    std::string why = "the session is closed";
    if (conn && conn->failure())
      why += ": its connection broke on an earlier call (" + conn->failure()->message + ")";
    throw_error(cdk::error::client(cdk::client_errc::usage, why));
  }
  settle();
  // What is in flight goes first: this caller reads the next reply.
  if (!pipelining) drain();
  return *conn;
}

void session_impl::settle() {
  // A result still streaming keeps all its rows: read them into its buffer,
  // as Connector/C++ 8 caches them, so it stays usable.
  if (streaming) streaming->read_to_end();
  if (!orphan_reply || !conn) return;
  // Its result is gone: read the rest and drop it. Its server error, if
  // any, belonged to that result; only a broken connection matters here.
  orphan_reply = false;
  for (bool more = true; more;) more = value_or_throw(conn->read_part()).more;
}

void session_impl::send(const encoder& encode, pr::reply_end end, bool pipelining) {
  read_deallocated(queue(encode, end, pipelining));
}

std::size_t session_impl::queue(const encoder& encode, pr::reply_end end, bool pipelining) {
  // Deallocates' replies are read here, so nothing may be in flight before
  // them.
  auto& c = connection(pipelining && to_deallocate.empty());
  auto& out = c.pipeline().output();
  const std::size_t at = out.size();
  check(encode(out));
  check_request_size(at);
  // Deallocates of dead or changed statements ride in front of this request:
  // no round trip of their own. They go in only now, once the request is
  // known to fit, so a refused request leaves them queued for the next one.
  const std::vector<std::uint32_t> gone = std::move(to_deallocate);
  to_deallocate.clear();
  if (!gone.empty()) {
    std::string deallocs;
    for (std::uint32_t id : gone) {
      check(encode_deallocate(deallocs, id));
      c.pipeline().expect(pr::replies::ok);
    }
    out.insert(at, deallocs);
  }
  c.pipeline().expect(end);
  return gone.size();
}

void session_impl::read_deallocated(std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    // A Deallocate the server refuses (it forgot the statement) harms no one.
    pr::reply d = value_or_throw(conn->read_reply());
    if (!d.error) ++stats.deallocated;
  }
}

pr::reply session_impl::run(const encoder& encode, std::vector<std::uint32_t> tolerate,
                            pr::reply_end end) {
  const std::lock_guard<std::recursive_mutex> lock(wire);
  send(encode, end);
  pr::reply r = value_or_throw(conn->read_reply());
  if (r.error && std::find(tolerate.begin(), tolerate.end(), r.error->code) == tolerate.end())
    throw_error(*r.error);
  return r;
}

pr::reply session_impl::sql(const std::string& query, const std::vector<pr::value>& args,
                            std::vector<std::uint32_t> tolerate) {
  return run([&](std::string& out) { return pr::encode_stmt_execute(out, query, args); },
             std::move(tolerate));
}

pr::reply session_impl::admin(const std::string& cmd, std::vector<pr::value_field> fields,
                              std::vector<std::uint32_t> tolerate) {
  std::vector<pr::value> args{pr::value::of_object(std::move(fields))};
  return run([&](std::string& out) { return pr::encode_stmt_execute(out, cmd, args, "mysqlx"); },
             std::move(tolerate));
}

result_impl& access::impl(const result_base& r) {
  if (!r.m_impl)
    throw_error(cdk::error::client(cdk::client_errc::usage, "the result is empty (moved from)"));
  return *r.m_impl;
}

std::string quote_id(std::string_view name) {
  std::string out = "`";
  for (char c : name) out += c == '`' ? std::string("``") : std::string(1, c);
  return out + "`";
}

} // namespace detail

using detail::access;
namespace pr = cdk::protocol;

namespace detail {
void open_session(session_impl& sess, const cdk::connect_options& opts) {
  auto conn = value_or_throw(cdk::session::connection::open(opts));
  // docid-mode=server on a server that can't: fail here, never half-way
  // through an add().
  sess.policy =
      value_or_throw(cdk::docid::choose_policy(opts.docids, conn->server_generates_ids()));
  sess.conn = std::move(conn);
}
// The state of a Session that was not moved from.
session_impl& live(const std::shared_ptr<session_impl>& impl) {
  if (!impl) throw_error(cdk::error::client(cdk::client_errc::usage, "the session was moved from"));
  return *impl;
}

std::string compression_of(const Session& s) {
  return live(access::impl(s)).connection().compression();
}

std::uint64_t message_limit_of(const Session& s) {
  return live(access::impl(s)).connection().server_message_limit().value_or(0);
}

void inject_server_fault(Session& s, const std::string& cmd, const std::string& key,
                         std::uint64_t value) {
  std::vector<pr::value_field> fields;
  if (!key.empty()) fields.push_back({key, pr::value::of_uint(value)});
  const std::vector<pr::value> args{pr::value::of_object(std::move(fields))};
  live(access::impl(s)).run([&](std::string& out) {
    return pr::encode_stmt_execute(out, cmd, args, "xserver_test");
  });
}

} // namespace detail

Session::Session(const SessionSettings& settings)
    : m_impl(std::make_shared<detail::session_impl>()) {
  const cdk::connect_options opts = detail::connect_options_of(settings);
  detail::open_session(*m_impl, opts);
  m_impl->default_schema = opts.schema;
  m_impl->max_message_size = opts.max_message_size;
  m_impl->max_message_size_given = opts.max_message_size_given;
  m_impl->max_in_flight = opts.max_in_flight;
}

Session::Session(Client& client) : m_impl(std::make_shared<detail::session_impl>()) {
  const auto& pool = access::impl(client);
  if (!pool)
    detail::throw_error(cdk::error::client(cdk::client_errc::usage, "the client was moved from"));
  if (!pool->pool.enabled) {
    detail::open_session(*m_impl, pool->opts); // POOLING=false: a plain session
  } else {
    pool->acquire(*m_impl);
    m_impl->pool = pool;
  }
  m_impl->default_schema = pool->opts.schema;
  m_impl->max_message_size = pool->opts.max_message_size;
  m_impl->max_message_size_given = pool->opts.max_message_size_given;
  m_impl->max_in_flight = pool->opts.max_in_flight;
}

Session::Session(std::shared_ptr<detail::session_impl> impl) noexcept : m_impl(std::move(impl)) {}
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&& other) noexcept {
  // The session being replaced ends here, as if destroyed: a pooled one goes
  // back to its pool instead of holding a slot until its last Schema or
  // statement dies.
  if (this != &other) {
    close();
    m_impl = std::move(other.m_impl);
  }
  return *this;
}
Session::~Session() {
  close();
}

Schema Session::getSchema(const string& name, bool check) {
  detail::live(m_impl);
  Schema s = access::make_object<Schema>(m_impl, std::string(), name);
  if (check && !s.existsInDatabase())
    detail::throw_error(
        cdk::error::client(cdk::client_errc::usage, "schema '" + name + "' does not exist"));
  return s;
}

SchemaList Session::getSchemas() {
  SqlResult r = sql("SHOW DATABASES").execute();
  std::vector<Schema> out;
  for (Row row : r.fetchAll()) out.push_back(getSchema(row[0].get<std::string>()));
  return out;
}

Schema Session::createSchema(const string& name, bool reuse) {
  auto& sess = detail::live(m_impl);
  sess.sql((reuse ? "CREATE DATABASE IF NOT EXISTS " : "CREATE DATABASE ") +
           detail::quote_id(name));
  sess.implicit_commit();
  return getSchema(name);
}

void Session::dropSchema(const string& name) {
  auto& sess = detail::live(m_impl);
  sess.sql("DROP DATABASE IF EXISTS " + detail::quote_id(name));
  sess.implicit_commit();
}

Schema Session::getDefaultSchema() {
  const std::string& name = detail::live(m_impl).default_schema;
  if (name.empty())
    detail::throw_error(cdk::error::client(cdk::client_errc::usage,
                                           "no default schema was given in the session settings"));
  return getSchema(name);
}

std::string Session::getDefaultSchemaName() {
  return detail::live(m_impl).default_schema;
}

SqlStatement Session::sql(const string& query) {
  auto st = std::make_unique<detail::statement_impl>();
  detail::live(m_impl);
  st->sess = m_impl;
  st->query = query;
  return access::make_statement<SqlStatement>(std::move(st));
}

void Session::startTransaction() {
  auto& sess = detail::live(m_impl);
  sess.sql("START TRANSACTION");
  sess.in_transaction = true;
}

void Session::commit() {
  auto& sess = detail::live(m_impl);
  sess.sql("COMMIT");
  sess.in_transaction = false;
}

void Session::rollback() {
  auto& sess = detail::live(m_impl);
  sess.sql("ROLLBACK");
  sess.in_transaction = false;
}

std::string Session::setSavepoint() {
  static std::atomic<unsigned> counter{0};
  return setSavepoint("SP" + std::to_string(++counter));
}

std::string Session::setSavepoint(const string& name) {
  if (name.empty())
    detail::throw_error(
        cdk::error::client(cdk::client_errc::usage, "setSavepoint(): the name is empty"));
  detail::live(m_impl).sql("SAVEPOINT " + detail::quote_id(name));
  return name;
}

void Session::releaseSavepoint(const string& name) {
  detail::live(m_impl).sql("RELEASE SAVEPOINT " + detail::quote_id(name));
}

void Session::rollbackTo(const string& name) {
  detail::live(m_impl).sql("ROLLBACK TO SAVEPOINT " + detail::quote_id(name));
}

DocIdMode Session::getDocIdMode() const {
  return detail::live(m_impl).policy.origin == cdk::docid::id_origin::server ? DocIdMode::SERVER
                                                                             : DocIdMode::CLIENT;
}

bool Session::serverGeneratesIds() const {
  return detail::live(m_impl).policy.server_generates;
}

void Session::close() noexcept {
  if (!m_impl || !m_impl->conn) return;
  const std::lock_guard<std::recursive_mutex> lock(m_impl->wire);
  // Futures still pending get their replies (or the connection's error)
  // now: nothing is left for the next user of a pooled connection.
  m_impl->drain();
  try {
    // A pending reply is read first (a live result keeps its rows), so the
    // connection goes back to the pool, or says goodbye, in step.
    m_impl->settle();
  } catch (...) {
    // The connection broke while reading: release() and close() cope.
  }
  if (m_impl->pool) {
    // Reset happens when the connection is taken again (one round trip then,
    // none now), so returning it is cheap.
    // The pool keeps what the server said, not this session's own generator.
    auto policy = m_impl->policy;
    if (m_impl->id_generator) {
      auto own = cdk::docid::choose_policy(policy.mode, policy.server_generates);
      if (own) policy = own.value();
    }
    m_impl->pool->release(std::move(m_impl->conn), policy);
    m_impl->pool.reset();
    return;
  }
  (void)m_impl->conn->close();
  m_impl->conn.reset();
}

MYSQLX_NAMESPACE_END
