// The sans-I/O half of dns_srv.h: reading one DNS response (RFC 1035 4.1)
// and RFC 2782's ordering. The message is network input, so every count,
// length and name pointer is checked against its end before it is used.
#include "cdk/foundation/dns_srv.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <limits>

namespace cdk {

error srv_lookup_error(std::uint32_t code, std::string_view name, const std::string& why) {
  // Connector/C++ and Node.js (ER_DEVAPI_SRV_RECORDS_NOT_AVAILABLE) say
  // "Unable to locate any hosts for <name>"; we add the reason.
  return error::connection(code,
                           "Unable to locate any hosts for " + std::string(name) + ": " + why);
}

namespace {

constexpr std::uint16_t k_type_srv = 33; // RFC 2782
constexpr std::uint16_t k_class_in = 1;
constexpr unsigned k_rcode_nxdomain = 3;
constexpr std::size_t k_max_name = 255; // RFC 1035 2.3.4, in wire octets

bool is_host_label(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return c > ' ' && c < 0x7F && c != '.' && c != '\\'; });
}

// A cursor over the message. Every read checks the bounds first; the first
// failure is kept, and later reads return zeros, so callers check failed()
// once per record instead of after every field.
class reader {
public:
  explicit reader(std::string_view msg, std::size_t pos = 0) : m_msg(msg), m_pos(pos) {
    if (pos > msg.size()) fail("a record", "runs past the end");
  }

  bool failed() const noexcept { return !m_error.empty(); }
  const std::string& why() const noexcept { return m_error; }
  std::size_t pos() const noexcept { return m_pos; }

  std::uint16_t u16(const std::string& what) {
    if (!need(2, what)) return 0;
    const auto v = static_cast<std::uint16_t>(byte(m_pos) << 8 | byte(m_pos + 1));
    m_pos += 2;
    return v;
  }
  void skip(std::size_t n, const std::string& what) {
    if (need(n, what)) m_pos += n;
  }
  // Reads the name at the cursor and leaves the cursor after it (after the
  // first pointer, if any). A pointer must point before the start of the
  // part of the name it ends, so the parts move strictly backwards: no loops,
  // and each byte is read at most once per name. The expanded name is
  // bounded by k_max_name. With host_name,
  // labels must be printable ASCII without ".", "\\" or spaces, so that the
  // text means the same name to getaddrinfo and to TLS.
  std::string name(const std::string& what, bool host_name = false) {
    std::string text;
    if (failed()) return text;
    std::size_t at = m_pos, part = m_pos, wire = 0;
    bool jumped = false;
    for (;;) {
      if (at >= m_msg.size()) return fail(what, "runs past the end");
      const unsigned len = byte(at);
      if ((len & 0xC0) == 0xC0) {
        if (at + 1 >= m_msg.size()) return fail(what, "runs past the end");
        const std::size_t target = (len & 0x3F) << 8 | byte(at + 1);
        if (target >= part) return fail(what, "has a compression pointer that is not backwards");
        if (!jumped) m_pos = at + 2;
        at = part = target;
        jumped = true;
        continue;
      }
      if ((len & 0xC0) != 0) return fail(what, "has an unknown label type");
      wire += len + 1;
      if (wire > k_max_name) return fail(what, "is longer than 255 octets");
      if (len == 0) break;
      if (at + 1 + len > m_msg.size()) return fail(what, "runs past the end");
      const std::string_view label = m_msg.substr(at + 1, len);
      if (host_name && !is_host_label(label)) return fail(what, "is no host name");
      if (!text.empty()) text += '.';
      text.append(label);
      at += 1 + len;
    }
    if (!jumped) m_pos = at + 1;
    return text;
  }

  std::string fail(const std::string& what, const char* how) {
    if (!failed()) m_error = what + " " + how;
    return {};
  }

private:
  unsigned byte(std::size_t i) const { return static_cast<unsigned char>(m_msg[i]); }
  bool need(std::size_t n, const std::string& what) {
    if (failed()) return false;
    if (m_msg.size() - m_pos >= n) return true;
    fail(what, "runs past the end");
    return false;
  }

  std::string_view m_msg;
  std::size_t m_pos;
  std::string m_error;
};

struct answer {
  unsigned rcode = 0;
  std::vector<srv_record> records;
  std::string malformed; // why, when the message does not parse
};

