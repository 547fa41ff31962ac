// The state behind Session, Schema, Collection, statements and results: the
// connection, the document-id policy, and the helpers every statement uses.
// Private header.
#pragma once

#include "cdk/docid/custom.h"
#include "cdk/docid/policy.h"
#include "cdk/foundation/readable_waiter.h"
#include "cdk/protocol/pipeline.h"
#include "cdk/protocol/resultset.h"
#include "cdk/protocol/value.h"
#include "cdk/session/connection.h"
#include "devapi/test_hooks.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <mysqlx/collection.h>
#include <mysqlx/result.h>
#include <mysqlx/session.h>
#include <mysqlx/value.h>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

struct async_op;
struct client_impl;
struct result_impl;
struct session_impl;

/// Appends one request to the pipeline's output.
using encoder = std::function<cdk::status(std::string&)>;

struct session_impl {
  std::unique_ptr<cdk::session::connection> conn;
  std::shared_ptr<client_impl> pool; // set for sessions of a Client: close() returns conn there
  cdk::docid::docid_policy policy;
  // Session::setDocIdGenerator(): the application's id generator, used in
  // place of the built-in one whenever ids are made on the client.
  cdk::docid::custom_id_generator id_generator;
  std::string default_schema;
  // max-message-size, and whether the user gave it (then the server is not
  // asked: message_limit.cc).
  std::uint64_t max_message_size = 0;
  bool max_message_size_given = false;
  // A transaction is open: startTransaction(), or START TRANSACTION / BEGIN
  // sent through sql() (sql_trx.h). With autocommit off, every statement
  // runs in one until COMMIT, so a split add must not open its own.
  bool in_transaction = false;
  bool autocommit_off = false;
  /// After DDL the session sent itself (createSchema, createCollection,
  /// createIndex...): MySQL commits any open transaction first.
  void implicit_commit() noexcept { in_transaction = false; }
  // Prepared statement ids, handed out as Connector/C++ 8 hands them out
  // (prepared.cc), so that a server sees the same prepared statements from
  // the same program: the ids statements hold; the ids of statements gone
  // or changed, still prepared on the server until a new id is needed; and
  // how many the server takes, known once it refused one (1461).
  // prepare_supported: off for good once the server has no Mysqlx.Prepare.
  bool prepare_supported = true;
  std::set<std::uint32_t> stmt_ids, freed_stmt_ids;
  std::size_t max_prepared = SIZE_MAX;
  // Deallocates to send: they go out pipelined in front of the next
  // request, so nothing but a request does I/O.
  std::vector<std::uint32_t> to_deallocate;
  /// An id for a statement to prepare, 0 when none may be prepared now:
  /// the smallest freed one (the other freed ones are deallocated), else
  /// one above the largest in use.
  std::uint32_t new_stmt_id();
  /// The last statement holding `id` is gone or changed.
  void free_stmt_id(std::uint32_t id) noexcept;
  // The views of an add()'s documents, kept between adds for its capacity:
  // a single add() then allocates nothing for them (collection_add.cc).
  std::vector<std::string_view> doc_views;
  prepared_stats stats;
  // The result whose reply is still being read as its rows are fetched (it
  // owns the wire), or null; orphan_reply: such a reply whose result is
  // gone. settle() reads the rest before anything else is sent or the
  // connection is given up: into that result's buffer, or discarded.
  result_impl* streaming = nullptr;
  bool orphan_reply = false;
  // executeAsync() (async.h): held by whatever reads or writes the
  // connection; the requests sent and not yet answered, oldest first, and
  // their bytes; at most max_in_flight of them (then the oldest is read
  // before the next goes out), and a request goes out only while the
  // bytes in flight stay within max_in_flight_bytes, so the server's
  // socket buffer takes them all even while it blocks writing replies
  // nobody reads yet: a client and a server can never wait on each other.
  std::recursive_mutex wire;
  // A future's completion is seen without the wire (async.cc): each op's
  // `done` is written under progress_mx (and the wire) by whichever thread
  // reads its reply, and `progress` is notified then. One waiter at a time
  // is the reader (reader_waiting, its thread reader_thread): it reads
  // replies in order and waits for the socket without the wire (waiter),
  // so that other threads send meanwhile; the other waiters wait on
  // `progress` until their op is done or the reader role is free. A thread
  // that completes replies while the reader waits for the socket wakes it.
  std::mutex progress_mx;
  std::condition_variable progress;
  bool reader_waiting = false;
  std::thread::id reader_thread;
  cdk::readable_waiter waiter;
  std::deque<std::shared_ptr<async_op>> in_flight;
  std::size_t in_flight_bytes = 0;
  std::size_t max_in_flight = 100;
  static constexpr std::size_t max_in_flight_bytes = std::size_t{64} * 1024;
  /// Reads the oldest request's reply into its future (async.cc). Its
  /// error stays with the future; a broken connection fails every later
  /// one too.
  void complete_front();
  /// Completes every request in flight.
  void drain();

