// Configuration and the state shared by all sessions of one xserverd.
#pragma once

#include "cdk/foundation/tls_server.h"
#include "test/xserver/docid_generator.h"
#include "test/xserver/xvars.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace xserver {

struct server_config {
  std::uint16_t port = 0;
  std::string bind_address = "127.0.0.1";
  // As mysqld's default bind address '*' answers both loopbacks: the IPv6
  // one on the same port ("" leaves it out, --bind6 "").
  std::string bind_address6 = "::1";
  std::string mariadb_socket;
  // --socket: also listen on this Unix socket, as mysqlx_socket does ("" none).
  std::string unix_socket;
  std::string mariadb_user = "root"; // xserverd's own (privileged) account
  std::string state_dir;             // persisted variables, start timestamps
  bool emulate_57 = false;
  std::optional<std::uint32_t> unique_prefix; // --unique-prefix
  std::string tls_cert, tls_key;              // empty: no TLS
  // --max-message-size: the start value of mysqlx_max_allowed_packet
  // (else its default: 64 MiB, 1 MiB in 5.7 mode).
  std::optional<std::uint64_t> max_message_size;
  // For our own tests: the compression algorithms offered at start (bits of
  // mysqlx_compression_algorithms: 1 deflate, 2 lz4, 4 zstd), and a style
  // forced on every client whatever its capability asks ("" = MySQL's rule).
  std::optional<std::uint32_t> compression_algorithms;
  std::string compression_style;
  std::string pid_file;
};

// Parses argv; on error returns nullopt and sets err.
std::optional<server_config> parse_args(int argc, char** argv, std::string& err);

// An authenticated session, as list_clients shows it.
struct client_entry {
  std::uint64_t id = 0;
  std::string user, host;
  std::uint64_t sql_session = 0; // the MariaDB connection id
  int fd = -1;                   // the client socket, for kill_client
  // Its session_connect_attrs, which performance_schema's tables show
  // (connect_attrs_table.h).
  std::vector<std::pair<std::string, std::string>> attrs;
};

// The compression variables at one moment (mysqlx_compression_algorithms and
// the level variables), for a session that starts compressing.
struct compression_settings {
  bool deflate = true, lz4 = true, zstd = true; // mysqlx_compression_algorithms
  int deflate_default = 3, lz4_default = 2, zstd_default = 3;
  int deflate_max = 5, lz4_max = 8, zstd_max = 11; // ..._max_client_compression_level
};

// Why a connection ended, for the counters MySQL keeps
// (ngs::Client::update_counters).
enum class close_reason { normal, read_timeout, write_timeout, connect_timeout };

// How SET stores a value: SET GLOBAL changes the running value; SET PERSIST
// also writes it to the state directory, where the next start reads it (it
// then wins over the command line, as persisted variables do in MySQL);
// SET PERSIST_ONLY only writes it.
enum class xvar_store { running, persist, persist_only };

class server_state {
public:
  // Reads persisted variables and picks a start timestamp that is later than
  // any earlier run's, so ids keep increasing across fast restarts too.
  explicit server_state(server_config cfg);

  const server_config& config() const { return m_cfg; }
  docid_generator& generator() { return m_generator; }
  const cdk::tls_server_context* tls() const { return m_tls ? &*m_tls : nullptr; }
  void set_tls(cdk::tls_server_context ctx) { m_tls = std::move(ctx); }

  std::uint16_t unique_prefix() const {
    return static_cast<std::uint16_t>(xvar(xvar_id::document_id_unique_prefix));
  }
  compression_settings compression() const; // a consistent snapshot

  // The X Plugin's system variables (xvars.h); values already checked.
  long long xvar(xvar_id id) const;
  xvar_values xvars() const;
  bool set_xvar(xvar_id id, long long value, xvar_store how, std::string& err);

  std::uint64_t next_client_id() { return m_next_client_id++; }

  // Bumped after any request that ran SQL of the client's own (a
  // StmtExecute, a prepared one's Execute or cursor; Session.Reset): what a
  // session caches of MariaDB's state (a collection's validation options,
  // its auto_increment pair) is good while this has not moved since it was
  // read. Read before the cached SELECT, bumped after the SQL ran.
  std::uint64_t sql_generation() const { return m_sql_generation.load(std::memory_order_acquire); }
  void sql_ran() { m_sql_generation.fetch_add(1, std::memory_order_acq_rel); }

  // A new connection is served only while fewer than mysqlx_max_connections
  // are open (Server::will_accept_client); false: refused and counted.
  bool admit_connection();
  void connection_ended(close_reason why);
  connection_counters counters() const;

  void register_client(const client_entry& c);
  void unregister_client(std::uint64_t id);
  std::vector<client_entry> clients() const;
  // Shuts the client's socket down (its session thread then ends); false if
  // no such client.
  bool kill_client(std::uint64_t id, std::uint64_t& sql_session);

  // SHA256_MEMORY cache: account ("user@host") -> SHA256(SHA256(password)),
  // filled by a successful PLAIN login. The password itself is never stored.
  // `stored_hash` is the account's MariaDB hash then: an entry whose account
  // is gone or has another hash is stale (forget_stale_sha256).
  void cache_sha256(const std::string& account, const std::array<unsigned char, 32>& h2,
                    const std::string& stored_hash);
  std::optional<std::array<unsigned char, 32>> cached_sha256(const std::string& account) const;
  // Drops the entries for which current(account) is not their stored hash
  // (nullopt: no such account any more).
  void forget_stale_sha256(
      const std::function<std::optional<std::string>(const std::string& account)>& current);
  void clear_sha256();

private:
  std::string state_file(std::string_view name) const;
  void set_value(xvar_id id, long long v);
  server_config m_cfg;
  docid_generator m_generator;
  std::optional<cdk::tls_server_context> m_tls;
  mutable std::mutex m_xvars_mutex;
  xvar_values m_xvars;
  std::atomic<std::uint64_t> m_next_client_id{1};
  std::atomic<std::uint64_t> m_sql_generation{0};
  mutable std::mutex m_connections_mutex;
  std::size_t m_open_connections = 0;
  connection_counters m_counters;
  mutable std::mutex m_clients_mutex;
  std::map<std::uint64_t, client_entry> m_clients;
  mutable std::mutex m_cache_mutex;
  struct sha256_entry {
    std::array<unsigned char, 32> h2;
    std::string stored_hash;
  };
  std::map<std::string, sha256_entry> m_sha256_cache;
};

} // namespace xserver
