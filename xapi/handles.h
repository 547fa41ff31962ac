// The structs behind the C API's opaque handles, and the guard every entry
// point runs its body in so that no exception crosses into C.
#pragma once

#include <cstdarg>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mysqlx/xapi.h>
#include <mysqlx/xdevapi.h>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace mysqlx::xapi {

// A failure found by the C layer itself (a NULL argument, a column out of
// range): the number goes to the handle's error as it is.
struct c_error : std::runtime_error {
  unsigned num;
  c_error(unsigned n, const char* msg) : std::runtime_error(msg), num(n) {}
};

// What mysqlx_error() and mysqlx_free() need from any handle. The C API
// passes handles as void*, and they are turned back into handle_base*: every
// handle struct derives from handle_base alone, so that conversion lands on
// the same address the handle was given out with.
struct handle_base {
  virtual ~handle_base() = default;
  // The error of the last call on this handle, or nullptr.
  virtual mysqlx_error_struct* last_error() noexcept = 0;
  // Frees the handle if mysqlx_free() may free it; otherwise does nothing.
  virtual void free_by_user() noexcept {}
};

} // namespace mysqlx::xapi

struct mysqlx_error_struct final : mysqlx::xapi::handle_base {
  // Set from the exception being handled; never throws: when even the
  // message cannot be copied, a fixed text is used.
  void set_from_current_exception() noexcept;
  void set(unsigned num, const char* msg) noexcept;
  void clear() noexcept {
    m_num = 0;
    m_fixed = nullptr;
    m_text.clear();
  }
  bool is_set() const noexcept { return m_fixed != nullptr || !m_text.empty() || m_num != 0; }
  const char* message() const noexcept {
    if (m_fixed) return m_fixed;
    return m_text.empty() ? nullptr : m_text.c_str();
  }
  unsigned num() const noexcept { return m_num; }

  mysqlx_error_struct* last_error() noexcept override { return is_set() ? this : nullptr; }
  void free_by_user() noexcept override {
    if (m_owned_by_caller) delete this;
  }

  // True for the errors a failed mysqlx_get_session*() hands to its caller,
  // who frees them; an error that lives inside another handle is not.
  bool m_owned_by_caller = false;

private:
  unsigned m_num = 0;
  const char* m_fixed = nullptr; // a string literal, when set
  std::string m_text;
};

namespace mysqlx::xapi {

// A handle that records the errors of the calls made on it.
struct diag_handle : handle_base {
  mysqlx_error_struct m_error;
  mysqlx_error_struct* last_error() noexcept override { return m_error.last_error(); }
};

// Runs `body` for a call on handle `h`: clears h's error first, and turns
// whatever `body` throws into h's error and the return value `on_error`.
// A NULL handle gives `on_error` (there is nowhere to put an error).
template <typename H, typename R, typename F> R guarded(H* h, R on_error, F&& body) noexcept {
  if (h == nullptr) return on_error;
  h->m_error.clear();
  try {
    return body();
  } catch (...) {
    h->m_error.set_from_current_exception();
    return on_error;
  }
}

// Throws c_error(0, msg) when p is NULL (an argument the call cannot do without).
template <typename T> void require(const T* p, const char* msg) {
  if (p == nullptr) throw c_error(0, msg);
}

// Throws c_error(0, msg) when `name` is NULL or empty.
inline void require_name(const char* name, const char* msg) {
  if (name == nullptr || *name == '\0') throw c_error(0, msg);
}

} // namespace mysqlx::xapi

struct mysqlx_row_struct final : mysqlx::xapi::diag_handle {
  mysqlx_row_struct(mysqlx_result_struct& owner, mysqlx::Row r)
      : m_owner(owner), m_row(std::move(r)) {}
  const mysqlx::Value& value(uint32_t col) const;
  mysqlx_result_struct& m_owner;
  mysqlx::Row m_row;
};

struct mysqlx_result_struct final : mysqlx::xapi::diag_handle {
  explicit mysqlx_result_struct(mysqlx_session_struct& owner) : m_owner(owner) {}
  void free_by_user() noexcept override;
  // Column names and types of the current row set, read once per set.
  void load_columns();
  // Forgets the current set's columns (the names stay in m_name_store).
  void next_set() noexcept {
    m_columns_loaded = false;
    m_column_names.clear();
    m_column_types.clear();
    m_columns.clear();
  }