  /// The largest message the server reads, for a message of `size` bytes:
  /// asks the server once per connection the first time a message is larger
  /// than every server reads (message_limit.cc).
  std::uint64_t message_limit(std::uint64_t size);
  /// Checks the messages just encoded at output()[at:] against
  /// message_limit() (they are taken out while the server is asked). Throws
  /// CR_NET_PACKET_TOO_LARGE, with them removed and the session usable, if
  /// one is over the limit.
  void check_request_size(std::size_t at);
  /// "the server reads in one message (mysqlx_max_allowed_packet = N)", for
  /// errors.
  std::string limit_text(std::uint64_t limit) const;

  /// The open connection, with no streamed reply pending and, unless
  /// `pipelining` (executeAsync() sending), nothing in flight; throws a
  /// client error once the session is closed.
  cdk::session::connection& connection(bool pipelining = false);
  /// Reads the rest of a streamed reply (see `streaming`). Its server errors
  /// stay with its result; a broken connection throws.
  void settle();
  /// Queues the Deallocates of gone statements and one request (the encoder
  /// appends it to the pipeline), sends them and reads the Deallocates'
  /// replies: the request's reply is next.
  void send(const encoder& encode, cdk::protocol::reply_end end, bool pipelining = false);
  /// send() in two steps: queue() checks and queues the Deallocates and the
  /// request (errors here mean nothing was sent) and returns how many
  /// Deallocates went in; read_deallocated() flushes and reads their
  /// replies, so the request has gone out (errors here may follow it).
  std::size_t queue(const encoder& encode, cdk::protocol::reply_end end, bool pipelining = false);
  void read_deallocated(std::size_t n);
  /// send(), then reads the whole reply. A server error is thrown unless
  /// `tolerate` lists its code.
  cdk::protocol::reply run(const encoder& encode, std::vector<std::uint32_t> tolerate = {},
                           cdk::protocol::reply_end end = cdk::protocol::replies::statement);
  /// SQL with arguments; the reply.
  cdk::protocol::reply sql(const std::string& query,
                           const std::vector<cdk::protocol::value>& args = {},
                           std::vector<std::uint32_t> tolerate = {});
  /// An admin command in namespace "mysqlx" with one object argument.
  cdk::protocol::reply admin(const std::string& cmd, std::vector<cdk::protocol::value_field> fields,
                             std::vector<std::uint32_t> tolerate = {});
};

/// A statement's server-side prepared statement id. Copies of a statement
/// share it, as in Connector/C++ 8, until one of them changes and needs its
/// own; the last owner gone frees the id (session_impl::free_stmt_id()).
struct prepared_id {
  std::shared_ptr<session_impl> sess;
  std::uint32_t id = 0; // 0: given up (the server refused the Prepare)
  // An Execute of it failed with 5110: the server does not hold it, so the
  // next run prepares it again. Set by whichever thread reads that reply.
  std::atomic<bool> unprepared{false};
  prepared_id(std::shared_ptr<session_impl> s, std::uint32_t i) : sess(std::move(s)), id(i) {}
  prepared_id(const prepared_id&) = delete;
  prepared_id& operator=(const prepared_id&) = delete;
  ~prepared_id() {
    if (id != 0) sess->free_stmt_id(id);
  }
};

/// What a statement's next execution does (Connector/C++ 8's three states):
/// run plainly (new or changed), prepare and execute (run once unchanged),
/// or execute what is prepared.
enum class prepare_step : std::uint8_t { plain, prepare, execute };

/// What Schema, Collection and Table refer to.
/// What object_base::getSession() returns: a Session on the object's
/// connection that, destroyed, leaves it open (schema.cc).
struct borrowed_session {
  explicit borrowed_session(std::shared_ptr<session_impl> sess);
  borrowed_session(const borrowed_session&) = delete;
  borrowed_session& operator=(const borrowed_session&) = delete;
  ~borrowed_session();
  Session session;
};

