#include "test/xserver/mariadb.h"

#include <mysql.h>

namespace xserver {

void mysql_closer::operator()(MYSQL* m) const noexcept {
  mysql_close(m);
}

std::optional<mariadb_conn> mariadb_conn::connect(const std::string& socket,
                                                  const std::string& user, x_error& err,
                                                  const connect_attrs* attrs) {
  MYSQL* m = mysql_init(nullptr);
  if (!m) {
    err = make_error(errc::internal_error, "mysql_init failed");
    return std::nullopt;
  }
  mariadb_conn conn(m);
  mysql_optionsv(m, MYSQL_SET_CHARSET_NAME, "utf8mb4");
  unsigned int proto = MYSQL_PROTOCOL_SOCKET;
  mysql_optionsv(m, MYSQL_OPT_PROTOCOL, &proto);
  // CLIENT_MULTI_RESULTS: CALL may return several result sets. Not
  // MULTI_STATEMENTS: one StmtExecute is one statement, as with MySQL.
  if (!mysql_real_connect(m, nullptr, user.c_str(), nullptr, nullptr, 0, socket.c_str(),
                          CLIENT_MULTI_RESULTS)) {
    err = conn.last_error();
    return std::nullopt;
  }
  if (attrs) {
    // mysql_real_connect() always replaces _client_name, _os, _pid, ... with
    // libmariadb's own; COM_CHANGE_USER sends the attributes as they are,
    // and MariaDB takes them as the session's.
    mysql_optionsv(m, MYSQL_OPT_CONNECT_ATTR_RESET, nullptr);
    for (const auto& [name, value] : *attrs)
      mysql_optionsv(m, MYSQL_OPT_CONNECT_ATTR_ADD, name.c_str(), value.c_str());
    if (mysql_change_user(m, user.c_str(), nullptr, nullptr) != 0) {
      // A Galera member outside the Primary component refuses
      // COM_CHANGE_USER (1047) while it still runs SET, SHOW and the like.
      // MySQL's X Plugin logs a client in there, so the session goes on
      // without the attributes in MariaDB's performance_schema; xserverd's
      // registry still shows them (connect_attrs_table.h).
      if (mysql_errno(m) == errc::unknown_com_error) return connect(socket, user, err, nullptr);
      err = conn.last_error();
      return std::nullopt;
    }
  }
  if (!conn.raw_results()) {
    err = conn.last_error();
    return std::nullopt;
  }
  return conn;
}

// MySQL's X Plugin gets every column's text in the column's own character
// set, with the column's own length (Protocol_callback passes Send_field and
// the value through unconverted), and converts only the bytes itself
// (row_encoder.h). MariaDB would convert to utf8mb4 and report the converted
// length (VARCHAR(10) latin2: 40 instead of 10), so the connection asks for
// no conversion. The handshake (utf8mb4) and COM_CHANGE_USER set
// character_set_results again, COM_RESET_CONNECTION resets it: each is
// followed by this.
bool mariadb_conn::raw_results() {
  static constexpr std::string_view set = "SET character_set_results = NULL";
  return mysql_real_query(m_mysql.get(), set.data(), set.size()) == 0;
}

x_error mariadb_conn::last_error() const {
  x_error e;
  e.code = mysql_errno(m_mysql.get());
  e.message = mysql_error(m_mysql.get());
  e.sql_state = mysql_sqlstate(m_mysql.get());
  return e;
}

bool mariadb_conn::gone() const {
  const unsigned code = mysql_errno(m_mysql.get());
  return code == errc::mariadb_connection_killed || code == errc::mariadb_server_gone ||
         code == errc::mariadb_server_lost;
}

bool mariadb_conn::exec(std::string_view sql, x_error* err) {
  if (mysql_real_query(m_mysql.get(), sql.data(), sql.size()) != 0) {
    if (err) *err = last_error();
    return false;
  }
  do {
    if (MYSQL_RES* res = mysql_store_result(m_mysql.get())) mysql_free_result(res);
  } while (mysql_next_result(m_mysql.get()) == 0);
  return true;
}

std::optional<std::vector<std::vector<std::optional<std::string>>>>
mariadb_conn::select(std::string_view sql, x_error* err) {
  if (mysql_real_query(m_mysql.get(), sql.data(), sql.size()) != 0) {
    if (err) *err = last_error();
    return std::nullopt;
  }
  std::vector<std::vector<std::optional<std::string>>> rows;
  MYSQL_RES* res = mysql_store_result(m_mysql.get());
  if (res) {
    const unsigned n = mysql_num_fields(res);
    while (MYSQL_ROW row = mysql_fetch_row(res)) {
      unsigned long* lens = mysql_fetch_lengths(res);
      auto& out = rows.emplace_back();
      for (unsigned i = 0; i < n; ++i) {
        if (row[i])
          out.emplace_back(std::string(row[i], lens[i]));
        else
          out.emplace_back(std::nullopt);
      }
    }
    mysql_free_result(res);
  }
  while (mysql_next_result(m_mysql.get()) == 0) {
    if (MYSQL_RES* more = mysql_store_result(m_mysql.get())) mysql_free_result(more);
  }
  return rows;
}

std::string mariadb_conn::quote(std::string_view text) const {
  std::string out(text.size() * 2 + 3, '\0');
  out[0] = '\'';
  unsigned long n =
      mysql_real_escape_string(m_mysql.get(), out.data() + 1, text.data(), text.size());
  out[n + 1] = '\'';
  out.resize(n + 2);
  return out;
}

bool mariadb_conn::reset() {
  return mysql_reset_connection(m_mysql.get()) == 0 && raw_results();
}

std::uint64_t mariadb_conn::thread_id() const {
  return mysql_thread_id(m_mysql.get());
}

std::string quote_identifier(std::string_view name) {
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out += '`';
    out += c;
  }
  out += '`';
  return out;
}

} // namespace xserver
