// mysqlx::Error: the exception type of the X DevAPI, and its three kinds.
//
// Every error the connector throws is a mysqlx::Error (a std::runtime_error,
// as in Connector/C++ 8), but one: a DbDoc field or array element that is not
// there is std::out_of_range, as std::map::at() and Connector/C++ 8 throw.
// Unlike the official class, mysqlx::Error carries the error code and the
// SQLSTATE, and says where the error came from:
//
//   try { coll.add(doc).execute(); }
//   catch (const mysqlx::ServerError& e) { if (e.code() == 5116) ...duplicate _id... }
//   catch (const mysqlx::ConnectionError&) { ...reconnect, then retry... }
//   catch (const mysqlx::Error& e) { std::cerr << e.code() << ' ' << e.what(); }
//
// Messages never contain a password. Server messages are passed on verbatim
// and may quote user data (a duplicate key value, for example).
#pragma once

#include <cstdint>
#include <memory>
#include <mysqlx/detail/export.h>
#include <stdexcept>
#include <string>
#include <vector>

MYSQLX_NAMESPACE_BEGIN

/// The root of every exception the connector throws: message, code, SQLSTATE, Kind.
class MYSQLX_EXPORT Error : public std::runtime_error {
public:
  /// Where an error came from; callers branch on this, never on message text.
  enum class Kind : std::uint8_t {
    CLIENT,     ///< detected by the connector: bad argument, bad option, bad value
    SERVER,     ///< reported by the server (code is the server error number)
    CONNECTION, ///< the connection failed or broke; the session is unusable
  };

  /// A client error with code 0 and SQLSTATE HY000 (for user code that
  /// throws mysqlx::Error itself, as the official class allows).
  explicit Error(const std::string& message);
  /// The same from a C string; null is an empty message.
  explicit Error(const char* message);
  /// `sql_state` longer than 5 characters is cut to 5.
  Error(Kind kind, std::uint32_t code, const std::string& sql_state, const std::string& message,
        bool fatal = false);

  /// The server error number (e.g. 5116 for a duplicate `_id`), or the
  /// client error code (2000-2999 as in libmysqlclient, 4000+ our own).
  std::uint32_t code() const noexcept { return m_code; }
  /// The five-character SQLSTATE ("HY000" when none applies).
  std::string sqlState() const;
  /// Where the error came from.
  Kind kind() const noexcept { return m_kind; }
  /// kind() is Kind::SERVER.
  bool isServerError() const noexcept { return m_kind == Kind::SERVER; }
  /// kind() is Kind::CLIENT.
  bool isClientError() const noexcept { return m_kind == Kind::CLIENT; }
  /// kind() is Kind::CONNECTION.
  bool isConnectionError() const noexcept { return m_kind == Kind::CONNECTION; }
  /// True when the session cannot continue after this error (a broken
  /// connection, or a server error of severity FATAL).
  bool isFatal() const noexcept { return m_fatal; }
  /// A connection error in the middle of a statement: true when its request
  /// had gone out and its reply was not read, so the server may have applied
  /// it; false when none of the call took effect (nothing was in flight, or a
  /// split add() whose transaction never got to COMMIT). Always false for
  /// other kinds of error. See README "What happens when the connection fails".
  bool mayHaveBeenApplied() const noexcept { return m_maybe_applied; }
  /// An add() that failed after the connector made ids for documents without
  /// `_id`: those ids in document order, as Result::getGeneratedIds() would
  /// have given them. Adding the same documents again with these ids is safe:
  /// any that were stored fail with server error 5116. Empty otherwise.
  const std::vector<std::string>& getGeneratedIds() const noexcept;

private:
  friend struct detail::access;
  std::uint32_t m_code = 0;
  char m_sql_state[6] = "HY000"; // fixed size: copying an Error never allocates
  Kind m_kind = Kind::CLIENT;
  bool m_fatal = false;
  bool m_maybe_applied = false;
  std::shared_ptr<const std::vector<std::string>> m_ids; // shared: copies never allocate
};

