#include "cdk/foundation/dns_srv.h"

// The resolver half: glibc's res_nmkquery + res_nsend on a private
// res_state. Since glibc 2.34 the res_n* functions live in libc itself, so no
// -lresolv is needed on Debian 12; the answer is parsed by our own code
// (dns_srv_parse.cc), not by libresolv's ns_parserr.
#include <algorithm>
#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <cerrno>
#include <cstring>
#include <netdb.h>
#include <netinet/in.h>
#include <random>
#include <resolv.h>

namespace cdk {

namespace {

std::uint32_t default_random(std::uint32_t bound) {
  thread_local std::mt19937 engine{std::random_device{}()};
  return std::uniform_int_distribution<std::uint32_t>(0, bound)(engine);
}

// A private resolver state: res_nsend on it is thread-safe, unlike res_send
// on the global _res.
class resolver {
public:
  resolver() : m_ok(res_ninit(&m_state) == 0) {}
  ~resolver() {
    if (m_ok) res_nclose(&m_state); // only after a successful init: a zeroed state holds fd 0
  }
  resolver(const resolver&) = delete;
  resolver& operator=(const resolver&) = delete;
  bool ok() const noexcept { return m_ok; }
  res_state get() noexcept { return &m_state; }

private:
  struct __res_state m_state {};
  bool m_ok;
};

// The resolver waits RES_TIMEOUT-style whole seconds per server and try:
// try n's wait on server k is (retrans << k) / nscount (k > 0), so one pass
// over 1, 2 or 3 servers takes 1, 2 or 3 times retrans. We fit the passes
// into the timeout, two of them when there is room (UDP can lose a packet).
void bound_lookup_time(res_state st, std::chrono::milliseconds timeout) {
  const long seconds = static_cast<long>(timeout.count() / 1000);
  const long per_pass = std::max(1, st->nscount);
  const int passes = seconds >= 2 * per_pass ? 2 : 1;
  st->retry = passes;
  st->retrans = static_cast<int>(std::max(1L, seconds / (per_pass * passes)));
}

status use_nameserver(res_state st, const std::pair<std::string, std::uint16_t>& ns) {
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(ns.second);
  if (inet_pton(AF_INET, ns.first.c_str(), &sa.sin_addr) != 1)
    return error::client(client_errc::bad_option, "bad nameserver address '" + ns.first + "'");
  st->nsaddr_list[0] = sa;
  st->nscount = 1;
  return ok();
}

// res_nsend gave up. After SERVFAIL, NOTIMP or REFUSED it tries the next
// server and at the end reports ETIMEDOUT as if nobody had answered, but the
// last reply is still in the buffer: a header with our id and QR set is a
// server's answer, and parse_srv_answer turns its RCODE into the error.
error send_failed(std::string_view name, const unsigned char* query,
                  const std::vector<unsigned char>& answer, int saved_errno) {
  const bool replied = answer[0] == query[0] && answer[1] == query[1] && (answer[2] & 0x80) != 0 &&
                       (answer[3] & 0x0F) != 0;
  if (replied) {
    return parse_srv_answer(std::string_view(reinterpret_cast<const char*>(answer.data()), 12),
                            name)
        .err();
  }
  if (saved_errno == ETIMEDOUT)
    return srv_lookup_error(client_errc::timeout, name, "no answer from the DNS server in time");
  return srv_lookup_error(client_errc::unknown_host, name,
                          std::string("no DNS server could be reached (") +
                              std::strerror(saved_errno) + ")");
}

} // namespace

result<std::vector<host_address>> resolve_srv(std::string_view name,
                                              const srv_lookup_options& lookup) {
  if (name.empty() || name.find('\0') != std::string_view::npos)
    return error::client(client_errc::bad_option, "mysqlx+srv:// needs a DNS name to look up");
  resolver res;
  if (!res.ok()) return srv_lookup_error(client_errc::unknown_host, name, "res_ninit failed");
  if (lookup.nameserver) {
    auto st = use_nameserver(res.get(), *lookup.nameserver);
    if (!st) return st.err();
  }
  if (lookup.timeout.count() > 0) bound_lookup_time(res.get(), lookup.timeout);

  unsigned char query[NS_PACKETSZ];
  const std::string query_name(name);
  const int qlen = res_nmkquery(res.get(), ns_o_query, query_name.c_str(), ns_c_in, ns_t_srv,
                                nullptr, 0, nullptr, query, sizeof query);
  if (qlen < 0) {
    return srv_lookup_error(client_errc::bad_option, name,
                            "the name cannot be put in a DNS query (too long?)");
  }
  // 64 KiB holds any DNS message (its lengths are 16 bits), even over TCP.
  std::vector<unsigned char> answer(std::size_t{64} * 1024);
  errno = 0;
  const int n = res_nsend(res.get(), query, qlen, answer.data(), static_cast<int>(answer.size()));
  if (n < 0) return send_failed(name, query, answer, errno);
  // res_nsend reports the full length even when it did not fit.
  if (static_cast<std::size_t>(n) > answer.size()) {
    return srv_lookup_error(client_errc::malformed_packet, name,
                            "malformed DNS answer: larger than " + std::to_string(answer.size()) +
                                " bytes");
  }
  auto records = parse_srv_answer(
      std::string_view(reinterpret_cast<const char*>(answer.data()), static_cast<std::size_t>(n)),
      name);
  if (!records) return records.err();
  std::vector<host_address> hosts;
  for (srv_record& r : order_srv(std::move(records.value()),
                                 lookup.random ? lookup.random : srv_random(default_random))) {
    host_address h;
    h.host = std::move(r.target);
    h.port = r.port;
    hosts.push_back(std::move(h)); // priority stays unset: connection::open keeps this order
  }
  return hosts;
}

result<connect_options> expand_dns_srv(const connect_options& opts, srv_lookup_options lookup) {
  if (!opts.dns_srv) return opts;
  if (opts.hosts.size() != 1 || opts.hosts[0].host.empty() || !opts.hosts[0].socket.empty())
    return error::client(client_errc::bad_option, "mysqlx+srv:// takes exactly one host name");
  if (lookup.timeout.count() == 0) lookup.timeout = opts.connect_timeout;
  auto hosts = resolve_srv(opts.hosts[0].host, lookup);
  if (!hosts) return std::move(hosts).err();
  connect_options out = opts;
  out.hosts = std::move(hosts.value());
  out.dns_srv = false;
  return out;
}

} // namespace cdk
