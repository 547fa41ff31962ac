// Session and client settings: what to connect to and how.
//
//   SessionSettings a("mysqlx://app@db:33060/shop?ssl-mode=verify_ca&ssl-ca=/etc/ca.pem");
//   SessionSettings b(SessionOption::HOST, "db", SessionOption::PORT, 33060,
//                     SessionOption::USER, "app", SessionOption::PWD, secret,
//                     SessionOption::SSL_MODE, SSLMode::REQUIRED,
//                     SessionOption::DOCID_MODE, DocIdMode::CLIENT);
//   ClientSettings c("mysqlx://app@db", ClientOption::POOL_MAX_SIZE, 10,
//                    ClientOption::POOL_QUEUE_TIMEOUT, std::chrono::seconds(5));
//
// Options are checked as they are set: an unknown option, a value of the
// wrong type or an inconsistent combination throws mysqlx::Error
// (errc::BAD_OPTION, or errc::PARSE for a malformed connection string), and
// the settings keep their previous state. No message quotes the password.
//
// HOST, PORT, SOCKET and PRIORITY may repeat: each HOST or SOCKET starts a new
// entry of the fail-over list, and PORT and PRIORITY apply to the entry before
// them. Any other option given again replaces its earlier value. With no HOST
// or SOCKET at all, the host is localhost.
//
// The option/value lists are kept for compatibility with Connector/C++ 8; the
// template part only turns each value into a Value, and everything else is
// done once, in the library.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <mysqlx/detail/duration.h>
#include <mysqlx/detail/export.h>
#include <mysqlx/detail/impl_ptr.h>
#include <mysqlx/value.h>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

MYSQLX_NAMESPACE_BEGIN

/// Session options. URI .. COMPRESSION keep Connector/C++ 8's numbers.
/// An option is given as `SessionOption::HOST` (an Enum); a SessionOption
/// object holds one, as iterating over settings gives them, and compares
/// with the Enum values and switches on them (it converts to int).
class SessionOption {
public:
  /// The option numbers, given in option/value pairs.
  enum Enum {
    URI = 1,                ///< a connection string; sets everything it names
    HOST,                   ///< host name, IPv4 or IPv6 address; starts a new fail-over entry
    PORT,                   ///< port of the HOST before it (default 33060)
    PRIORITY,               ///< 0..100, for the HOST/SOCKET before it (one must be); all or none
    USER,                   ///< user name
    PWD,                    ///< password; never appears in an error message
    DB,                     ///< default schema
    SSL_MODE,               ///< SSLMode (default REQUIRED)
    SSL_CA,                 ///< CA file; implies SSLMode::VERIFY_CA if SSL_MODE is not set
    AUTH,                   ///< AuthMethod
    SOCKET,                 ///< Unix socket path; starts a new fail-over entry
    CONNECT_TIMEOUT,        ///< milliseconds or a std::chrono duration; 0 waits forever
    CONNECTION_ATTRIBUTES,  ///< true/false, a DbDoc or JSON object of string values
    TLS_VERSIONS,           ///< "TLSv1.2,TLSv1.3" or a container; other names are dropped
    TLS_CIPHERSUITES,       ///< comma-separated names or a container; unknown ones dropped
    DNS_SRV,                ///< bool: HOST is a DNS SRV name (RFC 2782), no PORT/SOCKET
    COMPRESSION,            ///< CompressionMode (default PREFERRED)
    COMPRESSION_ALGORITHMS, ///< "zstd_stream,lz4_message,deflate_stream" or a container
    SSL_CAPATH,             ///< directory of CA certificates
    SSL_CRL,                ///< certificate revocation list file
    SSL_CRLPATH,            ///< directory of revocation lists
    DOCID_MODE,             ///< ours: DocIdMode, who generates document ids
    MAX_MESSAGE_SIZE,       ///< ours: largest message the server accepts (default: asked)
    READ_TIMEOUT,  ///< ours: ms or a duration to wait for the server's reply; 0 (default): forever
    WRITE_TIMEOUT, ///< ours: ms or a duration to wait for the server to take a request; 0: forever
    MAX_IN_FLIGHT, ///< ours: requests sent with executeAsync() not yet answered (default 100)
    /// ours: ms or a duration (default 5 s): a server silent at the TCP level
    /// that long (a partition, a dead host) fails the call with
    /// errc::DEAD_PEER; 0 turns it off (README "Clusters")
    DEAD_PEER_TIMEOUT,
    LAST ///< not an option: one past the last
  };
  /// `opt`; LAST by default.
  constexpr SessionOption(Enum opt = LAST) noexcept : m_opt(opt) {} // NOLINT: implicit by design
  /// The option number, for `switch`.
  constexpr operator int() const noexcept { return m_opt; } // NOLINT: implicit by design
  /// Whether this holds `opt`.
  constexpr bool operator==(Enum opt) const noexcept { return m_opt == opt; }
  /// Whether this does not hold `opt`.
  constexpr bool operator!=(Enum opt) const noexcept { return m_opt != opt; }
  /// Whether both hold the same option.
  constexpr bool operator==(const SessionOption& o) const noexcept { return m_opt == o.m_opt; }
  /// Whether they hold different options.
  constexpr bool operator!=(const SessionOption& o) const noexcept { return m_opt != o.m_opt; }

private:
  int m_opt;
};

