// Crud.Find, Crud.Update and Crud.Delete: sqlgen renders the SQL (with the
// X Plugin's errors: 5053 for an update of `$._id`, 515x for expressions),
// xserverd runs it and answers as the X Plugin's CRUD handler does.
#include "mysqlx_crud.pb.h"
#include "test/xserver/collection_validation.h"
#include "test/xserver/session.h"
#include "test/xserver/sqlgen/sqlgen.h"

#include <mysql.h>

namespace xserver {

namespace {

template <typename M> bool parse(M& msg, const std::string& payload) {
  return msg.ParseFromString(payload);
}

} // namespace

sqlgen::options session::sqlgen_options() const {
  sqlgen::options opts;
  opts.emulate = emulate_57() ? sqlgen::flavor::mysql57 : sqlgen::flavor::mysql80;
  return opts;
}

stmt_result session::on_crud_find(const std::string& payload) {
  Mysqlx::Crud::Find msg;
  if (!parse(msg, payload)) return make_error(errc::x_bad_message, "Invalid message");
  auto sql = sqlgen::render_find(msg, sqlgen_options());
  if (!sql.ok()) return from_cdk(sql.err());
  return run_find(sql.value(), msg, false);
}

stmt_result session::run_find(const std::string& sql, const Mysqlx::Crud::Find& msg,
                              bool compact_metadata) {
  m_compact_metadata = compact_metadata;
  stmt_result r = execute_sql(sql, /*rows_affected_notice=*/false);
  if (r && msg.data_model() != Mysqlx::Crud::TABLE)
    return remap_document_error(*r, msg.collection().name());
  return r;
}

stmt_result session::on_crud_update(const std::string& payload) {
  Mysqlx::Crud::Update msg;
  if (!parse(msg, payload)) return make_error(errc::x_bad_message, "Invalid message");
  auto sql = sqlgen::render_update(msg, sqlgen_options());
  if (!sql.ok()) return from_cdk(sql.err());
  return run_update(sql.value(), msg);
}

stmt_result session::run_update(const std::string& sql, const Mysqlx::Crud::Update& msg) {
  const bool document = msg.data_model() != Mysqlx::Crud::TABLE;
  if (document && !emulate_57()) {
    const validation_options opts =
        cached_validation(msg.collection().schema(), msg.collection().name());
    if (opts.strict)
      return run_validated_update(sql, msg.collection().schema(), msg.collection().name(),
                                  opts.schema);
  }
  return run_modification(sql, document ? &msg.collection().name() : nullptr);
}

stmt_result session::run_validated_update(const std::string& sql, const std::string& schema,
                                          const std::string& collection,
                                          const std::string& json_schema) {
  // Inside the client's transaction (or with autocommit off) a savepoint
  // undoes just this statement; otherwise a transaction of its own.
  auto state = m_db->select("SELECT @@in_transaction OR NOT @@autocommit");
  const bool nested = state && !state->empty() && (*state)[0][0].value_or("0") == "1";
  if (!m_db->exec(nested ? "SAVEPOINT `$xserverd_validation`" : "START TRANSACTION"))
    return m_db->last_error();
  auto undo = [&] {
    m_db->exec(nested ? "ROLLBACK TO SAVEPOINT `$xserverd_validation`" : "ROLLBACK");
  };
  MYSQL* m = m_db->handle();
  if (mysql_real_query(m, sql.data(), sql.size()) != 0) {
    x_error e = m_db->last_error();
    undo();
    if (e.code == errc::json_syntax)
      return make_error(errc::x_bad_update_data,
                        "Invalid data for update operation on document collection table");
    return remap_document_error(e, collection);
  }
  const std::uint64_t affected = mysql_affected_rows(m);
  const char* info = mysql_info(m);
  const std::string info_text = info ? info : "";
  // The collection's documents were valid before (store_validation checked
  // them), so checking them all afterwards checks the changed ones.
  const std::string table = schema.empty()
                                ? quote_identifier(collection)
                                : quote_identifier(schema) + "." + quote_identifier(collection);
  if (affected > 0)
    if (auto e = check_all_documents(*m_db, table, document_validator(json_schema))) {
      undo();
      return e;
    }
  if (!m_db->exec(nested ? "RELEASE SAVEPOINT `$xserverd_validation`" : "COMMIT")) {
    x_error e = m_db->last_error();
    undo();
    return e;
  }
  send_ok_notices(affected, 0, info_text, nullptr);
  return std::nullopt;
}

stmt_result session::on_crud_delete(const std::string& payload) {
  Mysqlx::Crud::Delete msg;
  if (!parse(msg, payload)) return make_error(errc::x_bad_message, "Invalid message");
  auto sql = sqlgen::render_delete(msg, sqlgen_options());
  if (!sql.ok()) return from_cdk(sql.err());
  return run_delete(sql.value(), msg);
}

stmt_result session::run_delete(const std::string& sql, const Mysqlx::Crud::Delete& msg) {
  const bool document = msg.data_model() != Mysqlx::Crud::TABLE;
  return run_modification(sql, document ? &msg.collection().name() : nullptr);
}

stmt_result session::run_modification(const std::string& sql, const std::string* collection) {
  MYSQL* m = m_db->handle();
  if (mysql_real_query(m, sql.data(), sql.size()) != 0) {
    x_error e = m_db->last_error();
    if (collection && e.code == errc::json_syntax) // MariaDB's 4038 where MySQL has 3141
      return make_error(errc::x_bad_update_data,
                        "Invalid data for update operation on document collection table");
    return collection ? remap_document_error(e, *collection) : e;
  }
  const char* info = mysql_info(m);
  send_ok_notices(mysql_affected_rows(m), 0, info ? info : "", nullptr);
  return std::nullopt;
}

// MariaDB's errors on a document collection, as the X Plugin remaps them
// for DOCUMENT-model requests (facts section 5).
x_error remap_document_error(x_error e, const std::string& collection) {
  switch (e.code) {
  case errc::dup_entry:
    return make_error(errc::x_doc_id_duplicate,
                      "Document contains a field value that is not unique but required to be");
  case errc::bad_null:
    return make_error(errc::x_doc_id_missing, "Document is missing a required field");
  case errc::constraint_failed:
    // A field an index declares required (admin_index.cc): MySQL's NOT NULL
    // generated column fails with 1048, reported as 5115.
    if (e.message.find("`$req_") != std::string::npos)
      return make_error(errc::x_doc_id_missing, "Document is missing a required field");
    return e;
  case errc::bad_field:
    return make_error(errc::x_doc_required_field_missing,
                      "Table '" + collection + "' is not a document collection");
  default:
    return e;
  }
}

} // namespace xserver
