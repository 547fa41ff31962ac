// What the server holds of a session's prepared statements, read through a
// second session: performance_schema.prepared_statements_instances, where
// xserverd (like MySQL's X Plugin) puts every prepared statement.
#pragma once

#include <chrono>
#include <cstdint>
#include <mysqlx/xdevapi.h>
#include <string>
#include <thread>
#include <vector>

namespace devapi_it {

// The MariaDB (MySQL) connection id of s: its statements' owner.
inline std::int64_t connection_id(mysqlx::Session& s) {
  return s.sql("SELECT CONNECTION_ID()").execute().fetchOne()[0].get<std::int64_t>();
}

struct server_statement {
  std::string sql_text;
  std::uint64_t executions = 0; // COUNT_EXECUTE
};

// The statements a connection holds, ordered by SQL_TEXT.
inline std::vector<server_statement> statements_of(mysqlx::Session& watcher,
                                                   std::int64_t connection) {
  mysqlx::RowResult r = watcher
                            .sql("SELECT p.SQL_TEXT, p.COUNT_EXECUTE FROM "
                                 "performance_schema.prepared_statements_instances p JOIN "
                                 "performance_schema.threads t ON p.OWNER_THREAD_ID = t.THREAD_ID "
                                 "WHERE t.PROCESSLIST_ID = ? ORDER BY p.SQL_TEXT")
                            .bind(connection)
                            .execute();
  std::vector<server_statement> out;
  for (mysqlx::Row row : r.fetchAll())
    out.push_back({row[0].get<std::string>(), row[1].get<std::uint64_t>()});
  return out;
}

// The same, once their COUNT_EXECUTE add up to `executions`: the server
// counts an EXECUTE after its reply has gone out, so a second session may
// look a moment too early. Waits up to 10 s, then returns what it sees.
inline std::vector<server_statement>
statements_of(mysqlx::Session& watcher, std::int64_t connection, std::uint64_t executions) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    auto found = statements_of(watcher, connection);
    std::uint64_t counted = 0;
    for (const auto& st : found) counted += st.executions;
    if (counted >= executions || std::chrono::steady_clock::now() > give_up) return found;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

} // namespace devapi_it
