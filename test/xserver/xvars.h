// The X Plugin's own variables, which live in xserverd because MariaDB has
// no such variables: system variables (mysqlx_*, GLOBAL scope, the timeouts
// GLOBAL and SESSION) and status variables (Mysqlx_*). Statements naming them are intercepted
// (SET, SHOW VARIABLES/STATUS) or rewritten (@@reads) before MariaDB sees
// them. Everything here is pure text and table work, unit-tested without a
// server; xvars_exec.cc wires it into the session.
//
// Adding a system variable: a row in xvar_table() (xvars.cc) and an
// xvar_id. Adding a status variable: a row in xstatus_rows() and, if it
// needs more of the session, a member of session_status.
#pragma once

#include "test/xserver/errors.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace xserver {

// Indexes into xvar_table() and xvar_values.
enum class xvar_id {
  document_id_unique_prefix,
  compression_algorithms,
  deflate_default_compression_level,
  lz4_default_compression_level,
  zstd_default_compression_level,
  deflate_max_client_compression_level,
  lz4_max_client_compression_level,
  zstd_max_client_compression_level,
  max_allowed_packet,
  max_connections,
  connect_timeout,
  wait_timeout,
  interactive_timeout,
  read_timeout,
  write_timeout,
  count
};
inline constexpr std::size_t xvar_count = static_cast<std::size_t>(xvar_id::count);

// How a value is checked, as MySQL's plugin variable of that kind checks it.
enum class xvar_kind {
  clamped_int, // MYSQL_SYSVAR_(U)INT with the default check: out of range ->
               // clamped, warning 1292
  checked_int, // MYSQL_SYSVAR_INT with the X Plugin's own check (compression
               // levels): out of range -> 1231
  set          // MYSQL_SYSVAR_SET: names or a bit mask; anything else -> 1231
};

struct xvar_def {
  xvar_id id = xvar_id::count;
  std::string_view name; // lower case, as MySQL shows it
  xvar_kind kind = xvar_kind::clamped_int;
  long long def = 0, min = 0, max = 0;   // set: def is the bit mask
  bool is_unsigned = false;              // UINT: @@reads are unsigned
  bool reject_zero = false;              // zstd levels: 0 is out of range
  std::vector<std::string_view> members; // set: bit i is members[i]
  bool in_57 = false;                    // 5.7's X Plugin has it too
  bool has_session = false;              // MYSQL_THDVAR: SESSION scope too
  std::optional<long long> def_57;       // 5.7's default, where it differs
};

const std::vector<xvar_def>& xvar_table(); // in xvar_id order
const xvar_def& xvar(xvar_id id);
// Case-insensitive; nullptr for a name xserverd does not own (in 5.7 mode:
// one 5.7's X Plugin does not have).
const xvar_def* find_xvar(std::string_view name, bool emulate_57);

using xvar_values = std::array<long long, xvar_count>;
long long xvar_default(const xvar_def& d, bool emulate_57);
xvar_values xvar_defaults(bool emulate_57 = false);
inline long long value_of(const xvar_values& v, xvar_id id) {
  return v[static_cast<std::size_t>(id)];
}

// A session's variables: its own values of those with a SESSION scope
// (copied from the GLOBAL ones when it connects, as a THD's), the GLOBAL
// values of the others. What SHOW SESSION VARIABLES and @@name show.
xvar_values session_view(const xvar_values& global, const xvar_values& session);

// The value as SHOW VARIABLES prints it ("DEFLATE_STREAM,ZSTD_STREAM", "3").
std::string xvar_text(const xvar_def& d, long long v);
// The value as an SQL expression for MariaDB, typed as MySQL's @@read is.
std::string xvar_sql(const xvar_def& d, long long v);

// A value on the right of SET, typed as MySQL's Item result types.
struct sql_value {
  enum class kind { integer, string, decimal, real, null, default_value } type;
  long long integer = 0;
  std::string text; // a string's content, or the value as MySQL prints it
};
// A simple literal (integer, 'string', decimal, real, NULL, TRUE/FALSE,
// DEFAULT, a bare word, which MySQL takes as a string); nullopt for
// anything else (an expression: the caller evaluates it).
std::optional<sql_value> parse_sql_literal(std::string_view text);

