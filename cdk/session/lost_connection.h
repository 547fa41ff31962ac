// What the error of a broken connection says about the request it broke
// under: whether the server may have applied it, and whether the size of a
// message can explain a silent close. MySQL closes the connection without an
// error on a message above its mysqlx_max_allowed_packet, so a bare "lost
// connection" after a large request is ambiguous; but a crash, a kill or a
// network failure looks the same on the wire, so the size is named as a
// cause only when it can be one (issue 25).
//
// Sans-I/O: connection::flush() notes the largest message of each flight
// (largest_message()); connection::broken() hands what it knows to
// explain_broken_request().
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/protocol/notice.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace cdk::session {

// The length field of the largest frame in `frames` (complete frames, as a
// flight is sent): its type byte and payload, which is what the server
// compares with its limit. A cut last frame counts with what is there.
// Reads 4 bytes per frame, never the payloads.
std::uint64_t largest_message(std::string_view frames) noexcept;

// What the connection knew when it broke.
struct request_facts {
  // The largest message of the last flight sent (largest_message()); 0 when
  // nothing was sent since the handshake.
  std::uint64_t largest_message = 0;
  // The server's limit, if the connection learnt it (message_limit.h).
  std::optional<std::uint64_t> server_limit;
  // The GLOBAL notice of level ERROR the server sent before it closed.
  const protocol::warning* notice = nullptr;
};

// The words that end an error whose request may have been applied; a layer
// that knows better (a transaction that never reached COMMIT) replaces them.
inline constexpr std::string_view maybe_applied_words =
    "; the request had gone out and its reply was not read, so the server may have applied it";

// Adds to a connection error's message (lost connection, timeout, a
// malformed reply) what is known of the request: the server's notice, or
// whether the message size can explain a lost connection, and, when
// e.maybe_applied is set, that the request may have been applied
// (maybe_applied_words). Other errors (a server's own) are left as they are.
void explain_broken_request(error& e, const request_facts& f);

} // namespace cdk::session