// One SRV record's RDATA: priority, weight, port, then the target, which
// must end exactly at the end of the RDATA (it may point anywhere before).
void read_srv_rdata(std::string_view msg, std::size_t rdata, std::size_t rdlength,
                    const std::string& where, answer& out) {
  // The reader ends with the RDATA: pointers only go backwards, so nothing
  // the target may refer to is cut off.
  reader rd(msg.substr(0, rdata + rdlength), rdata);
  srv_record rec;
  rec.priority = rd.u16(where);
  rec.weight = rd.u16(where);
  rec.port = rd.u16(where);
  rec.target = rd.name(where + "'s target", true);
  if (!rd.failed() && rd.pos() != rdata + rdlength) rd.fail(where, "has a bad RDLENGTH");
  if (rd.failed()) {
    out.malformed = rd.why();
    return;
  }
  // RFC 2782: the target "." means the service is decidedly not available
  // at this domain; it names no host.
  if (!rec.target.empty()) out.records.push_back(std::move(rec));
}

answer read_answer(std::string_view msg) {
  answer out;
  reader r(msg);
  r.skip(2, "the header");
  out.rcode = r.u16("the header") & 0x0F;
  const std::uint16_t questions = r.u16("the header");
  const std::uint16_t answers = r.u16("the header");
  r.skip(4, "the header"); // authority and additional counts: not read
  // An error answer's sections are not needed (and may be left out).
  if (out.rcode != 0 && !r.failed()) return out;
  for (unsigned i = 0; i < questions && !r.failed(); ++i) {
    r.name("the question");
    r.skip(4, "the question"); // QTYPE, QCLASS
  }
  for (unsigned i = 0; i < answers && !r.failed() && out.malformed.empty(); ++i) {
    const std::string where = "answer record " + std::to_string(i + 1);
    r.name(where);
    const std::uint16_t type = r.u16(where);
    const std::uint16_t cls = r.u16(where);
    r.skip(4, where); // TTL
    const std::uint16_t rdlength = r.u16(where);
    const std::size_t rdata = r.pos();
    r.skip(rdlength, where);
    if (r.failed()) break;
    if (type == k_type_srv && cls == k_class_in) read_srv_rdata(msg, rdata, rdlength, where, out);
    // Other records (e.g. a CNAME on the way) are skipped.
  }
  if (r.failed()) out.malformed = r.why();
  return out;
}

} // namespace

result<std::vector<srv_record>> parse_srv_answer(std::string_view msg, std::string_view name) {
  answer a = read_answer(msg);
  if (!a.malformed.empty()) {
    return srv_lookup_error(client_errc::malformed_packet, name,
                            "malformed DNS answer: " + a.malformed);
  }
  if (a.rcode == k_rcode_nxdomain)
    return srv_lookup_error(client_errc::unknown_host, name, "the name does not exist (NXDOMAIN)");
  if (a.rcode != 0) {
    static constexpr const char* k_rcodes[] = {"", "FORMERR", "SERVFAIL", "", "NOTIMP", "REFUSED"};
    std::string why = "the DNS server answered with error code " + std::to_string(a.rcode);
    if (a.rcode < std::size(k_rcodes)) why += std::string(" (") + k_rcodes[a.rcode] + ")";
    return srv_lookup_error(client_errc::unknown_host, name, why);
  }
  if (a.records.empty()) return srv_lookup_error(client_errc::unknown_host, name, "no SRV record");
  return std::move(a.records);
}

std::vector<srv_record> order_srv(std::vector<srv_record> records, const srv_random& random) {
  std::stable_sort(records.begin(), records.end(), [](const srv_record& a, const srv_record& b) {
    return a.priority < b.priority;
  });
  std::vector<srv_record> out;
  out.reserve(records.size());
  auto group = records.begin();
  while (group != records.end()) {
    const std::uint16_t priority = group->priority;
    auto group_end = std::find_if(group, records.end(),
                                  [&](const srv_record& r) { return r.priority != priority; });
    std::vector<srv_record> left(std::make_move_iterator(group),
                                 std::make_move_iterator(group_end));
    // RFC 2782: weight-0 records at the start of the running sum, so that
    // they are picked only by a random 0 (or when every weight is 0).
    std::stable_partition(left.begin(), left.end(),
                          [](const srv_record& r) { return r.weight == 0; });
    while (!left.empty()) {
      std::uint64_t total = 0;
      for (const srv_record& r : left) total += r.weight;
      const auto bound = static_cast<std::uint32_t>(
          std::min<std::uint64_t>(total, std::numeric_limits<std::uint32_t>::max()));
      const std::uint64_t pick = std::min(random(bound), bound); // in [0, total]
      // The first record whose running sum reaches the pick.
      std::uint64_t running = 0;
      auto chosen = left.begin();
      while (chosen + 1 != left.end() && (running += chosen->weight) < pick) ++chosen;
      out.push_back(std::move(*chosen));
      left.erase(chosen);
    }
    group = group_end;
  }
  return out;
}

} // namespace cdk
