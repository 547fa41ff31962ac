// Test helpers for cdk/foundation/dns_srv.h: a DNS message builder for
// hand-made answers, and a fake DNS server on a loopback UDP port that
// answers the resolver's SRV queries with canned replies. Used by
// test/unit/foundation/dns_srv_test.cc and the session integration test.
#pragma once

#include "cdk/foundation/dns_srv.h"

#include <arpa/inet.h>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <netinet/in.h>
#include <poll.h>
#include <stdexcept>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace fake_dns {

// Big-endian fields and uncompressed names, appended to `out`.
inline void put16(std::string& out, std::uint16_t v) {
  out += static_cast<char>(v >> 8);
  out += static_cast<char>(v & 0xFF);
}
inline void put32(std::string& out, std::uint32_t v) {
  put16(out, static_cast<std::uint16_t>(v >> 16));
  put16(out, static_cast<std::uint16_t>(v & 0xFFFF));
}
// "a.bc" -> \1 a \2 b c \0; "" and "." are the root name.
inline std::string name(std::string_view dotted) {
  std::string out;
  while (!dotted.empty() && dotted != ".") {
    const auto dot = dotted.find('.');
    const std::string_view label = dotted.substr(0, dot);
    out += static_cast<char>(label.size());
    out.append(label);
    dotted = dot == std::string_view::npos ? std::string_view() : dotted.substr(dot + 1);
  }
  out += '\0';
  return out;
}

constexpr std::uint16_t type_srv = 33, type_cname = 5, class_in = 1;
constexpr unsigned rcode_servfail = 2, rcode_nxdomain = 3;

// A header for a response: QR, RD and RA set.
inline std::string header(std::uint16_t id, unsigned rcode, std::uint16_t qd, std::uint16_t an) {
  std::string out;
  put16(out, id);
  put16(out, static_cast<std::uint16_t>(0x8180 | rcode));
  put16(out, qd);
  put16(out, an);
  put16(out, 0);
  put16(out, 0);
  return out;
}
inline std::string question(std::string_view qname) {
  std::string out = name(qname);
  put16(out, type_srv);
  put16(out, class_in);
  return out;
}
// One resource record; `owner` is wire bytes (a name or a pointer such as
// "\xC0\x0C", the question's name in a one-question message).
inline std::string rr(std::string_view owner, std::uint16_t type, std::string_view rdata) {
  std::string out(owner);
  put16(out, type);
  put16(out, class_in);
  put32(out, 300);
  put16(out, static_cast<std::uint16_t>(rdata.size()));
  out.append(rdata);
  return out;
}
inline std::string srv_rdata(const cdk::srv_record& r) {
  std::string out;
  put16(out, r.priority);
  put16(out, r.weight);
  put16(out, r.port);
  return out + name(r.target);
}
// A complete answer: question `qname`, then `records`.
inline std::string srv_answer(std::uint16_t id, std::string_view qname,
                              const std::vector<cdk::srv_record>& records, unsigned rcode = 0) {
  std::string out = header(id, rcode, 1, static_cast<std::uint16_t>(records.size()));
  out += question(qname);
  for (const cdk::srv_record& r : records) out += rr("\xC0\x0C", type_srv, srv_rdata(r));
  return out;
}

enum class reply {
  records,        // srv_answer with the canned records
  nxdomain,       // rcode 3, no answer
  servfail,       // rcode 2
  truncated,      // a records answer cut in the middle of its last record
  garbage_answer, // right id and question, then an answer record of junk
  garbage,        // bytes that are no reply to the query (the resolver drops them)
  silence,        // nothing at all: the resolver times out
};

