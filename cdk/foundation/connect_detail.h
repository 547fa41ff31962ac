// Private to cdk/foundation and its tests: the part of connect_tcp() after
// name resolution, so that tests can give an address list of their choice
// (e.g. a refusing ::1 before a listening 127.0.0.1).
#pragma once

#include "cdk/foundation/stream.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <netdb.h>
#include <string>

namespace cdk {

// Tries each address of `list` in order until one connects, within timeout
// (0: none) for the whole list. host/port only name the target in errors.
result<std::unique_ptr<stream>> connect_resolved(const addrinfo* list, const std::string& host,
                                                 std::uint16_t port,
                                                 std::chrono::milliseconds timeout);

} // namespace cdk
