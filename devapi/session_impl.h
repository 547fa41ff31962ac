// The state behind Session, Schema, Collection, statements and results: the
// connection, the document-id policy, and the helpers every statement uses.
// Private header.
#pragma once

#include "cdk/docid/custom.h"
#include "cdk/docid/policy.h"
#include "cdk/protocol/pipeline.h"
#include "cdk/protocol/value.h"
#include "cdk/session/connection.h"
#include "devapi/test_hooks.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <mysqlx/collection.h>
#include <mysqlx/result.h>
#include <mysqlx/value.h>
#include <optional>
#include <string>
#include <utility>
#include <vector>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

struct client_impl;
struct session_impl;

struct session_impl {
  std::unique_ptr<cdk::session::connection> conn;
  std::shared_ptr<client_impl> pool; // set for sessions of a Client: close() returns conn there
  cdk::docid::docid_policy policy;
  // Session::setDocIdGenerator(): the application's id generator, used in
  // place of the built-in one whenever ids are made on the client.
  cdk::docid::custom_id_generator id_generator;
  std::string default_schema;
  std::uint64_t max_message_size = 0;
  // A transaction is open: startTransaction(), or START TRANSACTION / BEGIN
  // sent through sql() (sql_trx.h). With autocommit off, every statement
  // runs in one until COMMIT, so a split add must not open its own.
  bool in_transaction = false;
  bool autocommit_off = false;
  // Prepared statements: off for good once the server refused a Prepare.
  bool prepare_supported = true;
  std::uint32_t last_stmt_id = 0;
  // Statements that died or changed: their Deallocate goes out pipelined
  // in front of the next request, so a destructor never does I/O.
  std::vector<std::uint32_t> to_deallocate;
  prepared_stats stats;

  /// The open connection; throws a client error once the session is closed.
  cdk::session::connection& connection();
  /// Queues one request (the encoder appends it to the pipeline), sends it and
  /// reads its reply. A server error is thrown unless `tolerate` lists its code.
  cdk::protocol::reply run(const std::function<cdk::status(std::string&)>& encode,
                           std::vector<std::uint32_t> tolerate = {},
                           cdk::protocol::reply_end end = cdk::protocol::replies::statement);
  /// SQL with arguments; the reply.
  cdk::protocol::reply sql(const std::string& query,
                           const std::vector<cdk::protocol::value>& args = {},
                           std::vector<std::uint32_t> tolerate = {});
  /// An admin command in namespace "mysqlx" with one object argument.
  cdk::protocol::reply admin(const std::string& cmd, std::vector<cdk::protocol::value_field> fields,
                             std::vector<std::uint32_t> tolerate = {});
};

/// A statement's server-side prepared statement. A copy starts unprepared
/// (two objects must not share one stmt_id); release() queues a Deallocate.
struct prepared_handle {
  std::shared_ptr<session_impl> sess;
  std::uint32_t id = 0;         // 0: not prepared
  std::uint32_t executions = 0; // since the last change
  prepared_handle() = default;
  prepared_handle(const prepared_handle&) noexcept {}
  prepared_handle& operator=(const prepared_handle&) noexcept {
    release();
    return *this;
  }
  ~prepared_handle() { release(); }
  void release() noexcept;
};

/// What Schema, Collection and Table refer to.
struct object_ref {
  std::shared_ptr<session_impl> sess;
  std::string schema; // empty for a Schema
  std::string name;
};

/// Every statement's state: one struct for all kinds keeps the copy
/// semantics of statement_base in one place.
struct statement_impl {
  std::shared_ptr<session_impl> sess;
  std::string schema, name; // the collection or table
  bool table = false;       // Table statements: expressions in table mode
  // TableInsert
  std::vector<std::string> columns;
  std::vector<Row> rows;
  // SqlStatement
  std::string query;
  std::vector<Value> params;
  // CollectionAdd
  std::vector<Value> docs;
  // find / modify / remove
  std::string condition;
  std::vector<Value> fields;
  std::vector<std::string> group_by, sort;
  std::string having;
  std::optional<std::uint64_t> limit, offset;
  std::vector<std::pair<std::string, Value>> binds;
  int lock = 0; // 0 none, 1 shared, 2 exclusive
  LockContention contention = LockContention::DEFAULT;
  struct update_op {
    int kind; // Mysqlx.Crud.UpdateOperation.UpdateType
    std::string path;
    Value value;
  };
  std::vector<update_op> ops;
  prepared_handle prepared;
  /// The statement changed (not just a bind): prepare it afresh when it
  /// runs again.
  void changed() noexcept { prepared.release(); }
};

/// Everything a result holds, read completely when the statement ran.
struct result_impl {
  struct set {
    Columns columns;
    std::vector<Row> rows;
    std::size_t pos = 0; // next row to fetch
  };
  std::shared_ptr<session_impl> sess; // keeps the connection alive
  std::vector<set> sets;
  std::size_t current = 0;
  std::uint64_t affected = 0;
  std::uint64_t auto_increment = 0;
  DocIdList generated_ids;
  WarningList warnings;
};

/// A result_impl from a statement reply: result sets converted to Columns
/// and Rows, counts, warnings. Throws on a malformed reply.
std::unique_ptr<result_impl> make_result(std::shared_ptr<session_impl> sess,
                                         const cdk::protocol::reply& r);

/// A Value as a protocol value (for SQL arguments, CRUD args and literals).
cdk::protocol::value to_protocol(const Value& v);

/// A document's JSON text: from a DbDoc or a string Value; throws for others.
std::string_view doc_text(const Value& v, std::size_t index);

} // namespace detail
MYSQLX_NAMESPACE_END
