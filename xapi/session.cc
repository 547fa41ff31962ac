// Sessions, schemas, collections, and the statements run from them: SQL,
// add and find. Each builds a devapi statement, executes it and wraps the
// devapi result in a result handle the session owns.
#include "xapi/handles.h"

#include <cstdarg>
#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

using mysqlx::xapi::c_error;
using mysqlx::xapi::caller_error;
using mysqlx::xapi::connect;
using mysqlx::xapi::guarded;
using mysqlx::xapi::require;
using mysqlx::xapi::require_name;

namespace mysqlx::xapi {

mysqlx_session_t* caller_error(mysqlx_error_t** error) noexcept {
  if (error == nullptr) return nullptr;
  auto* e = new (std::nothrow) mysqlx_error_struct();
  if (e == nullptr) return nullptr;
  e->set_from_current_exception();
  e->m_owned_by_caller = true;
  *error = e;
  return nullptr;
}

mysqlx_session_t* connect(const mysqlx::SessionSettings& settings,
                          mysqlx_error_t** error) noexcept {
  try {
    return new mysqlx_session_struct(mysqlx::Session(settings));
  } catch (...) {
    return caller_error(error);
  }
}

} // namespace mysqlx::xapi

mysqlx_result_struct* mysqlx_session_struct::adopt(std::unique_ptr<mysqlx_result_struct> r) {
  mysqlx_result_struct* raw = r.get();
  m_results.emplace(raw, std::move(r));
  return raw;
}

