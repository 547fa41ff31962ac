// cdk/foundation/dns_srv.h: answer parsing on hand-made bytes (valid,
// compressed, malformed, hostile), RFC 2782 ordering with an injected random
// source, and resolve_srv() against a fake DNS server on a loopback port.
#include "cdk/foundation/dns_srv.h"
#include "fake_dns.h"

#include <atomic>
#include <chrono>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <string_view>
#include <thread>

namespace {

using cdk::srv_record;
namespace client_errc = cdk::client_errc;
using ::testing::HasSubstr;

constexpr std::string_view k_name = "_mysqlx._tcp.example.com";
std::string prefix() {
  return "Unable to locate any hosts for " + std::string(k_name) + ": ";
}

std::vector<std::string> targets(const std::vector<srv_record>& rs) {
  std::vector<std::string> out;
  out.reserve(rs.size());
  for (const auto& r : rs) out.push_back(r.target);
  return out;
}

// The error parse_srv_answer gives for `msg`; fails the test if it parses.
cdk::error parse_error(const std::string& msg) {
  auto r = cdk::parse_srv_answer(msg, k_name);
  EXPECT_FALSE(r.ok()) << "parsed " << r.value().size() << " records";
  return r ? cdk::error{} : r.err();
}

void expect_malformed(const std::string& msg, const std::string& why) {
  const cdk::error e = parse_error(msg);
  EXPECT_EQ(e.code, client_errc::malformed_packet);
  EXPECT_EQ(e.origin, cdk::error_origin::connection);
  EXPECT_EQ(e.message.rfind(prefix() + "malformed DNS answer: ", 0), 0u) << e.message;
  EXPECT_THAT(e.message, HasSubstr(why));
}

TEST(dns_srv_parse, reads_every_field_of_each_record) {
  const std::vector<srv_record> in = {{10, 60, 33060, "db1.example.com"},
                                      {20, 0, 33061, "db2.example.com"}};
  auto r = cdk::parse_srv_answer(fake_dns::srv_answer(7, k_name, in), k_name);
  ASSERT_TRUE(r.ok()) << r.err().message;
  ASSERT_EQ(r.value().size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(r.value()[i].priority, in[i].priority);
    EXPECT_EQ(r.value()[i].weight, in[i].weight);
    EXPECT_EQ(r.value()[i].port, in[i].port);
    EXPECT_EQ(r.value()[i].target, in[i].target);
  }
}

TEST(dns_srv_parse, follows_compression_pointers_in_the_target) {
  // Target "db1" + a pointer to "example.com" inside the question's name
  // (offset 12 + len("\7_mysqlx\4_tcp") = 25).
  std::string rdata;
  fake_dns::put16(rdata, 1);
  fake_dns::put16(rdata, 5);
  fake_dns::put16(rdata, 3306);
  rdata += std::string("\3db1\xC0\x19", 6);
  const std::string msg = fake_dns::header(1, 0, 1, 1) + fake_dns::question(k_name) +
                          fake_dns::rr("\xC0\x0C", fake_dns::type_srv, rdata);
  auto r = cdk::parse_srv_answer(msg, k_name);
  ASSERT_TRUE(r.ok()) << r.err().message;
  EXPECT_EQ(targets(r.value()), std::vector<std::string>{"db1.example.com"});
  EXPECT_EQ(r.value()[0].port, 3306);
}

TEST(dns_srv_parse, skips_other_record_types_and_the_dot_target) {
  const std::string msg =
      fake_dns::header(1, 0, 1, 3) + fake_dns::question(k_name) +
      fake_dns::rr("\xC0\x0C", fake_dns::type_cname, fake_dns::name("alias.example.com")) +
      fake_dns::rr("\xC0\x0C", fake_dns::type_srv, fake_dns::srv_rdata({0, 0, 1, "."})) +
      fake_dns::rr("\xC0\x0C", fake_dns::type_srv, fake_dns::srv_rdata({0, 0, 2, "db.example"}));
  auto r = cdk::parse_srv_answer(msg, k_name);
  ASSERT_TRUE(r.ok()) << r.err().message;
  EXPECT_EQ(targets(r.value()), std::vector<std::string>{"db.example"});
}

TEST(dns_srv_parse, nxdomain_no_records_and_server_errors_name_the_srv_name) {
  cdk::error e = parse_error(fake_dns::srv_answer(1, k_name, {}, fake_dns::rcode_nxdomain));
  EXPECT_EQ(e.code, client_errc::unknown_host);
  EXPECT_EQ(e.message, prefix() + "the name does not exist (NXDOMAIN)");

  e = parse_error(fake_dns::srv_answer(1, k_name, {}));
  EXPECT_EQ(e.code, client_errc::unknown_host);
  EXPECT_EQ(e.message, prefix() + "no SRV record");

  // RFC 2782: "." alone says the service is not available here.
  e = parse_error(fake_dns::srv_answer(1, k_name, {{0, 0, 0, "."}}));
  EXPECT_EQ(e.message, prefix() + "no SRV record");

  e = parse_error(fake_dns::srv_answer(1, k_name, {}, fake_dns::rcode_servfail));
  EXPECT_EQ(e.code, client_errc::unknown_host);
  EXPECT_EQ(e.message, prefix() + "the DNS server answered with error code 2 (SERVFAIL)");
}

TEST(dns_srv_parse, every_truncation_of_an_answer_is_malformed) {
  const std::string full = fake_dns::srv_answer(
      1, k_name, {{0, 1, 33060, "db1.example.com"}, {1, 1, 33060, "db2.example.com"}});
  ASSERT_TRUE(cdk::parse_srv_answer(full, k_name).ok());
  for (std::size_t n = 0; n < full.size(); ++n) {
    SCOPED_TRACE(n);
    expect_malformed(full.substr(0, n), "runs past the end");
  }
}

std::string one_srv(const std::string& rdata) {
  return fake_dns::header(1, 0, 1, 1) + fake_dns::question(k_name) +
         fake_dns::rr("\xC0\x0C", fake_dns::type_srv, rdata);
}
std::string fixed_fields() {
  std::string out;
  fake_dns::put16(out, 0);
  fake_dns::put16(out, 0);
  fake_dns::put16(out, 33060);
  return out;
}

TEST(dns_srv_parse, hostile_names_are_rejected) {
  // A pointer to itself, and one pointing forwards (both could loop).
  const std::size_t target_at = 12 + fake_dns::question(k_name).size() + 12 + 6;
  std::string self = fixed_fields();
  self += static_cast<char>(0xC0 | (target_at >> 8));
  self += static_cast<char>(target_at & 0xFF);
  expect_malformed(one_srv(self), "answer record 1's target has a compression pointer");
  expect_malformed(one_srv(fixed_fields() + std::string("\xC0\xFF", 2)), "compression pointer");
  // A label, then a pointer back to that label: backwards, but a loop.
  std::string loop = fixed_fields() + "\3abc";
  loop += static_cast<char>(0xC0 | (target_at >> 8));
  loop += static_cast<char>(target_at & 0xFF);
  expect_malformed(one_srv(loop), "answer record 1's target has a compression pointer");
  // Label types 01 and 10 are not defined.
  expect_malformed(one_srv(fixed_fields() + std::string("\x40\0", 2)), "unknown label type");
  // Longer than 255 octets once expanded.
  std::string longname;
  for (int i = 0; i < 5; ++i) longname += std::string(60, 'a') + ".";
  expect_malformed(one_srv(fixed_fields() + fake_dns::name(longname)), "longer than 255");
  // A label holding a "." or a space is no host name.
  expect_malformed(one_srv(fixed_fields() + std::string("\3a.b\0", 5)), "no host name");
  expect_malformed(one_srv(fixed_fields() + std::string("\3a b\0", 5)), "no host name");
}

TEST(dns_srv_parse, rdlength_must_match_the_srv_data) {
  // Too short for priority, weight and port.
  expect_malformed(one_srv(std::string("\0\0\0\0", 4)), "answer record 1 runs past the end");
  // RDLENGTH 3 short: the target would run on past it.
  std::string msg = one_srv(fixed_fields() + fake_dns::name("db.example"));
  const std::size_t rdlength_at = 12 + fake_dns::question(k_name).size() + 10;
  msg[rdlength_at + 1] = static_cast<char>(msg[rdlength_at + 1] - 3);
  msg += std::string("\xC0\x0C", 2); // the start of a next record
  expect_malformed(msg, "answer record 1's target runs past the end");
  // RDLENGTH 3 long: bytes left over after the target.
  msg = one_srv(fixed_fields() + fake_dns::name("db.example") + "xyz");
  expect_malformed(msg, "bad RDLENGTH");
  // RDLENGTH larger than the message.
  msg = one_srv(fixed_fields() + fake_dns::name("db.example"));
  msg[rdlength_at] = '\x7F';
  expect_malformed(msg, "answer record 1 runs past the end");
}

TEST(dns_srv_parse, huge_counts_with_no_data_do_not_allocate_or_read_past_the_end) {
  std::string msg = fake_dns::header(1, 0, 0xFFFF, 0xFFFF);
  expect_malformed(msg, "the question runs past the end");
  msg = fake_dns::header(1, 0, 0, 0xFFFF);
  expect_malformed(msg, "answer record 1 runs past the end");
}

TEST(dns_srv_parse, random_mutations_never_read_out_of_bounds) {
  // Under ASan/UBSan builds this catches any stray read; here it checks
  // that every outcome is a record list or one of the documented errors.
  const std::string full = fake_dns::srv_answer(
      1, k_name, {{0, 1, 33060, "db1.example.com"}, {1, 1, 33060, "db2.example.com"}});
  std::mt19937 rng(12345);
  int errors = 0;
  for (int i = 0; i < 5000; ++i) {
    std::string m = full;
    for (int k = 0; k < 3; ++k) m[rng() % m.size()] = static_cast<char>(rng());
    auto r = cdk::parse_srv_answer(m, k_name);
    if (r) {
      for (const auto& rec : r.value()) EXPECT_LE(rec.target.size(), 255u);
    } else {
      ++errors;
      EXPECT_TRUE(r.err().code == client_errc::malformed_packet ||
                  r.err().code == client_errc::unknown_host)
          << r.err().message;
      EXPECT_EQ(r.err().message.rfind(prefix(), 0), 0u) << r.err().message;
    }
  }
  EXPECT_GT(errors, 0);
}

// --- ordering ---------------------------------------------------------------

// Returns the given picks in turn and records the bounds it was asked for.
struct scripted_random {
  std::vector<std::uint32_t> picks;
  std::vector<std::uint32_t> bounds;
  std::size_t next = 0;
  cdk::srv_random fn() {
    return [this](std::uint32_t bound) {
      bounds.push_back(bound);
      return next < picks.size() ? picks[next++] : 0;
    };
  }
};

TEST(dns_srv_order, lowest_priority_first_and_stable_without_weights) {
  scripted_random rnd;
  auto out = cdk::order_srv({{20, 0, 1, "c"}, {10, 0, 1, "a"}, {30, 0, 1, "d"}, {10, 0, 1, "b"}},
                            rnd.fn());
  EXPECT_EQ(targets(out), (std::vector<std::string>{"a", "b", "c", "d"}));
  // All weights 0: the sum is 0, so the RFC's pick is always the first.
  EXPECT_EQ(rnd.bounds, (std::vector<std::uint32_t>{0, 0, 0, 0}));
}

TEST(dns_srv_order, running_sum_selection_within_a_priority) {
  // Weight-0 records move to the front: running sums z=0, a=10, b=30.
  scripted_random rnd;
  rnd.picks = {15, 0, 0};
  auto out = cdk::order_srv({{5, 10, 1, "a"}, {5, 20, 1, "b"}, {5, 0, 1, "z"}}, rnd.fn());
  // 15 -> first running sum >= 15 is b; then z,a (sum 10) with 0 -> z; then a.
  EXPECT_EQ(targets(out), (std::vector<std::string>{"b", "z", "a"}));
  EXPECT_EQ(rnd.bounds, (std::vector<std::uint32_t>{30, 10, 10}));
}

TEST(dns_srv_order, weight_zero_is_picked_only_by_a_zero) {
  scripted_random rnd;
  rnd.picks = {1};
  auto out = cdk::order_srv({{0, 0, 1, "zero"}, {0, 10, 1, "ten"}}, rnd.fn());
  EXPECT_EQ(targets(out), (std::vector<std::string>{"ten", "zero"}));
  rnd = {};
  rnd.picks = {0};
  out = cdk::order_srv({{0, 10, 1, "ten"}, {0, 0, 1, "zero"}}, rnd.fn());
  EXPECT_EQ(targets(out), (std::vector<std::string>{"zero", "ten"}));
}

TEST(dns_srv_order, priorities_are_never_mixed_by_weight) {
  scripted_random rnd;
  rnd.picks = {1000, 1000, 1000};
  auto out = cdk::order_srv({{2, 1000, 1, "heavy"}, {1, 1, 1, "light"}}, rnd.fn());
  EXPECT_EQ(targets(out), (std::vector<std::string>{"light", "heavy"}));
}

TEST(dns_srv_order, an_out_of_range_random_number_is_clamped) {
  scripted_random rnd;
  rnd.picks = {1000000};
  auto out = cdk::order_srv({{0, 1, 1, "a"}, {0, 2, 1, "b"}}, rnd.fn());
  EXPECT_EQ(targets(out), (std::vector<std::string>{"b", "a"}));
}

TEST(dns_srv_order, first_choices_follow_the_weights) {
  // A seeded engine makes this deterministic. RFC 2782 picks a number in
  // [0, sum] inclusive, so with weights 1 and 3 the picks 0 and 1 choose a
  // and 2..4 choose b: b comes first 3 times in 5.
  std::mt19937 engine(2782);
  cdk::srv_random rnd = [&](std::uint32_t bound) {
    return std::uniform_int_distribution<std::uint32_t>(0, bound)(engine);
  };
  std::map<std::string, int> first;
  for (int i = 0; i < 4000; ++i)
    ++first[cdk::order_srv({{0, 1, 1, "a"}, {0, 3, 1, "b"}}, rnd).front().target];
  EXPECT_NEAR(first["b"] / 4000.0, 0.6, 0.04);
  EXPECT_EQ(first["a"] + first["b"], 4000);
}

// --- resolve_srv against a fake DNS server on 127.0.0.1 ----------------------

constexpr std::chrono::milliseconds k_timeout{1000};

TEST(dns_srv_resolve, asks_for_srv_and_returns_hosts_in_rfc_order) {
  fake_dns::server dns(fake_dns::reply::records, {{20, 0, 33062, "late.example"},
                                                  {10, 1, 33060, "light.example"},
                                                  {10, 3, 33061, "heavy.example"}});
  scripted_random rnd;
  rnd.picks = {4}; // of [0, 4]: the second running sum (1 + 3)
  auto lookup = dns.lookup(k_timeout);
  lookup.random = rnd.fn();
  auto hosts = cdk::resolve_srv(k_name, lookup);
  ASSERT_TRUE(hosts.ok()) << hosts.err().message;
  ASSERT_EQ(hosts.value().size(), 3u);
  EXPECT_EQ(hosts.value()[0].host, "heavy.example");
  EXPECT_EQ(hosts.value()[0].port, 33061);
  EXPECT_EQ(hosts.value()[1].host, "light.example");
  EXPECT_EQ(hosts.value()[2].host, "late.example");
  EXPECT_EQ(hosts.value()[2].port, 33062);
  for (const auto& h : hosts.value()) {
    // No priority: connection::open keeps the given order.
    EXPECT_FALSE(h.priority.has_value());
    EXPECT_TRUE(h.socket.empty());
  }
  EXPECT_EQ(dns.last_question(), std::string(k_name) + " 33"); // QTYPE SRV
  EXPECT_EQ(dns.queries(), 1);
}

cdk::error resolve_error(fake_dns::reply how) {
  fake_dns::server dns(how);
  auto hosts = cdk::resolve_srv(k_name, dns.lookup(k_timeout));
  EXPECT_FALSE(hosts.ok());
  EXPECT_GE(dns.queries(), 1);
  return hosts ? cdk::error{} : hosts.err();
}

TEST(dns_srv_resolve, nxdomain_is_unable_to_locate_any_hosts) {
  const cdk::error e = resolve_error(fake_dns::reply::nxdomain);
  EXPECT_EQ(e.code, client_errc::unknown_host);
  EXPECT_EQ(e.message, prefix() + "the name does not exist (NXDOMAIN)");
  EXPECT_EQ(e.origin, cdk::error_origin::connection);
}

TEST(dns_srv_resolve, servfail_is_a_resolver_failure) {
  const cdk::error e = resolve_error(fake_dns::reply::servfail);
  EXPECT_EQ(e.code, client_errc::unknown_host);
  // The resolver tries again, then gives up with the server's answer.
  EXPECT_EQ(e.message, prefix() + "the DNS server answered with error code 2 (SERVFAIL)");
}

TEST(dns_srv_resolve, an_unreachable_nameserver_is_named_as_such) {
  std::uint16_t port = 0;
  {
    fake_dns::server closed(fake_dns::reply::silence); // a loopback port nobody holds afterwards
    port = closed.port();
  }
  cdk::srv_lookup_options o;
  o.nameserver = std::make_pair(std::string("127.0.0.1"), port);
  o.timeout = k_timeout;
  auto r = cdk::resolve_srv(k_name, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, client_errc::unknown_host);
  EXPECT_EQ(r.err().message, prefix() + "no DNS server could be reached (Connection refused)");
}

TEST(dns_srv_resolve, truncated_and_garbage_answers_are_malformed) {
  cdk::error e = resolve_error(fake_dns::reply::truncated);
  EXPECT_EQ(e.code, client_errc::malformed_packet);
  EXPECT_EQ(e.message, prefix() + "malformed DNS answer: answer record 2 runs past the end");
  e = resolve_error(fake_dns::reply::garbage_answer);
  EXPECT_EQ(e.code, client_errc::malformed_packet);
  EXPECT_EQ(e.message, prefix() + "malformed DNS answer: answer record 1 runs past the end");
}

TEST(dns_srv_resolve, no_reply_or_a_reply_to_nothing_times_out) {
  for (auto how : {fake_dns::reply::silence, fake_dns::reply::garbage}) {
    const auto start = std::chrono::steady_clock::now();
    const cdk::error e = resolve_error(how);
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(e.code, client_errc::timeout);
    EXPECT_EQ(e.message, prefix() + "no answer from the DNS server in time");
    // The 1 s bound replaced resolv.conf's default (5 s, 2 attempts); this
    // checks that it did, not how fast the resolver is.
    EXPECT_LT(took, std::chrono::seconds(5));
  }
}

TEST(dns_srv_resolve, lookups_on_several_threads_do_not_interfere) {
  // Each lookup has its own res_state; the shared _res is never touched.
  fake_dns::server a(fake_dns::reply::records, {{0, 0, 1111, "a.example"}});
  fake_dns::server b(fake_dns::reply::records, {{0, 0, 2222, "b.example"}});
  std::atomic<int> good{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      const fake_dns::server& dns = t % 2 ? b : a;
      for (int i = 0; i < 10; ++i) {
        auto hosts = cdk::resolve_srv(k_name, dns.lookup(k_timeout));
        if (hosts && hosts.value().size() == 1 && hosts.value()[0].port == (t % 2 ? 2222 : 1111))
          ++good;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(good, 40);
  EXPECT_EQ(a.queries() + b.queries(), 40);
}

TEST(dns_srv_resolve, a_bad_name_or_nameserver_is_a_usage_error) {
  auto r = cdk::resolve_srv("", {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, client_errc::bad_option);
  cdk::srv_lookup_options o;
  o.nameserver = std::make_pair(std::string("not-an-ip"), std::uint16_t{53});
  r = cdk::resolve_srv(k_name, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, client_errc::bad_option);
  EXPECT_THAT(r.err().message, HasSubstr("not-an-ip"));
}

// --- expand_dns_srv ------------------------------------------------------------

TEST(dns_srv_expand, replaces_the_srv_name_and_keeps_everything_else) {
  fake_dns::server dns(fake_dns::reply::records, {{0, 0, 4000, "a.example"}});
  cdk::connect_options opts;
  opts.dns_srv = true;
  opts.hosts.push_back({std::string(k_name), 33060, "", std::nullopt});
  opts.user = "app";
  opts.schema = "shop";
  opts.connect_timeout = std::chrono::milliseconds(1500);
  auto o = cdk::expand_dns_srv(opts, dns.lookup(std::chrono::milliseconds(0)));
  ASSERT_TRUE(o.ok()) << o.err().message;
  EXPECT_FALSE(o.value().dns_srv);
  ASSERT_EQ(o.value().hosts.size(), 1u);
  EXPECT_EQ(o.value().hosts[0].host, "a.example");
  EXPECT_EQ(o.value().hosts[0].port, 4000);
  EXPECT_EQ(o.value().user, "app");
  EXPECT_EQ(o.value().schema, "shop");
  EXPECT_EQ(o.value().connect_timeout, opts.connect_timeout);
}

TEST(dns_srv_expand, leaves_plain_options_alone_and_rejects_a_host_list) {
  cdk::connect_options opts;
  opts.hosts.push_back({"db", 33060, "", std::nullopt});
  auto o = cdk::expand_dns_srv(opts);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.value().hosts[0].host, "db");
  opts.dns_srv = true;
  opts.hosts.push_back({"db2", 33060, "", std::nullopt});
  o = cdk::expand_dns_srv(opts);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.err().code, client_errc::bad_option);
}

TEST(dns_srv_expand, a_failed_lookup_is_returned_as_is) {
  fake_dns::server dns(fake_dns::reply::nxdomain);
  cdk::connect_options opts;
  opts.dns_srv = true;
  opts.hosts.push_back({std::string(k_name), 33060, "", std::nullopt});
  auto o = cdk::expand_dns_srv(opts, dns.lookup(k_timeout));
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.err().message, prefix() + "the name does not exist (NXDOMAIN)");
}

} // namespace