/// An error reported by the server. Retrying can help only for transient
/// codes (deadlock 1213, lock wait timeout 1205); the code tells.
class MYSQLX_EXPORT ServerError : public Error {
public:
  /// Kind::SERVER; `fatal` when the server sent the error with severity FATAL.
  ServerError(std::uint32_t code, const std::string& sql_state, const std::string& message,
              bool fatal = false);
};

/// A connection failure: connect, TLS, a lost or broken connection. The
/// session is unusable; retrying with a new session may help.
class MYSQLX_EXPORT ConnectionError : public Error {
public:
  /// Kind::CONNECTION; always fatal (isFatal() is true).
  ConnectionError(std::uint32_t code, const std::string& message,
                  const std::string& sql_state = "HY000");
};

/// An error detected by the connector before or without the server: a bad
/// option, document, value conversion or API use. Retrying will not help.
class MYSQLX_EXPORT ClientError : public Error {
public:
  /// Kind::CLIENT; the connector uses the codes in errc.
  ClientError(std::uint32_t code, const std::string& message,
              const std::string& sql_state = "HY000", bool fatal = false);
};

/// Prints `what()`, as `std::cout << err` does with Connector/C++ 8.
MYSQLX_EXPORT std::ostream& operator<<(std::ostream& out, const Error& err);

/// Throws `Error(msg)`: a client error with code 0, as Connector/C++ 8's
/// `mysqlx::throw_error()` does for programs that report their own errors.
[[noreturn]] MYSQLX_EXPORT void throw_error(const char* msg);

/// What a missing DbDoc field or array element throws, named in `mysqlx` as
/// Connector/C++ 8 names it (`catch (const mysqlx::out_of_range&)`).
using std::out_of_range;

/// Codes of client and connection errors. Server errors carry the server's
/// own numbers (e.g. 5116: duplicate `_id`; 1062: duplicate key).
namespace errc {
inline constexpr std::uint32_t UNKNOWN = 2000;          ///< CR_UNKNOWN_ERROR
inline constexpr std::uint32_t CONNECTION_ERROR = 2002; ///< CR_CONNECTION_ERROR (socket)
inline constexpr std::uint32_t CONN_HOST_ERROR = 2003;  ///< CR_CONN_HOST_ERROR
inline constexpr std::uint32_t UNKNOWN_HOST = 2005;     ///< CR_UNKNOWN_HOST
inline constexpr std::uint32_t SERVER_GONE = 2006;      ///< CR_SERVER_GONE_ERROR
inline constexpr std::uint32_t LOST_CONNECTION = 2013;  ///< CR_SERVER_LOST
inline constexpr std::uint32_t SSL_CONNECTION = 2026;   ///< CR_SSL_CONNECTION_ERROR
inline constexpr std::uint32_t MALFORMED_PACKET = 2027; ///< CR_MALFORMED_PACKET
/// CR_AUTH_PLUGIN_CANNOT_LOAD; also auth=EXTERNAL, which the X Plugin lacks
inline constexpr std::uint32_t AUTH_PLUGIN = 2059;
inline constexpr std::uint32_t BAD_OPTION = 4001;        ///< a bad URI or option value
inline constexpr std::uint32_t BAD_DOCUMENT = 4002;      ///< not a JSON object, invalid JSON
inline constexpr std::uint32_t DOCID_UNSUPPORTED = 4003; ///< docid-mode=server, server can't
inline constexpr std::uint32_t USAGE = 4004;             ///< API misuse, Value conversions
inline constexpr std::uint32_t PARSE = 4005;             ///< expression or URI syntax
/// compression=required on a server that offers none of the algorithms
/// allowed (MySQL 5.7) or with a compression-algorithms list that names none
/// this connector knows, or a compressed payload that does not decode
inline constexpr std::uint32_t COMPRESSION = 4006;
inline constexpr std::uint32_t TIMEOUT = 4007; ///< connect or read timeout
/// the server stopped answering at the TCP level (a cut network, a dead
/// host) for `dead-peer-timeout`: a ConnectionError
inline constexpr std::uint32_t DEAD_PEER = 4008;
} // namespace errc

MYSQLX_NAMESPACE_END
