// Runs generated SQL on a real MariaDB, for on_mariadb.cc: the server's Unix
// socket is MYSQLX_TEST_MARIADB_SOCKET (user MYSQLX_TEST_MARIADB_USER, default
// root; password MYSQLX_TEST_MARIADB_PASSWORD, default none). The tests work
// in schema `sqlgen_test`, which they drop first and last.
#pragma once

#include "test/unit/sqlgen/builders.h"

#include <cstdlib>
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

// Connects in SetUp; a missing or unreachable server fails the test (the
// ctest entries exist only when a server was configured, see CMakeLists.txt).
class SqlgenMariadb : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_NE(std::getenv("MYSQLX_TEST_MARIADB_SOCKET"), nullptr)
        << "set MYSQLX_TEST_MARIADB_SOCKET to a MariaDB server's Unix socket";
    std::string why;
    m_db = mariadb::connect(&why);
    ASSERT_TRUE(m_db) << "cannot connect to MariaDB: " << why;
  }
  mariadb& db() { return *m_db; }

private:
  std::unique_ptr<mariadb> m_db;
};

inline // Documents with numbers, a numeric string, booleans, null and a missing
       // field, so that MySQL's JSON type rules show.
    void
    load(mariadb& db) {
  const auto err =
      db.exec("DROP SCHEMA IF EXISTS sqlgen_test; CREATE SCHEMA sqlgen_test;"
              "CREATE TABLE sqlgen_test.c (doc JSON, _id VARBINARY(32) NOT NULL PRIMARY KEY,"
              " CHECK (_id = JSON_UNQUOTE(JSON_EXTRACT(doc,'$._id'))));"
              "INSERT INTO sqlgen_test.c (_id, doc) VALUES"
              " ('1','{\"_id\":\"1\",\"name\":\"Bob\",\"age\":20,\"n\":10,\"tags\":[\"a\",\"b\"],"
              "\"flag\":true}'),"
              " ('2','{\"_id\":\"2\",\"name\":\"alice\",\"age\":9,\"n\":10,\"tags\":[\"c\"],"
              "\"flag\":false}'),"
              " ('3','{\"_id\":\"3\",\"name\":\"Carl\",\"age\":\"30\",\"tags\":[]}'),"
              " ('4','{\"_id\":\"4\",\"name\":\"Dan\",\"age\":20.5,\"nul\":null,"
              "\"o\":{\"x\":1,\"y\":2}}'),"
              " ('5','{\"_id\":\"5\",\"name\":\"eve\"}');"
              "CREATE TABLE sqlgen_test.t (a INT, b VARCHAR(10), j JSON)");
  ASSERT_FALSE(err) << *err;
}

inline Mysqlx::Crud::Find find_in_c() {
  Mysqlx::Crud::Find f;
  *f.mutable_collection() = collection("c", "sqlgen_test");
  return f;
}

} // namespace sqlgen_test
