// Crud.Insert. DOCUMENT model: the server half of WL#10955 (ids for
// documents without `_id`, one GENERATED_DOCUMENT_IDS notice, 5116 on a
// duplicate, all rows in one statement so a failure inserts nothing).
// With a STRICT validation schema the documents are checked first (5180).
// TABLE model: sqlgen renders the INSERT.
#include "mysqlx_crud.pb.h"
#include "test/xserver/collection_validation.h"
#include "test/xserver/doc_render.h"
#include "test/xserver/session.h"
#include "test/xserver/sqlgen/sqlgen.h"

#include <functional>
#include <mysql.h>
#include <tuple>

namespace xserver {

stmt_result session::on_crud_insert(const std::string& payload) {
  Mysqlx::Crud::Insert msg;
  if (!msg.ParseFromString(payload)) return make_error(errc::x_bad_message, "Invalid message");
  if (msg.data_model() == Mysqlx::Crud::TABLE) {
    if (auto e = check_table_insert(msg)) return e;
    auto sql = sqlgen::render_insert_table(msg, sqlgen_options());
    if (!sql.ok()) return from_cdk(sql.err());
    return run_insert(sql.value(), nullptr, {});
  }
  if (auto e = check_document_insert(msg)) return e;
  document_rows rows;
  if (auto e = render_document_rows(msg, msg.args(), rows)) return e;
  std::string values;
  for (const auto& d : rows.docs) values += (values.empty() ? "(" : ",(") + d + ')';
  return finish_document_insert(document_insert_sql(msg, values), msg, rows);
}

std::optional<x_error> session::check_table_insert(const Mysqlx::Crud::Insert& msg) const {
  if (msg.upsert() && !emulate_57()) // 5.7 had no field 6: ignored
    return make_error(errc::x_bad_insert_data,
                      "Unable update on duplicate key for TABLE data model");
  return std::nullopt;
}

std::optional<x_error> session::check_document_insert(const Mysqlx::Crud::Insert& msg) const {
  if (msg.projection_size() > 0)
    return make_error(errc::x_bad_projection, "Invalid projection for document operation");
  if (msg.row_size() == 0)
    return make_error(errc::x_missing_argument, "Missing row data for Insert");
  for (const auto& row : msg.row())
    if (row.field_size() != 1)
      return make_error(errc::x_bad_insert_data, "Wrong number of fields in row being inserted");
  if (msg.collection().name().empty())
    return make_error(errc::x_bad_table, "Invalid name of table/collection");
  return std::nullopt;
}

std::string session::document_insert_sql(const Mysqlx::Crud::Insert& msg,
                                         const std::string& values) const {
  std::string table;
  if (!msg.collection().schema().empty()) table = quote_identifier(msg.collection().schema()) + ".";
  table += quote_identifier(msg.collection().name());
  std::string sql = "INSERT INTO " + table + " (doc) VALUES " + values;
  // The primary key is the only unique key of a collection here, so a
  // duplicate can only be on `_id`: replace that document. (5.7 had no
  // upsert field: ignored.)
  if (msg.upsert() && !emulate_57()) sql += " ON DUPLICATE KEY UPDATE doc = VALUES(doc)";
  return sql;
}

std::optional<x_error> session::render_document_rows(const Mysqlx::Crud::Insert& msg,
                                                     const sqlgen::arg_list& args,
                                                     document_rows& out) {
  // As the X Plugin: the session's auto_increment pair gives offset and
  // stride of the serial.
  std::uint64_t offset = 1, increment = 1;
  if (!emulate_57())
    if (auto e = auto_increment_pair(offset, increment)) return e;
  const std::uint16_t prefix = m_state.unique_prefix();
  std::function<std::string()> make_id = [&] {
    out.ids.push_back(m_state.generator().generate(prefix, offset, increment));
    return out.ids.back();
  };
  auto quote = [this](std::string_view text) { return m_db->quote(text); };
  for (const auto& row : msg.row()) {
    auto doc = render_document(row.field(0), args, quote, emulate_57() ? nullptr : &make_id,
                               emulate_57() ? json_dialect::mysql57 : json_dialect::mysql80);
    if (!doc.ok()) return from_cdk(doc.err());
    out.docs.push_back(std::move(doc.value().sql));
  }
  return std::nullopt;
}

stmt_result session::finish_document_insert(const std::string& sql, const Mysqlx::Crud::Insert& msg,
                                            const document_rows& rows) {
  // MySQL 8.0's CHECK constraint refuses the whole statement.
  if (!emulate_57())
    if (auto e =
            validate_new_documents(msg.collection().schema(), msg.collection().name(), rows.docs))
      return e;
  return run_insert(sql, &rows.ids, msg.collection().name());
}

std::optional<x_error> session::auto_increment_pair(std::uint64_t& offset,
                                                    std::uint64_t& increment) {
  // The X Plugin reads them from its THD for every insert; here they cost a
  // round trip to MariaDB, so they are read again only after SQL of the
  // client's own may have SET them (server_state::sql_generation()). Except
  // under Galera: wsrep_auto_increment_control moves them itself when the
  // cluster's membership changes, so there they are read for every insert.
  drop_stale_cache();
  if (m_auto_increment) {
    std::tie(offset, increment) = *m_auto_increment;
    return std::nullopt;
  }
  auto vars =
      m_db->select("SELECT @@auto_increment_offset, @@auto_increment_increment, @@wsrep_on");
  if (!vars || vars->size() != 1)
    return make_error(errc::internal_error, "Error executing statement");
  const auto& row = (*vars)[0];
  offset = std::stoull(row[0].value_or("1"));
  increment = std::stoull(row[1].value_or("1"));
  if (row[2].value_or("0") == "0") m_auto_increment.emplace(offset, increment);
  return std::nullopt;
}

std::optional<x_error> session::validate_new_documents(const std::string& schema,
                                                       const std::string& collection,
                                                       const std::vector<std::string>& docs) {
  const validation_options opts = cached_validation(schema, collection);
  if (!opts.strict) return std::nullopt;
  // The documents as MariaDB evaluates them (they may be SQL expressions).
  std::string sql;
  for (const auto& d : docs) sql += (sql.empty() ? "SELECT " : " UNION ALL SELECT ") + d;
  x_error err;
  auto rows = m_db->select(sql, &err);
  if (!rows) return remap_document_error(err, collection);
  const document_validator v(opts.schema);
  for (const auto& row : *rows)
    if (row[0])
      if (auto reason = v.check(*row[0])) return schema_mismatch(*reason);
  return std::nullopt;
}

stmt_result session::run_insert(const std::string& sql, const std::vector<std::string>* doc_ids,
                                const std::string& collection) {
  MYSQL* m = m_db->handle();
  // One statement: InnoDB rolls all its rows back when one fails.
  if (mysql_real_query(m, sql.data(), sql.size()) != 0) {
    x_error e = m_db->last_error();
    return doc_ids ? remap_document_error(e, collection) : e;
  }
  if (m_faults.close_before_insert_ok) {
    // Committed (autocommit), but the client never hears about it.
    m_faults.close_before_insert_ok = false;
    m_out.clear();
    m_closing = true;
    m_io->close();
    return std::nullopt;
  }
  const std::uint64_t affected = mysql_affected_rows(m);
  const std::uint64_t insert_id = doc_ids ? 0 : mysql_insert_id(m);
  const char* info = mysql_info(m);
  send_ok_notices(affected, insert_id, info ? info : "", doc_ids);
  return std::nullopt;
}

} // namespace xserver
