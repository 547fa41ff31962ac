// Sending an add()'s Insert: one message, or several pipelined inside one
// transaction when a single one would exceed the maximum message size.
#include "cdk/protocol/messages.h"
#include "devapi/add_plan.h"
#include "devapi/session_impl.h"
#include "devapi/throw_error.h"

MYSQLX_NAMESPACE_BEGIN
namespace detail {

namespace pr = cdk::protocol;

namespace {

// [first, last) ranges of documents whose Inserts each fit in `limit` bytes.
std::vector<std::pair<std::size_t, std::size_t>> split(const pr::doc_insert& ins,
                                                       std::size_t limit) {
  const std::size_t head = pr::doc_insert_size(ins, 0, 0);
  std::vector<std::pair<std::size_t, std::size_t>> parts;
  std::size_t first = 0, size = head;
  for (std::size_t i = 0; i < ins.docs.size(); ++i) {
    const std::size_t row = pr::doc_insert_row_size(ins.docs[i].size());
    if (i > first && size + row > limit) {
      parts.emplace_back(first, i);
      first = i;
      size = head;
    }
    size += row;
    // A single document larger than the limit still goes alone: the server
    // answers with its own error, which is clearer than ours could be.
  }
  parts.emplace_back(first, ins.docs.size());
  return parts;
}

void merge(pr::reply& into, pr::reply&& part) {
  into.info.rows_affected += part.info.rows_affected;
  auto& ids = into.info.generated_ids;
  ids.insert(ids.end(), part.info.generated_ids.begin(), part.info.generated_ids.end());
  auto& w = into.info.warnings;
  w.insert(w.end(), part.info.warnings.begin(), part.info.warnings.end());
}

} // namespace

pr::reply run_insert(session_impl& sess, const pr::doc_insert& ins) {
  const std::size_t limit = sess.max_message_size;
  if (pr::doc_insert_size(ins, 0, ins.docs.size()) <= limit)
    return sess.run([&](std::string& out) { return pr::encode_doc_insert(out, ins); });

  auto& conn = sess.connection();
  auto& pipe = conn.pipeline();
  const bool own_trx = !sess.in_transaction && !sess.autocommit_off;
  std::size_t requests = 0;
  if (own_trx) {
    check(pr::encode_stmt_execute(pipe.output(), "START TRANSACTION"));
    pipe.expect(pr::replies::statement);
    ++requests;
  }
  for (auto [first, last] : split(ins, limit)) {
    pr::doc_insert part = ins;
    part.docs.assign(ins.docs.begin() + static_cast<std::ptrdiff_t>(first),
                     ins.docs.begin() + static_cast<std::ptrdiff_t>(last));
    check(pr::encode_doc_insert(pipe.output(), part));
    pipe.expect(pr::replies::statement);
    ++requests;
    // Send as we go: the buffer never holds more than one part unsent.
    check(conn.flush());
  }
  // All parts are in flight; read every reply, keeping the first error.
  pr::reply merged;
  std::optional<cdk::error> failed;
  for (std::size_t i = 0; i < requests; ++i) {
    pr::reply r = value_or_throw(conn.read_reply());
    if (r.error && !failed) failed = r.error;
    if (!r.error && !(own_trx && i == 0)) merge(merged, std::move(r));
  }
  if (failed) {
    if (own_trx) sess.sql("ROLLBACK");
    throw_error(*failed);
  }
  if (own_trx) sess.sql("COMMIT");
  return merged;
}

} // namespace detail
MYSQLX_NAMESPACE_END
