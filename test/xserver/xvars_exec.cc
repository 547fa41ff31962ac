// Sql.StmtExecute hooks for the X Plugin's variables (xvars.h): SET and
// SHOW statements that name them are answered here, and their @@reads are
// replaced by values before a statement goes to MariaDB.
#include "test/xserver/session.h"
#include "test/xserver/xvars.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <memory>
#include <mysql.h>

namespace xserver {

namespace {

// The first word of a statement, to skip the regular expressions for most.
bool starts_with_word(std::string_view sql, std::string_view word) {
  const std::size_t b = sql.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos || sql.size() - b <= word.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i)
    if (std::toupper(static_cast<unsigned char>(sql[b + i])) != word[i]) return false;
  return !std::isalnum(static_cast<unsigned char>(sql[b + word.size()]));
}

// A SET value that is not a simple literal (`@v`, `1+1`, `CONCAT(...)`),
// evaluated by MariaDB; the column type stands for MySQL's Item result type.
std::optional<sql_value> evaluate(const mariadb_conn& db, const std::string& expr, x_error& err) {
  using k = sql_value::kind;
  MYSQL* m = db.handle();
  const std::string q = "SELECT " + expr;
  if (mysql_real_query(m, q.data(), q.size()) != 0) {
    err = db.last_error();
    return std::nullopt;
  }
  std::unique_ptr<MYSQL_RES, decltype(&mysql_free_result)> res(mysql_store_result(m),
                                                               &mysql_free_result);
  if (!res) {
    err = db.last_error();
    return std::nullopt;
  }
  MYSQL_ROW row = mysql_fetch_row(res.get());
  if (!row || !row[0]) return sql_value{k::null, 0, "NULL"};
  sql_value v{k::string, 0, row[0]};
  switch (mysql_fetch_field_direct(res.get(), 0)->type) {
  case MYSQL_TYPE_TINY:
  case MYSQL_TYPE_SHORT:
  case MYSQL_TYPE_INT24:
  case MYSQL_TYPE_LONG:
  case MYSQL_TYPE_LONGLONG: {
    const auto r = std::from_chars(v.text.data(), v.text.data() + v.text.size(), v.integer);
    v.type = r.ec == std::errc() ? k::integer : k::decimal; // above int64: treated as DECIMAL
    break;
  }
  case MYSQL_TYPE_DECIMAL:
  case MYSQL_TYPE_NEWDECIMAL:
    v.type = k::decimal;
    break;
  case MYSQL_TYPE_FLOAT:
  case MYSQL_TYPE_DOUBLE:
    v.type = k::real;
    break;
  default:
    break;
  }
  return v;
}

// Rows as a SELECT with SHOW's column names, so that they go through
// MariaDB's result path like any other result (as list_clients does).
std::string rows_sql(const std::vector<name_value>& rows, const mariadb_conn& db) {
  std::string sql;
  for (const auto& [name, value] : rows) {
    sql += sql.empty() ? "SELECT " : " UNION ALL SELECT ";
    sql += db.quote(name) + " AS Variable_name, " + db.quote(value) + " AS Value";
  }
  return sql;
}

bool iless(const name_value& a, const name_value& b) {
  return std::lexicographical_compare(a.first.begin(), a.first.end(), b.first.begin(),
                                      b.first.end(), [](char x, char y) {
                                        return std::tolower(static_cast<unsigned char>(x)) <
                                               std::tolower(static_cast<unsigned char>(y));
                                      });
}

} // namespace

stmt_result session::intercept_xvars(std::string& sql, bool& handled) {
  handled = true;
  if (starts_with_word(sql, "SHOW"))
    if (auto show = parse_show(sql)) return show_xvars(*show, sql);
  if (starts_with_word(sql, "SET"))
    if (auto set = parse_set_xvar(sql, emulate_57())) return set_xvar(*set);
  handled = false;
  if (sql.find("@@") == std::string::npos) return std::nullopt;
  auto r = rewrite_xvar_reads(sql, emulate_57(), m_state.xvars(), m_vars);
  if (r.error) {
    handled = true;
    return r.error;
  }
  sql = std::move(r.sql);
  return std::nullopt;
}

