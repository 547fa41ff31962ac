// Crud.Delete -> DELETE and TABLE-model Crud.Insert -> INSERT (X Plugin:
// delete_statement_builder.cc, insert_statement_builder.cc).
#include "test/xserver/sqlgen/detail.h"

namespace xserver::sqlgen {
namespace detail {
namespace {

void write_delete(std::string& sql, const Mysqlx::Crud::Delete& msg, const options& opts,
                  std::vector<param>* params) {
  if (!msg.has_collection()) missing_field("Mysqlx.Crud.Delete.collection");
  const expr_context ctx = context_of(msg, opts, params);
  expr_writer w(ctx, sql);
  w.put("DELETE FROM ");
  write_collection(sql, msg.collection());
  if (msg.has_criteria()) write_filter(w, msg.criteria());
  write_order(w, msg.order());
  write_limit(w, msg, true);
}

void write_insert_table(std::string& sql, const Mysqlx::Crud::Insert& msg, const options& opts,
                        std::vector<param>* params) {
  if (!msg.has_collection()) missing_field("Mysqlx.Crud.Insert.collection");
  if (msg.data_model() != Mysqlx::Crud::TABLE)
    fail(xerr::invalid_argument,
         "Document-model Insert is rendered by xserverd's insert path, not render_insert_table");
  const expr_context ctx = context_of(msg, opts, params);
  expr_writer w(ctx, sql);
  w.put("INSERT INTO ");
  write_collection(sql, msg.collection());
  const int columns = msg.projection_size();
  for (int i = 0; i < columns; ++i) {
    w.put(i == 0 ? " (" : ",");
    append_identifier(sql, msg.projection(i).name());
  }
  if (columns > 0) w.put(")");
  if (msg.row_size() == 0) fail(xerr::missing_argument, "Missing row data for Insert");
  w.put(" VALUES ");
  for (int r = 0; r < msg.row_size(); ++r) {
    const auto& row = msg.row(r);
    if (row.field_size() == 0 || (columns > 0 && row.field_size() != columns))
      fail(xerr::bad_insert_data, "Wrong number of fields in row being inserted");
    w.put(r == 0 ? "(" : ",(");
    for (int f = 0; f < row.field_size(); ++f) {
      if (f > 0) w.put(",");
      w.expr(row.field(f));
    }
    w.put(")");
  }
  // 5.7's protocol has no upsert field: its parser skips it.
  if (msg.upsert() && opts.emulate == flavor::mysql80)
    fail(xerr::bad_insert_data, "Unable update on duplicate key for TABLE data model");
}

} // namespace
} // namespace detail

cdk::result<std::string> render_delete(const Mysqlx::Crud::Delete& msg, const options& opts) {
  return detail::guarded([&](std::string& sql) { detail::write_delete(sql, msg, opts, nullptr); });
}

cdk::result<prepared_sql> prepare_delete(const Mysqlx::Crud::Delete& msg, const options& opts) {
  return detail::guarded_prepared(msg.args_size(), false, [&](std::string& sql, auto* params) {
    detail::write_delete(sql, msg, opts, params);
  });
}

cdk::result<std::string> render_insert_table(const Mysqlx::Crud::Insert& msg, const options& opts) {
  return detail::guarded(
      [&](std::string& sql) { detail::write_insert_table(sql, msg, opts, nullptr); });
}

cdk::result<prepared_sql> prepare_insert_table(const Mysqlx::Crud::Insert& msg,
                                               const options& opts) {
  return detail::guarded_prepared(msg.args_size(), false, [&](std::string& sql, auto* params) {
    detail::write_insert_table(sql, msg, opts, params);
  });
}

} // namespace xserver::sqlgen