// Answers every query on 127.0.0.1:<port()> from a thread, until destroyed.
class server {
public:
  explicit server(reply how, std::vector<cdk::srv_record> records = {})
      : m_how(how), m_records(std::move(records)) {
    m_fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof sa;
    if (m_fd < 0 || ::bind(m_fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 ||
        ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&sa), &len) != 0) {
      if (m_fd >= 0) ::close(m_fd);
      throw std::runtime_error("fake_dns: cannot bind a UDP socket on 127.0.0.1");
    }
    m_port = ntohs(sa.sin_port);
    m_thread = std::thread([this] { run(); });
  }
  ~server() {
    m_stop = true;
    m_thread.join();
    ::close(m_fd);
  }
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  std::uint16_t port() const noexcept { return m_port; }
  int queries() const noexcept { return m_queries; }
  // What the resolver asked for, as "name type" of the last query.
  std::string last_question() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_last;
  }
  cdk::srv_lookup_options lookup(std::chrono::milliseconds timeout) const {
    cdk::srv_lookup_options o;
    o.nameserver = std::make_pair(std::string("127.0.0.1"), m_port);
    o.timeout = timeout;
    return o;
  }

private:
  void run() {
    char buf[4096];
    while (!m_stop) {
      pollfd p{m_fd, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      sockaddr_in from{};
      socklen_t len = sizeof from;
      const auto n = ::recvfrom(m_fd, buf, sizeof buf, 0, reinterpret_cast<sockaddr*>(&from), &len);
      if (n < 12) continue;
      ++m_queries;
      const std::string q(buf, static_cast<std::size_t>(n));
      const std::string out = answer(q);
      if (!out.empty())
        ::sendto(m_fd, out.data(), out.size(), 0, reinterpret_cast<sockaddr*>(&from), len);
    }
  }

  std::string answer(const std::string& q) {
    // The question section, copied back as the resolver checks it.
    std::size_t end = 12;
    std::string qname;
    while (end < q.size() && q[end] != 0) {
      const auto l = static_cast<unsigned char>(q[end]);
      if (!qname.empty()) qname += '.';
      qname.append(q, end + 1, l);
      end += 1 + l;
    }
    end += 5; // the root label, QTYPE, QCLASS
    if (end > q.size()) return {};
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_last = qname + " " + std::to_string(static_cast<unsigned char>(q[end - 3]));
    }
    const auto id = static_cast<std::uint16_t>(static_cast<unsigned char>(q[0]) << 8 |
                                               static_cast<unsigned char>(q[1]));
    const std::string qsection = q.substr(12, end - 12);
    auto reply_with = [&](unsigned rcode, std::uint16_t an) { return header(id, rcode, 1, an); };
    switch (m_how) {
    case reply::records: {
      std::string out = reply_with(0, static_cast<std::uint16_t>(m_records.size())) + qsection;
      for (const auto& r : m_records) out += rr("\xC0\x0C", type_srv, srv_rdata(r));
      return out;
    }
    case reply::nxdomain:
      return reply_with(rcode_nxdomain, 0) + qsection;
    case reply::servfail:
      return reply_with(rcode_servfail, 0) + qsection;
    case reply::truncated: {
      std::string out = reply_with(0, 2) + qsection;
      out += rr("\xC0\x0C", type_srv, srv_rdata({0, 0, 33060, "db1.example.com"}));
      const std::string last =
          rr("\xC0\x0C", type_srv, srv_rdata({0, 0, 33060, "db2.example.com"}));
      return out + last.substr(0, last.size() / 2);
    }
    case reply::garbage_answer:
      return reply_with(0, 1) + qsection + std::string("\xC0\x0C\x00\x21\x00\x01junk!", 11);
    case reply::garbage:
      return std::string("\xde\xad\xbe\xef garbage, not a DNS reply", 29);
    case reply::silence:
      return {};
    }
    return {};
  }

  reply m_how;
  std::vector<cdk::srv_record> m_records;
  int m_fd = -1;
  std::uint16_t m_port = 0;
  std::atomic<bool> m_stop{false};
  std::atomic<int> m_queries{0};
  mutable std::mutex m_mutex;
  std::string m_last;
  std::thread m_thread;
};

} // namespace fake_dns
