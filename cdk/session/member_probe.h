// Whether a cluster member can take work, asked right after connecting when
// the connection string lists several hosts (connection::open's fail-over
// skips a member that cannot). MariaDB Galera: a member outside the Primary
// component (cut off from its cluster) logs clients in, as MySQL's X Plugin
// does, and then refuses every statement that reads or writes a table with
// 1047 "WSREP has not yet prepared node for application use"; its status
// says so first: wsrep_ready OFF with a provider loaded (wsrep_provider_name
// "Galera"). MariaDB without Galera says wsrep_ready OFF with no provider,
// MySQL has neither (an empty answer): usable.
//
// Sans-I/O: queue the query, hand its reply to member_unusable().
#pragma once

#include "cdk/protocol/pipeline.h"

#include <cstdint>
#include <optional>
#include <string>

namespace cdk::session {

// Galera's "not ready" (ER_UNKNOWN_COM_ERROR), also met during a login.
inline constexpr std::uint32_t wsrep_not_ready = 1047;

// Queues the SHOW STATUS of wsrep_ready and wsrep_provider_name, and its
// expected reply.
void queue_member_probe(protocol::pipeline& p);

// Why the member cannot take work, for the fail-over error; nullopt when it
// can, or when the answer says nothing (another error: the application's
// own statements will meet it, and it is no reason to pass a member by).
std::optional<std::string> member_unusable(const protocol::reply& r);

} // namespace cdk::session
