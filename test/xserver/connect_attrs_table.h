// performance_schema.session_connect_attrs and session_account_connect_attrs
// as MySQL's X Plugin fills them: each X session's attributes exactly as its
// client sent them in CapabilitiesSet (handler_connection_attributes.cc
// writes them, in order, to the session's thread with
// set_thread_connect_attrs), ORDINAL_POSITION counted from 0 in that order,
// an empty value read back as NULL (table_session_connect.cc).
//
// MariaDB cannot hold them so: libmariadb drops attributes with an empty
// value and stores the rest in a hash, which sets the order. So xserverd
// answers from its own registry of sessions (server_state's clients): a
// statement that reads either table gets, in its place, a JSON_TABLE of the
// registry's rows with the table's columns and types.
#pragma once

#include "test/xserver/mariadb.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xserver {

// One authenticated X session, as the tables see it.
struct attrs_session {
  std::uint64_t processlist_id = 0; // CONNECTION_ID() of its MariaDB connection
  std::string user, host;           // for session_account_connect_attrs
  connect_attrs attrs;              // in the client's order
};

// Cheap check: might sql name one of the two tables? (False: nothing to do.)
bool names_connect_attrs_table(std::string_view sql);

// The rows of the sessions, as a table expression with MySQL's columns
// (PROCESSLIST_ID BIGINT UNSIGNED, ATTR_NAME VARCHAR(32), ATTR_VALUE
// VARCHAR(1024), ORDINAL_POSITION INT; utf8mb4_bin), one row per attribute.
// quote: an SQL string literal for the connection the statement runs on.
std::string connect_attrs_table_sql(const std::vector<attrs_session>& sessions,
                                    const std::function<std::string(std::string_view)>& quote);

// What a statement needs to have its references replaced.
struct connect_attrs_source {
  // The table expression for session_connect_attrs (account_only false) or
  // session_account_connect_attrs (true: the sessions of the current
  // session's user and host only).
  std::function<std::string(bool account_only)> table;
  // Whether the session's default database is performance_schema (asked
  // only for an unqualified table name).
  std::function<bool()> default_db_is_performance_schema;
};

// sql with each reference to either table in a FROM clause (after FROM,
// JOIN or a comma; `performance_schema.`-qualified, or unqualified with
// performance_schema as default database) replaced by the table expression,
// aliased as the table unless the statement gives an alias; a column
// qualified as `performance_schema.<table>.col` keeps `<table>.col`. Only
// statements that read (SELECT, WITH, EXPLAIN, INSERT/REPLACE ... SELECT,
// SET, DO, and a parenthesized query); SHOW, DESCRIBE and statements that
// would keep the rows (CREATE VIEW ...) go to MariaDB as they are.
// nullopt: nothing replaced.
std::optional<std::string> rewrite_connect_attrs_tables(std::string_view sql,
                                                        const connect_attrs_source& source);

} // namespace xserver
