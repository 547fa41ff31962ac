#include "test/xserver/xvars.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <regex>
#include <zstd.h>

namespace xserver {

namespace {

char lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}
char upper(char c) {
  return static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
}
bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [](char x, char y) { return lower(x) == lower(y); });
}
bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

// One row; the other fields keep their defaults (xvars.h).
xvar_def row(xvar_id id, std::string_view name, xvar_kind kind, long long def, long long min,
             long long max) {
  xvar_def d;
  d.id = id;
  d.name = name;
  d.kind = kind;
  d.def = def;
  d.min = min;
  d.max = max;
  return d;
}

// MYSQL_SYSVAR_UINT / MYSQL_THDVAR_UINT with the default check (clamped).
xvar_def uint_var(xvar_id id, std::string_view name, long long def, long long min, long long max,
                  bool in_57, bool has_session) {
  xvar_def d = row(id, name, xvar_kind::clamped_int, def, min, max);
  d.is_unsigned = true;
  d.in_57 = in_57;
  d.has_session = has_session;
  return d;
}

// A compression level: MYSQL_SYSVAR_INT with check_compression_level_range.
xvar_def level(xvar_id id, std::string_view name, long long def, long long min, long long max,
               bool zstd) {
  xvar_def d = row(id, name, xvar_kind::checked_int, def, min, max);
  d.reject_zero = zstd;
  return d;
}

std::vector<xvar_def> make_table() {
  // Defaults and ranges: plugin/x/src/variables/system_variables.cc,
  // system_variables_defaults.h and compression_level_variable.h (levels:
  // zlib Z_BEST_SPEED..Z_BEST_COMPRESSION, lz4 0..16, zstd
  // ZSTD_minCLevel()..ZSTD_maxCLevel() without 0). 5.7: its xpl_plugin.cc
  // (rapid/plugin/x/src), which has max_allowed_packet (default 1 MiB),
  // max_connections and connect_timeout, and none of the others.
  const long long zmin = ZSTD_minCLevel(), zmax = ZSTD_maxCLevel();
  constexpr long long timeout_max = 2147483; // seconds, as MySQL's THDVARs
  xvar_def algorithms = row(xvar_id::compression_algorithms, "mysqlx_compression_algorithms",
                            xvar_kind::set, 7, 0, 7);
  algorithms.members = {"DEFLATE_STREAM", "LZ4_MESSAGE", "ZSTD_STREAM"};
  xvar_def max_packet = uint_var(xvar_id::max_allowed_packet, "mysqlx_max_allowed_packet",
                                 64ll << 20, 512, 1ll << 30, true, false);
  max_packet.def_57 = 1ll << 20;
  xvar_def max_connections =
      uint_var(xvar_id::max_connections, "mysqlx_max_connections", 100, 1, 65535, true, false);
  max_connections.is_unsigned = false; // MYSQL_SYSVAR_INT
  return {
      uint_var(xvar_id::document_id_unique_prefix, "mysqlx_document_id_unique_prefix", 0, 0, 65535,
               false, false),
      algorithms,
      level(xvar_id::deflate_default_compression_level, "mysqlx_deflate_default_compression_level",
            3, 1, 9, false),
      level(xvar_id::lz4_default_compression_level, "mysqlx_lz4_default_compression_level", 2, 0,
            16, false),
      level(xvar_id::zstd_default_compression_level, "mysqlx_zstd_default_compression_level", 3,
            zmin, zmax, true),
      level(xvar_id::deflate_max_client_compression_level,
            "mysqlx_deflate_max_client_compression_level", 5, 1, 9, false),
      level(xvar_id::lz4_max_client_compression_level, "mysqlx_lz4_max_client_compression_level", 8,
            0, 16, false),
      level(xvar_id::zstd_max_client_compression_level, "mysqlx_zstd_max_client_compression_level",
            11, zmin, zmax, true),
      max_packet,
      max_connections,
      uint_var(xvar_id::connect_timeout, "mysqlx_connect_timeout", 30, 1, 1000000000, true, false),
      uint_var(xvar_id::wait_timeout, "mysqlx_wait_timeout", 28800, 1, timeout_max, false, true),
      uint_var(xvar_id::interactive_timeout, "mysqlx_interactive_timeout", 28800, 1, timeout_max,
               false, false),
      uint_var(xvar_id::read_timeout, "mysqlx_read_timeout", 30, 1, timeout_max, false, true),
      uint_var(xvar_id::write_timeout, "mysqlx_write_timeout", 60, 1, timeout_max, false, true),
  };
}

