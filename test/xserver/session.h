// One X Protocol client connection, served by its own thread. After
// authentication it owns one MariaDB connection, so transactions, session
// variables and locks behave as on MySQL.
#pragma once

#include "cdk/foundation/socket_stream.h"
#include "cdk/protocol/compression.h"
#include "cdk/protocol/frame.h"
#include "mysqlx_datatypes.pb.h"
#include "mysqlx_prepare.pb.h"
#include "test/xserver/account_stmt.h"
#include "test/xserver/collection_validation.h"
#include "test/xserver/compressed_writer.h"
#include "test/xserver/errors.h"
#include "test/xserver/expect.h"
#include "test/xserver/fault_injection.h"
#include "test/xserver/mariadb.h"
#include "test/xserver/server_state.h"
#include "test/xserver/sqlgen/sqlgen.h"
#include "test/xserver/wire.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xserver {

class admin_args;
using stmt_result = std::optional<x_error>; // nullopt: success, replies written

inline x_error from_cdk(const cdk::error& e) {
  return x_error{e.code, e.message, e.sql_state, e.fatal};
}

// MariaDB errors of a DOCUMENT-model request, as the X Plugin remaps them.
x_error remap_document_error(x_error e, const std::string& collection);

class session {
public:
  session(server_state& state, std::unique_ptr<cdk::socket_stream> io);
  ~session();
  session(const session&) = delete;
  session& operator=(const session&) = delete;
  close_reason run(); // serves the connection until it closes

private:
  // session_io.cc: reading and writing under the X Plugin's timeouts and
  // message limit (mysqlx_wait/read/write/connect_timeout,
  // mysqlx_max_allowed_packet).
  enum class wait_outcome { input, read_timeout, connect_timeout };
  wait_outcome wait_for_input();
  void on_bad_input(); // next() failed: a bad length or compressed input
  void apply_write_timeout();
  // A SET of one of the timeouts: the one this connection runs with.
  void use_timeout(xvar_id id, long long seconds);
  // client.interactive: mysqlx_wait_timeout becomes mysqlx_interactive_timeout.
  void set_interactive(bool interactive);
  std::uint64_t max_message_size() const {
    return static_cast<std::uint64_t>(m_state.xvar(xvar_id::max_allowed_packet));
  }

  // session.cc
  void dispatch(std::uint8_t type, const std::string& payload);
  void dispatch_authenticated(std::uint8_t type, const std::string& payload);
  bool flush();
  void fatal(const x_error& err);
  bool emulate_57() const { return m_state.config().emulate_57; }
  bool secure() const { return m_io->is_tls() || m_io->is_local(); }

  // capabilities.cc
  void on_capabilities_get();
  void on_capabilities_set(const std::string& payload);

  // compression.cc: the compression capability as the X Plugin takes it;
  // the options of the last accepted CapabilitiesSet apply from the end of
  // authentication on.
  struct compression_request {
    std::string algorithm; // lower case
    bool combine_mixed = true;
    int max_messages = -1;
    std::optional<std::int64_t> level;
  };
  std::optional<x_error> check_compression(const Mysqlx::Datatypes::Any& value,
                                           compression_request& req) const;
  std::vector<std::string> offered_compression() const;
  void start_compression();
  // A fault of the compressed input, answered as MySQL answers it.
  void on_bad_compressed_input();

  // auth.cc
  void on_auth_start(const std::string& payload);
  void on_auth_continue(const std::string& payload);
  void verify_credentials(const std::string& auth_data);
  void auth_failed(const std::string& user, bool used_password);

  // sql_exec.cc
  stmt_result on_stmt_execute(const std::string& payload);
  // rows_affected_notice: false for Crud.Find, which the X Plugin answers
  // without ROWS_AFFECTED.
  stmt_result execute_sql(std::string_view sql, bool rows_affected_notice = true);
  // sql with its reads of performance_schema's session_connect_attrs and
  // session_account_connect_attrs answered from the X sessions' registry
  // (connect_attrs_table.h); nullopt if it reads neither.
  std::optional<std::string> answer_connect_attrs(std::string_view sql);
  // After a successful account statement: the MySQL plugins it named are
  // recorded, stale SHA256_MEMORY cache entries dropped (account_stmt.h).
  void after_account_statement(std::string_view sql, const std::vector<account_plugin>* plugins);
  // convert[i]: the charset column i's text is converted from (row_encoder.h).
  void append_row(char** row, const unsigned long* lengths, const std::vector<int>& types,
                  const std::vector<const MARIADB_CHARSET_INFO*>& convert);
  // After a successful statement: warnings, message, rows affected, insert id
  // (if > 0), generated document ids (if any), StmtExecuteOk.
  void send_ok_notices(std::uint64_t affected, std::uint64_t insert_id, const std::string& info,
                       const std::vector<std::string>* doc_ids, bool rows_affected_notice = true);

