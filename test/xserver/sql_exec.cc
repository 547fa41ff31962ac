// Sql.StmtExecute in namespace "sql": the statement runs on the session's
// MariaDB connection; result sets are streamed as ColumnMetaData + Row +
// FetchDone[MoreResultsets], followed by the statement's notices and
// StmtExecuteOk. MariaDB errors keep MariaDB's code and SQLSTATE.
#include "mysqlx_resultset.pb.h"
#include "mysqlx_sql.pb.h"
#include "test/xserver/account_stmt.h"
#include "test/xserver/connect_attrs_table.h"
#include "test/xserver/json_text.h"
#include "test/xserver/row_encoder.h"
#include "test/xserver/session.h"
#include "test/xserver/sql_text.h"

#include <mysql.h>

namespace xserver {

namespace {
// append_row()'s marker for a JSON column (x_type values are all >= 1).
constexpr int json_column = -1;

// "COMMIT", any case, with white space and an optional ';' around it.
bool is_commit(std::string_view sql) {
  while (!sql.empty() && (sql.back() == ';' || sql.back() == ' ' || sql.back() == '\n'))
    sql.remove_suffix(1);
  while (!sql.empty() && (sql.front() == ' ' || sql.front() == '\n')) sql.remove_prefix(1);
  if (sql.size() != 6) return false;
  for (std::size_t i = 0; i < 6; ++i) {
    if ((sql[i] | 0x20) != "commit"[i]) return false;
  }
  return true;
}
} // namespace

stmt_result session::on_stmt_execute(const std::string& payload) {
  Mysqlx::Sql::StmtExecute msg;
  if (!msg.ParseFromString(payload)) return make_error(errc::x_bad_message, "Invalid message");
  m_compact_metadata = msg.compact_metadata();
  m_ran_own_sql = true;
  const std::string& ns = msg.namespace_();
  if (ns == "sql") {
    std::string sql = msg.stmt();
    if (msg.args_size() > 0) {
      auto bound = bind_sql_placeholders(sql, msg.args(), *m_db);
      if (!bound) return make_error(errc::x_cmd_num_arguments, "Too many arguments");
      sql = std::move(*bound);
    }
    bool handled = false;
    stmt_result r = intercept_xvars(sql, handled);
    if (handled) return r;
    const auto account = rewrite_account_statement(sql);
    r = execute_sql(account ? account->sql : sql);
    if (!r) after_account_statement(sql, account ? &account->plugins : nullptr);
    return r;
  }
  if (ns == "mysqlx" || (emulate_57() && ns == "xplugin"))
    return admin_command(ns, msg.stmt(), msg.args());
  if (ns == "xserver_test") return fault_command(msg.stmt(), msg.args());
  return make_error(errc::x_invalid_namespace, "Unknown namespace " + ns);
}

void session::after_account_statement(std::string_view sql,
                                      const std::vector<account_plugin>* plugins) {
  if (plugins) {
    for (const auto& a : *plugins) {
      const std::string set =
          a.plugin == "mysql_native_password"
              ? "JSON_REMOVE(Priv, '$.xserverd_mysql_plugin')"
              : "JSON_SET(Priv, '$.xserverd_mysql_plugin', " + m_db->quote(a.plugin) + ")";
      m_db->exec("UPDATE mysql.global_priv SET Priv = " + set +
                 " WHERE User = " + m_db->quote(a.user) + " AND Host = " + m_db->quote(a.host));
    }
  }
  switch (sha256_cache_effect(sql)) {
  case cache_effect::none:
    return;
  case cache_effect::clear:
    return m_state.clear_sha256();
  case cache_effect::check_accounts: {
    auto rows = m_db->select("SELECT User, Host, authentication_string FROM mysql.user");
    if (!rows) return m_state.clear_sha256();
    std::map<std::string, std::string> hashes;
    for (const auto& r : *rows)
      hashes[r[0].value_or("") + "@" + r[1].value_or("")] = r[2].value_or("");
    m_state.forget_stale_sha256([&](const std::string& account) -> std::optional<std::string> {
      auto it = hashes.find(account);
      if (it == hashes.end()) return std::nullopt;
      return it->second;
    });
    return;
  }
  }
}

void session::append_row(char** row, const unsigned long* lengths, const std::vector<int>& types,
                         const std::vector<const MARIADB_CHARSET_INFO*>& convert) {
  std::string payload;
  for (std::size_t i = 0; i < types.size(); ++i) {
    std::string field;
    if (row[i] && convert[i]) {
      encode_value(static_cast<x_type>(types[i]), to_utf8mb4({row[i], lengths[i]}, convert[i]),
                   field);
    } else if (row[i] && types[i] == json_column) {
      // MariaDB returns JSON as it was written; MySQL prints its binary form.
      const std::string_view text(row[i], lengths[i]);
      const auto mysql =
          mysql_json_text(text, emulate_57() ? json_dialect::mysql57 : json_dialect::mysql80);
      encode_value(x_type::bytes, mysql ? std::string_view(*mysql) : text, field);
    } else if (row[i]) {
      encode_value(static_cast<x_type>(types[i]), {row[i], lengths[i]}, field);
    }
    payload += '\x0a'; // Row.field = 1, length-delimited
    append_varint(field.size(), payload);
    payload += field;
  }
  m_out.add_raw(server_msg::resultset_row, payload);
}

std::optional<std::string> session::answer_connect_attrs(std::string_view sql) {
  if (!names_connect_attrs_table(sql)) return std::nullopt; // the fast path
  connect_attrs_source source;
  source.table = [&](bool account_only) {
    std::vector<attrs_session> sessions;
    for (auto& c : m_state.clients()) {
      // session_account_connect_attrs: the threads of this session's
      // account (user and host), as table_session_account_connect_attrs.
      if (account_only && (c.user != m_user || c.host != m_peer_host)) continue;
      sessions.push_back({c.sql_session, c.user, c.host, std::move(c.attrs)});
    }
    return connect_attrs_table_sql(sessions,
                                   [&](std::string_view text) { return m_db->quote(text); });
  };
  source.default_db_is_performance_schema = [&] {
    auto rows = m_db->select("SELECT DATABASE()");
    return rows && !rows->empty() && rows->front()[0] == "performance_schema";
  };
  return rewrite_connect_attrs_tables(sql, source);
}

stmt_result session::execute_sql(std::string_view sql, bool rows_affected_notice) {
  // Read from xserverd's registry, not from MariaDB (connect_attrs_table.h).
  const auto attrs_sql = answer_connect_attrs(sql);
  if (attrs_sql) sql = *attrs_sql;
  MYSQL* m = m_db->handle();
  if (mysql_real_query(m, sql.data(), sql.size()) != 0) return m_db->last_error();
  if (m_faults.close_before_commit_ok && is_commit(sql)) {
    // Applied, but the client never hears about it (a server that dies
    // right after its COMMIT).
    m_faults.close_before_commit_ok = false;
    m_out.clear();
    m_closing = true;
    m_io->close();
    return std::nullopt;
  }
  if (m_faults.error_after_commit && is_commit(sql)) {
    m_faults.error_after_commit = false;
    return make_error(2013, "Lost connection to server during query (injected after the COMMIT)");
  }
  bool pending_done = false;
  std::uint64_t affected = 0, insert_id = 0;
  std::string info;
  for (;;) {
    if (MYSQL_RES* res = mysql_use_result(m)) {
      if (pending_done) m_out.add_empty(server_msg::resultset_fetch_done_more_resultsets);
      const unsigned n = mysql_num_fields(res);
      MYSQL_FIELD* fields = mysql_fetch_fields(res);
      std::vector<int> types(n);
      std::vector<const MARIADB_CHARSET_INFO*> convert(n);
      for (unsigned i = 0; i < n; ++i) {
        Mysqlx::Resultset::ColumnMetaData meta;
        fill_column_metadata(fields[i], m_compact_metadata, meta);
        types[i] = is_json_column(fields[i]) ? json_column : static_cast<int>(x_type_of(fields[i]));
        convert[i] = charset_to_convert(fields[i]);
        m_out.add(server_msg::resultset_column_meta_data, meta);
      }
      while (MYSQL_ROW row = mysql_fetch_row(res)) {
        append_row(row, mysql_fetch_lengths(res), types, convert);
        if (m_out.bytes().size() > 262144 && !m_hold_output) flush();
      }
      const bool failed = mysql_errno(m) != 0;
      mysql_free_result(res);
      if (failed) return m_db->last_error();
      pending_done = true;
      affected = 0;
    } else if (mysql_field_count(m) != 0) {
      return m_db->last_error();
    } else {
      affected = mysql_affected_rows(m);
      insert_id = mysql_insert_id(m);
      const char* i = mysql_info(m);
      info = i ? i : "";
    }
    const int next = mysql_next_result(m);
    if (next > 0) {
      // A statement of a procedure failed after result sets of its own:
      // the client gets those, the FetchDoneMoreResultsets that closes the
      // last of them, then the error, which it meets when it moves on to
      // the next result (Streaming_command_delegate::handle_error in
      // MySQL's plugin/x/src/streaming_command_delegate.cc).
      if (pending_done) m_out.add_empty(server_msg::resultset_fetch_done_more_resultsets);
      return m_db->last_error();
    }
    if (next < 0) break;
  }
  if (pending_done) m_out.add_empty(server_msg::resultset_fetch_done);
  send_ok_notices(affected, insert_id, info, nullptr, rows_affected_notice);
  return std::nullopt;
}

void session::send_ok_notices(std::uint64_t affected, std::uint64_t insert_id,
                              const std::string& info, const std::vector<std::string>* doc_ids,
                              bool rows_affected_notice) {
  if (mysql_warning_count(m_db->handle()) > 0) {
    if (auto rows = m_db->select("SHOW WARNINGS")) {
      for (const auto& w : *rows) {
        const std::string level = w[0].value_or("Warning");
        const unsigned lvl = level == "Note" ? 1 : level == "Error" ? 3 : 2;
        m_out.notice_warning(lvl, static_cast<std::uint32_t>(std::stoul(w[1].value_or("0"))),
                             w[2].value_or(""));
      }
    }
  }
  if (!info.empty()) m_out.notice_message(info);
  if (rows_affected_notice) m_out.notice_uint(state_param::rows_affected, affected);
  if (insert_id > 0) m_out.notice_uint(state_param::generated_insert_id, insert_id);
  if (doc_ids && !doc_ids->empty()) m_out.notice_document_ids(*doc_ids);
  m_out.stmt_ok();
}

} // namespace xserver
