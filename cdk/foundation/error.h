// The one error value of the core. cdk reports errors as values (cdk::error,
// or cdk::result<T>); devapi turns them into mysqlx::Error in one place.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace cdk {

// Where an error came from. Callers branch on this, never on message text.
enum class error_origin : std::uint8_t {
  client,     // detected by the connector before or without the server
  server,     // a Mysqlx.Error frame from the server
  connection, // the transport failed: connect, TLS, EOF, a malformed frame
};

// Client-side codes reuse the numbers of libmysqlclient's CR_* codes where one
// fits, so that users who know MySQL recognise them.
namespace client_errc {
inline constexpr std::uint32_t unknown = 2000;           // CR_UNKNOWN_ERROR
inline constexpr std::uint32_t connection_error = 2002;  // CR_CONNECTION_ERROR (socket)
inline constexpr std::uint32_t conn_host_error = 2003;   // CR_CONN_HOST_ERROR
inline constexpr std::uint32_t unknown_host = 2005;      // CR_UNKNOWN_HOST
inline constexpr std::uint32_t server_gone = 2006;       // CR_SERVER_GONE_ERROR
inline constexpr std::uint32_t lost_connection = 2013;   // CR_SERVER_LOST
inline constexpr std::uint32_t packet_too_large = 2020;  // CR_NET_PACKET_TOO_LARGE
inline constexpr std::uint32_t ssl_connection = 2026;    // CR_SSL_CONNECTION_ERROR
inline constexpr std::uint32_t malformed_packet = 2027;  // CR_MALFORMED_PACKET
inline constexpr std::uint32_t auth_plugin = 2059;       // CR_AUTH_PLUGIN_CANNOT_LOAD
inline constexpr std::uint32_t bad_option = 4001;        // a bad URI / option value
inline constexpr std::uint32_t bad_document = 4002;      // add(): not a JSON object
inline constexpr std::uint32_t docid_unsupported = 4003; // docid-mode=server, server can't
inline constexpr std::uint32_t usage = 4004;             // API misuse
inline constexpr std::uint32_t parse = 4005;             // expression / URI syntax
inline constexpr std::uint32_t compression = 4006;       // bad compressed payload
inline constexpr std::uint32_t timeout = 4007;           // connect / read timeout
// The kernel gave up on a silent peer: no TCP acknowledgement of our data,
// or no keepalive reply, within dead-peer-timeout (connect_options).
inline constexpr std::uint32_t dead_peer = 4008;
} // namespace client_errc

struct error {
  std::uint32_t code = 0;
  std::string sql_state = "HY000";
  std::string message; // server text is kept verbatim; it may contain user data
  error_origin origin = error_origin::client;
  bool fatal = false; // the session can't continue (Mysqlx.Error severity FATAL, I/O errors)
  // The connection broke while a request was sent and its reply not fully
  // read: the server may have run it (false: nothing was in flight, so no
  // statement of this call took effect, or the error is not a broken link).
  bool maybe_applied = false;

  static error client(std::uint32_t code, std::string msg) {
    return error{code, "HY000", std::move(msg), error_origin::client, false};
  }
  static error connection(std::uint32_t code, std::string msg) {
    return error{code, "HY000", std::move(msg), error_origin::connection, true};
  }
};

// A value or an error. Small on purpose: C++17 has no std::expected.
template <typename T> class result {
public:
  // By reference, not by value: a big T (a protocol reply is five cache
  // lines) is moved once, straight into place, not twice (issue 13).
  result(T&& value) : m_v(std::in_place_index<0>, std::move(value)) {} // NOLINT: implicit by design
  result(const T& value) : m_v(std::in_place_index<0>, value) {}       // NOLINT: implicit by design
  result(error err) : m_v(std::in_place_index<1>, std::move(err)) {}   // NOLINT: implicit by design
  bool ok() const noexcept { return m_v.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }
  T& value() & { return std::get<0>(m_v); }
  const T& value() const& { return std::get<0>(m_v); }
  T&& value() && { return std::get<0>(std::move(m_v)); }
  const error& err() const& { return std::get<1>(m_v); }
  error&& err() && { return std::get<1>(std::move(m_v)); }

private:
  std::variant<T, error> m_v;
};

// For operations with nothing to return.
struct none {};
using status = result<none>;
inline status ok() {
  return none{};
}

} // namespace cdk