  // xvars_exec.cc: the X Plugin's variables (xvars.h). Answers SET and SHOW
  // statements that name them (handled), or rewrites their @@reads in sql.
  stmt_result intercept_xvars(std::string& sql, bool& handled);
  stmt_result set_xvar(const set_xvar_stmt& st);
  stmt_result show_xvars(const show_stmt& st, std::string_view sql);

  // admin.cc
  stmt_result admin_command(const std::string& ns, const std::string& cmd,
                            const google::protobuf::RepeatedPtrField<Mysqlx::Datatypes::Any>& args);
  // created: set when a new table was made (not an existing one reused).
  stmt_result create_collection(const std::string& schema, const std::string& name, bool reuse,
                                bool* created = nullptr);
  stmt_result list_clients();
  stmt_result kill_client(const Mysqlx::Datatypes::Any* id);
  void end_authenticated_session(); // back to the pre-authentication state
  stmt_result list_objects(const Mysqlx::Datatypes::Any* schema,
                           const Mysqlx::Datatypes::Any* pattern);
  // admin_index.cc
  stmt_result create_collection_index(const admin_args& args);
  stmt_result drop_collection_index(const admin_args& args);
  // admin_options.cc: modify_collection_options / get_collection_options
  stmt_result collection_options(const std::string& cmd, const admin_args& args);

  // prepared.cc: a Mysqlx.Prepare statement. SQL and Crud statements are
  // MariaDB statements `xstmt_<id>` (on_server), as MySQL prepares them;
  // SQL naming the X Plugin's variables and admin commands stay messages.
  struct prepared_statement {
    Mysqlx::Prepare::Prepare::OneOfMessage msg;
    bool on_server = false;
    // Crud: what fills each `?`. A DOCUMENT-model Insert has one `?` per
    // row (the document, rendered at Execute) and params only to check its
    // placeholders' arguments.
    sqlgen::prepared_sql sql;
  };
  stmt_result on_prepare(const std::string& payload);
  stmt_result on_execute(const std::string& payload);
  stmt_result on_deallocate(const std::string& payload);
  // Fills st.sql for a Crud message (the X Plugin's errors for a bad one).
  std::optional<x_error> prepare_crud(prepared_statement& st) const;
  stmt_result execute_server_statement(std::uint32_t id, const std::string& sql,
                                       const Mysqlx::Prepare::Execute& msg);
  stmt_result execute_crud(std::uint32_t id, const prepared_statement& st,
                           const Mysqlx::Prepare::Execute& msg);
  void drop_statement(std::uint32_t id); // DEALLOCATE PREPARE if on the server; its cursor
  // Every statement and cursor; the MariaDB ones deallocated now, before the
  // session's reply, rather than when MariaDB gets round to a disconnect.
  void drop_all_statements();

  // cursor.cc: a cursor holds its statement's encoded rows.
  struct cursor {
    std::uint32_t stmt_id = 0;
    std::vector<std::string> rows; // Row frames
    std::size_t next = 0;          // the next row to send
    std::string tail;              // FetchDone and the statement's notices
    bool eof = false;              // the tail was sent
  };
  stmt_result on_cursor_open(const std::string& payload);
  stmt_result on_cursor_fetch(const std::string& payload);
  stmt_result on_cursor_close(const std::string& payload);
  void send_cursor_rows(cursor& c, std::uint64_t limit, bool suspend_only);
  void close_cursors_of(std::uint32_t stmt_id); // a statement has one cursor at most

  // fault_injection.cc
  stmt_result fault_command(const std::string& cmd,
                            const google::protobuf::RepeatedPtrField<Mysqlx::Datatypes::Any>& args);

  // crud_modify.cc
  sqlgen::options sqlgen_options() const;
  stmt_result on_crud_find(const std::string& payload);
  stmt_result on_crud_update(const std::string& payload);
  stmt_result on_crud_delete(const std::string& payload);
  // Run sql (the rendered statement, or EXECUTE of its prepared form) and
  // answer as the X Plugin's CRUD handler does for msg.
  stmt_result run_find(const std::string& sql, const Mysqlx::Crud::Find& msg,
                       bool compact_metadata);
  stmt_result run_update(const std::string& sql, const Mysqlx::Crud::Update& msg);
  stmt_result run_delete(const std::string& sql, const Mysqlx::Crud::Delete& msg);
  // collection: DOCUMENT model (errors remapped); null: TABLE.
  stmt_result run_modification(const std::string& sql, const std::string* collection);
  // A DOCUMENT-model update of a collection with a STRICT schema: run in a
  // transaction (or savepoint), the documents checked, rolled back on 5180.
  stmt_result run_validated_update(const std::string& sql, const std::string& schema,
                                   const std::string& collection, const std::string& json_schema);