// The outcome of SET for one variable: the value to store, and whether it
// was clamped (warning 1292), or MySQL's error. DEFAULT stands for
// default_value: the compiled-in default for SET GLOBAL, the GLOBAL value
// for SET SESSION (sys_var_pluginvar::session_update).
struct xvar_check {
  long long value = 0;
  bool truncated = false;
  std::optional<x_error> error;
};
xvar_check check_xvar_value(const xvar_def& d, const sql_value& v, long long default_value);
std::string truncated_warning(const xvar_def& d, const sql_value& v); // 1292's text

enum class xvar_scope { session, global, persist, persist_only };
struct set_xvar_stmt {
  const xvar_def* var = nullptr;
  xvar_scope scope = xvar_scope::session; // no scope word counts as SESSION
  std::string value;                      // the expression as written
};
// `SET [GLOBAL|PERSIST|PERSIST_ONLY|SESSION|LOCAL] name = v` and the
// `@@[scope.]name` forms, one assignment; nullopt unless `name` is ours.
std::optional<set_xvar_stmt> parse_set_xvar(std::string_view sql, bool emulate_57);
// 1229, the error of a SESSION assignment to a GLOBAL variable.
x_error global_only_error(const xvar_def& d);

// Replaces each `@@[scope.]name` of ours outside quotes and comments with
// its value (`@@global.` the GLOBAL one, else the session's: session_view());
// one that is a whole select item keeps its name as column name (`AS
// `@@name``, as written). `@@session.`/`@@local.` of a GLOBAL-only
// variable -> 1238.
struct rewritten_sql {
  std::string sql;
  std::optional<x_error> error;
};
rewritten_sql rewrite_xvar_reads(std::string_view sql, bool emulate_57, const xvar_values& global,
                                 const xvar_values& session);

// True if a ',' outside quotes and parentheses separates expressions.
bool has_top_level_comma(std::string_view expr);

// `SHOW [GLOBAL|SESSION|LOCAL] VARIABLES|STATUS [LIKE 'p' | WHERE expr]`.
struct show_stmt {
  bool status = false;              // STATUS, else VARIABLES
  bool global = false;              // GLOBAL, else SESSION (also without a scope)
  std::optional<std::string> like;  // the pattern, unquoted
  std::optional<std::string> where; // the expression as written
};
std::optional<show_stmt> parse_show(std::string_view sql);
// SQL LIKE, case-insensitive (ASCII) as MariaDB's SHOW compares: % _ and \.
bool sql_like(std::string_view text, std::string_view pattern);

using name_value = std::pair<std::string, std::string>;
std::vector<name_value> xvar_rows(bool emulate_57, const xvar_values& v);

// The server's connection counters (Global_status_variables in MySQL).
struct connection_counters {
  std::uint64_t aborted_clients = 0;   // closed by a read or write timeout
  std::uint64_t connection_errors = 0; // those and connect timeouts
  std::uint64_t accepted = 0, closed = 0, rejected = 0;
};

// Bytes of Compression messages in one direction, as the X Plugin's status
// variables Mysqlx_bytes_{sent,received}_{compressed_payload,uncompressed_frame}
// count them: the payload field as it travels, and the whole frames it holds.
struct compression_bytes {
  std::uint64_t compressed = 0;   // the payload (Protocol_monitor::on_*_compressed)
  std::uint64_t uncompressed = 0; // the frames inside (on_send_before_compression,
                                  // on_receive_after_decompression)
  compression_bytes& operator+=(const compression_bytes& o) {
    compressed += o.compressed;
    uncompressed += o.uncompressed;
    return *this;
  }
};

// What the session's status variables show.
struct session_status {
  std::string compression; // the algorithm, lower case; empty: none
  int compression_level = 0;
  bool tls = false;
  std::string tls_version, tls_cipher;
  connection_counters counters;
  compression_bytes sent, received; // the session's Compression messages
};
std::vector<name_value> xstatus_rows(bool emulate_57, const session_status& s);

} // namespace xserver
