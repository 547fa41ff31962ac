#include "cdk/session/lost_connection.h"

#include "cdk/session/message_limit.h"

#include <algorithm>
#include <string>

namespace cdk::session {

std::uint64_t largest_message(std::string_view frames) noexcept {
  std::uint64_t largest = 0;
  std::size_t pos = 0;
  while (frames.size() - pos >= 4) {
    const auto* p = reinterpret_cast<const unsigned char*>(frames.data() + pos);
    const std::uint64_t len = std::uint64_t{p[0]} | std::uint64_t{p[1]} << 8 |
                              std::uint64_t{p[2]} << 16 | std::uint64_t{p[3]} << 24;
    largest = std::max(largest, len);
    if (len > frames.size() - pos - 4) break;
    pos += 4 + static_cast<std::size_t>(len);
  }
  return largest;
}

namespace {

// Why a lost connection may have happened, as far as the connector knows;
// empty when it knows nothing beyond the transport's own words.
std::string why_lost(const request_facts& f) {
  if (f.notice)
    return ": the server closed it after notice " + std::to_string(f.notice->code) + " '" +
           f.notice->message + "'";
  // Every server reads messages this small: the size explains nothing.
  if (f.largest_message <= always_accepted_message_size) return {};
  const std::string size = " after a message of " + std::to_string(f.largest_message) + " bytes";
  if (!f.server_limit)
    return size +
           ", and the server's limit is not known (the connector did not ask for "
           "mysqlx_max_allowed_packet): a server closes the connection without an error on a "
           "message above its limit, so this one may have been too large";
  // The limit as the server gave it; a SET GLOBAL since then is not seen.
  const std::string limit = "(mysqlx_max_allowed_packet = " + std::to_string(*f.server_limit) +
                            " when the connector asked)";
  if (f.largest_message > *f.server_limit)
    return size + ", more than the server reads in one message " + limit +
           ": a server closes the connection without an error on such a message";
  // Said so the reader does not suspect the size, the usual suspect.
  return size + ", within the server's limit " + limit;
}

} // namespace

void explain_broken_request(error& e, const request_facts& f) {
  if (e.origin != error_origin::connection) return;
  if (e.code == client_errc::lost_connection) e.message += why_lost(f);
  if (e.maybe_applied) e.message += maybe_applied_words;
}

} // namespace cdk::session