extern "C" {

MYSQLX_C_API mysqlx_session_t* mysqlx_get_session(const char* host, int port, const char* user,
                                                  const char* password, const char* database,
                                                  mysqlx_error_t** error) {
  if (error != nullptr) *error = nullptr;
  try {
    if (port < 0 || port > 65535)
      throw c_error(0, "Port out of range: 0 (for 33060) or 1 to 65535");
    const auto p = port == 0 ? unsigned{DEFAULT_MYSQLX_PORT} : static_cast<unsigned>(port);
    // A NULL password sends none; an empty one is a password.
    const mysqlx::SessionSettings settings =
        password ? mysqlx::SessionSettings(host ? host : "localhost", p, user ? user : "root",
                                           std::string(password), database ? database : "")
                 : mysqlx::SessionSettings(host ? host : "localhost", p, user ? user : "root",
                                           nullptr, database ? database : "");
    return connect(settings, error);
  } catch (...) {
    return caller_error(error);
  }
}

MYSQLX_C_API mysqlx_session_t* mysqlx_get_session_from_url(const char* conn_string,
                                                           mysqlx_error_t** error) {
  if (error != nullptr) *error = nullptr;
  try {
    if (conn_string == nullptr || *conn_string == '\0')
      throw c_error(0, "Missing connection string");
    return connect(mysqlx::SessionSettings(std::string(conn_string)), error);
  } catch (...) {
    return caller_error(error);
  }
}

MYSQLX_C_API mysqlx_client_t* mysqlx_get_client_from_url(const char* conn_string,
                                                         const char* client_opts,
                                                         mysqlx_error_t** error) {
  if (error != nullptr) *error = nullptr;
  try {
    if (conn_string == nullptr || *conn_string == '\0')
      throw c_error(0, "Missing connection string");
    mysqlx::Client c = client_opts == nullptr
                           ? mysqlx::Client(mysqlx::ClientSettings(std::string(conn_string)))
                           : mysqlx::Client(mysqlx::ClientSettings(conn_string, client_opts));
    return new mysqlx_client_struct(std::move(c));
  } catch (...) {
    caller_error(error);
    return nullptr;
  }
}

MYSQLX_C_API mysqlx_session_t* mysqlx_get_session_from_client(mysqlx_client_t* cli,
                                                              mysqlx_error_t** error) {
  if (error != nullptr) *error = nullptr;
  try {
    if (cli == nullptr) throw c_error(0, MYSQLX_ERROR_HANDLE_NULL_MSG);
    return new mysqlx_session_struct(cli->m_client.getSession());
  } catch (...) {
    return caller_error(error);
  }
}

MYSQLX_C_API void mysqlx_client_close(mysqlx_client_t* client) {
  if (client == nullptr) return;
  client->m_client.close(); // never throws
  delete client;
}

MYSQLX_C_API void mysqlx_session_close(mysqlx_session_t* session) {
  // Destructors never throw (Session's closes without throwing).
  delete session;
}

MYSQLX_C_API mysqlx_schema_t* mysqlx_get_schema(mysqlx_session_t* sess, const char* schema_name,
                                                unsigned int check) {
  return guarded(sess, static_cast<mysqlx_schema_t*>(nullptr), [&] {
    if (schema_name == nullptr || *schema_name == '\0')
      throw c_error(0, MYSQLX_ERROR_MISSING_SCHEMA_NAME_MSG);
    auto it = sess->m_schemas.find(schema_name);
    if (it == sess->m_schemas.end()) {
      auto h = std::make_unique<mysqlx_schema_struct>(*sess, sess->m_sess.getSchema(schema_name));
      it = sess->m_schemas.emplace(schema_name, std::move(h)).first;
    }
    if (check != 0 && !it->second->m_schema.existsInDatabase())
      throw c_error(0, (std::string("Schema '") + schema_name + "' does not exist").c_str());
    return it->second.get();
  });
}

MYSQLX_C_API mysqlx_collection_t* mysqlx_get_collection(mysqlx_schema_t* schema,
                                                        const char* col_name, unsigned int check) {
  return guarded(schema, static_cast<mysqlx_collection_t*>(nullptr), [&] {
    if (col_name == nullptr || *col_name == '\0')
      throw c_error(0, MYSQLX_ERROR_MISSING_COLLECTION_NAME_MSG);
    auto it = schema->m_collections.find(col_name);
    if (it == schema->m_collections.end()) {
      auto h = std::make_unique<mysqlx_collection_struct>(*schema,
                                                          schema->m_schema.getCollection(col_name));
      it = schema->m_collections.emplace(col_name, std::move(h)).first;
    }
    if (check != 0 && !it->second->m_coll.existsInDatabase())
      throw c_error(0, (std::string("Collection '") + col_name + "' does not exist").c_str());
    return it->second.get();
  });
}

MYSQLX_C_API mysqlx_result_t* mysqlx_sql(mysqlx_session_t* sess, const char* query,
                                         size_t query_len) {
  return guarded(sess, static_cast<mysqlx_result_t*>(nullptr), [&] {
    require(query, "Query is empty");
    const std::size_t n = query_len == MYSQLX_NULL_TERMINATED ? std::strlen(query) : query_len;
    if (n == 0) throw c_error(0, "Query is empty");
    auto r = std::make_unique<mysqlx_result_struct>(*sess);
    r->m_sql.emplace(sess->m_sess.sql(std::string(query, n)).execute());
    return sess->adopt(std::move(r));
  });
}

MYSQLX_C_API mysqlx_result_t* mysqlx_collection_add(mysqlx_collection_t* collection, ...) {
  // The arguments are read before anything can throw, so that va_end is
  // always reached.
  std::vector<const char*> docs;
  bool oom = false;
  if (collection != nullptr) {
    va_list args;
    va_start(args, collection);
    try {
      for (const char* d = va_arg(args, const char*); d != nullptr; d = va_arg(args, const char*))
        docs.push_back(d);
    } catch (...) {
      oom = true;
    }
    va_end(args);
  }
  return guarded(collection, static_cast<mysqlx_result_t*>(nullptr), [&] {
    if (oom) throw std::bad_alloc();
    if (docs.empty()) throw c_error(0, "No documents to add: the list holds only PARAM_END");
    std::vector<std::string> texts;
    texts.reserve(docs.size());
    for (const char* d : docs) {
      if (*d == '\0') throw c_error(0, MYSQLX_ERROR_EMPTY_JSON);
      texts.emplace_back(d);
    }
    mysqlx_session_struct& sess = collection->m_owner.m_owner;
    auto r = std::make_unique<mysqlx_result_struct>(sess);
    r->m_plain.emplace(collection->m_coll.add(texts).execute());
    r->m_ids = r->m_plain->getGeneratedIds();
    return sess.adopt(std::move(r));
  });
}

MYSQLX_C_API mysqlx_result_t* mysqlx_collection_find(mysqlx_collection_t* collection,
                                                     const char* criteria) {
  return guarded(collection, static_cast<mysqlx_result_t*>(nullptr), [&] {
    mysqlx_session_struct& sess = collection->m_owner.m_owner;
    auto r = std::make_unique<mysqlx_result_struct>(sess);
    if (criteria == nullptr || *criteria == '\0')
      r->m_docs.emplace(collection->m_coll.find().execute());
    else
      r->m_docs.emplace(collection->m_coll.find(criteria).execute());
    return sess.adopt(std::move(r));
  });
}

} // extern "C"