/// Client (pool) options, accepted together with SessionOption values. A
/// ClientOption object holds a pool option or a session option, as iterating
/// over ClientSettings gives them.
class ClientOption {
public:
  /// The pool option numbers (negative: they never clash with SessionOption).
  enum Enum {
    POOLING = -1,            ///< bool, or 1/0 (default true)
    POOL_MAX_SIZE = -2,      ///< sessions in the pool, > 0 (default 25)
    POOL_QUEUE_TIMEOUT = -3, ///< ms or a duration to wait for a free session; 0: forever
    POOL_MAX_IDLE_TIME = -4, ///< ms or a duration before an idle session is closed; 0: never
  };
  /// A pool option.
  constexpr ClientOption(Enum opt) noexcept : m_opt(opt) {} // NOLINT: implicit by design
  /// A session option.
  constexpr ClientOption(SessionOption::Enum opt) noexcept : m_opt(opt) {} // NOLINT
  /// A session option.
  constexpr ClientOption(const SessionOption& opt) noexcept : m_opt(opt) {} // NOLINT
  /// SessionOption::LAST: no option.
  constexpr ClientOption() noexcept : m_opt(SessionOption::LAST) {}
  /// SessionOption::Enum, as Connector/C++ 8 names it here.
  using SessionEnum = SessionOption::Enum;
  /// The option number, for `switch` (pool options are negative).
  constexpr operator int() const noexcept { return m_opt; } // NOLINT: implicit by design
  /// Whether this holds `opt`.
  constexpr bool operator==(Enum opt) const noexcept { return m_opt == opt; }
  /// Whether this does not hold `opt`.
  constexpr bool operator!=(Enum opt) const noexcept { return m_opt != opt; }
  /// Whether this holds the session option `opt`.
  constexpr bool operator==(SessionOption::Enum opt) const noexcept { return m_opt == opt; }
  /// Whether this does not hold the session option `opt`.
  constexpr bool operator!=(SessionOption::Enum opt) const noexcept { return m_opt != opt; }
  /// Whether both hold the same option.
  constexpr bool operator==(const ClientOption& o) const noexcept { return m_opt == o.m_opt; }
  /// Whether they hold different options.
  constexpr bool operator!=(const ClientOption& o) const noexcept { return m_opt != o.m_opt; }

private:
  int m_opt;
};

/// REQUIRED: TLS without certificate checks; VERIFY_CA: the server's certificate
/// must chain to a trusted CA; VERIFY_IDENTITY: and name the host connected to.
enum class SSLMode { DISABLED = 1, REQUIRED, VERIFY_CA, VERIFY_IDENTITY };
/// EXTERNAL is taken when set, as Connector/C++ 8 takes it, and opening a
/// session with it fails (errc::AUTH_PLUGIN): the X Plugin has no EXTERNAL.
enum class AuthMethod { PLAIN = 1, MYSQL41, EXTERNAL, SHA256_MEMORY };
/// PREFERRED compresses when client and server share an algorithm; REQUIRED
/// fails session creation when they do not.
enum class CompressionMode { DISABLED = 1, PREFERRED, REQUIRED };
/// Who generates the `_id` of documents added without one. AUTO: the server
/// when it can (MySQL 8.0), else the connector; SERVER: fail at session
/// creation if the server cannot; CLIENT: always the connector.
enum class DocIdMode { AUTO, SERVER, CLIENT };