x_error wrong_value(const xvar_def& d, std::string_view text) {
  return x_error{errc::wrong_value_for_var,
                 "Variable '" + std::string(d.name) + "' can't be set to the value of '" +
                     std::string(text) + "'",
                 "42000"};
}
x_error wrong_type(const xvar_def& d) {
  return x_error{errc::wrong_type_for_var,
                 "Incorrect argument type to variable '" + std::string(d.name) + "'", "42000"};
}

// find_set() (mysys/typelib.cc): comma-separated names, each matched
// exactly but for case; the empty string is the empty set.
std::optional<long long> parse_set_names(const xvar_def& d, std::string_view text) {
  long long mask = 0;
  if (text.empty()) return mask;
  for (;;) {
    const std::size_t comma = text.find(',');
    const std::string_view name = text.substr(0, comma);
    const auto it = std::find_if(d.members.begin(), d.members.end(),
                                 [&](std::string_view m) { return iequals(m, name); });
    if (it == d.members.end()) return std::nullopt;
    mask |= 1LL << (it - d.members.begin());
    if (comma == std::string_view::npos) return mask;
    text.remove_prefix(comma + 1);
  }
}

// Skips a quoted string or a comment starting at sql[i]; returns the index
// after it, or i if none starts there.
std::size_t skip_quoted(std::string_view sql, std::size_t i) {
  const char c = sql[i];
  if (c == '\'' || c == '"' || c == '`') {
    for (std::size_t j = i + 1; j < sql.size(); ++j) {
      if (sql[j] == '\\' && c != '`')
        ++j;
      else if (sql[j] == c)
        return j + 1;
    }
    return sql.size();
  }
  if (c == '#' || (c == '-' && sql.substr(i, 3) == "-- ")) {
    const std::size_t nl = sql.find('\n', i);
    return nl == std::string_view::npos ? sql.size() : nl + 1;
  }
  if (sql.substr(i, 2) == "/*") {
    const std::size_t end = sql.find("*/", i + 2);
    return end == std::string_view::npos ? sql.size() : end + 2;
  }
  return i;
}

std::size_t skip_space(std::string_view s, std::size_t i) {
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

// The word (identifier characters) that ends just before `end`.
std::string_view word_before(std::string_view s, std::size_t end) {
  std::size_t b = end;
  while (b > 0 && ident_char(s[b - 1])) --b;
  return s.substr(b, end - b);
}

// A reference that is a whole select item: after SELECT or ',' and before
// ',', ';', the end or a clause keyword (no alias, no operator).
bool whole_select_item(std::string_view sql, std::size_t begin, std::size_t end) {
  std::size_t p = begin;
  while (p > 0 && std::isspace(static_cast<unsigned char>(sql[p - 1]))) --p;
  if (!(p > 0 && sql[p - 1] == ',') && !iequals(word_before(sql, p), "SELECT")) return false;
  const std::size_t n = skip_space(sql, end);
  if (n == sql.size() || sql[n] == ',' || sql[n] == ';') return true;
  std::size_t w = n;
  while (w < sql.size() && ident_char(sql[w])) ++w;
  const std::string_view next = sql.substr(n, w - n);
  for (std::string_view kw : {"FROM", "WHERE", "INTO", "GROUP", "HAVING", "ORDER", "LIMIT", "UNION",
                              "FOR", "LOCK", "WINDOW"})
    if (iequals(next, kw)) return true;
  return false;
}

} // namespace

const std::vector<xvar_def>& xvar_table() {
  static const std::vector<xvar_def> table = make_table();
  return table;
}

const xvar_def& xvar(xvar_id id) {
  return xvar_table()[static_cast<std::size_t>(id)];
}

const xvar_def* find_xvar(std::string_view name, bool emulate_57) {
  for (const auto& d : xvar_table())
    if (iequals(d.name, name)) return (!emulate_57 || d.in_57) ? &d : nullptr;
  return nullptr;
}

long long xvar_default(const xvar_def& d, bool emulate_57) {
  return emulate_57 && d.def_57 ? *d.def_57 : d.def;
}