  mysqlx_session_struct& m_owner;
  // The statement handle that owns this result, if any (else the session does).
  mysqlx_stmt_struct* m_stmt = nullptr;
  // Exactly one of these holds the statement's result.
  std::optional<mysqlx::SqlResult> m_sql;
  std::optional<mysqlx::DocResult> m_docs;
  std::optional<mysqlx::Result> m_plain;
  std::optional<mysqlx::RowResult> m_table_rows; // a table select's
  // The rows of the current set (SQL's or a table select's), or nullptr.
  mysqlx::RowResult* row_set() {
    if (m_sql && m_sql->hasData()) return &*m_sql;
    return m_table_rows ? &*m_table_rows : nullptr;
  }

  // Rows and document texts handed out, kept until the result is freed
  // (deques: growing one never moves what it holds).
  std::deque<mysqlx_row_struct> m_rows;
  std::deque<std::string> m_json;
  std::vector<std::string> m_ids;
  std::size_t m_next_id = 0;
  bool m_columns_loaded = false;
  std::deque<std::string> m_name_store; // every name handed out, of every set
  std::vector<const char*> m_column_names;
  std::vector<mysqlx::Type> m_column_types;
  // The current set's column metadata (a copy: Columns are small).
  std::vector<mysqlx::Column> m_columns;
  // Warnings: read on the first call, handed out one by one.
  std::optional<std::vector<mysqlx::Warning>> m_warnings;
  std::size_t m_next_warning = 0;
  mysqlx_error_struct m_warning; // the one mysqlx_result_next_warning() returned
};

struct mysqlx_collection_struct final : mysqlx::xapi::diag_handle {
  mysqlx_collection_struct(mysqlx_schema_struct& owner, mysqlx::Collection c)
      : m_owner(owner), m_coll(std::move(c)) {}
  mysqlx_schema_struct& m_owner;
  mysqlx::Collection m_coll;
};

struct mysqlx_table_struct final : mysqlx::xapi::diag_handle {
  mysqlx_table_struct(mysqlx_schema_struct& owner, mysqlx::Table t)
      : m_owner(owner), m_table(std::move(t)) {}
  mysqlx_schema_struct& m_owner;
  mysqlx::Table m_table;
};

struct mysqlx_schema_struct final : mysqlx::xapi::diag_handle {
  mysqlx_schema_struct(mysqlx_session_struct& owner, mysqlx::Schema s)
      : m_owner(owner), m_schema(std::move(s)) {}
  mysqlx_session_struct& m_owner;
  mysqlx::Schema m_schema;
  std::map<std::string, std::unique_ptr<mysqlx_collection_struct>> m_collections;
  std::map<std::string, std::unique_ptr<mysqlx_table_struct>> m_tables;
};

// Options the caller owns: mysqlx_free() (or mysqlx_free_options()) frees them.
struct mysqlx_session_options_struct final : mysqlx::xapi::diag_handle {
  void free_by_user() noexcept override { delete this; }
  mysqlx::ClientSettings m_settings; // session and pool options
};

struct mysqlx_collection_options_struct final : mysqlx::xapi::diag_handle {
  void free_by_user() noexcept override { delete this; }
  mysqlx::CollectionOptions m_opts;
};

// A statement handle: its parts, set in any order; mysqlx_execute() builds
// and runs the devapi statement. It owns its last result.
struct mysqlx_stmt_struct final : mysqlx::xapi::diag_handle {
  enum class op { find, add, remove, modify, sql, select, insert, update, del };
  // One change of a modify, applied in the order given.
  struct change {
    enum kind_t { set, unset, array_insert, array_append, array_delete, patch } kind;
    std::string path; // the JSON patch's text for `patch`
    mysqlx::Value value;
  };
  mysqlx_stmt_struct(mysqlx_session_struct& s, mysqlx_collection_struct* c, op o)
      : m_sess(s), m_coll(c), m_op(o) {}
  mysqlx_stmt_struct(mysqlx_session_struct& s, mysqlx_table_struct* t, op o)
      : m_sess(s), m_coll(nullptr), m_table(t), m_op(o) {}
  void free_by_user() noexcept override;

  mysqlx_session_struct& m_sess;
  mysqlx_collection_struct* m_coll;       // nullptr for SQL and tables
  mysqlx_table_struct* m_table = nullptr; // select, insert, update, del
  op m_op;
  std::string m_query; // SQL
  std::string m_where; // empty: every document
  std::vector<std::string> m_sort;
  std::optional<std::uint64_t> m_limit;
  std::uint64_t m_offset = 0;
  std::string m_projection; // empty: the whole document
  std::vector<std::string> m_docs;
  std::vector<change> m_changes;
  // Table statements, find's grouping and locks.
  std::vector<std::string> m_items; // select's projection (empty: every column)
  std::vector<std::string> m_group_by;
  std::string m_having;
  int m_lock = 0; // a mysqlx_row_locking_t
  int m_contention = 0;
  std::vector<std::string> m_insert_columns;
  std::vector<std::vector<mysqlx::Value>> m_insert_rows;
  std::vector<std::string> m_update_columns; // with m_update_values, one per column
  std::vector<mysqlx::Value> m_update_values;
  std::vector<std::string> m_bind_names;
  std::vector<mysqlx::Value> m_bind_values;
  std::unique_ptr<mysqlx_result_struct> m_result;
};