namespace mysqlx::xapi {

// Reads the (type, value) pairs of a PARAM_END-terminated list. Never
// throws: the caller must still reach va_end, so a failure is returned as
// the exception to rethrow.
// With `names`, each value comes after its name (mysqlx_stmt_bind()'s
// triplets) and a NULL name ends the list.
// With `allow_expr`, MYSQLX_TYPE_EXPR (PARAM_EXPR) gives an expression
// (modify's values); SQL and bound values take none.
std::exception_ptr read_params(va_list& args, std::vector<mysqlx::Value>& out,
                               std::vector<std::string>* names, bool allow_expr) noexcept {
  try {
    for (;;) {
      if (names != nullptr) {
        const char* name = va_arg(args, const char*);
        if (name == nullptr) return nullptr; // PARAM_END
        if (*name == '\0') throw c_error(0, "An empty parameter name");
        names->emplace_back(name);
      }
      // The type travels as a pointer (the PARAM_* macros cast it to void*).
      const auto type = reinterpret_cast<std::intptr_t>(va_arg(args, void*));
      switch (type) {
      case 0:
        if (names != nullptr) throw c_error(0, "PARAM_END where the value of a name was expected");
        return nullptr; // PARAM_END
      case MYSQLX_TYPE_NULL:
        out.emplace_back(nullptr);
        break;
      case MYSQLX_TYPE_SINT:
        out.emplace_back(static_cast<std::int64_t>(va_arg(args, int64_t)));
        break;
      case MYSQLX_TYPE_UINT:
        out.emplace_back(static_cast<std::uint64_t>(va_arg(args, uint64_t)));
        break;
      case MYSQLX_TYPE_FLOAT: // a float is promoted to double through `...`
      case MYSQLX_TYPE_DOUBLE:
        out.emplace_back(va_arg(args, double));
        break;
      case MYSQLX_TYPE_BOOL:
        out.emplace_back(va_arg(args, int) != 0);
        break; // promoted to int
      case MYSQLX_TYPE_STRING: {
        const char* s = va_arg(args, const char*);
        if (s == nullptr) throw c_error(0, "PARAM_STRING(NULL): use PARAM_NULL() for NULL");
        out.emplace_back(std::string(s));
        break;
      }
      case MYSQLX_TYPE_EXPR: {
        if (!allow_expr) throw c_error(0, "PARAM_EXPR (type 101) is only for modify's values");
        const char* e = va_arg(args, const char*);
        if (e == nullptr || *e == '\0') throw c_error(0, "PARAM_EXPR of an empty expression");
        out.emplace_back(mysqlx::expr(e));
        break;
      }
      case MYSQLX_TYPE_BYTES: {
        const void* data = va_arg(args, void*);
        const std::size_t size = va_arg(args, size_t);
        if (data == nullptr && size != 0) throw c_error(0, "PARAM_BYTES(NULL, size > 0)");
        out.emplace_back(mysqlx::bytes(static_cast<const mysqlx::byte*>(data), size));
        break;
      }
      default:
        // Past an unknown type the rest of the list cannot be read.
        throw c_error(0, ("Unsupported parameter type " + std::to_string(type) +
                          " (values are PARAM_SINT, _UINT, _FLOAT, _DOUBLE, _BYTES, _STRING, "
                          "_NULL, or MYSQLX_TYPE_BOOL)")
                             .c_str());
      }
    }
  } catch (...) {
    return std::current_exception();
  }
}

std::exception_ptr read_strings(va_list& args, std::vector<std::string>& out) noexcept {
  try {
    for (const char* s = va_arg(args, const char*); s != nullptr; s = va_arg(args, const char*))
      out.emplace_back(s);
    return nullptr;
  } catch (...) {
    return std::current_exception();
  }
}

std::exception_ptr read_sort(va_list& args, std::vector<std::string>& out) noexcept {
  try {
    // An empty expression ends the list too, as the official header says.
    for (const char* e = va_arg(args, const char*); e != nullptr && *e != '\0';
         e = va_arg(args, const char*)) {
      const int dir = va_arg(args, int);
      // Past a wrong pair the list cannot be trusted.
      if (dir != SORT_ORDER_ASC && dir != SORT_ORDER_DESC)
        throw c_error(0, "A sort direction must be SORT_ORDER_ASC or SORT_ORDER_DESC");
      out.push_back(std::string(e) + (dir == SORT_ORDER_ASC ? " ASC" : " DESC"));
    }
    return nullptr;
  } catch (...) {
    return std::current_exception();
  }
}

void require_op(bool ok, const char* what) {
  if (!ok) throw c_error(0, (std::string(what) + " is not supported by this statement").c_str());
}

} // namespace mysqlx::xapi

