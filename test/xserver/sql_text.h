// Text-level helpers for statements xserverd passes to MariaDB: '?'
// placeholders of Sql.StmtExecute, scalars as SQL literals, and the
// mysqlx_document_id_unique_prefix variable, which lives in xserverd and not
// in MariaDB, so statements naming it are intercepted or rewritten.
#pragma once

#include "mysqlx_datatypes.pb.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace xserver {

class mariadb_conn;

// A scalar as an SQL literal. V_OCTETS/V_STRING are quoted strings.
std::string scalar_to_sql(const Mysqlx::Datatypes::Scalar& s, const mariadb_conn& db);

// Replaces each '?' outside quotes and comments with the next argument;
// nullopt when the counts differ or an argument is not a scalar.
std::optional<std::string>
bind_sql_placeholders(std::string_view sql,
                      const google::protobuf::RepeatedPtrField<Mysqlx::Datatypes::Any>& args,
                      const mariadb_conn& db);

enum class prefix_scope { session, global, persist, persist_only };
struct set_prefix_stmt {
  prefix_scope scope = prefix_scope::session;
  std::optional<long long> value; // nullopt: not an integer
  std::string text;               // the value as written
};
// `SET [GLOBAL|PERSIST|PERSIST_ONLY|SESSION] mysqlx_document_id_unique_prefix = v`
// (also the @@scope. forms); nullopt for any other statement.
std::optional<set_prefix_stmt> parse_set_unique_prefix(std::string_view sql);

// `@@[global.]mysqlx_document_id_unique_prefix` -> the current value.
std::string rewrite_prefix_reads(std::string_view sql, std::uint16_t prefix);

} // namespace xserver