struct object_ref {
  std::shared_ptr<session_impl> sess;
  std::string schema;                         // empty for a Schema
  mysqlx::string name;                        // getName() returns it
  std::shared_ptr<borrowed_session> borrowed; // made by the first getSession()
  signed char is_view = -1; // a Table told by its constructor (0 or 1); -1: ask the server
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
  std::shared_ptr<prepared_id> prepared; // shared with copies, as the step
  prepare_step step = prepare_step::plain;
  /// The Crud message last built for this statement (crud_build.cc): a
  /// rebuild clears it and overwrites it in place, keeping its allocations
  /// (a find's build: 2.5x fewer instructions than into a fresh message,
  /// callgrind). Type-erased so that
  /// this header needs no protobuf; a copy or an assigned statement builds
  /// its own.
  struct kept_message {
    std::shared_ptr<void> msg;
    kept_message() = default;
    kept_message(const kept_message&) noexcept {}
    kept_message(kept_message&&) noexcept = default;
    kept_message& operator=(const kept_message& other) noexcept {
      if (this != &other) msg.reset();
      return *this;
    }
    kept_message& operator=(kept_message&&) noexcept = default;
    ~kept_message() = default;
  } kept;
  /// The statement changed (not just a bind or a limit): run it plainly
  /// next, then prepare it afresh.
  void changed() noexcept { step = prepare_step::plain; }
  /// limit() or offset() is about to be set. Their values go with each
  /// Execute, so they change nothing, but a statement prepared without any
  /// has no place for them: prepare it again (Connector/C++ 8's rule).
  void limit_changing() noexcept {
    if (!limit && !offset && step == prepare_step::execute) step = prepare_step::prepare;
  }
};

/// A result: what has been read of its statement's reply. A streamed reply
/// is read as the application asks: rows one by one, the rest (counts,
/// warnings, ids) at the end. Held by unique_ptr, so its address is stable
/// while the public result object moves (session_impl::streaming).
struct result_impl {
  struct set {
    Columns columns;
    std::deque<Row> rows; // read and not fetched yet
    bool done = false;    // no more rows will come
    bool cut = false;     // the reply ended inside this set (see failure)
    bool last = false;    // ended by FetchDone: no set follows
  };
  std::shared_ptr<session_impl> sess; // keeps the connection alive
  // Each set on the heap: a Columns& stays valid as sets are added. Not a
  // deque, which allocates 600 bytes even when empty, as most results are.
  std::vector<std::unique_ptr<set>> sets;
  std::size_t current = 0;
  std::uint64_t affected = 0;
  std::uint64_t auto_increment = 0;
  DocIdList generated_ids;
  WarningList warnings;
  bool complete = true;              // the whole reply has been read
  std::optional<cdk::error> failure; // what the reply ended with; thrown where met
  stream_stats stats;
  cdk::protocol::result_decoder decoder{false}; // rows stay raw: to_row() converts them

  result_impl() = default;
  result_impl(const result_impl&) = delete;
  result_impl& operator=(const result_impl&) = delete;
  ~result_impl();

  /// Takes in a reply, whole or one part of a streamed one.
  void apply(const cdk::protocol::reply& part);
  /// Reads and applies the next part of a streamed reply; false once the
  /// reply is complete. Errors (the server's, a broken connection) end the
  /// reply and are kept in `failure`.
  bool read_part();
  /// Reads to the end, buffering the rows; errors stay in `failure`.
  void read_to_end() {
    while (read_part()) {
    }
  }
  /// read_to_end(), then throws the reply's error.
  void finish();
  /// The current result set, once its metadata is read; null when there is
  /// none (any more).
  set* current_set();
  /// current_set() with all its rows read; throws the error that cut it.
  set* read_current_set();
  /// The next row of the current set; false at its end. Throws the error
  /// that cut the set short, when the fetch reaches it.
  bool fetch(Row& out);
  void drop_rows(set& s) noexcept;
};

/// A result_impl from a whole statement reply: result sets converted to
/// Columns and Rows, counts, warnings. Throws on a malformed reply.
std::unique_ptr<result_impl> make_result(std::shared_ptr<session_impl> sess,
                                         const cdk::protocol::reply& r);

/// Sends a statement (replies::statement) and reads its reply up to the
/// first result set's metadata, or to its end when it has none: a refused
/// statement throws here. The rest is read as the result is used, or by the
/// session before its next request.
std::unique_ptr<result_impl> stream_result(const std::shared_ptr<session_impl>& sess,
                                           const encoder& encode);

/// `name` as an SQL identifier: in backticks, with backticks doubled.
std::string quote_id(std::string_view name);

/// SELECT COUNT(*) of the collection or table `ref` names.
std::uint64_t count_rows(const object_ref& ref);

/// A Value as a protocol value (for SQL arguments, CRUD args and literals).
cdk::protocol::value to_protocol(const Value& v);

/// A document's JSON text: from a DbDoc or a string Value; throws for others.
std::string_view doc_text(const Value& v, std::size_t index);

} // namespace detail
MYSQLX_NAMESPACE_END
