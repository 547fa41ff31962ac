// Session, Client (a thread-safe session pool), getSession() and getClient().
//
//   mysqlx::Session s("mysqlx://app@db:33060/shop");
//   mysqlx::Session t(SessionOption::HOST, "db", SessionOption::USER, "app",
//                     SessionOption::PWD, secret);
//   mysqlx::Client pool = mysqlx::getClient("mysqlx://app@db", ClientOption::POOL_MAX_SIZE, 8);
//   mysqlx::Session u = pool.getSession();
//
// Creating a session connects, negotiates TLS and authenticates, and learns
// who generates document ids (see DocIdMode). A Session is for one thread at
// a time; a Client may be shared by threads.
#pragma once

#include <memory>
#include <mysqlx/detail/export.h>
#include <mysqlx/detail/list.h>
#include <mysqlx/docid.h>
#include <mysqlx/schema.h>
#include <mysqlx/settings.h>
#include <mysqlx/sql.h>
#include <string>
#include <type_traits>
#include <utility>

MYSQLX_NAMESPACE_BEGIN

class Client;
namespace detail {
struct session_impl; // defined with the session layer
struct client_impl;  // defined with the session layer
} // namespace detail

/// A session on one server connection, for one thread at a time.
class MYSQLX_EXPORT Session {
public:
  /// Connects: TLS, authentication and the docid probe. Hosts are tried by
  /// priority, the next one only when a connection fails; throws if none works,
  /// and with DocIdMode::SERVER on a server that cannot (errc::DOCID_UNSUPPORTED).
  explicit Session(const SessionSettings& settings);
  /// A session from a pool; closing it returns the connection to the pool.
  /// Implicit, as in Connector/C++ 8 (`Session s = client;`).
  Session(Client& client); // NOLINT: implicit by design
  /// Anything SessionSettings accepts: a URI, an option list, host/port/user...
  template <
      typename T0, typename... T,
      std::enable_if_t<std::is_constructible_v<SessionSettings, const T0&, const T&...>, int> = 0>
  Session(const T0& first, const T&... rest) // NOLINT: implicit, as in Connector/C++
      : Session(SessionSettings(first, rest...)) {}

  /// Takes over `other`'s connection; `other` may then only be assigned to or destroyed.
  Session(Session&&) noexcept;
  /// Takes over `other`'s connection. Call close() first: the session replaced is
  /// not closed, and a pooled one never goes back to its pool.
  Session& operator=(Session&&) noexcept;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  /// Closes the session (see close()); never throws.
  ~Session();

  /// No round trip unless `check` is true (then throws if it does not exist).
  Schema getSchema(const string& name, bool check = false);
  /// Every schema the user can see (SHOW DATABASES), system schemas too; one round trip.
  SchemaList getSchemas();
  /// With `reuse`, an existing schema is returned instead of an error.
  Schema createSchema(const string& name, bool reuse = false);
  /// DROP DATABASE IF EXISTS: a missing schema is no error; one round trip.
  void dropSchema(const string& name);
  /// The schema named in the settings; throws if none was named.
  Schema getDefaultSchema();
  /// The schema named in the settings, or an empty string.
  std::string getDefaultSchemaName();

  /// One SQL statement with `?` placeholders; nothing is sent until execute().
  SqlStatement sql(const string& query);

  /// START TRANSACTION; one round trip.
  void startTransaction();
  /// COMMIT; one round trip.
  void commit();
  /// ROLLBACK; one round trip.
  void rollback();
  /// Returns the savepoint's name (generated when not given).
  std::string setSavepoint();
  /// SAVEPOINT `name`, returned; an empty name throws a ClientError. One round trip.
  std::string setSavepoint(const string& name);
  /// RELEASE SAVEPOINT `name`; one round trip.
  void releaseSavepoint(const string& name);
  /// ROLLBACK TO SAVEPOINT `name`; the transaction stays open. One round trip.
  void rollbackTo(const string& name);