/// Names as used in connection strings ("verify_ca", "sha256_memory", ...).
MYSQLX_EXPORT const char* optionValueName(SSLMode mode) noexcept;
MYSQLX_EXPORT const char* optionValueName(AuthMethod method) noexcept;
MYSQLX_EXPORT const char* optionValueName(CompressionMode mode) noexcept;
MYSQLX_EXPORT const char* optionValueName(DocIdMode mode) noexcept;
/// Reads "auto", "server" or "client" (any case); throws on anything else.
MYSQLX_EXPORT DocIdMode parseDocIdMode(const std::string& text);
/// "HOST", "PORT", ...; an empty string for an unknown number.
MYSQLX_EXPORT std::string SessionOptionName(SessionOption opt);
/// "POOL_MAX_SIZE", ...; session options by their names too, as they come
/// in ClientSettings; an empty string for an unknown number.
MYSQLX_EXPORT std::string ClientOptionName(ClientOption opt);
/// ClientOptionName(), by Connector/C++ 8's other name for it.
inline std::string OptionName(ClientOption opt) {
  return ClientOptionName(opt);
}
/// The enumerator's name: "DISABLED", "VERIFY_CA", ...; "<UNKNOWN (n)>" for
/// a number that names none. (optionValueName() gives the connection-string spelling.)
MYSQLX_EXPORT std::string SSLModeName(SSLMode mode);
/// The same for AuthMethod: "PLAIN", "SHA256_MEMORY", ...
MYSQLX_EXPORT std::string AuthMethodName(AuthMethod method);
/// The same for CompressionMode: "DISABLED", "PREFERRED", "REQUIRED".
MYSQLX_EXPORT std::string CompressionModeName(CompressionMode mode);

/// The pool options of a ClientSettings, with their defaults.
struct PoolOptions {
  bool enabled = true;                        ///< false: each getSession() opens a new connection
  std::size_t max_size = 25;                  ///< never 0
  std::chrono::milliseconds queue_timeout{0}; ///< 0: wait forever for a free session
  std::chrono::milliseconds max_idle_time{0}; ///< 0: idle sessions never expire
};