using mysqlx::xapi::read_params;
using mysqlx::xapi::read_sort;
using mysqlx::xapi::require_op;
using mysqlx::xapi::run_plain;

extern "C" {

MYSQLX_C_API mysqlx_result_t* mysqlx_sql_param(mysqlx_session_t* sess, const char* query,
                                               size_t query_len, ...) {
  std::vector<mysqlx::Value> params;
  std::exception_ptr failed;
  if (sess != nullptr) {
    va_list args;
    va_start(args, query_len);
    failed = read_params(args, params);
    va_end(args);
  }
  return guarded(sess, static_cast<mysqlx_result_t*>(nullptr), [&] {
    if (failed) std::rethrow_exception(failed);
    require(query, "Query is empty");
    const std::size_t n = query_len == MYSQLX_NULL_TERMINATED ? std::strlen(query) : query_len;
    if (n == 0) throw c_error(0, "Query is empty");
    auto r = std::make_unique<mysqlx_result_struct>(*sess);
    r->m_sql.emplace(sess->m_sess.sql(std::string(query, n)).bind(params).execute());
    return sess->adopt(std::move(r));
  });
}

MYSQLX_C_API int mysqlx_transaction_begin(mysqlx_session_t* sess) {
  return run_plain(sess, [&] { sess->m_sess.startTransaction(); });
}

MYSQLX_C_API int mysqlx_transaction_commit(mysqlx_session_t* sess) {
  return run_plain(sess, [&] { sess->m_sess.commit(); });
}

MYSQLX_C_API int mysqlx_transaction_rollback(mysqlx_session_t* sess) {
  return run_plain(sess, [&] { sess->m_sess.rollback(); });
}

MYSQLX_C_API const char* mysqlx_savepoint_set(mysqlx_session_t* sess, const char* name) {
  return guarded(sess, static_cast<const char*>(nullptr), [&] {
    std::string set = name == nullptr || *name == '\0' ? sess->m_sess.setSavepoint()
                                                       : sess->m_sess.setSavepoint(name);
    sess->m_savepoint = std::move(set);
    return sess->m_savepoint.c_str();
  });
}

MYSQLX_C_API int mysqlx_savepoint_release(mysqlx_session_t* sess, const char* name) {
  return run_plain(sess, [&] {
    require_name(name, "Invalid empty savepoint name");
    sess->m_sess.releaseSavepoint(name);
  });
}

MYSQLX_C_API int mysqlx_rollback_to(mysqlx_session_t* sess, const char* name) {
  return run_plain(sess, [&] {
    require_name(name, "Invalid empty savepoint name");
    sess->m_sess.rollbackTo(name);
  });
}

MYSQLX_C_API int mysqlx_schema_create(mysqlx_session_t* sess, const char* schema) {
  return run_plain(sess, [&] {
    require_name(schema, MYSQLX_ERROR_MISSING_SCHEMA_NAME_MSG);
    sess->m_sess.createSchema(schema, true); // an existing one is no error, as officially
  });
}

MYSQLX_C_API int mysqlx_schema_drop(mysqlx_session_t* sess, const char* schema) {
  return run_plain(sess, [&] {
    require_name(schema, MYSQLX_ERROR_MISSING_SCHEMA_NAME_MSG);
    sess->m_sess.dropSchema(schema);
  });
}

MYSQLX_C_API int mysqlx_collection_create(mysqlx_schema_t* schema, const char* collection) {
  return run_plain(schema, [&] {
    require_name(collection, MYSQLX_ERROR_MISSING_COLLECTION_NAME_MSG);
    schema->m_schema.createCollection(collection, true);
  });
}

MYSQLX_C_API int mysqlx_collection_drop(mysqlx_schema_t* schema, const char* collection) {
  return run_plain(schema, [&] {
    require_name(collection, MYSQLX_ERROR_MISSING_COLLECTION_NAME_MSG);
    schema->m_schema.dropCollection(collection);
  });
}

MYSQLX_C_API int mysqlx_collection_count(mysqlx_collection_t* collection, uint64_t* count) {
  return run_plain(collection, [&] {
    require(count, MYSQLX_ERROR_OUTPUT_VARIABLE_NULL);
    *count = collection->m_coll.count();
  });
}

MYSQLX_C_API mysqlx_result_t* mysqlx_collection_remove(mysqlx_collection_t* collection,
                                                       const char* criteria) {
  return guarded(collection, static_cast<mysqlx_result_t*>(nullptr), [&] {
    mysqlx_session_struct& sess = collection->m_owner.m_owner;
    auto r = std::make_unique<mysqlx_result_struct>(sess);
    // The C++ API wants a condition; none means every document, as in C.
    const char* condition = criteria == nullptr || *criteria == '\0' ? "true" : criteria;
    r->m_plain.emplace(collection->m_coll.remove(condition).execute());
    return sess.adopt(std::move(r));
  });
}

} // extern "C"