  // crud_insert.cc
  stmt_result on_crud_insert(const std::string& payload);
  // The X Plugin's checks of an Insert, before any SQL.
  std::optional<x_error> check_table_insert(const Mysqlx::Crud::Insert& msg) const;
  std::optional<x_error> check_document_insert(const Mysqlx::Crud::Insert& msg) const;
  // INSERT INTO <collection> (doc) VALUES <values> [upsert clause].
  std::string document_insert_sql(const Mysqlx::Crud::Insert& msg, const std::string& values) const;
  // A DOCUMENT-model Insert's rows as SQL expressions, with ids generated
  // for those without `_id` (placeholders take args).
  struct document_rows {
    std::vector<std::string> docs;
    std::vector<std::string> ids;
  };
  std::optional<x_error> render_document_rows(const Mysqlx::Crud::Insert& msg,
                                              const sqlgen::arg_list& args, document_rows& out);
  // Validates rows against a STRICT schema, runs sql, reports the ids.
  stmt_result finish_document_insert(const std::string& sql, const Mysqlx::Crud::Insert& msg,
                                     const document_rows& rows);
  // doc_ids: DOCUMENT model (errors remapped, ids reported); null: TABLE.
  stmt_result run_insert(const std::string& sql, const std::vector<std::string>* doc_ids,
                         const std::string& collection);
  // 5180 if the collection's STRICT schema refuses one of docs (SQL
  // expressions of the new documents).
  std::optional<x_error> validate_new_documents(const std::string& schema,
                                                const std::string& collection,
                                                const std::vector<std::string>& docs);

  // admin_options.cc: stored_validation() of schema.name, or what this
  // session read of it while server_state::sql_generation() stayed put
  // (one SELECT on information_schema less per document insert or update).
  const validation_options& cached_validation(const std::string& schema, const std::string& name);
  // crud_insert.cc: the session's @@auto_increment_offset and _increment,
  // cached the same way.
  std::optional<x_error> auto_increment_pair(std::uint64_t& offset, std::uint64_t& increment);

  server_state& m_state;
  std::unique_ptr<cdk::socket_stream> m_io;
  std::string m_peer_host;              // "localhost" for loopback clients, else the address
  cdk::protocol::frame_reader m_reader; // expands Compression messages once negotiated
  compressed_writer m_compressor;
  compressed_input_meter m_input_meter; // counts the client's Compression messages
  std::optional<compression_request> m_compression_request; // accepted, not started yet
  std::string m_compression;   // the algorithm in use (lower case); empty: none
  int m_compression_level = 0; // its level, once compression is on
  reply m_out;
  expect_stack m_expect;
  std::optional<mariadb_conn> m_db;
  bool m_authenticated = false;
  bool m_closing = false;
  bool m_write_failed = false; // later replies are dropped, not written
  bool m_compact_metadata = false;
  std::string m_user;
  std::uint64_t m_client_id = 0;
  // Authentication in progress: mechanism and nonce; failed attempts so far.
  std::string m_auth_mech;
  // An AuthenticateStart was read: from then on the X Plugin's session reads
  // only authentication messages (cdk/session/README.md, point 4).
  bool m_auth_started = false;
  std::string m_nonce;
  int m_failed_auths = 0;
  bool m_after_reset = false; // only session_connect_attrs may be set now
  // The accepted session_connect_attrs, for the MariaDB connection opened at
  // authentication (kept across Session.Reset until a new set replaces them).
  connect_attrs m_connect_attrs;
  fault_plan m_faults;
  // stmt_id -> statement. The MariaDB statements go with the MariaDB session
  // (COM_RESET_CONNECTION, close).
  std::map<std::uint32_t, prepared_statement> m_prepared;
  std::map<std::uint32_t, cursor> m_cursors; // cursor_id -> its rows
  // What cached_validation() and auto_increment_pair() read, and the
  // sql_generation() they read it at ("schema\0name" -> options).
  bool m_ran_own_sql = false; // this request ran SQL of the client's own
  std::uint64_t m_cache_generation = 0;
  bool m_cache_valid = false;
  std::map<std::string, validation_options> m_validation_cache;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> m_auto_increment;
  void drop_stale_cache();    // empties the caches if sql_generation() moved
  bool m_hold_output = false; // a cursor takes the reply apart: no flush meanwhile
  // The SESSION values of the variables that have one (xvars.h), copied from
  // the GLOBAL ones at connect and at Session.Reset, as a THD's.
  xvar_values m_vars;
  // The timeouts this connection runs with, in seconds (0: none, 5.7 mode).
  // SET SESSION changes them with the session value; SET GLOBAL from this
  // session changes them too (update_thd_system_variable calls the
  // client's setter) but not the session value, as in MySQL.
  std::uint32_t m_wait_timeout = 0, m_read_timeout = 0, m_write_timeout = 0;
  std::chrono::steady_clock::time_point m_accept_time = std::chrono::steady_clock::now();
  close_reason m_close_reason = close_reason::normal;
};

} // namespace xserver
