// What tests observe of a session's prepared statements. Not API and never
// installed: the integration tests include it to prove the prepared path is
// taken (the counters are the client's; `deallocated` counts Deallocates the
// server acknowledged, which it does only for a statement it holds).
#pragma once

#include <cstdint>
#include <mysqlx/session.h>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

struct prepared_stats {
  std::uint64_t prepared = 0;    // Prepare messages the server accepted
  std::uint64_t executed = 0;    // Prepare.Execute messages sent
  std::uint64_t deallocated = 0; // Deallocates the server answered with Ok
  std::uint64_t refused = 0;     // Prepares refused (1047 / 1461)
  bool supported = true;         // the session still tries to prepare
};

MYSQLX_EXPORT prepared_stats prepared_stats_of(const Session& s);

} // namespace detail
MYSQLX_NAMESPACE_END