// ---------------------------------------------------------------------------
// Statement handles: the statement's parts, kept until mysqlx_execute()
// builds the devapi statement from them (so a setter can be called in any
// order, and again, as in C).

namespace {

using stmt_op = mysqlx_stmt_struct::op;
using change = mysqlx_stmt_struct::change;

mysqlx_stmt_t* new_stmt(mysqlx_collection_t* coll, stmt_op op) {
  return guarded(coll, static_cast<mysqlx_stmt_t*>(nullptr), [&] {
    mysqlx_session_struct& sess = coll->m_owner.m_owner;
    auto st = std::make_unique<mysqlx_stmt_struct>(sess, coll, op);
    mysqlx_stmt_struct* raw = st.get();
    sess.m_stmts.emplace(raw, std::move(st));
    return raw;
  });
}

// Find, remove and modify take a condition, an order and a limit.
bool filters(stmt_op op) {
  return op == stmt_op::find || op == stmt_op::remove || op == stmt_op::modify ||
         op == stmt_op::select || op == stmt_op::update || op == stmt_op::del;
}

template <typename Stmt> void apply_common(Stmt& s, const mysqlx_stmt_t& st) {
  if (!st.m_sort.empty()) s.sort(st.m_sort);
  if (st.m_limit) s.limit(*st.m_limit);
  for (std::size_t i = 0; i < st.m_bind_names.size(); ++i)
    s.bind(st.m_bind_names[i], st.m_bind_values[i]);
}

} // namespace

void mysqlx_stmt_struct::free_by_user() noexcept {
  m_sess.m_stmts.erase(this); // destroys *this and its result
}

