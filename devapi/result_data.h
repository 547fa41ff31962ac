// The plain data behind Column. Private header: the session layer fills it
// from Mysqlx.Resultset.ColumnMetaData and hands it to access::make_column().
#pragma once

#include <mysqlx/result.h>
#include <string>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

struct column_data {
  std::string schema, table, table_label, name, label;
  Type type = Type::STRING;
  unsigned long length = 0;
  unsigned short fractional_digits = 0;
  bool is_signed = false;
  bool padded = false;
  std::string charset, collation; // e.g. "utf8mb4", "utf8mb4_0900_ai_ci"; empty for numbers
  unsigned collation_id = 0;      // as the server sent it; 0 for numbers
};

/// The Collation<> constant with MySQL's collation number `id`, or null
/// (collations.cc).
const CollationInfo* find_collation(unsigned id) noexcept;

} // namespace detail
MYSQLX_NAMESPACE_END