xvar_values xvar_defaults(bool emulate_57) {
  xvar_values v{};
  for (const auto& d : xvar_table())
    v[static_cast<std::size_t>(d.id)] = xvar_default(d, emulate_57);
  return v;
}

xvar_values session_view(const xvar_values& global, const xvar_values& session) {
  xvar_values v = global;
  for (const auto& d : xvar_table())
    if (d.has_session) v[static_cast<std::size_t>(d.id)] = session[static_cast<std::size_t>(d.id)];
  return v;
}

std::string xvar_text(const xvar_def& d, long long v) {
  if (d.kind != xvar_kind::set) return std::to_string(v);
  std::string out;
  for (std::size_t i = 0; i < d.members.size(); ++i) {
    if (!(v & (1LL << i))) continue;
    if (!out.empty()) out += ',';
    out += d.members[i];
  }
  return out;
}

std::string xvar_sql(const xvar_def& d, long long v) {
  if (d.kind == xvar_kind::set) return "'" + xvar_text(d, v) + "'"; // member names need no escaping
  return "CAST(" + std::to_string(v) + (d.is_unsigned ? " AS UNSIGNED)" : " AS SIGNED)");
}

std::optional<sql_value> parse_sql_literal(std::string_view t) {
  using k = sql_value::kind;
  if (t.empty()) return std::nullopt;
  if (iequals(t, "DEFAULT")) return sql_value{k::default_value, 0, "DEFAULT"};
  if (iequals(t, "NULL")) return sql_value{k::null, 0, "NULL"};
  if (iequals(t, "TRUE")) return sql_value{k::integer, 1, "1"};
  if (iequals(t, "FALSE")) return sql_value{k::integer, 0, "0"};
  if (t.front() == '\'' || t.front() == '"') {
    const char q = t.front();
    std::string out;
    for (std::size_t i = 1; i < t.size(); ++i) {
      char c = t[i];
      if (c == '\\' && i + 1 < t.size()) {
        c = t[++i];
        out += c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c == '0' ? '\0' : c;
      } else if (c == q && i + 1 < t.size() && t[i + 1] == q) {
        out += q;
        ++i;
      } else if (c == q) {
        if (i + 1 != t.size()) return std::nullopt; // more after the string
        return sql_value{k::string, 0, out};
      } else {
        out += c;
      }
    }
    return std::nullopt; // unterminated
  }
  if (std::isalpha(static_cast<unsigned char>(t.front())) || t.front() == '_') {
    // MySQL takes a bare word on the right of SET as a string (ON, ZSTD_STREAM).
    if (std::all_of(t.begin(), t.end(), ident_char)) return sql_value{k::string, 0, std::string(t)};
    return std::nullopt;
  }
  static const std::regex integer(R"([-+]?[0-9]+)"), decimal(R"([-+]?([0-9]+\.[0-9]*|\.[0-9]+))"),
      real(R"([-+]?([0-9]+\.?[0-9]*|\.[0-9]+)[eE][-+]?[0-9]+)");
  const std::string s(t);
  if (std::regex_match(s, integer)) {
    long long v = 0;
    const char* b = s.data() + (s[0] == '+');
    if (std::from_chars(b, s.data() + s.size(), v).ec == std::errc())
      return sql_value{k::integer, v, std::to_string(v)};
    return sql_value{k::decimal, 0, s}; // beyond 64 bits: MySQL makes it a DECIMAL
  }
  if (std::regex_match(s, decimal)) return sql_value{k::decimal, 0, s};
  if (std::regex_match(s, real)) return sql_value{k::real, 0, s};
  return std::nullopt;
}

xvar_check check_xvar_value(const xvar_def& d, const sql_value& v, long long default_value) {
  using k = sql_value::kind;
  xvar_check out;
  if (v.type == k::default_value) {
    out.value = default_value;
    return out;
  }
  if (d.kind == xvar_kind::set) {
    // sys_var_pluginvar::check_update_type: a SET takes strings and integers.
    if (v.type == k::decimal || v.type == k::real) {
      out.error = wrong_type(d);
    } else if (v.type == k::null) {
      out.error = wrong_value(d, "NULL");
    } else if (v.type == k::integer) {
      if (v.integer < 0 || v.integer >= (1LL << d.members.size()))
        out.error = wrong_value(d, v.text);
      else
        out.value = v.integer;
    } else if (auto mask = parse_set_names(d, v.text)) {
      out.value = *mask;
    } else {
      out.error = wrong_value(d, v.text);
    }
    return out;
  }
  if (v.type != k::integer) { // integer variables take INT_RESULT only
    out.error = wrong_type(d);
    return out;
  }
  const bool out_of_range = v.integer < d.min || v.integer > d.max;
  if (d.kind == xvar_kind::checked_int) {
    // check_compression_level_range(): refused, not clamped.
    if (out_of_range || (d.reject_zero && v.integer == 0))
      out.error = wrong_value(d, v.text);
    else
      out.value = v.integer;
    return out;
  }
  // check_func_int(): clamped to the range, with warning 1292.
  out.value = std::clamp(v.integer, d.min, d.max);
  out.truncated = out_of_range;
  return out;
}