extern "C" {

MYSQLX_C_API mysqlx_stmt_t* mysqlx_sql_new(mysqlx_session_t* sess, const char* query,
                                           uint32_t length) {
  return guarded(sess, static_cast<mysqlx_stmt_t*>(nullptr), [&] {
    require(query, "Query is empty");
    const std::size_t n = length == MYSQLX_NULL_TERMINATED ? std::strlen(query) : length;
    if (n == 0) throw c_error(0, "Query is empty");
    auto st = std::make_unique<mysqlx_stmt_struct>(
        *sess, static_cast<mysqlx_collection_struct*>(nullptr), stmt_op::sql);
    st->m_query.assign(query, n);
    mysqlx_stmt_struct* raw = st.get();
    sess->m_stmts.emplace(raw, std::move(st));
    return raw;
  });
}

MYSQLX_C_API mysqlx_stmt_t* mysqlx_collection_find_new(mysqlx_collection_t* collection) {
  return new_stmt(collection, stmt_op::find);
}

MYSQLX_C_API mysqlx_stmt_t* mysqlx_collection_add_new(mysqlx_collection_t* collection) {
  return new_stmt(collection, stmt_op::add);
}

MYSQLX_C_API mysqlx_stmt_t* mysqlx_collection_remove_new(mysqlx_collection_t* collection) {
  return new_stmt(collection, stmt_op::remove);
}

MYSQLX_C_API mysqlx_stmt_t* mysqlx_collection_modify_new(mysqlx_collection_t* collection) {
  return new_stmt(collection, stmt_op::modify);
}

MYSQLX_C_API int mysqlx_set_where(mysqlx_stmt_t* stmt, const char* where_expr) {
  return run_plain(stmt, [&] {
    require_op(filters(stmt->m_op), "mysqlx_set_where()");
    stmt->m_where = where_expr == nullptr ? std::string() : std::string(where_expr);
  });
}

MYSQLX_C_API int mysqlx_set_order_by(mysqlx_stmt_t* stmt, ...) {
  std::vector<std::string> specs;
  std::exception_ptr failed;
  if (stmt != nullptr) {
    va_list args;
    va_start(args, stmt);
    failed = read_sort(args, specs);
    va_end(args);
  }
  return run_plain(stmt, [&] {
    if (failed) std::rethrow_exception(failed);
    require_op(filters(stmt->m_op), "mysqlx_set_order_by()");
    stmt->m_sort = std::move(specs);
  });
}

MYSQLX_C_API int mysqlx_set_limit_and_offset(mysqlx_stmt_t* stmt, uint64_t row_count,
                                             uint64_t offset) {
  return run_plain(stmt, [&] {
    require_op(filters(stmt->m_op), "mysqlx_set_limit_and_offset()");
    if (stmt->m_op != stmt_op::find && stmt->m_op != stmt_op::select && offset != 0)
      throw c_error(0, "Only a find or a select takes an offset (with the limit)");
    stmt->m_limit = row_count;
    stmt->m_offset = offset;
  });
}

MYSQLX_C_API int mysqlx_set_find_projection(mysqlx_stmt_t* stmt, const char* proj) {
  return run_plain(stmt, [&] {
    require_op(stmt->m_op == stmt_op::find, "mysqlx_set_find_projection()");
    stmt->m_projection = proj == nullptr ? std::string() : std::string(proj);
  });
}

MYSQLX_C_API int mysqlx_set_add_document(mysqlx_stmt_t* stmt, const char* json_doc) {
  return run_plain(stmt, [&] {
    require_op(stmt->m_op == stmt_op::add, "mysqlx_set_add_document()");
    if (json_doc == nullptr || *json_doc == '\0') throw c_error(0, MYSQLX_ERROR_EMPTY_JSON);
    stmt->m_docs.emplace_back(json_doc);
  });
}

MYSQLX_C_API int mysqlx_stmt_bind(mysqlx_stmt_t* stmt, ...) {
  std::vector<mysqlx::Value> values;
  std::vector<std::string> names;
  std::exception_ptr failed;
  if (stmt != nullptr) {
    va_list args;
    va_start(args, stmt);
    // SQL's values come as (type, value) pairs; CRUD's as (name, type, value).
    failed = read_params(args, values, stmt->m_op == stmt_op::sql ? nullptr : &names);
    va_end(args);
  }
  return run_plain(stmt, [&] {
    if (failed) std::rethrow_exception(failed);
    require_op(stmt->m_op != stmt_op::add && stmt->m_op != stmt_op::insert, "mysqlx_stmt_bind()");
    // SQL's values are the `?` in order: an empty list is a mistake (as
    // officially); CRUD's empty list clears the names bound before.
    if (stmt->m_op == stmt_op::sql && values.empty())
      throw c_error(0, "No values to bind: the list holds only PARAM_END");
    stmt->m_bind_names = std::move(names); // replaces the previous binds
    stmt->m_bind_values = std::move(values);
  });
}

MYSQLX_C_API mysqlx_result_t* mysqlx_execute(mysqlx_stmt_t* stmt) {
  return guarded(stmt, static_cast<mysqlx_result_t*>(nullptr), [&] {
    // The previous result goes first: the official rule, and it frees the
    // connection of any rows it left unread.
    stmt->m_result.reset();
    auto r = std::make_unique<mysqlx_result_struct>(stmt->m_sess);
    if (stmt->m_op == stmt_op::sql) {
      r->m_sql.emplace(stmt->m_sess.m_sess.sql(stmt->m_query).bind(stmt->m_bind_values).execute());
      stmt->m_result = std::move(r);
      return stmt->m_result.get();
    }
    r->m_stmt = stmt;
    if (stmt->m_table != nullptr) {
      mysqlx::xapi::execute_table(*stmt, *r);
      stmt->m_result = std::move(r);
      return stmt->m_result.get();
    }
    mysqlx::Collection& coll = stmt->m_coll->m_coll;
    const bool all = stmt->m_where.empty();
    switch (stmt->m_op) {
    case stmt_op::find: {
      mysqlx::CollectionFind f = all ? coll.find() : coll.find(stmt->m_where);
      if (!stmt->m_projection.empty()) f.fields(mysqlx::expr(stmt->m_projection));
      if (!stmt->m_group_by.empty()) f.groupBy(stmt->m_group_by);
      if (!stmt->m_having.empty()) f.having(stmt->m_having);
      mysqlx::xapi::apply_lock(f, *stmt);
      apply_common(f, *stmt);
      if (stmt->m_offset != 0) f.offset(stmt->m_offset);
      r->m_docs.emplace(f.execute());
      break;
    }
    case stmt_op::modify: {
      mysqlx::CollectionModify m = coll.modify(all ? std::string("true") : stmt->m_where);
      for (const auto& c : stmt->m_changes) {
        switch (c.kind) {
        case change::set:
          m.set(c.path, c.value);
          break;
        case change::unset:
          m.unset(c.path);
          break;
        case change::array_insert:
          m.arrayInsert(c.path, c.value);
          break;
        case change::array_append:
          m.arrayAppend(c.path, c.value);
          break;
        case change::array_delete:
          m.arrayDelete(c.path);
          break;
        case change::patch:
          m.patch(c.path);
          break;
        }
      }
      apply_common(m, *stmt);
      r->m_plain.emplace(m.execute());
      break;
    }
    case stmt_op::remove: {
      mysqlx::CollectionRemove rm = coll.remove(all ? std::string("true") : stmt->m_where);
      apply_common(rm, *stmt);
      r->m_plain.emplace(rm.execute());
      break;
    }
    case stmt_op::sql:
    case stmt_op::select:
    case stmt_op::insert:
    case stmt_op::update:
    case stmt_op::del:
      break; // run above
    case stmt_op::add: {
      if (stmt->m_docs.empty())
        throw c_error(0, "No documents to add: see mysqlx_set_add_document()");
      r->m_plain.emplace(coll.add(stmt->m_docs).execute());
      r->m_ids = r->m_plain->getGeneratedIds();
      break;
    }
    }
    stmt->m_result = std::move(r);
    return stmt->m_result.get();
  });
}

} // extern "C"

