// What the server reads in one message (cdk/session/message_limit.h): learnt
// the first time a request could exceed it, kept with the connection (a
// pooled one keeps it, refreshed with each Session.Reset: client.cc), and
// checked before anything is sent, so no request the server would refuse
// by closing the connection ever goes out.
#include "cdk/session/message_limit.h"

#include "cdk/protocol/compression.h"
#include "devapi/session_impl.h"
#include "devapi/throw_error.h"

#include <algorithm>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

namespace cs = cdk::session;
namespace pr = cdk::protocol;

constexpr std::size_t k_length_field = 4; // a frame's little-endian length

std::uint64_t session_impl::message_limit(std::uint64_t size) {
  if (max_message_size_given || size <= cs::always_accepted_message_size) return max_message_size;
  // Known: no I/O, so requests in flight (executeAsync) stay in flight.
  if (conn && conn->server_message_limit()) return *conn->server_message_limit();
  // Asked: its reply must be the next one read, after whatever is in flight.
  auto& c = connection();
  if (!c.server_message_limit()) {
    cs::queue_limit_query(c.pipeline());
    auto r = value_or_throw(c.read_reply());
    // A server without the variable: the configured size, not asked again.
    c.set_server_message_limit(cs::limit_from_reply(r).value_or(max_message_size));
  }
  return *c.server_message_limit();
}

void session_impl::check_request_size(std::size_t at) {
  // send() has checked the connection; connection() here would complete
  // the requests in flight before this one could join them.
  auto& out = conn->pipeline().output();
  // The server compares each message's length field (its type byte and
  // payload) with the limit (Protocol_decoder::read_and_decode_impl).
  std::uint64_t size = 0;
  for (std::size_t pos = at; pos < out.size();) {
    const auto frame = pr::whole_frame_at(out, pos);
    if (!frame) break; // cannot happen: encoders append whole frames
    size = std::max<std::uint64_t>(size, *frame - k_length_field);
    pos += *frame;
  }
  if (size <= cs::always_accepted_message_size) return;
  std::uint64_t limit = 0;
  if (!max_message_size_given && !conn->server_message_limit()) {
    // The query goes out alone; the request waits outside the buffer.
    std::string request = out.substr(at);
    out.resize(at);
    limit = message_limit(size);
    out += request;
  } else {
    limit = message_limit(size);
  }
  if (size <= limit) return;
  out.resize(at);
  throw_error(cdk::error::client(cdk::client_errc::packet_too_large,
                                 "the request is a message of " + std::to_string(size) +
                                     " bytes, more than " + limit_text(limit) +
                                     "; nothing was sent"));
}

std::string session_impl::limit_text(std::uint64_t limit) const {
  return "the server reads in one message (" +
         std::string(max_message_size_given ? "max-message-size" : "mysqlx_max_allowed_packet") +
         " = " + std::to_string(limit) + ")";
}

} // namespace detail
MYSQLX_NAMESPACE_END
