// mysqlx+srv:// end to end at the cdk level: a fake DNS server on a loopback
// UDP port answers the SRV query with records that point at the xserver80
// fixture (and at a dead port), expand_dns_srv() turns the SRV name into the
// host list, and connection::open() sets a session up over it. This is the
// path connection::open(opts) takes for opts.dns_srv, with the nameserver
// injected instead of /etc/resolv.conf's.
#include "cdk/foundation/dns_srv.h"
#include "cdk/parser/uri_parser.h"
#include "cdk/protocol/messages.h"
#include "cdk/session/connection.h"
#include "test/unit/foundation/fake_dns.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <unistd.h>

namespace cdk::session {
namespace {

constexpr const char* k_srv_name = "_mysqlx._tcp.fixture.test";

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// A loopback TCP port that refuses connections: bound (so nobody else gets
// it) but not listening.
class dead_port {
public:
  dead_port() {
    m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof sa;
    if (m_fd >= 0 && ::bind(m_fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0 &&
        ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&sa), &len) == 0)
      m_port = ntohs(sa.sin_port);
  }
  ~dead_port() {
    if (m_fd >= 0) ::close(m_fd);
  }
  dead_port(const dead_port&) = delete;
  dead_port& operator=(const dead_port&) = delete;
  std::uint16_t port() const noexcept { return m_port; }

private:
  int m_fd = -1;
  std::uint16_t m_port = 0;
};

class dns_srv_it : public ::testing::Test {
protected:
  void SetUp() override {
    const std::string uri = env("MYSQLX_TEST_URI_80");
    ASSERT_FALSE(uri.empty()) << "MYSQLX_TEST_URI_80 is not set";
    auto fixture = parse_uri(uri);
    ASSERT_TRUE(fixture.ok()) << fixture.err().message;
    m_port = fixture.value().hosts.at(0).port;
    // The same account, reached through the SRV name.
    auto opts = parse_uri(std::string("mysqlx+srv://xtest:xtest-pw@") + k_srv_name);
    ASSERT_TRUE(opts.ok()) << opts.err().message;
    m_opts = opts.value();
    ASSERT_TRUE(m_opts.dns_srv);
    m_opts.connect_timeout = std::chrono::seconds(5);
  }

  // expand_dns_srv against `dns`, then connection::open on the result.
  result<std::unique_ptr<connection>> open_via(const fake_dns::server& dns,
                                               connect_options* expanded = nullptr) {
    auto o = expand_dns_srv(m_opts, dns.lookup(std::chrono::milliseconds(0)));
    if (!o) return std::move(o).err();
    if (expanded) *expanded = o.value();
    return connection::open(o.value());
  }

  // Proves the session works: one statement and its reply.
  static void expect_usable(connection& c) {
    ASSERT_TRUE(protocol::encode_stmt_execute(c.pipeline().output(), "SELECT 1").ok());
    c.pipeline().expect(protocol::replies::statement);
    auto reply = c.read_reply();
    ASSERT_TRUE(reply.ok()) << reply.err().message;
    EXPECT_TRUE(reply.value().ok());
    EXPECT_TRUE(c.close().ok());
  }

  std::uint16_t m_port = 0;
  connect_options m_opts;
};

TEST_F(dns_srv_it, the_srv_record_leads_to_a_session) {
  fake_dns::server dns(fake_dns::reply::records, {{0, 0, m_port, "localhost"}});
  connect_options expanded;
  auto c = open_via(dns, &expanded);
  ASSERT_TRUE(c.ok()) << c.err().message;
  EXPECT_EQ(dns.last_question(), std::string(k_srv_name) + " 33");
  ASSERT_EQ(expanded.hosts.size(), 1u);
  EXPECT_EQ(expanded.hosts[0].port, m_port);
  EXPECT_EQ(c.value()->host(), "localhost");
  EXPECT_TRUE(c.value()->info().tls);
  expect_usable(*c.value());
}

TEST_F(dns_srv_it, tls_identity_is_checked_against_the_srv_target) {
  // The fixture's certificate names localhost, not the SRV name: the
  // target is the host TLS must verify, as in Connector/C++.
  m_opts.tls.mode = ssl_mode::verify_identity;
  m_opts.tls.ca = env("MYSQLX_TEST_CA_80");
  ASSERT_FALSE(m_opts.tls.ca.empty());
  fake_dns::server dns(fake_dns::reply::records, {{0, 0, m_port, "localhost"}});
  auto c = open_via(dns);
  ASSERT_TRUE(c.ok()) << c.err().message;
  expect_usable(*c.value());
}

TEST_F(dns_srv_it, a_dead_first_target_fails_over_to_the_next) {
  dead_port dead;
  ASSERT_NE(dead.port(), 0);
  // Listed in the "wrong" order: priority, not position, puts the dead one first.
  fake_dns::server dns(fake_dns::reply::records,
                       {{20, 0, m_port, "localhost"}, {10, 0, dead.port(), "127.0.0.1"}});
  connect_options expanded;
  auto c = open_via(dns, &expanded);
  ASSERT_TRUE(c.ok()) << c.err().message;
  ASSERT_EQ(expanded.hosts.size(), 2u);
  EXPECT_EQ(expanded.hosts[0].host, "127.0.0.1");
  EXPECT_EQ(expanded.hosts[0].port, dead.port());
  EXPECT_EQ(expanded.hosts[1].port, m_port);
  EXPECT_EQ(c.value()->host(), "localhost");
  expect_usable(*c.value());
}

TEST_F(dns_srv_it, only_dead_targets_fail_in_srv_order) {
  dead_port a, b;
  fake_dns::server dns(fake_dns::reply::records,
                       {{0, 0, a.port(), "127.0.0.1"}, {1, 0, b.port(), "127.0.0.1"}});
  auto c = open_via(dns);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.err().code, client_errc::conn_host_error) << c.err().message;
  const std::string& m = c.err().message;
  // Both were tried, in SRV order, and the error names each: a (priority
  // 0) first, then b (priority 1).
  EXPECT_NE(m.find("Could not connect to any of the given data sources: all 2 hosts failed"),
            std::string::npos)
      << m;
  const auto at_a = m.find("127.0.0.1:" + std::to_string(a.port()));
  const auto at_b = m.find("127.0.0.1:" + std::to_string(b.port()));
  ASSERT_NE(at_a, std::string::npos) << m;
  ASSERT_NE(at_b, std::string::npos) << m;
  EXPECT_LT(at_a, at_b) << m;
}

TEST_F(dns_srv_it, no_records_means_no_connection_attempt) {
  fake_dns::server dns(fake_dns::reply::nxdomain);
  auto c = open_via(dns);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.err().code, client_errc::unknown_host);
  EXPECT_EQ(c.err().message, std::string("Unable to locate any hosts for ") + k_srv_name +
                                 ": the name does not exist (NXDOMAIN)");
  EXPECT_EQ(c.err().message.find("xtest-pw"), std::string::npos);
}

} // namespace
} // namespace cdk::session
