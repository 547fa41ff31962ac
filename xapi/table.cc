// Tables: handles, one-shot select / insert / update / delete, their
// statement handles and setters, and the setters a table select shares with
// a collection find (grouping, HAVING, row locks). A statement keeps its
// parts; execute_table() builds the devapi statement from them, as
// mysqlx_execute() does for collections (session.cc).
#include "xapi/handles.h"

#include <cstdarg>
#include <string>
#include <vector>

using mysqlx::xapi::c_error;
using mysqlx::xapi::guarded;
using mysqlx::xapi::read_params;
using mysqlx::xapi::read_sort;
using mysqlx::xapi::read_strings;
using mysqlx::xapi::require_op;
using mysqlx::xapi::run_plain;
using stmt_op = mysqlx_stmt_struct::op;

namespace {

mysqlx_stmt_t* new_table_stmt(mysqlx_table_t* table, stmt_op op) {
  return guarded(table, static_cast<mysqlx_stmt_t*>(nullptr), [&] {
    mysqlx_session_struct& sess = table->m_owner.m_owner;
    auto st = std::make_unique<mysqlx_stmt_struct>(sess, table, op);
    mysqlx_stmt_struct* raw = st.get();
    sess.m_stmts.emplace(raw, std::move(st));
    return raw;
  });
}

// A one-shot call: the statement `st` (on the stack) run, its result handed
// to the session, its error moved to the table.
mysqlx_result_t* run_now(mysqlx_table_t* table, mysqlx_stmt_struct& st) {
  mysqlx_result_t* r = mysqlx_execute(&st);
  if (r == nullptr) {
    table->m_error.set(st.m_error.num(), st.m_error.message() ? st.m_error.message() : "");
    return nullptr;
  }
  r->m_stmt = nullptr; // the session owns it from now on
  return table->m_owner.m_owner.adopt(std::move(st.m_result));
}

template <typename Stmt> void apply_filters(Stmt& s, const mysqlx_stmt_struct& st) {
  if (!st.m_where.empty()) s.where(st.m_where);
  if (!st.m_sort.empty()) s.orderBy(st.m_sort);
  if (st.m_limit) s.limit(*st.m_limit);
  for (std::size_t i = 0; i < st.m_bind_names.size(); ++i)
    s.bind(st.m_bind_names[i], st.m_bind_values[i]);
}

} // namespace

void mysqlx::xapi::execute_table(mysqlx_stmt_struct& st, mysqlx_result_struct& r) {
  mysqlx::Table& t = st.m_table->m_table;
  switch (st.m_op) {
  case stmt_op::select: {
    mysqlx::TableSelect s = t.select(st.m_items);
    apply_filters(s, st);
    if (st.m_offset != 0) s.offset(st.m_offset);
    if (!st.m_group_by.empty()) s.groupBy(st.m_group_by);
    if (!st.m_having.empty()) s.having(st.m_having);
    apply_lock(s, st);
    r.m_table_rows.emplace(s.execute());
    return;
  }
  case stmt_op::insert: {
    if (st.m_insert_rows.empty())
      throw c_error(0, "No rows to insert: see mysqlx_set_insert_row()");
    mysqlx::TableInsert ins = t.insert(st.m_insert_columns);
    for (const auto& row : st.m_insert_rows) ins.values(row);
    r.m_plain.emplace(ins.execute());
    return;
  }
  case stmt_op::update: {
    if (st.m_update_columns.empty())
      throw c_error(0, "No values to update: see mysqlx_set_update_values()");
    mysqlx::TableUpdate u = t.update();
    for (std::size_t i = 0; i < st.m_update_columns.size(); ++i)
      u.set(st.m_update_columns[i], st.m_update_values[i]);
    // The C++ API wants a condition; none means every row, as in C.
    if (st.m_where.empty()) u.where("true");
    apply_filters(u, st);
    r.m_plain.emplace(u.execute());
    return;
  }
  case stmt_op::del: {
    mysqlx::TableRemove d = t.remove();
    if (st.m_where.empty()) d.where("true");
    apply_filters(d, st);
    r.m_plain.emplace(d.execute());
    return;
  }
  default:
    throw c_error(0, "Not a table statement");
  }
}

