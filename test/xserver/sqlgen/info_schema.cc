// information_schema tables whose MySQL 8.0 content MariaDB cannot give:
// a table-model Find reads MySQL's rows instead, from a derived table that
// keeps the table's name and MySQL's column names, so criteria, projections,
// ordering and limits over it work unchanged.
//
// collations: MariaDB lists its own collations (utf8mb3_croatian_mysql561_ci,
// ids MySQL lacks, none of the utf8mb4_*_0900_* ones); clients map the ids in
// column metadata to names with MySQL's list, so xserverd gives that list
// (cdk/protocol/mysql_collations.h) with information_schema.collations'
// columns: COLLATION_NAME, CHARACTER_SET_NAME, ID (BIGINT UNSIGNED),
// IS_DEFAULT ('Yes' or ''), IS_COMPILED ('Yes'), SORTLEN (UNSIGNED),
// PAD_ATTRIBUTE ('PAD SPACE' or 'NO PAD').
#include "cdk/protocol/mysql_collations.h"
#include "test/xserver/sqlgen/detail.h"

#include <cctype>
#include <string>
#include <string_view>

namespace xserver::sqlgen::detail {

namespace {

// information_schema names compare case-insensitively, in MySQL as here.
bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

// The rows as a UNION of literal SELECTs: small integers and short strings,
// whose types the outer SELECT then fixes (a UNION of an UNSIGNED first row
// and plain integers would become DECIMAL in MariaDB).
void write_mysql_collations(std::string& out) {
  out += "(SELECT `n` AS `COLLATION_NAME`,`s` AS `CHARACTER_SET_NAME`,"
         "CAST(`i` AS UNSIGNED) AS `ID`,IF(`d`,'Yes','') AS `IS_DEFAULT`,"
         "'Yes' AS `IS_COMPILED`,CAST(`l` AS UNSIGNED) AS `SORTLEN`,"
         "IF(`p`,'NO PAD','PAD SPACE') AS `PAD_ATTRIBUTE` FROM (";
  bool first = true;
  for (const auto& c : cdk::protocol::mysql_collations) {
    out += first ? "SELECT " : " UNION ALL SELECT ";
    append_string(out, c.name);
    out += first ? " AS `n`," : ",";
    append_string(out, c.charset);
    out += first ? " AS `s`," : ",";
    out += std::to_string(c.id);
    out += first ? " AS `i`," : ",";
    out += c.is_default ? '1' : '0';
    out += first ? " AS `d`," : ",";
    out += std::to_string(c.sortlen);
    out += first ? " AS `l`," : ",";
    out += c.no_pad ? '1' : '0';
    if (first) out += " AS `p`";
    first = false;
  }
  out += ") AS `$xserverd_rows`)";
}

} // namespace

void write_find_source(std::string& out, const Mysqlx::Crud::Collection& c, bool relational,
                       const options& opts) {
  // Only MySQL 8.0's list is known here; 5.7 (utf8_* names) reads MariaDB's.
  if (relational && opts.emulate == flavor::mysql80 && iequals(c.schema(), "information_schema") &&
      iequals(c.name(), "collations")) {
    write_mysql_collations(out);
    out += " AS ";
    append_identifier(out, c.name());
    return;
  }
  write_collection(out, c);
}

} // namespace xserver::sqlgen::detail
