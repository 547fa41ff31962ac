// DNS SRV lookup for mysqlx+srv:// (RFC 2782): the name given in the URI,
// e.g. _mysqlx._tcp.example.com, is resolved to a list of targets and ports
// that connection::open() then tries in order, with failover.
//
//   auto o = cdk::expand_dns_srv(opts);  // opts.dns_srv: hosts[0] is the SRV name
//   if (!o) return o.err();              // "Unable to locate any hosts for <name>..."
//   connection::open(o.value());         // hosts in SRV order, no priorities
//
// The parts are separate so that they can be tested without a network:
// parse_srv_answer() reads one DNS message (sans-I/O), order_srv() applies
// RFC 2782's priority and weight rules with an injectable random source, and
// resolve_srv() asks the system resolver (glibc res_nmkquery + res_nsend, the
// two halves of res_nquery, on a private res_state, so it is thread-safe).
// Errors are error_origin::connection and all start with "Unable to locate
// any hosts for <name>", the text of Connector/C++ and Node.js:
//   unknown_host (2005)     NXDOMAIN, no SRV record, or only the "." target
//   timeout (4007)          no DNS server answered in time
//   malformed_packet (2027) the answer does not parse (it is network input)
//   unknown_host (2005)     any other resolver failure (SERVFAIL, REFUSED, ...)
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/foundation/options.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cdk {

struct srv_record {
  std::uint16_t priority = 0; // lower is tried first
  std::uint16_t weight = 0;   // relative share within one priority
  std::uint16_t port = 0;
  std::string target; // host name, without the final dot
};

// The error every failed lookup returns: "Unable to locate any hosts for
// <name>: <why>", origin connection.
error srv_lookup_error(std::uint32_t code, std::string_view name, const std::string& why);

// Returns a uniformly distributed number in [0, bound] (inclusive).
using srv_random = std::function<std::uint32_t(std::uint32_t bound)>;

// The SRV records (class IN) in the answer section of one DNS response.
// Records of other types (e.g. a CNAME on the way) are skipped. `name` is
// only used in error texts. Every length and name pointer is checked against
// the message: a short, truncated or looping message is malformed_packet.
// An NXDOMAIN response or one without SRV records is unknown_host.
result<std::vector<srv_record>> parse_srv_answer(std::string_view msg, std::string_view name);

// RFC 2782 order: ascending priority; within one priority, repeated weighted
// random selection (weight-0 records go first in the running sum, so they are
// picked only when the random number is 0 or when all weights are 0).
std::vector<srv_record> order_srv(std::vector<srv_record> records, const srv_random& random);

// Internal knobs of the lookup; none of them is a user option.
struct srv_lookup_options {
  // Bounds the whole lookup (approximately: the resolver counts in whole
  // seconds). 0 keeps the system's resolv.conf timeout and attempts.
  std::chrono::milliseconds timeout{0};
  // Tests: ask this IPv4 nameserver (e.g. a fake one on 127.0.0.1) instead
  // of the ones in /etc/resolv.conf.
  std::optional<std::pair<std::string, std::uint16_t>> nameserver;
  srv_random random; // empty: a per-thread std::mt19937 seeded by random_device
};

// Resolves `name` (class IN, type SRV) and returns the hosts in RFC 2782
// order: host = target, port = the record's port, no priority set (so that
// connection::open keeps the order as given).
result<std::vector<host_address>> resolve_srv(std::string_view name,
                                              const srv_lookup_options& lookup = {});

// opts with the SRV name replaced by the looked-up hosts and dns_srv cleared;
// opts unchanged when dns_srv is false. The lookup's timeout is
// opts.connect_timeout unless `lookup` sets one.
result<connect_options> expand_dns_srv(const connect_options& opts, srv_lookup_options lookup = {});

} // namespace cdk
