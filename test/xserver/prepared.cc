// Mysqlx.Prepare. MySQL's X Plugin prepares every statement on the server
// (prepare_command_handler.cc), so performance_schema shows it and
// max_prepared_stmt_count limits it. xserverd does that for Sql.StmtExecute
// in namespace "sql": PREPARE `xstmt_<id>` on the session's MariaDB
// connection, EXECUTE ... USING the arguments, DEALLOCATE PREPARE; a
// MariaDB error at PREPARE (1461 when the count is exhausted) is passed
// through, as MySQL passes mysqld's through. Crud messages are still only
// stored, their arguments bound into the message at Execute and run through
// the ordinary handler; nothing of them is validated at Prepare time.
#include "mysqlx_prepare.pb.h"
#include "test/xserver/session.h"
#include "test/xserver/sql_text.h"

#include <algorithm>
#include <cctype>

namespace xserver {

namespace {

using Mysqlx::Datatypes::Any;
using Prepared = Mysqlx::Prepare::Prepare::OneOfMessage;

x_error not_prepared(std::uint32_t id) {
  return make_error(errc::x_bad_statement_id,
                    "Statement with ID=" + std::to_string(id) + " was not prepared.");
}

// Execute's Any arguments as the Scalars a Crud message's args hold.
bool to_scalars(const google::protobuf::RepeatedPtrField<Any>& in,
                google::protobuf::RepeatedPtrField<Mysqlx::Datatypes::Scalar>& out) {
  out.Clear();
  for (const auto& a : in) {
    if (a.type() != Any::SCALAR) return false;
    *out.Add() = a.scalar();
  }
  return true;
}

std::string server_name(std::uint32_t id) {
  return "`xstmt_" + std::to_string(id) + "`";
}

// SQL that xserverd answers itself (the X Plugin's variables) is not sent
// to MariaDB to prepare.
bool names_xvars(std::string sql) {
  std::transform(sql.begin(), sql.end(), sql.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return sql.find("mysqlx_") != std::string::npos;
}

} // namespace

void session::drop_server_statement(std::uint32_t id) {
  if (m_server_prepared.erase(id) > 0) m_db->exec("DEALLOCATE PREPARE " + server_name(id));
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
  if (p.type() == Prepared::STMT && p.stmt_execute().namespace_() == "sql" &&
      !names_xvars(p.stmt_execute().stmt())) {
    // PREPARE under a name in use replaces that statement.
    x_error err;
    if (!m_db->exec("PREPARE " + server_name(id) + " FROM " + m_db->quote(p.stmt_execute().stmt()),
                    &err)) {
      m_server_prepared.erase(id);
      m_prepared.erase(id);
      return err;
    }
    m_server_prepared.insert(id);
  } else {
    drop_server_statement(id);
  }
  m_prepared[id] = p.SerializeAsString();
  m_out.ok();
  return std::nullopt;
}

stmt_result session::on_execute(const std::string& payload) {
  Mysqlx::Prepare::Execute msg;
  if (!msg.ParseFromString(payload)) return make_error(errc::x_bad_message, "Invalid message");
  auto it = m_prepared.find(msg.stmt_id());
  if (it == m_prepared.end()) return not_prepared(msg.stmt_id());
  Prepared p;
  p.ParseFromString(it->second);
  const x_error bad_args = make_error(errc::x_invalid_argument, "Invalid argument");
  switch (p.type()) {
  case Prepared::FIND:
    if (!to_scalars(msg.args(), *p.mutable_find()->mutable_args())) return bad_args;
    return on_crud_find(p.find().SerializeAsString(), msg.compact_metadata());
  case Prepared::INSERT:
    if (!to_scalars(msg.args(), *p.mutable_insert()->mutable_args())) return bad_args;
    return on_crud_insert(p.insert().SerializeAsString());
  case Prepared::UPDATE:
    if (!to_scalars(msg.args(), *p.mutable_update()->mutable_args())) return bad_args;
    return on_crud_update(p.update().SerializeAsString());
  case Prepared::DELETE:
    if (!to_scalars(msg.args(), *p.mutable_delete_()->mutable_args())) return bad_args;
    return on_crud_delete(p.delete_().SerializeAsString());
  case Prepared::STMT:
    if (m_server_prepared.count(msg.stmt_id()) > 0)
      return execute_server_statement(msg.stmt_id(), p.stmt_execute().stmt(), msg);
    *p.mutable_stmt_execute()->mutable_args() = msg.args();
    p.mutable_stmt_execute()->set_compact_metadata(msg.compact_metadata());
    return on_stmt_execute(p.stmt_execute().SerializeAsString());
  }
  return bad_args;
}

stmt_result session::execute_server_statement(std::uint32_t id, const std::string& sql,
                                              const Mysqlx::Prepare::Execute& msg) {
  // The same checks and errors as an unprepared StmtExecute with these args.
  if (msg.args_size() > 0 && !bind_sql_placeholders(sql, msg.args(), *m_db))
    return make_error(errc::x_cmd_num_arguments, "Too many arguments");
  std::string exec = "EXECUTE " + server_name(id);
  for (int i = 0; i < msg.args_size(); ++i)
    exec += (i == 0 ? " USING " : ", ") + scalar_to_sql(msg.args(i).scalar(), *m_db);
  m_compact_metadata = msg.compact_metadata();
  return execute_sql(exec);
}

stmt_result session::on_deallocate(const std::string& payload) {
  Mysqlx::Prepare::Deallocate msg;
  if (!msg.ParseFromString(payload)) return make_error(errc::x_bad_message, "Invalid message");
  if (m_prepared.erase(msg.stmt_id()) == 0) return not_prepared(msg.stmt_id());
  drop_server_statement(msg.stmt_id());
  close_cursors_of(msg.stmt_id()); // its cursor goes with it
  m_out.ok();
  return std::nullopt;
}

} // namespace xserver
