// Runs generated SQL on a real MariaDB, for mariadb_test.cc. Those tests are
// registered only when MYSQLX_TEST_MARIADB_SOCKET names a server's Unix socket
// (user MYSQLX_TEST_MARIADB_USER, default root; password
// MYSQLX_TEST_MARIADB_PASSWORD, default none). Without it they do not exist,
// so they can't be counted as passed. They work in schema `sqlgen_test`,
// which they drop first and last.
#pragma once

#include <cstdlib>
#include <functional>
#include <gtest/gtest.h>
#include <memory>
#include <mysql.h>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sqlgen_test {

using row = std::vector<std::optional<std::string>>;

class mariadb {
public:
  // nullptr (with a message in *why) if the server can't be reached.
  static std::unique_ptr<mariadb> connect(std::string* why) {
    const char* socket = std::getenv("MYSQLX_TEST_MARIADB_SOCKET");
    const char* user = std::getenv("MYSQLX_TEST_MARIADB_USER");
    const char* password = std::getenv("MYSQLX_TEST_MARIADB_PASSWORD");
    auto db = std::unique_ptr<mariadb>(new mariadb()); // NOLINT: private constructor
    if (!db->m_conn || !mysql_real_connect(db->m_conn, nullptr, user ? user : "root", password,
                                           nullptr, 0, socket, CLIENT_MULTI_STATEMENTS)) {
      *why = db->m_conn ? mysql_error(db->m_conn) : "mysql_init failed";
      return nullptr;
    }
    return db;
  }
  mariadb(const mariadb&) = delete;
  mariadb& operator=(const mariadb&) = delete;
  ~mariadb() {
    if (m_conn) mysql_close(m_conn);
  }

  // Runs one statement (or several with ';'); returns the error text, or
  // nothing on success. Result sets are read and dropped.
  std::optional<std::string> exec(const std::string& sql) {
    if (mysql_real_query(m_conn, sql.data(), sql.size()) != 0) return error();
    do {
      if (MYSQL_RES* res = mysql_store_result(m_conn)) mysql_free_result(res);
    } while (mysql_next_result(m_conn) == 0);
    if (mysql_errno(m_conn) != 0) return error();
    return std::nullopt;
  }

  // The rows of one SELECT; an error fails the calling test.
  std::vector<row> query(const std::string& sql) {
    std::vector<row> rows;
    if (mysql_real_query(m_conn, sql.data(), sql.size()) != 0) {
      ADD_FAILURE() << "MariaDB refused: " << sql << "\n" << mysql_error(m_conn);
      return rows;
    }
    MYSQL_RES* res = mysql_store_result(m_conn);
    if (!res) return rows;
    const unsigned n = mysql_num_fields(res);
    while (MYSQL_ROW r = mysql_fetch_row(res)) {
      const unsigned long* len = mysql_fetch_lengths(res);
      row out;
      for (unsigned i = 0; i < n; ++i)
        out.push_back(r[i] ? std::optional<std::string>(std::string(r[i], len[i])) : std::nullopt);
      rows.push_back(std::move(out));
    }
    mysql_free_result(res);
    return rows;
  }

  unsigned warnings() { return mysql_warning_count(m_conn); }

private:
  mariadb() : m_conn(mysql_init(nullptr)) {}
  std::string error() { return std::to_string(mysql_errno(m_conn)) + ": " + mysql_error(m_conn); }
  MYSQL* m_conn;
};

// Registers body as test SqlgenMariadb.<name> if a server is configured.
inline bool register_mariadb_test(const char* name, std::function<void(mariadb&)> body) {
  if (!std::getenv("MYSQLX_TEST_MARIADB_SOCKET")) return false;
  struct test : testing::Test {
    explicit test(std::function<void(mariadb&)> b) : m_body(std::move(b)) {}
    void TestBody() override {
      std::string why;
      auto db = mariadb::connect(&why);
      ASSERT_TRUE(db) << "cannot connect to MariaDB: " << why;
      m_body(*db);
    }
    std::function<void(mariadb&)> m_body;
  };
  testing::RegisterTest("SqlgenMariadb", name, nullptr, nullptr, __FILE__, __LINE__,
                        [body = std::move(body)]() -> testing::Test* {
                          return std::make_unique<test>(body).release(); // gtest owns it
                        });
  return true;
}

} // namespace sqlgen_test
