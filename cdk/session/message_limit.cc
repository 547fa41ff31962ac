#include "cdk/session/message_limit.h"

#include "cdk/protocol/messages.h"
#include "cdk/protocol/resultset.h"

namespace cdk::session {

namespace pr = cdk::protocol;

void queue_limit_query(pr::pipeline& p) {
  // Cannot fail: no arguments, and the text is far below any size limit.
  (void)pr::encode_stmt_execute(p.output(), "SELECT @@mysqlx_max_allowed_packet");
  p.expect(pr::replies::statement);
}

std::optional<std::uint64_t> limit_from_reply(const pr::reply& r) {
  if (r.error) return std::nullopt;
  auto sets = pr::decode_result_sets(r);
  if (!sets || sets.value().size() != 1) return std::nullopt;
  const auto& rows = sets.value()[0].rows;
  std::uint64_t n = 0;
  if (rows.size() != 1 || rows[0].size() != 1 || !rows[0][0].get_uint(n)) return std::nullopt;
  // Below the minimum cannot be the server's limit: keep the default.
  if (n < always_accepted_message_size) return std::nullopt;
  return n;
}

} // namespace cdk::session