std::string truncated_warning(const xvar_def& d, const sql_value& v) {
  return "Truncated incorrect " + std::string(d.name) + " value: '" + v.text + "'";
}

std::optional<set_xvar_stmt> parse_set_xvar(std::string_view sql, bool emulate_57) {
  static const std::regex re(
      R"(^\s*SET\s+(?:(GLOBAL|PERSIST|PERSIST_ONLY|SESSION|LOCAL)\s+|@@(GLOBAL|PERSIST|PERSIST_ONLY|SESSION|LOCAL)\.|@@)?(\w+)\s*:?=\s*([\s\S]*?)\s*;?\s*$)",
      std::regex::icase | std::regex::optimize);
  std::cmatch m;
  if (!std::regex_match(sql.data(), sql.data() + sql.size(), m, re)) return std::nullopt;
  const xvar_def* d = find_xvar(m[3].str(), emulate_57);
  if (!d) return std::nullopt;
  std::string scope = m[1].matched ? m[1].str() : m[2].str();
  for (auto& ch : scope) ch = upper(ch);
  set_xvar_stmt st;
  st.var = d;
  st.scope = scope == "GLOBAL"         ? xvar_scope::global
             : scope == "PERSIST"      ? xvar_scope::persist
             : scope == "PERSIST_ONLY" ? xvar_scope::persist_only
                                       : xvar_scope::session;
  st.value = m[4].str();
  return st;
}

x_error global_only_error(const xvar_def& d) {
  return make_error(errc::global_variable, "Variable '" + std::string(d.name) +
                                               "' is a GLOBAL variable and should be set with "
                                               "SET GLOBAL");
}

rewritten_sql rewrite_xvar_reads(std::string_view sql, bool emulate_57, const xvar_values& global,
                                 const xvar_values& session) {
  rewritten_sql out;
  if (sql.find("@@") == std::string_view::npos) { // the fast path
    out.sql = sql;
    return out;
  }
  for (std::size_t i = 0; i < sql.size();) {
    if (const std::size_t after = skip_quoted(sql, i); after != i) {
      out.sql += sql.substr(i, after - i);
      i = after;
      continue;
    }
    if (sql.substr(i, 2) != "@@") {
      out.sql += sql[i++];
      continue;
    }
    std::size_t p = i + 2;
    std::string_view scope;
    for (std::string_view s : {"global.", "session.", "local."})
      if (iequals(sql.substr(p, s.size()), s)) scope = s;
    p += scope.size();
    std::size_t e = p;
    while (e < sql.size() && ident_char(sql[e])) ++e;
    const xvar_def* d = find_xvar(sql.substr(p, e - p), emulate_57);
    if (!d) {
      out.sql += sql.substr(i, e - i);
      i = e;
      continue;
    }
    const bool session_scope = iequals(scope, "session.") || iequals(scope, "local.");
    if (session_scope && !d->has_session) {
      out.error = x_error{errc::incorrect_global_local_var,
                          "Variable '" + std::string(d->name) + "' is a GLOBAL variable", "HY000"};
      return out;
    }
    const bool global_value = iequals(scope, "global.") || !d->has_session;
    out.sql += xvar_sql(*d, value_of(global_value ? global : session, d->id));
    if (whole_select_item(sql, i, e)) out.sql += " AS `" + std::string(sql.substr(i, e - i)) + "`";
    i = e;
  }
  return out;
}

bool has_top_level_comma(std::string_view expr) {
  int depth = 0;
  for (std::size_t i = 0; i < expr.size();) {
    if (const std::size_t after = skip_quoted(expr, i); after != i) {
      i = after;
      continue;
    }
    const char c = expr[i++];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) return true;
  }
  return false;
}