stmt_result session::set_xvar(const set_xvar_stmt& st) {
  const xvar_def& d = *st.var;
  const bool session_scope = st.scope == xvar_scope::session;
  if (session_scope && !d.has_session) return global_only_error(d);
  std::optional<sql_value> value = parse_sql_literal(st.value);
  if (!value) {
    // One assignment per statement: MariaDB would have to take the others.
    if (has_top_level_comma(st.value))
      return x_error{errc::not_supported_yet,
                     "This version of MySQL doesn't yet support 'setting " + std::string(d.name) +
                         " together with other variables'",
                     "42000"};
    auto expr = rewrite_xvar_reads(st.value, emulate_57(), m_state.xvars(), m_vars);
    if (expr.error) return expr.error;
    x_error err;
    value = evaluate(*m_db, expr.sql, err);
    if (!value) return err;
  }
  // DEFAULT: the GLOBAL value for a session, the compiled-in one globally.
  const long long default_value =
      session_scope ? m_state.xvar(d.id) : xvar_default(d, emulate_57());
  const xvar_check checked = check_xvar_value(d, *value, default_value);
  if (checked.error) return checked.error;
  if (session_scope) {
    m_vars[static_cast<std::size_t>(d.id)] = checked.value;
  } else {
    const xvar_store how = st.scope == xvar_scope::persist        ? xvar_store::persist
                           : st.scope == xvar_scope::persist_only ? xvar_store::persist_only
                                                                  : xvar_store::running;
    std::string err;
    if (!m_state.set_xvar(d.id, checked.value, how, err))
      return make_error(errc::internal_error, err);
  }
  // update_thd_system_variable runs for SESSION and GLOBAL alike and hands
  // the value to the client of the session that set it.
  if (d.has_session && st.scope != xvar_scope::persist_only) use_timeout(d.id, checked.value);
  if (checked.truncated)
    m_out.notice_warning(2, errc::truncated_wrong_value, truncated_warning(d, *value));
  m_out.notice_uint(state_param::rows_affected, 0);
  m_out.stmt_ok();
  return std::nullopt;
}

stmt_result session::show_xvars(const show_stmt& st, std::string_view sql) {
  std::vector<name_value> ours;
  if (st.status) {
    // Common_status_variables: an X Plugin client sees its session's values
    // in both scopes (Server::common_status_variable).
    ours = xstatus_rows(emulate_57(), {m_compression, m_compression_level, m_io->is_tls(),
                                       m_io->tls_version(), m_io->tls_cipher(), m_state.counters(),
                                       m_compressor.sent(), m_input_meter.received()});
  } else {
    ours = xvar_rows(emulate_57(),
                     st.global ? m_state.xvars() : session_view(m_state.xvars(), m_vars));
  }
  if (st.like) {
    ours.erase(std::remove_if(ours.begin(), ours.end(),
                              [&](const name_value& r) { return !sql_like(r.first, *st.like); }),
               ours.end());
  } else if (st.where) {
    // MariaDB evaluates the condition on our rows, under SHOW's column names.
    x_error err;
    auto kept = m_db->select(
        "SELECT Variable_name FROM (" + rows_sql(ours, *m_db) + ") AS t WHERE " + *st.where, &err);
    if (!kept) return err;
    ours.erase(std::remove_if(ours.begin(), ours.end(),
                              [&](const name_value& r) {
                                return std::none_of(kept->begin(), kept->end(), [&](const auto& k) {
                                  return k[0] && *k[0] == r.first;
                                });
                              }),
               ours.end());
  }
  if (ours.empty()) return execute_sql(sql); // nothing of ours: MariaDB's answer unchanged
  x_error err;
  auto theirs = m_db->select(sql, &err);
  if (!theirs) return err;
  for (const auto& row : *theirs)
    ours.emplace_back(row[0].value_or(""), row.size() > 1 ? row[1].value_or("") : "");
  // One result, sorted by name as SHOW sorts.
  std::stable_sort(ours.begin(), ours.end(), iless);
  return execute_sql(rows_sql(ours, *m_db));
}

} // namespace xserver
