// RAII access to the MariaDB server xserverd runs on (libmariadb, over the
// Unix socket only).
#pragma once

#include "test/xserver/errors.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

typedef struct st_mysql MYSQL;
typedef struct ma_charset_info_st MARIADB_CHARSET_INFO;

namespace xserver {

// Connection attributes (name, value) in the order a client sent them.
using connect_attrs = std::vector<std::pair<std::string, std::string>>;

struct mysql_closer {
  void operator()(MYSQL* m) const noexcept;
};

class mariadb_conn {
public:
  // Connects as `user` (no password: xserverd's privileged local account)
  // to the socket; nullopt and err set on failure. With `attrs`, those are the
  // connection's attributes instead of libmariadb's own (_client_name, ...),
  // so performance_schema.session_connect_attrs shows the X client's.
  static std::optional<mariadb_conn> connect(const std::string& socket, const std::string& user,
                                             x_error& err, const connect_attrs* attrs = nullptr);

  MYSQL* handle() const { return m_mysql.get(); }
  // Runs a statement that returns no rows (or whose rows are discarded).
  bool exec(std::string_view sql, x_error* err = nullptr);
  // Runs a query and returns all rows as text (nullopt on error).
  std::optional<std::vector<std::vector<std::optional<std::string>>>>
  select(std::string_view sql, x_error* err = nullptr);
  x_error last_error() const; // MariaDB's code, SQLSTATE and text
  // Whether the last statement found this session gone (killed, or the
  // MariaDB server lost): nothing more can run on it.
  bool gone() const;
  std::string quote(std::string_view text) const; // 'text', escaped for this connection
  std::uint64_t thread_id() const;
  bool reset(); // COM_RESET_CONNECTION: session variables, temporary tables, locks

private:
  explicit mariadb_conn(MYSQL* m) : m_mysql(m) {}
  // character_set_results = NULL: results in each column's own charset.
  bool raw_results();
  std::unique_ptr<MYSQL, mysql_closer> m_mysql;
};

std::string quote_identifier(std::string_view name); // `name`, backticks doubled

} // namespace xserver
