// MariaDB result columns -> X Protocol ColumnMetaData and Row field bytes.
// MariaDB returns values as text (text protocol); each X type has its own
// binary encoding (mysqlx_resultset.proto docs): SINT zigzag varint, UINT
// varint, DOUBLE/FLOAT little-endian IEEE, BYTES/ENUM text + '\0', DECIMAL
// scale byte + packed BCD + sign nibble, TIME sign byte + varints,
// DATETIME varints, SET length-prefixed elements (empty set: 0x01), BIT varint.
// SQL NULL is an empty field.
#pragma once

#include "cdk/protocol/resultset.h"

#include <cstdint>
#include <string>
#include <string_view>

typedef struct st_mysql_field MYSQL_FIELD;
typedef struct ma_charset_info_st MARIADB_CHARSET_INFO;

namespace Mysqlx::Resultset {
class ColumnMetaData;
}

namespace xserver {

// Mysqlx.Resultset.ColumnMetaData.FieldType numbers: the client's decoder
// defines them once.
using x_type = cdk::protocol::field_type;

x_type x_type_of(const MYSQL_FIELD& f);
// A JSON column (MariaDB's extended metadata format=json): its text is
// re-printed the MySQL way (json_text.h).
bool is_json_column(const MYSQL_FIELD& f);
void fill_column_metadata(const MYSQL_FIELD& f, bool compact, Mysqlx::Resultset::ColumnMetaData& m);

// Text columns arrive in their own character set (mariadb.cc). As MySQL's
// X Plugin (streaming_command_delegate.cc, get_valid_charset_collation and
// Convert_if_necessary), a column whose charset is neither utf8mb4 nor
// binary is sent converted to the session's character_set_results
// (utf8mb4) and named by that collation; its length stays the column's own.
// The collation: utf8mb4_general_ci, MariaDB's default one for utf8mb4.
inline constexpr unsigned results_collation = 45;
// The charset to convert f's values from, or nullptr to send them as they are.
const MARIADB_CHARSET_INFO* charset_to_convert(const MYSQL_FIELD& f);
// text in `from` as utf8mb4; the bytes unchanged if they do not convert, as
// the X Plugin sends them.
std::string to_utf8mb4(std::string_view text, const MARIADB_CHARSET_INFO* from);

// Appends the encoding of one non-NULL value given as MariaDB text.
void encode_value(x_type type, std::string_view text, std::string& out);

void append_varint(std::uint64_t v, std::string& out);

} // namespace xserver
