// The largest message the server reads: MySQL's mysqlx_max_allowed_packet
// (GLOBAL, 512 bytes to 1 GiB, default 64 MiB in 8.0: MYSQL_SYSVAR_UINT
// max_allowed_packet in plugin/x/src/variables/system_variables.cc). The X
// Protocol does not announce it, and MySQL closes the connection on a
// message above it, so a connector that sends large messages has to ask.
//
// Sans-I/O: queue the query, hand its reply to limit_from_reply().
#pragma once

#include "cdk/protocol/pipeline.h"

#include <cstdint>
#include <optional>

namespace cdk::session {

// No server reads less than this: messages up to this size never need the
// limit (the variable's minimum).
inline constexpr std::uint64_t always_accepted_message_size = 512;

// Queues `SELECT @@mysqlx_max_allowed_packet` and its expected reply.
void queue_limit_query(protocol::pipeline& p);

// The limit from that query's reply; nullopt when the server has no such
// variable or answered with something else (the caller keeps its default).
std::optional<std::uint64_t> limit_from_reply(const protocol::reply& r);

} // namespace cdk::session
