// Crud.Update -> UPDATE (X Plugin: update_statement_builder.cc).
//
// Document model: consecutive operations of one type share one JSON function,
// and the functions nest in message order, e.g. [SET a, SET b, REMOVE c] is
// JSON_REMOVE(JSON_SET(doc,'$.a',..,'$.b',..),'$.c'). 8.0 then restores the
// original `_id` around it all, so ITEM_MERGE / MERGE_PATCH can't change it.
#include "test/xserver/sqlgen/detail.h"

namespace xserver::sqlgen {
namespace detail {
namespace {

using Mysqlx::Crud::UpdateOperation;
using Operations = google::protobuf::RepeatedPtrField<UpdateOperation>;

bool is_merge(int op) {
  return op == UpdateOperation::ITEM_MERGE || op == UpdateOperation::MERGE_PATCH;
}

bool is_short_path(const Doc_path& p, std::string_view member) {
  return p.size() == 1 && p.Get(0).type() == Mysqlx::Expr::DocumentPathItem::MEMBER &&
         p.Get(0).value() == member;
}

const Expr& value_of(const UpdateOperation& item) {
  if (!item.has_value()) missing_field("Mysqlx.Crud.UpdateOperation.value");
  return item.value();
}

const char* json_function(int op, bool v57) {
  switch (op) {
  case UpdateOperation::ITEM_REMOVE:
    return "JSON_REMOVE(";
  case UpdateOperation::ITEM_SET:
    return "JSON_SET(";
  case UpdateOperation::ITEM_REPLACE:
    return "JSON_REPLACE(";
  case UpdateOperation::ITEM_MERGE:
    return v57 ? "JSON_MERGE(" : "JSON_MERGE_PRESERVE(";
  case UpdateOperation::ARRAY_INSERT:
    return "JSON_ARRAY_INSERT(";
  case UpdateOperation::ARRAY_APPEND:
    return "JSON_ARRAY_APPEND(";
  case UpdateOperation::MERGE_PATCH:
    return v57 ? nullptr : "JSON_MERGE_PATCH(";
  default:
    return nullptr;
  }
}

void write_document_item(expr_writer& w, const UpdateOperation& item, bool v57) {
  const auto& src = item.source();
  if (src.has_schema_name() || src.has_table_name() || src.has_name())
    fail(xerr::bad_column_to_update, "Invalid column name to update");
  const auto& path = src.document_path();
  if (!is_merge(item.operation())) {
    if ((v57 && path.empty()) ||
        (!path.empty() && path.Get(0).type() != Mysqlx::Expr::DocumentPathItem::MEMBER &&
         path.Get(0).type() != Mysqlx::Expr::DocumentPathItem::MEMBER_ASTERISK))
      fail(xerr::bad_member_to_update, "Invalid document member location");
    if (is_short_path(path, "_id"))
      fail(xerr::bad_member_to_update, "Forbidden update operation on '$._id' member");
    w.put(",");
    if (path.empty())
      w.put("'$'");
    else
      w.path(path);
  }
  switch (item.operation()) {
  case UpdateOperation::ITEM_REMOVE:
    if (item.has_value())
      fail(xerr::bad_update_data, "Unexpected value argument for ITEM_REMOVE operation");
    break;
  case UpdateOperation::ITEM_MERGE:
  case UpdateOperation::MERGE_PATCH:
    if (v57) {
      // 5.7 keeps `_id` by removing it from the merged object.
      const std::string v = w.text(value_of(item));
      w.put(",IF(JSON_TYPE(" + v + ")='OBJECT',JSON_REMOVE(" + v + ",'$._id'),'_ERROR_')");
      break;
    }
    if (!path.empty() && !is_short_path(path, ""))
      fail(xerr::bad_update_data, "Unexpected source for ITEM_MERGE operation");
    w.put(",");
    w.expr(value_of(item));
    break;
  default:
    w.put(",");
    w.expr(value_of(item));
  }
}

// Runs of consecutive operations of one type share one JSON function, except
// ARRAY_APPEND: MySQL ignores an append to a missing path, but MariaDB's
// JSON_ARRAY_APPEND returns NULL then. Each append is therefore its own
// COALESCE(JSON_ARRAY_APPEND(@v:=<doc so far>,..),@v): the document so far is
// kept in a user variable rather than repeated, which would double the SQL
// for every further append.
bool starts_group(const Operations& ops, int i) {
  return i == 0 || ops.Get(i).operation() != ops.Get(i - 1).operation() ||
         ops.Get(i).operation() == UpdateOperation::ARRAY_APPEND;
}

std::string append_variable(int i) {
  return "@`$xserverd_append_" + std::to_string(i) + "`";
}

void write_document_operations(expr_writer& w, const Operations& ops) {
  const bool v57 = w.ctx().opts.emulate == flavor::mysql57;
  w.put(v57 ? "doc=" : "doc=JSON_SET(");
  for (int i = ops.size() - 1; i >= 0; --i) {
    if (!starts_group(ops, i)) continue;
    const char* fn = json_function(ops.Get(i).operation(), v57);
    if (!fn) fail(xerr::bad_type_of_update, "Invalid type of update operation for document");
    if (ops.Get(i).operation() == UpdateOperation::ARRAY_APPEND)
      w.put("COALESCE(JSON_ARRAY_APPEND(" + append_variable(i) + ":=");
    else
      w.put(fn);
  }
  w.put("doc");
  for (int i = 0; i < ops.size(); ++i) {
    write_document_item(w, ops.Get(i), v57);
    if (i + 1 < ops.size() && !starts_group(ops, i + 1)) continue;
    if (ops.Get(i).operation() == UpdateOperation::ARRAY_APPEND) {
      w.put("),");
      w.put(append_variable(i));
    }
    w.put(")");
  }
  if (!v57) w.put(",'$._id',JSON_EXTRACT(`doc`,'$._id'))");
  // In MySQL `_id` is generated from doc, so an update that leaves no `_id`
  // (doc turned NULL or a scalar, `$.*` removed) fails on the NOT NULL key
  // (1048, which the X Plugin reports as 5115). xserverd's `_id` is a plain
  // column: assigning it after doc (MariaDB assigns left to right) gives the
  // same failure instead of a document without `_id`.
  if (w.ctx().opts.id_column) w.put(",`_id`=JSON_UNQUOTE(JSON_EXTRACT(doc,'$._id'))");
}

// One run of operations with the same column and type: `c`=FN(`c`,...).
void write_table_run(expr_writer& w, const Operations& ops, int begin, int end) {
  const auto& src = ops.Get(begin).source();
  if (src.has_schema_name() || src.has_table_name() || src.name().empty())
    fail(xerr::bad_column_to_update, "Invalid column name to update");
  const int op = ops.Get(begin).operation();
  if (op == UpdateOperation::SET) {
    if (src.document_path_size() != 0)
      fail(xerr::bad_column_to_update, "Invalid column name to update");
    for (int i = begin; i < end; ++i) {
      if (i != begin) w.put(",");
      w.column(ops.Get(i).source());
      w.put("=");
      w.expr(value_of(ops.Get(i)));
    }
    return;
  }
  const char* fn = json_function(op, w.ctx().opts.emulate == flavor::mysql57);
  if (!fn) fail(xerr::bad_type_of_update, "Invalid type of update operation for table");
  append_identifier(w.out(), src.name());
  w.put("=");
  w.put(fn);
  append_identifier(w.out(), src.name());
  for (int i = begin; i < end; ++i) {
    const auto& item = ops.Get(i);
    if (!is_merge(op)) {
      if (item.source().document_path_size() == 0)
        fail(xerr::bad_member_to_update, "Invalid member location");
      w.put(",");
      w.path(item.source().document_path());
    }
    if (op != UpdateOperation::ITEM_REMOVE) {
      w.put(",");
      w.expr(value_of(item));
    }
  }
  w.put(")");
}

void write_table_operations(expr_writer& w, const Operations& ops) {
  for (int i = 0; i < ops.size();) {
    int j = i + 1;
    while (j < ops.size() && ops.Get(j).source().name() == ops.Get(i).source().name() &&
           ops.Get(j).operation() == ops.Get(i).operation())
      ++j;
    if (i > 0) w.put(",");
    write_table_run(w, ops, i, j);
    i = j;
  }
}

void write_update(std::string& sql, const Mysqlx::Crud::Update& msg, const options& opts,
                  std::vector<param>* params) {
  if (!msg.has_collection()) missing_field("Mysqlx.Crud.Update.collection");
  const expr_context ctx = context_of(msg, opts, params);
  expr_writer w(ctx, sql);
  w.put("UPDATE ");
  write_collection(sql, msg.collection());
  if (msg.operation_size() == 0) fail(xerr::bad_update_data, "Invalid update expression list");
  for (const auto& item : msg.operation()) {
    if (!item.has_source()) missing_field("Mysqlx.Crud.UpdateOperation.source");
    if (!item.has_operation()) missing_field("Mysqlx.Crud.UpdateOperation.operation");
  }
  w.put(" SET ");
  if (ctx.relational)
    write_table_operations(w, msg.operation());
  else
    write_document_operations(w, msg.operation());
  if (msg.has_criteria()) write_filter(w, msg.criteria());
  write_order(w, msg.order());
  write_limit(w, msg, true);
}

} // namespace

cdk::error update_error(cdk::error e, bool document) {
  if (e.code != xerr::invalid_json_text_in_param || !document) return e;
  return cdk::error{xerr::bad_update_data, "HY000",
                    "Invalid data for update operation on document collection table",
                    cdk::error_origin::server, false};
}

} // namespace detail

cdk::result<std::string> render_update(const Mysqlx::Crud::Update& msg, const options& opts) {
  auto res =
      detail::guarded([&](std::string& sql) { detail::write_update(sql, msg, opts, nullptr); });
  if (res.ok()) return res;
  return detail::update_error(std::move(res).err(), msg.data_model() != Mysqlx::Crud::TABLE);
}

cdk::result<prepared_sql> prepare_update(const Mysqlx::Crud::Update& msg, const options& opts) {
  const bool document = msg.data_model() != Mysqlx::Crud::TABLE;
  auto res =
      detail::guarded_prepared(msg.args_size(), document, [&](std::string& sql, auto* params) {
        detail::write_update(sql, msg, opts, params);
      });
  if (res.ok()) return res;
  return detail::update_error(std::move(res).err(), document);
}

} // namespace xserver::sqlgen