extern "C" {

MYSQLX_C_API mysqlx_table_t* mysqlx_get_table(mysqlx_schema_t* schema, const char* tab_name,
                                              unsigned int check) {
  return guarded(schema, static_cast<mysqlx_table_t*>(nullptr), [&] {
    if (tab_name == nullptr || *tab_name == '\0')
      throw c_error(0, MYSQLX_ERROR_MISSING_TABLE_NAME_MSG);
    auto it = schema->m_tables.find(tab_name);
    if (it == schema->m_tables.end()) {
      auto h = std::make_unique<mysqlx_table_struct>(*schema, schema->m_schema.getTable(tab_name));
      it = schema->m_tables.emplace(tab_name, std::move(h)).first;
    }
    if (check != 0 && !it->second->m_table.existsInDatabase())
      throw c_error(0, (std::string("Table '") + tab_name + "' does not exist").c_str());
    return it->second.get();
  });
}

MYSQLX_C_API int mysqlx_table_count(mysqlx_table_t* table, uint64_t* count) {
  return run_plain(table, [&] {
    if (count == nullptr) throw c_error(0, MYSQLX_ERROR_OUTPUT_VARIABLE_NULL);
    *count = table->m_table.count();
  });
}

MYSQLX_C_API mysqlx_result_t* mysqlx_table_select(mysqlx_table_t* table, const char* criteria) {
  return guarded(table, static_cast<mysqlx_result_t*>(nullptr), [&] {
    mysqlx_stmt_struct st(table->m_owner.m_owner, table, stmt_op::select);
    st.m_where = criteria == nullptr ? "" : criteria;
    return run_now(table, st);
  });
}

MYSQLX_C_API mysqlx_result_t* mysqlx_table_select_limit(mysqlx_table_t* table, const char* criteria,
                                                        uint64_t row_count, uint64_t offset, ...) {
  if (table == nullptr) return nullptr;
  std::vector<std::string> sort;
  XAPI_READ_ARGS(failed, offset, read_sort(args_, sort));
  return guarded(table, static_cast<mysqlx_result_t*>(nullptr), [&] {
    if (failed) std::rethrow_exception(failed);
    mysqlx_stmt_struct st(table->m_owner.m_owner, table, stmt_op::select);
    st.m_where = criteria == nullptr ? "" : criteria;
    st.m_sort = std::move(sort);
    st.m_limit = row_count;
    st.m_offset = offset;
    return run_now(table, st);
  });
}

MYSQLX_C_API mysqlx_result_t* mysqlx_table_insert(mysqlx_table_t* table, ...) {
  if (table == nullptr) return nullptr;
  std::vector<mysqlx::Value> values;
  std::vector<std::string> columns;
  XAPI_READ_ARGS(failed, table, read_params(args_, values, &columns));
  return guarded(table, static_cast<mysqlx_result_t*>(nullptr), [&] {
    if (failed) std::rethrow_exception(failed);
    if (columns.empty()) throw c_error(0, "No columns to insert: the list holds only PARAM_END");
    mysqlx_stmt_struct st(table->m_owner.m_owner, table, stmt_op::insert);
    st.m_insert_columns = std::move(columns);
    st.m_insert_rows.push_back(std::move(values));
    return run_now(table, st);
  });
}

MYSQLX_C_API mysqlx_result_t* mysqlx_table_delete(mysqlx_table_t* table, const char* criteria) {
  return guarded(table, static_cast<mysqlx_result_t*>(nullptr), [&] {
    mysqlx_stmt_struct st(table->m_owner.m_owner, table, stmt_op::del);
    st.m_where = criteria == nullptr ? "" : criteria;
    return run_now(table, st);
  });
}

MYSQLX_C_API mysqlx_result_t* mysqlx_table_update(mysqlx_table_t* table, const char* criteria,
                                                  ...) {
  if (table == nullptr) return nullptr;
  std::vector<mysqlx::Value> values;
  std::vector<std::string> columns;
  XAPI_READ_ARGS(failed, criteria, read_params(args_, values, &columns, true));
  return guarded(table, static_cast<mysqlx_result_t*>(nullptr), [&] {
    if (failed) std::rethrow_exception(failed);
    mysqlx_stmt_struct st(table->m_owner.m_owner, table, stmt_op::update);
    st.m_where = criteria == nullptr ? "" : criteria;
    st.m_update_columns = std::move(columns);
    st.m_update_values = std::move(values);
    return run_now(table, st);
  });
}

MYSQLX_C_API mysqlx_stmt_t* mysqlx_table_select_new(mysqlx_table_t* table) {
  return new_table_stmt(table, stmt_op::select);
}

MYSQLX_C_API mysqlx_stmt_t* mysqlx_table_insert_new(mysqlx_table_t* table) {
  return new_table_stmt(table, stmt_op::insert);
}

MYSQLX_C_API mysqlx_stmt_t* mysqlx_table_delete_new(mysqlx_table_t* table) {
  return new_table_stmt(table, stmt_op::del);
}

MYSQLX_C_API mysqlx_stmt_t* mysqlx_table_update_new(mysqlx_table_t* table) {
  return new_table_stmt(table, stmt_op::update);
}

MYSQLX_C_API int mysqlx_set_insert_columns(mysqlx_stmt_t* stmt, ...) {
  if (stmt == nullptr) return RESULT_ERROR;
  std::vector<std::string> columns;
  XAPI_READ_ARGS(failed, stmt, read_strings(args_, columns));
  return run_plain(stmt, [&] {
    if (failed) std::rethrow_exception(failed);
    require_op(stmt->m_op == stmt_op::insert, "mysqlx_set_insert_columns()");
    // New columns start a new insert: the rows given so far go, as in the
    // official library (they were for the old columns).
    stmt->m_insert_columns = std::move(columns);
    stmt->m_insert_rows.clear();
  });
}

MYSQLX_C_API int mysqlx_set_insert_row(mysqlx_stmt_t* stmt, ...) {
  if (stmt == nullptr) return RESULT_ERROR;
  std::vector<mysqlx::Value> values;
  XAPI_READ_ARGS(failed, stmt, read_params(args_, values));
  return run_plain(stmt, [&] {
    if (failed) std::rethrow_exception(failed);
    require_op(stmt->m_op == stmt_op::insert, "mysqlx_set_insert_row()");
    if (values.empty()) throw c_error(0, "An empty row: the list holds only PARAM_END");
    stmt->m_insert_rows.push_back(std::move(values));
  });
}

MYSQLX_C_API int mysqlx_set_update_values(mysqlx_stmt_t* stmt, ...) {
  if (stmt == nullptr) return RESULT_ERROR;
  std::vector<mysqlx::Value> values;
  std::vector<std::string> columns;
  XAPI_READ_ARGS(failed, stmt, read_params(args_, values, &columns, true));
  return run_plain(stmt, [&] {
    if (failed) std::rethrow_exception(failed);
    require_op(stmt->m_op == stmt_op::update, "mysqlx_set_update_values()");
    if (columns.empty()) throw c_error(0, "No values: the list holds only PARAM_END");
    stmt->m_update_columns = std::move(columns);
    stmt->m_update_values = std::move(values);
  });
}

MYSQLX_C_API int mysqlx_set_items(mysqlx_stmt_t* stmt, ...) {
  if (stmt == nullptr) return RESULT_ERROR;
  std::vector<std::string> items;
  XAPI_READ_ARGS(failed, stmt, read_strings(args_, items));
  return run_plain(stmt, [&] {
    if (failed) std::rethrow_exception(failed);
    require_op(stmt->m_op == stmt_op::select, "mysqlx_set_items()");
    stmt->m_items = std::move(items);
  });
}

MYSQLX_C_API int mysqlx_set_group_by(mysqlx_stmt_t* stmt, ...) {
  if (stmt == nullptr) return RESULT_ERROR;
  std::vector<std::string> exprs;
  XAPI_READ_ARGS(failed, stmt, read_strings(args_, exprs));
  return run_plain(stmt, [&] {
    if (failed) std::rethrow_exception(failed);
    require_op(stmt->m_op == stmt_op::select || stmt->m_op == stmt_op::find,
               "mysqlx_set_group_by()");
    stmt->m_group_by = std::move(exprs);
  });
}

MYSQLX_C_API int mysqlx_set_having(mysqlx_stmt_t* stmt, const char* having_expr) {
  return run_plain(stmt, [&] {
    require_op(stmt->m_op == stmt_op::select || stmt->m_op == stmt_op::find, "mysqlx_set_having()");
    stmt->m_having = having_expr == nullptr ? std::string() : std::string(having_expr);
  });
}

MYSQLX_C_API int mysqlx_set_row_locking(mysqlx_stmt_t* stmt, int locking, int contention) {
  return run_plain(stmt, [&] {
    if (stmt->m_op != stmt_op::select && stmt->m_op != stmt_op::find)
      throw c_error(0, MYSQLX_ERROR_ROW_LOCKING);
    if (locking != ROW_LOCK_NONE && locking != ROW_LOCK_SHARED && locking != ROW_LOCK_EXCLUSIVE)
      throw c_error(0, MYSQLX_ERROR_WRONG_LOCKING_MODE);
    if (contention != LOCK_CONTENTION_DEFAULT && contention != LOCK_CONTENTION_NOWAIT &&
        contention != LOCK_CONTENTION_SKIP_LOCKED)
      throw c_error(0, "Wrong value for the lock contention: LOCK_CONTENTION_DEFAULT, "
                       "_NOWAIT or _SKIP_LOCKED");
    stmt->m_lock = locking;
    stmt->m_contention = contention;
  });
}

} // extern "C"