  /// Who generates document ids on this session: SERVER or CLIENT, as
  /// decided at session creation (never AUTO).
  DocIdMode getDocIdMode() const;
  /// Whether the server said it generates document ids (the handshake
  /// probe): true on MySQL 8.0.11+, false on 5.7 and with DocIdMode::CLIENT
  /// (the probe is skipped then).
  bool serverGeneratesIds() const;

  /// Makes the `_id` of every document add() sends without one with the
  /// application's own generator: any callable returning the id as a string
  /// (Snowflake-style, ObjectId-style...). Ids are then made on the client
  /// (getDocIdMode() becomes CLIENT), except under DocIdMode::SERVER, where
  /// this throws. Each id is checked before anything is sent: 1 to 32 bytes
  /// of UTF-8 without control characters; a bad id, or an exception from the
  /// generator, fails that add() with a ClientError naming the document.
  /// Called by add() on the session's thread, once per document lacking `_id`.
  template <typename F> void setDocIdGenerator(F generator) {
    set_docid_source(std::make_unique<detail::docid_callable<F>>(std::move(generator)));
  }
  /// Back to the connector's own ids (and to the origin the session had).
  void resetDocIdGenerator();

  /// Ends the session; later calls on it, its schemas, collections and
  /// statements throw. Results already read stay readable. Never throws.
  void close() noexcept;

private:
  explicit Session(std::shared_ptr<detail::session_impl> impl) noexcept;
  void set_docid_source(std::unique_ptr<detail::docid_source> source);

  // shared_ptr: Schema, Collection, Table, statements and results created
  // from this session keep the connection state alive and may outlive this
  // object (they fail cleanly once it is closed, instead of dangling).
  std::shared_ptr<detail::session_impl> m_impl;
  friend struct detail::access;
};

/// A pool of sessions, safe to share between threads.
class MYSQLX_EXPORT Client {
public:
  /// Checks the settings (throws on a bad one); connects nothing until getSession().
  explicit Client(const ClientSettings& settings);
  /// Anything ClientSettings accepts: a URI, a URI and JSON pool options, option pairs...
  template <
      typename T0, typename... T,
      std::enable_if_t<std::is_constructible_v<ClientSettings, const T0&, const T&...>, int> = 0>
  Client(const T0& first, const T&... rest) // NOLINT: implicit, as in Connector/C++
      : Client(ClientSettings(first, rest...)) {}

  /// Takes over `other`'s pool; getSession() on `other` then throws a ClientError.
  Client(Client&&) noexcept;
  /// Takes over `other`'s pool; the pool replaced is not closed first (see close()).
  Client& operator=(Client&&) noexcept;
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;
  /// Stops pooling: idle sessions close; sessions in use go on and close
  /// when returned (only close() ends them). Never throws.
  ~Client();

  /// A session from the pool: an idle one (reset first) or a new connection.
  /// Waits up to POOL_QUEUE_TIMEOUT when POOL_MAX_SIZE sessions are in use.
  Session getSession();
  /// Closes the pool and ends its sessions, as Connector/C++ 8 does: idle
  /// ones close now; one in use fails its next call with a ClientError and
  /// closes then (not under the thread using it); getSession() throws.
  void close() noexcept;

private:
  // shared_ptr: sessions taken from the pool return their connection to it,
  // so the pool state must live as long as its last session.
  std::shared_ptr<detail::client_impl> m_impl;
  friend struct detail::access;
};

/// `getSession("mysqlx://...")`, `getSession(SessionOption::HOST, "h", ...)`
template <typename... T> Session getSession(const T&... options) {
  return Session(SessionSettings(options...));
}
/// `getClient("mysqlx://...", ClientOption::POOL_MAX_SIZE, 8)`, `getClient(uri, json)`
template <typename... T> Client getClient(const T&... options) {
  return Client(ClientSettings(options...));
}

MYSQLX_NAMESPACE_END
