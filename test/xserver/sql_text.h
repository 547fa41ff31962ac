// Text-level helpers for statements xserverd passes to MariaDB: '?'
// placeholders of Sql.StmtExecute and scalars as SQL literals. (The X
// Plugin's variables are xvars.h.)
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

} // namespace xserver
