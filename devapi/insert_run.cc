// Sending an add()'s Insert: one message, or several pipelined inside one
// transaction when a single one would exceed the maximum message size.
#include "cdk/protocol/messages.h"
#include "cdk/session/lost_connection.h"
#include "devapi/access.h"
#include "devapi/add_plan.h"
#include "devapi/session_impl.h"
#include "devapi/throw_error.h"

#include <cstdint>
#include <deque>
#include <optional>
#include <string>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

namespace pr = cdk::protocol;

namespace {

// Replies are read while parts are still being written. The server writes a
// reply before it reads the next message, so if the replies we have not read
// outgrow the socket buffers while we block writing a part, both ends wait
// forever. The unread replies are kept under this many bytes: far less than
// any TCP or Unix socket buffers. A reply is small, except that with server
// ids it carries one id (~32 bytes) per document lacking `_id`.
constexpr std::size_t unread_reply_budget = std::size_t{64} * 1024;
constexpr std::size_t reply_base = 256;
constexpr std::size_t reply_per_server_id = 40;
// With server ids, parts are also cut at this many documents, so that each
// reply fits the budget with room for the next one: parts stay pipelined.
constexpr std::size_t max_docs_with_server_ids =
    (unread_reply_budget / 2 - reply_base) / reply_per_server_id;

// What the server compares with its limit: the frame less its length field.
std::size_t message_size(std::size_t frame_size) {
  return frame_size - 4;
}

// [first, last) ranges of documents whose Inserts each fit in `limit` bytes
// and hold at most `max_docs` documents. A document that does not fit even
// alone is a client error, raised before anything is sent.
std::vector<std::pair<std::size_t, std::size_t>> split(const session_impl& sess,
                                                       const pr::doc_insert& ins,
                                                       std::uint64_t limit, std::size_t max_docs) {
  const std::size_t head = message_size(pr::doc_insert_size(ins, 0, 0));
  std::vector<std::pair<std::size_t, std::size_t>> parts;
  std::size_t first = 0, size = head;
  for (std::size_t i = 0; i < ins.docs.size(); ++i) {
    const std::size_t row = pr::doc_insert_row_size(ins.docs[i].size());
    if (head + row > limit)
      throw_error(cdk::error::client(
          cdk::client_errc::packet_too_large,
          "document " + std::to_string(i + 1) + " of " + std::to_string(ins.docs.size()) +
              " in the add() is " + std::to_string(ins.docs[i].size()) +
              " bytes: its Insert would be a message of " + std::to_string(head + row) +
              " bytes, more than " + sess.limit_text(limit) + "; nothing was added"));
    if (i > first && (size + row > limit || i - first == max_docs)) {
      parts.emplace_back(first, i);
      first = i;
      size = head;
    }
    size += row;
  }
  parts.emplace_back(first, ins.docs.size());
  return parts;
}

void merge(pr::reply& into, pr::reply&& part) {
  into.info.rows_affected += part.info.rows_affected;
  auto& ids = into.info.generated_ids;
  ids.insert(ids.end(), std::make_move_iterator(part.info.generated_ids.begin()),
             std::make_move_iterator(part.info.generated_ids.end()));
  auto& w = into.info.warnings;
  w.insert(w.end(), part.info.warnings.begin(), part.info.warnings.end());
}

// `uncommitted` is set while the transaction this add() opened has not been
// sent its COMMIT.
pr::reply send_insert(session_impl& sess, const pr::doc_insert& ins, bool& uncommitted) {
  const std::size_t whole = message_size(pr::doc_insert_size(ins, 0, ins.docs.size()));
  const std::uint64_t limit = sess.message_limit(whole);
  if (whole <= limit)
    return sess.run([&](std::string& out) { return pr::encode_doc_insert(out, ins); });
  const bool server_ids = sess.policy.origin == cdk::docid::id_origin::server;
  const auto parts = split(sess, ins, limit, server_ids ? max_docs_with_server_ids : SIZE_MAX);

  auto& conn = sess.connection();
  auto& pipe = conn.pipeline();
  const bool own_trx = !sess.in_transaction && !sess.autocommit_off;
  // Estimated size of each reply not read yet, in request order.
  std::deque<std::size_t> unread;
  std::size_t unread_bytes = 0;
  pr::reply merged;
  std::optional<cdk::error> failed;
  bool first_reply = true; // START TRANSACTION's, when own_trx
  auto read_one = [&] {
    pr::reply r = value_or_throw(conn.read_reply());
    unread_bytes -= unread.front();
    unread.pop_front();
    if (r.error && !failed) failed = r.error;
    if (!r.error && !(own_trx && first_reply)) merge(merged, std::move(r));
    first_reply = false;
  };
  uncommitted = own_trx;
  if (own_trx) {
    check(pr::encode_stmt_execute(pipe.output(), "START TRANSACTION"));
    pipe.expect(pr::replies::statement);
    unread.push_back(reply_base);
    unread_bytes += reply_base;
  }
  for (auto [first, last] : parts) {
    while (!unread.empty() && unread_bytes > unread_reply_budget / 2) read_one();
    if (failed) break; // a part failed: the rest would be rolled back anyway
    pr::doc_insert part = ins;
    part.docs.assign(ins.docs.begin() + static_cast<std::ptrdiff_t>(first),
                     ins.docs.begin() + static_cast<std::ptrdiff_t>(last));
    check(pr::encode_doc_insert(pipe.output(), part));
    pipe.expect(pr::replies::statement);
    const std::size_t estimate =
        reply_base + (server_ids ? (last - first) * reply_per_server_id : 0);
    unread.push_back(estimate);
    unread_bytes += estimate;
    // Send as we go: the buffer never holds more than one part unsent.
    check(conn.flush());
  }
  while (!unread.empty()) read_one();
  if (failed) {
    if (own_trx) sess.sql("ROLLBACK");
    throw_error(*failed);
  }
  uncommitted = false;
  if (own_trx) sess.sql("COMMIT");
  return merged;
}

} // namespace

pr::reply run_insert(session_impl& sess, const pr::doc_insert& ins) {
  const std::lock_guard<std::recursive_mutex> lock(sess.wire);
  bool uncommitted = false;
  try {
    return send_insert(sess, ins, uncommitted);
  } catch (Error& e) {
    // MySQL rolls back a transaction whose session ends before COMMIT: a
    // split add() that broke before its COMMIT went out left nothing. The
    // message says so instead of the connection's "may have applied it".
    if (!e.isConnectionError() || !uncommitted) throw;
    std::string what = e.what();
    const auto words = cdk::session::maybe_applied_words;
    if (what.size() >= words.size() &&
        what.compare(what.size() - words.size(), words.size(), words.data(), words.size()) == 0)
      what.resize(what.size() - words.size());
    what += "; this add()'s transaction had not been sent its COMMIT, so nothing of it was applied";
    ConnectionError rolled_back(e.code(), what, e.sqlState());
    access::set_maybe_applied(rolled_back, false);
    throw rolled_back;
  }
}

} // namespace detail
MYSQLX_NAMESPACE_END