namespace detail {

struct settings_impl; // devapi/settings_impl.h
using option_list = std::vector<std::pair<int, Value>>;

template <typename T, typename = void> struct is_duration : std::false_type {};
template <typename R, typename P>
struct is_duration<std::chrono::duration<R, P>> : std::true_type {};
template <typename T, typename = void> struct is_string_range : std::false_type {};
template <typename T>
struct is_string_range<T, std::void_t<decltype(std::declval<const T&>().begin()),
                                      decltype(std::declval<const T&>().end())>>
    : std::bool_constant<!std::is_convertible_v<const T&, Value>> {};

template <typename T> Value option_value(const T& v) {
  if constexpr (is_duration<T>::value) {
    // Clamped: a duration too long for milliseconds is refused by the
    // option's range check instead of wrapping around.
    return Value(saturating_duration_cast<std::chrono::milliseconds>(v).count());
  } else if constexpr (std::is_enum_v<T>) {
    // Its number, as Connector/C++ 8 keeps it (a connection string gives the name).
    return Value(static_cast<int>(v));
  } else if constexpr (std::is_same_v<T, const char*> || std::is_same_v<T, char*>) {
    return Value(string(v)); // null: "", as Connector/C++ 8 takes it

  } else if constexpr (is_string_range<T>::value) {
    return Value(v.begin(), v.end());
  } else {
    return Value(v);
  }
}

// The templates below take the list's type as a parameter (List, always
// option_list) so that it is a dependent type in their bodies: g++ would
// otherwise instantiate std::vector<std::pair<int, Value>> where they are
// defined, in every file that includes this header, rather than in those that
// set options or iterate over them.
template <typename List> void collect_options(List&) {}
template <typename List, typename Opt, typename V, typename... Rest>
void collect_options(List& out, Opt opt, const V& value, const Rest&... rest) {
  static_assert(std::is_same_v<Opt, SessionOption::Enum> ||
                    std::is_same_v<Opt, ClientOption::Enum> || std::is_same_v<Opt, SessionOption> ||
                    std::is_same_v<Opt, ClientOption>,
                "options come in pairs: SessionOption::X (or ClientOption::X), value, ...");
  out.emplace_back(static_cast<int>(opt), option_value(value));
  collect_options(out, rest...);
}
template <typename T>
inline constexpr bool is_text_v = std::is_convertible_v<const T&, std::string>;
/// What may come before a password written as NULL: a host name, or a port
/// number (integers, not bool; option enums are neither).
template <typename T>
inline constexpr bool is_host_or_port_v = is_text_v<T> ||
                                          (std::is_integral_v<T> && !std::is_same_v<T, bool>);

/// Iterates over the options of a SessionSettings (Opt: SessionOption) or a
/// ClientSettings (Opt: ClientOption) in the order they were set, as
/// (option, value) pairs. Changing the settings invalidates it.
template <typename Opt, typename List = option_list> class settings_iterator {
public:
  using iterator_category = std::forward_iterator_tag; ///< a forward iterator
  using value_type = std::pair<Opt, Value>;            ///< an option and its value
  using difference_type = std::ptrdiff_t;              ///< a distance between positions
  using pointer = const value_type*;                   ///< a pointer to the pair
  using reference = const value_type&;                 ///< the pair, by reference

  settings_iterator() = default;
  /// At `pos` of `list`.
  settings_iterator(const List* list, std::size_t pos) noexcept : m_list(list), m_pos(pos) {}
  /// The option and its value; valid until the iterator moves.
  reference operator*() const {
    const auto& entry = (*m_list)[m_pos];
    if constexpr (std::is_same_v<Opt, ClientOption>) {
      if (entry.first < 0) {
        m_current =
            value_type(ClientOption(static_cast<ClientOption::Enum>(entry.first)), entry.second);
        return m_current;
      }
    }
    m_current = value_type(Opt(static_cast<SessionOption::Enum>(entry.first)), entry.second);
    return m_current;
  }
  pointer operator->() const { return &**this; }
  settings_iterator& operator++() noexcept {
    ++m_pos;
    return *this;
  }
  settings_iterator operator++(int) noexcept {
    settings_iterator before = *this;
    ++m_pos;
    return before;
  }
  bool operator==(const settings_iterator& o) const noexcept { return m_pos == o.m_pos; }
  bool operator!=(const settings_iterator& o) const noexcept { return m_pos != o.m_pos; }

private:
  const List* m_list = nullptr;
  std::size_t m_pos = 0;
  mutable value_type m_current;
};

template <typename List = option_list, typename... Args> List make_options(const Args&... args) {
  static_assert(sizeof...(Args) % 2 == 0, "options come in pairs: OPTION, value, ...");
  List out;
  out.reserve(sizeof...(Args) / 2);
  collect_options(out, args...);
  return out;
}

} // namespace detail