// ---------------------------------------------------------------------------
// Modify: changes given as (path, type, value) triplets or as paths.

namespace {

// Reads (path, value) triplets or, without values, paths, up to PARAM_END.
std::exception_ptr read_changes(va_list& args, change::kind_t kind, bool with_values,
                                std::vector<change>& out) noexcept {
  try {
    if (with_values) {
      std::vector<mysqlx::Value> values;
      std::vector<std::string> paths;
      if (auto e = read_params(args, values, &paths, true)) return e;
      for (std::size_t i = 0; i < paths.size(); ++i)
        out.push_back({kind, std::move(paths[i]), std::move(values[i])});
    } else {
      for (const char* p = va_arg(args, const char*); p != nullptr; p = va_arg(args, const char*)) {
        if (*p == '\0') throw c_error(0, "An empty field path");
        out.push_back({kind, p, mysqlx::Value()});
      }
    }
    if (out.empty()) throw c_error(0, "No fields: the list holds only PARAM_END");
    return nullptr;
  } catch (...) {
    return std::current_exception();
  }
}

// Adds the changes read to a modify statement; RESULT_OK or RESULT_ERROR on it.
int add_changes(mysqlx_stmt_t* stmt, std::exception_ptr failed, std::vector<change>& changes) {
  return run_plain(stmt, [&] {
    if (failed) std::rethrow_exception(failed);
    require_op(stmt->m_op == stmt_op::modify, "A modify's change");
    for (auto& c : changes) stmt->m_changes.push_back(std::move(c));
  });
}

// A one-shot modify: the statement built, run, and its result handed to the
// session, with any error on the collection.
mysqlx_result_t* modify_now(mysqlx_collection_t* coll, const char* criteria,
                            std::exception_ptr failed, std::vector<change>& changes) {
  return guarded(coll, static_cast<mysqlx_result_t*>(nullptr), [&] {
    if (failed) std::rethrow_exception(failed);
    mysqlx_stmt_struct st(coll->m_owner.m_owner, coll, stmt_op::modify);
    st.m_where = criteria == nullptr ? "" : criteria;
    st.m_changes = std::move(changes);
    mysqlx_result_t* r = mysqlx_execute(&st);
    if (r == nullptr) {
      // The statement's error becomes the collection's.
      coll->m_error.set(st.m_error.num(), st.m_error.message() ? st.m_error.message() : "");
      return static_cast<mysqlx_result_t*>(nullptr);
    }
    r->m_stmt = nullptr; // the session owns it from now on
    return coll->m_owner.m_owner.adopt(std::move(st.m_result));
  });
}

} // namespace

