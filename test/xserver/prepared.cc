// Mysqlx.Prepare. MySQL's X Plugin prepares every statement on the server
// (prepare_command_handler.cc, prepared_statement_builder.cc), so
// performance_schema shows it and max_prepared_stmt_count limits it.
// xserverd does the same on the session's MariaDB connection:
// - Sql.StmtExecute in namespace "sql": PREPARE `xstmt_<id>` FROM the SQL,
//   EXECUTE ... USING the arguments.
// - Crud.Find / Update / Delete / Insert: the SQL is built once at Prepare,
//   with `?` where a placeholder takes an Execute argument (sqlgen's
//   prepare_*()); Execute passes sqlgen::bind_params()'s values. A
//   DOCUMENT-model Insert is `INSERT INTO c (doc) VALUES (?),...`, one `?`
//   per row: each Execute renders the documents as the unprepared insert
//   does, so ids are generated per execution (MySQL calls its
//   MYSQLX_GENERATE_DOCUMENT_ID() inside the statement instead).
// Errors the statement's shape causes come at Prepare, as in MySQL; a
// MariaDB error at PREPARE (1461 when max_prepared_stmt_count is exhausted,
// 1146 for a missing collection) is passed through, as MySQL passes mysqld's.
// DEALLOCATE PREPARE at Deallocate; Session.Reset and close drop them with
// the MariaDB session. SQL naming the X Plugin's variables (answered by
// xserverd), SQL reading performance_schema's connect attribute tables
// (answered from the sessions of each Execute, connect_attrs_table.h) and
// admin commands are kept as messages and run at Execute.
#include "mysqlx_prepare.pb.h"
#include "test/xserver/connect_attrs_table.h"
#include "test/xserver/session.h"
#include "test/xserver/sql_text.h"

#include <algorithm>
#include <cctype>

