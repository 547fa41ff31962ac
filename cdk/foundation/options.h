// Connection options shared by the URI parser (cdk/parser), the session
// handshake (cdk/session) and the DevAPI settings. Plain aggregates: each
// field's comment gives its default and what an empty value means.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cdk {

enum class ssl_mode : std::uint8_t { disabled, required, verify_ca, verify_identity };

struct tls_options {
  ssl_mode mode = ssl_mode::required;    // TLS is on by default, as in MySQL 8
  std::string ca, capath, crl, crlpath;  // empty: not set
  std::vector<std::string> versions;     // "TLSv1.2", "TLSv1.3"; empty: both
  std::vector<std::string> ciphersuites; // OpenSSL names; empty: OpenSSL's defaults
  // The list was given: then an empty one (nothing usable was named) fails
  // to connect over TLS instead of meaning the defaults (tls_client.cc).
  bool versions_given = false;
  bool ciphersuites_given = false;
  // ssl-mode was given, not defaulted: a mode other than disabled, given for
  // Unix sockets only, is an error (connection.cc), not silently unused.
  bool mode_given = false;
};

// external is Connector/C++ 8's EXTERNAL: accepted as an option, as there, and
// refused when a session is opened (check_connectable(), cdk/session).
enum class auth_method : std::uint8_t { auto_select, plain, mysql41, sha256_memory, external };
enum class compression_mode : std::uint8_t { disabled, preferred, required };
// Who makes document ids for add(): see README "Document ids".
enum class docid_mode : std::uint8_t { auto_select, server, client };

struct host_address {
  std::string host; // name, IPv4 or IPv6 (without brackets); empty with socket
  std::uint16_t port = 33060;
  std::string socket;          // Unix socket path; when set, host/port are unused
  std::optional<int> priority; // 0..100; all set or none set in a list
};

struct connect_options {
  std::vector<host_address> hosts; // tried in priority order (failover)
  bool dns_srv = false;            // mysqlx+srv://: hosts[0].host is an SRV name
  std::string user;
  std::string password; // never copied into an error message or a log
  std::string schema;   // default schema; empty: none
  tls_options tls;
  auth_method auth = auth_method::auto_select;
  // Bounds the TCP connect and each wait for the server during the handshake.
  std::chrono::milliseconds connect_timeout{10000}; // 0: wait forever
  // After the handshake: the longest wait for the server to send (read) or
  // to take our bytes (write). 0: wait forever. One that expires fails the
  // call with client_errc::timeout and closes the connection.
  std::chrono::milliseconds read_timeout{0};
  std::chrono::milliseconds write_timeout{0};
  // A TCP peer that stops answering (a partition, a host that died without
  // closing anything) fails the connection after about this long, whatever
  // the call waits for a reply: TCP keepalive, or, while our bytes go
  // unacknowledged, TCP_INFO (socket_stream::set_dead_peer_timeout). A server
  // that is alive but slow still answers TCP, so it is never taken for dead.
  // 0: off (Linux then gives up after ~15 min).
  std::chrono::milliseconds dead_peer_timeout{5000};
  bool send_connection_attributes = true;
  std::vector<std::pair<std::string, std::string>> connection_attributes; // user's own
  compression_mode compression = compression_mode::preferred;
  std::vector<std::string> compression_algorithms; // empty: every one we support
  // A compression-algorithms list was given and named no algorithm we know:
  // the names it held (quoted, comma-separated; empty for an empty list).
  // With compression REQUIRED the session is refused when it is opened
  // (check_connectable()); otherwise compression is off.
  std::optional<std::string> unknown_compression_algorithms;
  docid_mode docids = docid_mode::auto_select;
  // max-message-size: the largest message the server accepts (its
  // mysqlx_max_allowed_packet); add() splits Inserts above it. Without the
  // option this is only the fallback for a server that cannot tell.
  std::uint64_t max_message_size = 64ull << 20;
  // max-message-size was given: it overrides what the server says, and the
  // server is not asked (cdk/session/message_limit.h).
  bool max_message_size_given = false;
  // The largest frame accepted from the server: a bound on what a length
  // read off the network may allocate. Not tied to the above, since a server
  // that reads small messages may still send large rows and notices (one
  // id per document of a big add()).
  std::uint64_t max_incoming_size = 64ull << 20;
  // max-in-flight: at most this many requests sent with executeAsync() wait
  // for their replies; the next one first reads the oldest reply. Bounds
  // the memory of a program that sends without waiting.
  std::size_t max_in_flight = 100;
};

} // namespace cdk