struct mysqlx_client_struct final : mysqlx::xapi::diag_handle {
  explicit mysqlx_client_struct(mysqlx::Client c) : m_client(std::move(c)) {}
  mysqlx::Client m_client;
};

struct mysqlx_session_struct final : mysqlx::xapi::diag_handle {
  explicit mysqlx_session_struct(mysqlx::Session s) : m_sess(std::move(s)) {}
  // Registers a result with the session, which owns it until mysqlx_free().
  mysqlx_result_struct* adopt(std::unique_ptr<mysqlx_result_struct> r);
  void drop(mysqlx_result_struct* r) noexcept { m_results.erase(r); }

  // Declared first, so destroyed last: results, collections and schemas
  // still refer to the connection when they go.
  mysqlx::Session m_sess;
  std::map<std::string, std::unique_ptr<mysqlx_schema_struct>> m_schemas;
  std::unordered_map<mysqlx_result_struct*, std::unique_ptr<mysqlx_result_struct>> m_results;
  std::unordered_map<mysqlx_stmt_struct*, std::unique_ptr<mysqlx_stmt_struct>> m_stmts;
  std::string m_savepoint; // the name mysqlx_savepoint_set() returned last
};

namespace mysqlx::xapi {

// A call with no result: RESULT_OK, or RESULT_ERROR with the error on `h`.
template <typename H, typename F> int run_plain(H* h, F&& body) {
  return guarded(h, RESULT_ERROR, [&] {
    body();
    return RESULT_OK;
  });
}

// Declares std::exception_ptr FAILED and reads the variadic arguments
// after parameter LAST into it with READ, an expression over the va_list
// `args_` (one of the readers below, which never throw), so that va_end is
// always reached. (A macro: va_start belongs in the variadic function.)
#define XAPI_READ_ARGS(FAILED, LAST, READ)                                                         \
  std::exception_ptr FAILED;                                                                       \
  {                                                                                                \
    va_list args_;                                                                                 \
    va_start(args_, LAST);                                                                         \
    FAILED = READ;                                                                                 \
    va_end(args_);                                                                                 \
  }

// Readers of PARAM_END-terminated argument lists (session.cc). None throws:
// the caller must still reach va_end, so a failure comes back as the
// exception to rethrow inside guarded().
// (type, value) pairs, or with `names` (name, type, value) triplets; with
// `allow_expr`, PARAM_EXPR gives an expression (modify's and update's values).
std::exception_ptr read_params(va_list& args, std::vector<mysqlx::Value>& out,
                               std::vector<std::string>* names = nullptr,
                               bool allow_expr = false) noexcept;
// Strings up to the NULL (PARAM_END).
std::exception_ptr read_strings(va_list& args, std::vector<std::string>& out) noexcept;
// (expression, SORT_ORDER_*) pairs, as "expr ASC" / "expr DESC".
std::exception_ptr read_sort(va_list& args, std::vector<std::string>& out) noexcept;
// Throws "<what> is not supported by this statement" unless `ok`.
void require_op(bool ok, const char* what);

// Called from a catch handler: hands the caller an error it owns, made from
// the exception being handled (*error stays NULL if even that cannot be
// allocated). Returns NULL, for `return caller_error(error);`.
mysqlx_session_t* caller_error(mysqlx_error_t** error) noexcept;
// A new session, or NULL and the caller's error.
mysqlx_session_t* connect(const mysqlx::SessionSettings& settings, mysqlx_error_t** error) noexcept;

// Runs a table statement (select, insert, update, delete) into `r` (table.cc).
void execute_table(mysqlx_stmt_struct& st, mysqlx_result_struct& r);

// The row lock mysqlx_set_row_locking() asked for, on a find or a select.
template <typename Stmt> void apply_lock(Stmt& s, const mysqlx_stmt_struct& st) {
  const auto contention = static_cast<mysqlx::LockContention>(st.m_contention);
  if (st.m_lock == ROW_LOCK_SHARED) s.lockShared(contention);
  if (st.m_lock == ROW_LOCK_EXCLUSIVE) s.lockExclusive(contention);
}

} // namespace mysqlx::xapi