namespace xserver {

namespace {

using Mysqlx::Datatypes::Any;
using Prepared = Mysqlx::Prepare::Prepare::OneOfMessage;

// X Plugin error numbers (plugin/x/src/xpl_error.h).
constexpr std::uint32_t er_x_prepared_execute_argument_not_supported = 5133;

x_error not_prepared(std::uint32_t id) {
  return make_error(errc::x_bad_statement_id,
                    "Statement with ID=" + std::to_string(id) + " was not prepared.");
}

std::string server_name(std::uint32_t id) {
  return "`xstmt_" + std::to_string(id) + "`";
}

std::string using_clause(const std::vector<std::string>& values) {
  std::string out;
  for (const auto& v : values) out += (out.empty() ? " USING " : ", ") + v;
  return out;
}

// SQL that xserverd answers itself (the X Plugin's variables) is not sent
// to MariaDB to prepare.
bool names_xvars(std::string sql) {
  std::transform(sql.begin(), sql.end(), sql.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return sql.find("mysqlx_") != std::string::npos;
}

// The collection of a DOCUMENT-model Crud message (its MariaDB errors are
// remapped as the X Plugin remaps them), else nullptr.
const std::string* document_collection(const Prepared& p) {
  auto of = [](const auto& m) {
    return m.data_model() == Mysqlx::Crud::TABLE ? nullptr : &m.collection().name();
  };
  switch (p.type()) {
  case Prepared::FIND:
    return of(p.find());
  case Prepared::INSERT:
    return of(p.insert());
  case Prepared::UPDATE:
    return of(p.update());
  case Prepared::DELETE:
    return of(p.delete_());
  default:
    return nullptr;
  }
}

// The params of a DOCUMENT-model Insert: the Execute arguments its rows'
// placeholders take, for the check that each has one.
std::vector<sqlgen::param> row_params(const Mysqlx::Crud::Insert& msg) {
  const auto own = static_cast<std::uint32_t>(msg.args_size());
  std::vector<sqlgen::param> out;
  for (const auto& row : msg.row())
    for (const auto& field : row.field())
      for (std::uint32_t pos : sqlgen::placeholder_positions(field))
        if (pos >= own) out.push_back(sqlgen::param{sqlgen::param_kind::value, pos - own});
  return out;
}

} // namespace

void session::drop_statement(std::uint32_t id) {
  auto it = m_prepared.find(id);
  if (it == m_prepared.end()) return;
  if (it->second.on_server) m_db->exec("DEALLOCATE PREPARE " + server_name(id));
  m_prepared.erase(it);
  close_cursors_of(id); // its cursor goes with it
}

void session::drop_all_statements() {
  for (const auto& [id, st] : m_prepared)
    if (st.on_server && m_db) m_db->exec("DEALLOCATE PREPARE " + server_name(id));
  m_prepared.clear();
  m_cursors.clear();
}

std::optional<x_error> session::prepare_crud(prepared_statement& st) const {
  const sqlgen::options opts = sqlgen_options();
  const Prepared& p = st.msg;
  auto built = [&]() -> cdk::result<sqlgen::prepared_sql> {
    switch (p.type()) {
    case Prepared::FIND:
      return sqlgen::prepare_find(p.find(), opts);
    case Prepared::UPDATE:
      return sqlgen::prepare_update(p.update(), opts);
    case Prepared::DELETE:
      return sqlgen::prepare_delete(p.delete_(), opts);
    default:
      return sqlgen::prepare_insert_table(p.insert(), opts);
    }
  };
  if (p.type() == Prepared::INSERT && p.insert().data_model() != Mysqlx::Crud::TABLE) {
    if (auto e = check_document_insert(p.insert())) return e;
    std::string rows;
    for (int i = 0; i < p.insert().row_size(); ++i) rows += i == 0 ? "(?)" : ",(?)";
    st.sql.sql = document_insert_sql(p.insert(), rows);
    st.sql.params = row_params(p.insert());
    st.sql.args_offset = static_cast<std::uint32_t>(p.insert().args_size());
    return std::nullopt;
  }
  if (p.type() == Prepared::INSERT)
    if (auto e = check_table_insert(p.insert())) return e;
  auto sql = built();
  if (!sql.ok()) return from_cdk(sql.err());
  st.sql = std::move(sql.value());
  return std::nullopt;
}

stmt_result session::on_prepare(const std::string& payload) {
  Mysqlx::Prepare::Prepare msg;
  if (!msg.ParseFromString(payload) || !msg.has_stmt())
    return make_error(errc::x_bad_message, "Invalid message");
  const Prepared& p = msg.stmt();
  const bool present = (p.type() == Prepared::FIND && p.has_find()) ||
                       (p.type() == Prepared::INSERT && p.has_insert()) ||
                       (p.type() == Prepared::UPDATE && p.has_update()) ||
                       (p.type() == Prepared::DELETE && p.has_delete_()) ||
                       (p.type() == Prepared::STMT && p.has_stmt_execute());
  if (!present) return make_error(errc::x_invalid_argument, "Invalid argument");
  const std::uint32_t id = msg.stmt_id();
  // As MySQL's execute_prepare: a statement under this id goes first.
  drop_statement(id);
  prepared_statement st;
  st.msg = p;
  if (p.type() != Prepared::STMT) {
    if (auto e = prepare_crud(st)) return e;
    st.on_server = true;
  } else if (p.stmt_execute().namespace_() == "sql" && !names_xvars(p.stmt_execute().stmt()) &&
             !names_connect_attrs_table(p.stmt_execute().stmt())) {
    st.sql.sql = p.stmt_execute().stmt();
    st.on_server = true;
  }
  if (st.on_server) {
    x_error err;
    if (!m_db->exec("PREPARE " + server_name(id) + " FROM " + m_db->quote(st.sql.sql), &err)) {
      const std::string* collection = document_collection(p);
      return collection ? remap_document_error(err, *collection) : err;
    }
  }
  m_prepared[id] = std::move(st);
  m_out.ok();
  return std::nullopt;
}

stmt_result session::on_execute(const std::string& payload) {
  Mysqlx::Prepare::Execute msg;
  if (!msg.ParseFromString(payload)) return make_error(errc::x_bad_message, "Invalid message");
  auto it = m_prepared.find(msg.stmt_id());
  if (it == m_prepared.end()) return not_prepared(msg.stmt_id());
  const prepared_statement& st = it->second;
  if (st.msg.type() != Prepared::STMT) return execute_crud(msg.stmt_id(), st, msg);
  if (st.on_server) return execute_server_statement(msg.stmt_id(), st.sql.sql, msg);
  Mysqlx::Sql::StmtExecute stmt = st.msg.stmt_execute();
  *stmt.mutable_args() = msg.args();
  stmt.set_compact_metadata(msg.compact_metadata());
  return on_stmt_execute(stmt.SerializeAsString());
}

stmt_result session::execute_server_statement(std::uint32_t id, const std::string& sql,
                                              const Mysqlx::Prepare::Execute& msg) {
  // The same checks and errors as an unprepared StmtExecute with these args.
  if (msg.args_size() > 0 && !bind_sql_placeholders(sql, msg.args(), *m_db))
    return make_error(errc::x_cmd_num_arguments, "Too many arguments");
  std::vector<std::string> values;
  for (const auto& a : msg.args()) values.push_back(scalar_to_sql(a.scalar(), *m_db));
  m_compact_metadata = msg.compact_metadata();
  m_ran_own_sql = true;
  return execute_sql("EXECUTE " + server_name(id) + using_clause(values));
}

stmt_result session::execute_crud(std::uint32_t id, const prepared_statement& st,
                                  const Mysqlx::Prepare::Execute& msg) {
  // MySQL's order (prepare_param_handler.cc): each placeholder has an
  // argument (5134), each of those is a scalar (5133), then it runs.
  auto enough = sqlgen::check_args(st.sql.params, st.sql.args_offset,
                                   static_cast<std::size_t>(msg.args_size()));
  if (!enough.ok()) return from_cdk(enough.err());
  for (const sqlgen::param& p : st.sql.params) {
    const Any& a = msg.args(static_cast<int>(p.arg));
    if (a.type() != Any::SCALAR)
      return make_error(er_x_prepared_execute_argument_not_supported,
                        "Argument at index '" + std::to_string(p.arg) + "' and of type '" +
                            a.GetTypeName() +
                            "' is not supported for binding to prepared statement");
  }
  sqlgen::arg_list args;
  for (const auto& a : msg.args()) *args.Add() = a.scalar();
  const std::string exec = "EXECUTE " + server_name(id);
  const Prepared& p = st.msg;
  if (p.type() == Prepared::INSERT && p.insert().data_model() != Mysqlx::Crud::TABLE) {
    // Placeholders number the message's own args first (MySQL's numbering).
    sqlgen::arg_list all = p.insert().args();
    all.MergeFrom(args);
    document_rows rows;
    if (auto e = render_document_rows(p.insert(), all, rows)) return e;
    return finish_document_insert(exec + using_clause(rows.docs), p.insert(), rows);
  }
  auto values = sqlgen::bind_params(st.sql, args, sqlgen_options());
  if (!values.ok()) return from_cdk(values.err());
  const std::string sql = exec + using_clause(values.value());
  switch (p.type()) {
  case Prepared::FIND:
    return run_find(sql, p.find(), msg.compact_metadata());
  case Prepared::UPDATE:
    return run_update(sql, p.update());
  case Prepared::DELETE:
    return run_delete(sql, p.delete_());
  default:
    return run_insert(sql, nullptr, {});
  }
}

stmt_result session::on_deallocate(const std::string& payload) {
  Mysqlx::Prepare::Deallocate msg;
  if (!msg.ParseFromString(payload)) return make_error(errc::x_bad_message, "Invalid message");
  if (m_prepared.count(msg.stmt_id()) == 0) return not_prepared(msg.stmt_id());
  drop_statement(msg.stmt_id());
  m_out.ok();
  return std::nullopt;
}

} // namespace xserver