/// What a Session connects to and how: a connection string or option/value pairs.
class MYSQLX_EXPORT SessionSettings {
public:
  SessionSettings();
  /// From a connection string:
  /// `[mysqlx://][user[:password]@]host[:port][/schema][?option=value&...]`,
  /// or a host list `[h1:p1,(address=h2,priority=90)]`, or `mysqlx+srv://`.
  SessionSettings(const std::string& uri); // NOLINT: implicit, as in Connector/C++
  /// The same; null is taken as an empty string.
  SessionSettings(const char* uri); // NOLINT
  /// HOST, PORT and USER; PWD unless `pwd` is null, DB unless `db` is empty.
  SessionSettings(const std::string& host, unsigned port, const std::string& user,
                  const char* pwd = nullptr, const std::string& db = {});
  /// The same; PWD is set even when empty.
  SessionSettings(const std::string& host, unsigned port, const std::string& user,
                  const std::string& pwd, const std::string& db = {});
  /// On port 33060.
  SessionSettings(const std::string& host, const std::string& user, const char* pwd = nullptr,
                  const std::string& db = {});
  /// On port 33060; PWD is set even when empty.
  SessionSettings(const std::string& host, const std::string& user, const std::string& pwd,
                  const std::string& db = {});
  /// On host localhost.
  SessionSettings(unsigned port, const std::string& user, const char* pwd = nullptr,
                  const std::string& db = {});
  /// On host localhost; PWD is set even when empty.
  SessionSettings(unsigned port, const std::string& user, const std::string& pwd,
                  const std::string& db = {});
  /// Host, port and user with a password written `NULL` (an integer, so
  /// the forms above do not take it): no password. A non-zero integer
  /// throws errc::BAD_OPTION.
  template <typename H, typename P, typename U, typename... D,
            std::enable_if_t<detail::is_text_v<H> && std::is_integral_v<P> &&
                                 !std::is_same_v<P, bool> && detail::is_text_v<U> &&
                                 sizeof...(D) <= 1 && (detail::is_text_v<D> && ...),
                             int> = 0>
  SessionSettings(const H& host, P port, const U& user, long pwd, const D&... db)
      : SessionSettings(std::string(host), static_cast<unsigned>(port), std::string(user),
                        null_password(pwd), std::string(db)...) {}
  /// The same on port 33060 (`host, user, NULL`) or on localhost (`port, user, NULL`).
  template <typename HP, typename U, typename... D,
            std::enable_if_t<detail::is_host_or_port_v<HP> && detail::is_text_v<U> &&
                                 sizeof...(D) <= 1 && (detail::is_text_v<D> && ...),
                             int> = 0>
  SessionSettings(const HP& host_or_port, const U& user, long pwd, const D&... db)
      : SessionSettings(host_or_port_arg(host_or_port), std::string(user), null_password(pwd),
                        std::string(db)...) {}
  /// Option/value pairs: `SessionSettings(SessionOption::HOST, "db", SessionOption::PORT, 33060)`.
  template <typename... R>
  SessionSettings(SessionOption::Enum opt, const R&... rest)
      : SessionSettings(detail::make_options(opt, rest...)) {}

  /// Copies the options.
  SessionSettings(const SessionSettings&);
  /// Takes the options; the source may then only be set(), assigned to or destroyed.
  SessionSettings(SessionSettings&&) noexcept;
  /// Replaces the options with a copy.
  SessionSettings& operator=(const SessionSettings&);
  /// Takes the options, as the move constructor does.
  SessionSettings& operator=(SessionSettings&&) noexcept;
  ~SessionSettings();

  /// Adds options; on an error nothing changes.
  template <typename... R> void set(SessionOption opt, const R&... rest) {
    do_set(detail::make_options(opt, rest...));
  }
  /// The value of an option (the last one for HOST, PORT, ...); null if unset.
  /// An enum option set as an enum reads as its number (`get<int>()`), as in
  /// Connector/C++ 8; set by name (a connection string), as that name.
  Value find(SessionOption opt) const;
  /// Whether the option is set (never URI: a connection string is stored as the options it names).
  bool has_option(SessionOption opt) const;
  /// Removes every value of the option; HOST or SOCKET removes the whole
  /// fail-over list (HOST, SOCKET, PORT and PRIORITY).
  void erase(SessionOption opt);
  /// Removes every option.
  void clear();