std::optional<show_stmt> parse_show(std::string_view sql) {
  static const std::regex re(
      R"(^\s*SHOW\s+(?:(GLOBAL|SESSION|LOCAL)\s+)?(VARIABLES|STATUS)(?:\s+LIKE\s+('(?:[^'\\]|\\[\s\S]|'')*'|"(?:[^"\\]|\\[\s\S]|"")*")|\s+WHERE\s+([\s\S]+?))?\s*;?\s*$)",
      std::regex::icase | std::regex::optimize);
  std::cmatch m;
  if (!std::regex_match(sql.data(), sql.data() + sql.size(), m, re)) return std::nullopt;
  show_stmt st;
  st.status = iequals(m[2].str(), "STATUS");
  st.global = m[1].matched && iequals(m[1].str(), "GLOBAL");
  if (m[3].matched) {
    auto lit = parse_sql_literal(m[3].str());
    if (!lit) return std::nullopt;
    st.like = lit->text;
  }
  if (m[4].matched) st.where = m[4].str();
  return st;
}

bool sql_like(std::string_view text, std::string_view pat) {
  if (pat.empty()) return text.empty();
  if (pat[0] == '%') {
    for (std::size_t i = 0; i <= text.size(); ++i)
      if (sql_like(text.substr(i), pat.substr(1))) return true;
    return false;
  }
  if (text.empty()) return false;
  if (pat[0] == '\\' && pat.size() > 1) {
    return lower(pat[1]) == lower(text[0]) && sql_like(text.substr(1), pat.substr(2));
  }
  if (pat[0] == '_' || lower(pat[0]) == lower(text[0]))
    return sql_like(text.substr(1), pat.substr(1));
  return false;
}

std::vector<name_value> xvar_rows(bool emulate_57, const xvar_values& v) {
  std::vector<name_value> rows;
  for (const auto& d : xvar_table())
    if (!emulate_57 || d.in_57)
      rows.emplace_back(std::string(d.name), xvar_text(d, v[static_cast<std::size_t>(d.id)]));
  return rows;
}

std::vector<name_value> xstatus_rows(bool emulate_57, const session_status& s) {
  // status_variables.cc, Client::get_status_compression_algorithm/_level and
  // Ssl_session_options: empty values without compression or TLS.
  std::vector<name_value> rows;
  if (!emulate_57) { // compression came with 8.0.19
    std::string algorithm = s.compression;
    for (auto& c : algorithm) c = upper(c);
    rows.emplace_back("Mysqlx_compression_algorithm", algorithm);
    rows.emplace_back("Mysqlx_compression_level",
                      s.compression.empty() ? "" : std::to_string(s.compression_level));
    // Common_status_variables (status_variables.cc), counted by
    // Protocol_flusher_compression::end_compression and
    // Compressed_message_decoder.
    rows.emplace_back("Mysqlx_bytes_received_compressed_payload",
                      std::to_string(s.received.compressed));
    rows.emplace_back("Mysqlx_bytes_received_uncompressed_frame",
                      std::to_string(s.received.uncompressed));
    rows.emplace_back("Mysqlx_bytes_sent_compressed_payload", std::to_string(s.sent.compressed));
    rows.emplace_back("Mysqlx_bytes_sent_uncompressed_frame", std::to_string(s.sent.uncompressed));
  }
  rows.emplace_back("Mysqlx_ssl_active", s.tls ? "ON" : "OFF");
  rows.emplace_back("Mysqlx_ssl_cipher", s.tls ? s.tls_cipher : "");
  rows.emplace_back("Mysqlx_ssl_version", s.tls ? s.tls_version : "");
  // The server's counters (Global_status_variables, shown in both scopes);
  // 5.7's X Plugin has all but Mysqlx_aborted_clients.
  const connection_counters& c = s.counters;
  if (!emulate_57) rows.emplace_back("Mysqlx_aborted_clients", std::to_string(c.aborted_clients));
  rows.emplace_back("Mysqlx_connection_errors", std::to_string(c.connection_errors));
  rows.emplace_back("Mysqlx_connections_accepted", std::to_string(c.accepted));
  rows.emplace_back("Mysqlx_connections_closed", std::to_string(c.closed));
  rows.emplace_back("Mysqlx_connections_rejected", std::to_string(c.rejected));
  return rows;
}

} // namespace xserver
