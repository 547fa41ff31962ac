#include "cdk/session/member_probe.h"

#include "cdk/protocol/messages.h"
#include "cdk/protocol/resultset.h"

namespace cdk::session {

namespace pr = cdk::protocol;

void queue_member_probe(pr::pipeline& p) {
  // Cannot fail: no arguments, and the text is far below any size limit.
  // SHOW STATUS needs no privilege and is answered outside the Primary
  // component too. MariaDB without Galera says wsrep_ready OFF as well: only
  // a loaded provider makes it count.
  (void)pr::encode_stmt_execute(
      p.output(), "SHOW STATUS WHERE Variable_name IN ('wsrep_ready', 'wsrep_provider_name')");
  p.expect(pr::replies::statement);
}

std::optional<std::string> member_unusable(const pr::reply& r) {
  if (r.error) {
    if (r.error->code == wsrep_not_ready)
      return std::to_string(r.error->code) + " " + r.error->message;
    return std::nullopt;
  }
  auto sets = pr::decode_result_sets(r);
  if (!sets || sets.value().size() != 1) return std::nullopt;
  bool provider = false, ready = true;
  for (const auto& row : sets.value()[0].rows) {
    if (row.size() != 2 || !row[0].is_text() || !row[1].is_text()) continue;
    if (row[0].bytes == "wsrep_provider_name") provider = !row[1].bytes.empty();
    if (row[0].bytes == "wsrep_ready") ready = row[1].bytes != "OFF";
  }
  if (provider && !ready) {
    return "wsrep_ready=OFF: the member is outside its cluster's Primary component and "
           "refuses statements (1047)";
  }
  return std::nullopt;
}

} // namespace cdk::session