  /// Iterates over the options as (SessionOption, Value) pairs, in the order
  /// set; a connection string counts as the options it names. Enum options
  /// (SSL_MODE, AUTH, ...) read as their numbers when set as enums.
  using iterator = detail::settings_iterator<SessionOption>;
  /// The first option.
  iterator begin() const noexcept;
  /// One past the last option.
  iterator end() const noexcept;

private:
  explicit SessionSettings(detail::option_list&& options);
  const detail::option_list& options() const noexcept;
  void do_set(detail::option_list&& options);
  /// Null for 0; throws for any other number.
  static const char* null_password(long pwd);
  template <typename T> static auto host_or_port_arg(const T& v) {
    if constexpr (detail::is_text_v<T>) {
      return std::string(v);
    } else {
      return static_cast<unsigned>(v);
    }
  }
  detail::impl_ptr<detail::settings_impl> m_impl;
  friend struct detail::access;
};

/// What a Client connects to (session options) and its pool options (ClientOption).
class MYSQLX_EXPORT ClientSettings {
public:
  ClientSettings();
  /// Session options from a connection string; pool options at their defaults.
  ClientSettings(const std::string& uri); // NOLINT: implicit, as in Connector/C++
  /// The same; null is taken as an empty string.
  ClientSettings(const char* uri); // NOLINT
  /// These session options; pool options at their defaults.
  ClientSettings(const SessionSettings& session); // NOLINT: implicit, as in Connector/C++
  /// Session options from the URI, client options from `options`.
  ClientSettings(const std::string& uri, const ClientSettings& options);
  /// Client options as JSON: `{"pooling": {"enabled": true, "maxSize": 25,
  /// "queueTimeout": 1000, "maxIdleTime": 5000}}` (times in milliseconds).
  ClientSettings(const std::string& uri, const DbDoc& options);
  /// The same from JSON text (null: `{}`); invalid JSON or an unknown key throws.
  ClientSettings(const std::string& uri, const char* json_options);
  /// A connection string, then option/value pairs: `(uri, ClientOption::POOL_MAX_SIZE, 8)`.
  template <typename... R>
  ClientSettings(const std::string& uri, ClientOption::Enum opt, const R&... rest)
      : ClientSettings(uri) {
    set(opt, rest...);
  }
  /// Option/value pairs, client and session options in any order.
  template <typename... R>
  ClientSettings(ClientOption::Enum opt, const R&... rest)
      : ClientSettings(detail::make_options(opt, rest...)) {}
  /// Option/value pairs, client and session options in any order.
  template <typename... R>
  ClientSettings(SessionOption::Enum opt, const R&... rest)
      : ClientSettings(detail::make_options(opt, rest...)) {}

  /// Copies the options.
  ClientSettings(const ClientSettings&);
  /// Takes the options; the source may then only be set(), assigned to or destroyed.
  ClientSettings(ClientSettings&&) noexcept;
  /// Replaces the options with a copy.
  ClientSettings& operator=(const ClientSettings&);
  /// Takes the options, as the move constructor does.
  ClientSettings& operator=(ClientSettings&&) noexcept;
  ~ClientSettings();

  /// Adds client and session options, in any mix; on an error nothing changes.
  template <typename Opt, typename... R> void set(Opt opt, const R&... rest) {
    do_set(detail::make_options(opt, rest...));
  }
  /// The pool option as set; null if unset (poolOptions() fills in defaults);
  /// a session option as SessionSettings::find().
  Value find(ClientOption opt) const;
  /// Whether the pool option is set.
  bool has_option(ClientOption::Enum opt) const;
  /// As SessionSettings::has_option().
  bool has_option(SessionOption::Enum opt) const;
  /// Removes the pool option: back to its default; a session option as
  /// SessionSettings::erase().
  void erase(ClientOption opt);
  /// Removes every session and pool option.
  void clear();

  /// The pool options, defaults filled in.
  PoolOptions poolOptions() const;
  /// The session options alone.
  SessionSettings sessionSettings() const;

  /// Iterates over pool and session options as (ClientOption, Value) pairs,
  /// in the order set.
  using iterator = detail::settings_iterator<ClientOption>;
  /// The first option.
  iterator begin() const noexcept;
  /// One past the last option.
  iterator end() const noexcept;

private:
  explicit ClientSettings(detail::option_list&& options);
  const detail::option_list& options() const noexcept;
  void do_set(detail::option_list&& options);
  detail::impl_ptr<detail::settings_impl> m_impl;
  friend struct detail::access;
};

MYSQLX_NAMESPACE_END
