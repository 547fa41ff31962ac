// Authentication against the MariaDB accounts (facts section 7.4).
//
// Deviation, on purpose: once a user is authenticated, its MariaDB session
// runs under xserverd's own privileged account. MYSQL41 and SHA256_MEMORY
// never reveal the password, and MariaDB cannot open a session for an account
// from a password hash, so the session cannot log in to MariaDB as the user.
// Privilege checks of the X user are therefore not enforced (README.md).
#include "mysqlx_session.pb.h"
#include "test/xserver/auth_math.h"
#include "test/xserver/session.h"

namespace xserver {

namespace {

// MySQL-style host pattern match (% and _ wildcards).
bool host_matches(std::string_view pattern, std::string_view host) {
  if (pattern.empty()) return host.empty();
  if (pattern[0] == '%') {
    for (std::size_t i = 0; i <= host.size(); ++i)
      if (host_matches(pattern.substr(1), host.substr(i))) return true;
    return false;
  }
  if (host.empty()) return false;
  if (pattern[0] != '_' && pattern[0] != host[0]) return false;
  return host_matches(pattern.substr(1), host.substr(1));
}

struct account {
  std::string host, hash, plugin;
  // The plugin a MySQL statement named (account_stmt.h), else MariaDB's.
  std::string mysql_plugin;
};

// The most specific account entry for user@host: an exact host beats a
// pattern, as in MySQL's ordering of the user table.
std::optional<account> find_account(mariadb_conn& db, const std::string& user,
                                    const std::string& host) {
  const std::string sql = "SELECT u.Host, u.authentication_string, u.plugin,"
                          " JSON_VALUE(g.Priv, '$.xserverd_mysql_plugin') FROM mysql.user u"
                          " LEFT JOIN mysql.global_priv g ON g.User = u.User AND g.Host = u.Host"
                          " WHERE u.User=" +
                          db.quote(user);
  x_error err;
  auto rows = db.select(sql, &err);
  if (!rows && err.code == errc::unknown_com_error) {
    // A Galera member outside the Primary component refuses to read tables
    // (1047). MySQL checks accounts in its in-memory ACL cache, so the X
    // Plugin lets a client log in there and only its statements fail: the
    // lookup reads dirty, then the session gets the server's default back
    // (SET STATEMENT wsrep_dirty_reads=ON FOR ... is refused as well).
    if (db.exec("SET SESSION wsrep_dirty_reads = ON")) {
      rows = db.select(sql);
      if (!db.exec("SET SESSION wsrep_dirty_reads = DEFAULT")) return std::nullopt;
    }
  }
  if (!rows) return std::nullopt;
  std::optional<account> best;
  int best_rank = -1;
  for (const auto& r : *rows) {
    const std::string h = r[0].value_or("");
    int rank = -1;
    if (h == host || (host == "localhost" && h == "127.0.0.1"))
      rank = 2;
    else if (host_matches(h, host))
      rank = h == "%" ? 0 : 1;
    if (rank > best_rank) {
      best_rank = rank;
      best = account{h, r[1].value_or(""), r[2].value_or(""), r[3].value_or("")};
      if (best->mysql_plugin.empty())
        best->mysql_plugin = best->plugin.empty() ? "mysql_native_password" : best->plugin;
    }
  }
  return best;
}

bool same_hash(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::toupper(static_cast<unsigned char>(a[i])) !=
        std::toupper(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

} // namespace

void session::on_auth_start(const std::string& payload) {
  Mysqlx::Session::AuthenticateStart msg;
  if (!msg.ParseFromString(payload))
    return fatal(make_error(errc::x_bad_message, "Invalid message"));
  const std::string& mech = msg.mech_name();
  m_auth_started = true;
  // PLAIN sends the password itself: only over TLS (xserverd has no Unix
  // socket listener). 5.7 had no SHA256_MEMORY.
  const bool allowed = mech == "MYSQL41" || (mech == "PLAIN" && secure()) ||
                       (mech == "SHA256_MEMORY" && !emulate_57());
  if (!allowed)
    return fatal(
        make_error(errc::not_supported_auth_mode, "Invalid authentication method " + mech));
  m_auth_mech = mech;
  if (mech == "PLAIN") return verify_credentials(msg.auth_data());
  m_nonce = auth::make_nonce();
  Mysqlx::Session::AuthenticateContinue cont;
  cont.set_auth_data(m_nonce);
  m_out.add(server_msg::sess_authenticate_continue, cont);
}

void session::on_auth_continue(const std::string& payload) {
  Mysqlx::Session::AuthenticateContinue msg;
  if (!msg.ParseFromString(payload))
    return fatal(make_error(errc::x_bad_message, "Invalid message"));
  verify_credentials(msg.auth_data());
}

void session::verify_credentials(const std::string& auth_data) {
  const std::string mech = m_auth_mech;
  m_auth_mech.clear();
  auto cred = auth::split_auth_data(auth_data);
  if (!cred) return auth_failed("", false);
  const bool used_password = !cred->secret.empty() && cred->secret != std::string(1, '\0');

  x_error err;
  // The client's session_connect_attrs become the MariaDB connection's, as
  // the X Plugin hands them to performance_schema for its session.
  auto db = mariadb_conn::connect(m_state.config().mariadb_socket, m_state.config().mariadb_user,
                                  err, &m_connect_attrs);
  if (!db) return fatal(err);
  const std::string& host = m_peer_host;
  auto acct = find_account(*db, cred->user, host);
  bool ok = false;
  // MariaDB holds a mysql_native_password hash for every account xserverd
  // can check, also for those MySQL would hold as caching_sha2_password or
  // sha256_password (account_stmt.h). As the X Plugin: PLAIN checks the
  // password for all three and fills the SHA256_MEMORY cache, MYSQL41 only
  // works for mysql_native_password accounts (auth_mysql41.cc uses the
  // native verificator alone), SHA256_MEMORY only from the cache.
  const bool checkable =
      acct && (acct->plugin == "mysql_native_password" || acct->plugin.empty()) &&
      (acct->mysql_plugin == "mysql_native_password" ||
       acct->mysql_plugin == "caching_sha2_password" || acct->mysql_plugin == "sha256_password");
  if (checkable) {
    const std::string key = cred->user + "@" + acct->host;
    if (mech == "PLAIN") {
      ok = same_hash(auth::native_password_hash(cred->secret), acct->hash);
      if (ok) m_state.cache_sha256(key, auth::sha256_stage2(cred->secret), acct->hash);
    } else if (mech == "MYSQL41") {
      ok = acct->mysql_plugin == "mysql_native_password" &&
           auth::verify_mysql41(acct->hash, m_nonce, cred->secret);
    } else if (auto cached = m_state.cached_sha256(key)) {
      ok = auth::verify_sha256_memory(*cached, m_nonce, cred->secret);
    }
  }
  if (!ok) return auth_failed(cred->user, used_password);
  if (!cred->schema.empty() && !db->exec("USE " + quote_identifier(cred->schema), &err)) {
    ++m_failed_auths;
    return m_out.error(err); // e.g. 1049 Unknown database: forwarded as MySQL does
  }
  m_db = std::move(db);
  m_authenticated = true;
  m_user = cred->user;
  m_failed_auths = 0;
  m_client_id = m_state.next_client_id();
  m_after_reset = false;
  m_state.register_client(client_entry{m_client_id, m_user, m_peer_host, m_db->thread_id(),
                                       m_io->native_handle(), m_connect_attrs});
  m_out.notice_uint(state_param::client_id_assigned, m_client_id);
  // Compression starts here, before AuthenticateOk (which, like the
  // CLIENT_ID_ASSIGNED notice, is never compressed).
  start_compression();
  m_out.add_empty(server_msg::sess_authenticate_ok);
}

void session::auth_failed(const std::string& user, bool used_password) {
  x_error e = make_error(errc::access_denied,
                         "Access denied for user '" + user + "'@'" + m_peer_host +
                             "' (using password: " + (used_password ? "YES" : "NO") + ")");
  // A client may start over after a failure; after three it is disconnected.
  if (++m_failed_auths >= 3) return fatal(e);
  m_out.error(e);
}

} // namespace xserver