#define XAPI_READ_CHANGES(LAST, KIND, WITH_VALUES)                                                 \
  std::vector<change> changes;                                                                     \
  std::exception_ptr failed;                                                                       \
  {                                                                                                \
    va_list args;                                                                                  \
    va_start(args, LAST);                                                                          \
    failed = read_changes(args, KIND, WITH_VALUES, changes);                                       \
    va_end(args);                                                                                  \
  }

extern "C" {

MYSQLX_C_API int mysqlx_set_modify_set(mysqlx_stmt_t* stmt, ...) {
  if (stmt == nullptr) return RESULT_ERROR;
  XAPI_READ_CHANGES(stmt, change::set, true)
  return add_changes(stmt, failed, changes);
}

MYSQLX_C_API int mysqlx_set_modify_unset(mysqlx_stmt_t* stmt, ...) {
  if (stmt == nullptr) return RESULT_ERROR;
  XAPI_READ_CHANGES(stmt, change::unset, false)
  return add_changes(stmt, failed, changes);
}

MYSQLX_C_API int mysqlx_set_modify_array_insert(mysqlx_stmt_t* stmt, ...) {
  if (stmt == nullptr) return RESULT_ERROR;
  XAPI_READ_CHANGES(stmt, change::array_insert, true)
  return add_changes(stmt, failed, changes);
}

MYSQLX_C_API int mysqlx_set_modify_array_append(mysqlx_stmt_t* stmt, ...) {
  if (stmt == nullptr) return RESULT_ERROR;
  XAPI_READ_CHANGES(stmt, change::array_append, true)
  return add_changes(stmt, failed, changes);
}

MYSQLX_C_API int mysqlx_set_modify_array_delete(mysqlx_stmt_t* stmt, ...) {
  if (stmt == nullptr) return RESULT_ERROR;
  XAPI_READ_CHANGES(stmt, change::array_delete, false)
  return add_changes(stmt, failed, changes);
}

MYSQLX_C_API int mysqlx_set_modify_patch(mysqlx_stmt_t* stmt, const char* patch_spec) {
  return run_plain(stmt, [&] {
    require_op(stmt->m_op == stmt_op::modify, "mysqlx_set_modify_patch()");
    if (patch_spec == nullptr || *patch_spec == '\0') throw c_error(0, MYSQLX_ERROR_EMPTY_JSON);
    stmt->m_changes.push_back({change::patch, patch_spec, mysqlx::Value()});
  });
}

MYSQLX_C_API mysqlx_result_t* mysqlx_collection_modify_set(mysqlx_collection_t* collection,
                                                           const char* criteria, ...) {
  if (collection == nullptr) return nullptr;
  XAPI_READ_CHANGES(criteria, change::set, true)
  return modify_now(collection, criteria, failed, changes);
}

MYSQLX_C_API mysqlx_result_t* mysqlx_collection_modify_unset(mysqlx_collection_t* collection,
                                                             const char* criteria, ...) {
  if (collection == nullptr) return nullptr;
  XAPI_READ_CHANGES(criteria, change::unset, false)
  return modify_now(collection, criteria, failed, changes);
}

MYSQLX_C_API mysqlx_result_t* mysqlx_collection_modify_patch(mysqlx_collection_t* collection,
                                                             const char* criteria,
                                                             const char* patch_spec) {
  std::vector<change> changes;
  std::exception_ptr failed;
  try {
    if (patch_spec == nullptr || *patch_spec == '\0') throw c_error(0, MYSQLX_ERROR_EMPTY_JSON);
    changes.push_back({change::patch, patch_spec, mysqlx::Value()});
  } catch (...) {
    failed = std::current_exception();
  }
  return modify_now(collection, criteria, failed, changes);
}

} // extern "C"
