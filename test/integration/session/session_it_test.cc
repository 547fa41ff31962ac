// cdk::session::connection against xserverd, in 8.0 and 5.7 mode. The
// servers come from ctest fixtures, which pass their URIs and CA
// certificates in the environment (see env() below); a missing variable is
// a failure, not a skip.
#include "cdk/parser/uri_parser.h"
#include "cdk/protocol/messages.h"
#include "cdk/session/connection.h"

#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>

namespace cdk::session {
namespace {

struct mode {
  const char* name; // "80" or "57"
  bool is_80;
};

void PrintTo(const mode& m, std::ostream* os) {
  *os << "mysql" << m.name;
}

std::string env(const std::string& name) {
  const char* v = std::getenv(name.c_str());
  return v ? v : "";
}

class session_it : public ::testing::TestWithParam<mode> {
protected:
  void SetUp() override {
    const std::string uri = env(std::string("MYSQLX_TEST_URI_") + GetParam().name);
    ASSERT_FALSE(uri.empty()) << "MYSQLX_TEST_URI_" << GetParam().name << " is not set";
    auto opts = parse_uri(uri);
    ASSERT_TRUE(opts.ok()) << opts.err().message;
    m_opts = opts.value();
    m_ca = env(std::string("MYSQLX_TEST_CA_") + GetParam().name);
  }

  result<std::unique_ptr<connection>> open() { return connection::open(m_opts); }
  // Connects to the fixture's address but tells TLS the server is `name`.
  result<std::unique_ptr<connection>> open_as(const std::string& name) {
    auto s = connect_tcp(m_opts.hosts[0].host, m_opts.hosts[0].port, m_opts.connect_timeout);
    if (!s) return std::move(s).err();
    return connection::open(std::move(s.value()), m_opts, name);
  }

  connect_options m_opts;
  std::string m_ca;
};

TEST_P(session_it, tls_required_negotiates_a_tls12_or_13_cipher) {
  m_opts.tls.mode = ssl_mode::required;
  auto c = open();
  ASSERT_TRUE(c.ok()) << c.err().message;
  const std::string version = c.value()->tls_version();
  EXPECT_TRUE(version == "TLSv1.2" || version == "TLSv1.3") << version;
  EXPECT_FALSE(c.value()->tls_cipher().empty());
  EXPECT_TRUE(c.value()->info().tls);
  EXPECT_TRUE(c.value()->close().ok());
}

TEST_P(session_it, tls_versions_option_is_honoured) {
  m_opts.tls.versions = {"TLSv1.2"};
  auto c = open();
  ASSERT_TRUE(c.ok()) << c.err().message;
  EXPECT_EQ(c.value()->tls_version(), "TLSv1.2");
}

TEST_P(session_it, the_probe_tells_who_generates_ids) {
  auto c = open();
  ASSERT_TRUE(c.ok()) << c.err().message;
  EXPECT_TRUE(c.value()->info().probed);
  EXPECT_EQ(c.value()->server_generates_ids(), GetParam().is_80);
  // The session is usable after the probe (no Expect block left open).
  protocol::encode_expect_open(c.value()->pipeline().output(), false, {});
  c.value()->pipeline().expect(protocol::replies::ok);
  protocol::encode_expect_close(c.value()->pipeline().output());
  c.value()->pipeline().expect(protocol::replies::ok);
  auto open_reply = c.value()->read_reply();
  ASSERT_TRUE(open_reply.ok()) << open_reply.err().message;
  EXPECT_TRUE(open_reply.value().ok());
  auto close_reply = c.value()->read_reply();
  ASSERT_TRUE(close_reply.ok());
  EXPECT_TRUE(close_reply.value().ok()) << close_reply.value().error->message;
}

TEST_P(session_it, pipelined_statements_reply_in_order) {
  auto c = open();
  ASSERT_TRUE(c.ok()) << c.err().message;
  auto& pipe = c.value()->pipeline();
  ASSERT_TRUE(protocol::encode_stmt_execute(pipe.output(), "SELECT 1").ok());
  pipe.expect(protocol::replies::statement);
  ASSERT_TRUE(protocol::encode_stmt_execute(pipe.output(), "SELECT * FROM no_such_db.t").ok());
  pipe.expect(protocol::replies::statement);
  ASSERT_TRUE(protocol::encode_stmt_execute(pipe.output(), "SELECT 2, 3").ok());
  pipe.expect(protocol::replies::statement);

  auto first = c.value()->read_reply();
  ASSERT_TRUE(first.ok()) << first.err().message;
  ASSERT_TRUE(first.value().ok()) << first.value().error->message;
  std::vector<int> types;
  for (const auto& f : first.value().frames) types.push_back(f.type);
  EXPECT_EQ(types, (std::vector<int>{12, 13, 14, 17})); // metadata, row, done, ok

  auto second = c.value()->read_reply();
  ASSERT_TRUE(second.ok()) << second.err().message;
  ASSERT_TRUE(second.value().error); // a statement error ends only its own reply
  EXPECT_EQ(second.value().error->origin, error_origin::server);
  EXPECT_FALSE(second.value().error->fatal);

  auto third = c.value()->read_reply();
  ASSERT_TRUE(third.ok()) << third.err().message;
  ASSERT_TRUE(third.value().ok());
  EXPECT_EQ(third.value().frames.front().type, 12);
  EXPECT_EQ(third.value().last().type, 17);
  EXPECT_TRUE(c.value()->close().ok());
}

TEST_P(session_it, verify_ca_with_the_servers_ca) {
  ASSERT_FALSE(m_ca.empty()) << "MYSQLX_TEST_CA_" << GetParam().name << " is not set";
  m_opts.tls.mode = ssl_mode::verify_ca;
  m_opts.tls.ca = m_ca;
  auto c = open();
  ASSERT_TRUE(c.ok()) << c.err().message;
  EXPECT_FALSE(c.value()->tls_cipher().empty());
}

// A CA this test makes, which did not sign the server's certificate.
std::string make_foreign_ca() {
  const auto dir = std::filesystem::temp_directory_path() / "mysqlx-session-it";
  std::filesystem::create_directories(dir);
  const std::string ca = (dir / "foreign-ca.pem").string();
  const std::string cmd = "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj '/CN=not the "
                          "xserverd CA' -keyout '" +
                          (dir / "foreign-ca-key.pem").string() + "' -out '" + ca +
                          "' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0 ? ca : std::string();
}

TEST_P(session_it, verify_ca_with_another_ca_fails) {
  const std::string foreign = make_foreign_ca();
  ASSERT_FALSE(foreign.empty()) << "openssl could not make a CA";
  m_opts.tls.mode = ssl_mode::verify_ca;
  m_opts.tls.ca = foreign;
  auto c = open();
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.err().code, client_errc::ssl_connection) << c.err().message;
  EXPECT_EQ(c.err().message.find(m_opts.password), std::string::npos);
}

TEST_P(session_it, verify_identity_checks_the_name) {
  ASSERT_FALSE(m_ca.empty());
  m_opts.tls.mode = ssl_mode::verify_identity;
  m_opts.tls.ca = m_ca;
  // The fixture's certificate names localhost and 127.0.0.1.
  auto good = open_as("localhost");
  ASSERT_TRUE(good.ok()) << good.err().message;
  auto ip = open_as("127.0.0.1");
  ASSERT_TRUE(ip.ok()) << ip.err().message;
  auto bad = open_as("db.example.invalid");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.err().code, client_errc::ssl_connection) << bad.err().message;
}

// xserverd listens on ::1 as well, and its certificate names IP ::1: a URI
// with [::1] connects, and VERIFY_IDENTITY accepts the address.
TEST_P(session_it, ipv6_loopback_with_verify_identity) {
  ASSERT_FALSE(m_ca.empty());
  const std::string uri = "mysqlx://" + m_opts.user + ":" + m_opts.password +
                          "@[::1]:" + std::to_string(m_opts.hosts[0].port) +
                          "/?ssl-mode=VERIFY_IDENTITY&ssl-ca=" + m_ca;
  auto opts = parse_uri(uri);
  ASSERT_TRUE(opts.ok()) << opts.err().message;
  EXPECT_EQ(opts.value().hosts[0].host, "::1");
  auto c = connection::open(opts.value());
  ASSERT_TRUE(c.ok()) << c.err().message;
}

TEST_P(session_it, each_auth_mechanism) {
  struct cas {
    auth_method method;
    ssl_mode tls;
    const char* mechanism;
  };
  // PLAIN over TLS first: on 8.0 it fills the SHA256_MEMORY cache.
  const cas cases[] = {{auth_method::plain, ssl_mode::required, "PLAIN"},
                       {auth_method::mysql41, ssl_mode::required, "MYSQL41"},
                       {auth_method::mysql41, ssl_mode::disabled, "MYSQL41"},
                       {auth_method::auto_select, ssl_mode::required, "PLAIN"},
                       {auth_method::auto_select, ssl_mode::disabled, "MYSQL41"}};
  for (const cas& k : cases) {
    SCOPED_TRACE(k.mechanism);
    m_opts.auth = k.method;
    m_opts.tls.mode = k.tls;
    auto c = open();
    ASSERT_TRUE(c.ok()) << c.err().message;
    EXPECT_EQ(c.value()->info().auth_mechanism, k.mechanism);
    EXPECT_TRUE(c.value()->client_id().has_value());
  }
  m_opts.auth = auth_method::sha256_memory;
  m_opts.tls.mode = ssl_mode::disabled;
  auto sha = open();
  if (GetParam().is_80) {
    ASSERT_TRUE(sha.ok()) << sha.err().message;
    EXPECT_EQ(sha.value()->info().auth_mechanism, "SHA256_MEMORY");
  } else {
    ASSERT_FALSE(sha.ok()); // 5.7 has no SHA256_MEMORY
    EXPECT_EQ(sha.err().origin, error_origin::server);
  }
}

TEST_P(session_it, plain_over_plain_tcp_is_refused_by_the_client) {
  m_opts.auth = auth_method::plain;
  m_opts.tls.mode = ssl_mode::disabled;
  auto c = open();
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.err().origin, error_origin::client);
  EXPECT_EQ(c.err().code, client_errc::auth_plugin);
}

TEST_P(session_it, wrong_password_is_1045_with_a_clear_message) {
  for (ssl_mode tls : {ssl_mode::required, ssl_mode::disabled}) {
    m_opts.tls.mode = tls;
    m_opts.password = "Wr0ng-Pa55word!";
    auto c = open();
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.err().code, 1045u);
    EXPECT_NE(c.err().message.find("Access denied"), std::string::npos) << c.err().message;
    EXPECT_EQ(c.err().message.find("Wr0ng-Pa55word!"), std::string::npos);
  }
}

TEST_P(session_it, a_missing_schema_is_1049_not_an_authentication_failure) {
  for (ssl_mode tls : {ssl_mode::required, ssl_mode::disabled}) {
    m_opts.tls.mode = tls;
    m_opts.schema = "no_such_schema_here";
    auto c = open();
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.err().code, 1049u);
    EXPECT_EQ(c.err().message, "Unknown database 'no_such_schema_here'");
  }
}

// xserverd offers zstd_stream and deflate_stream in 8.0 mode, as MySQL
// 8.0.19+ does (less lz4_message), and no compression in 5.7 mode.
TEST_P(session_it, compression_off_preferred_and_required) {
  const bool offered = GetParam().is_80;
  m_opts.compression = compression_mode::disabled;
  auto off = open();
  ASSERT_TRUE(off.ok()) << off.err().message;
  EXPECT_EQ(off.value()->compression(), "");

  m_opts.compression = compression_mode::preferred;
  auto pref = open();
  ASSERT_TRUE(pref.ok()) << pref.err().message;
  // Both sides prefer zstd_stream.
  EXPECT_EQ(pref.value()->compression(), offered ? "zstd_stream" : "");

  m_opts.compression = compression_mode::required;
  auto req = open();
  if (!offered) {
    ASSERT_FALSE(req.ok());
    EXPECT_EQ(req.err().code, client_errc::compression) << req.err().message;
    return;
  }
  ASSERT_TRUE(req.ok()) << req.err().message;
  EXPECT_EQ(req.value()->compression(), "zstd_stream");
  // A large, compressible row and a request after it: both directions of the
  // compressed stream stay in step across messages.
  auto& pipe = req.value()->pipeline();
  ASSERT_TRUE(protocol::encode_stmt_execute(pipe.output(), "SELECT REPEAT('xyz', 200000)").ok());
  pipe.expect(protocol::replies::statement);
  ASSERT_TRUE(protocol::encode_stmt_execute(pipe.output(), "SELECT 42").ok());
  pipe.expect(protocol::replies::statement);
  for (int i = 0; i < 2; ++i) {
    auto r = req.value()->read_reply();
    ASSERT_TRUE(r.ok()) << r.err().message;
    ASSERT_TRUE(r.value().ok()) << r.value().error->message;
    ASSERT_GE(r.value().frames.size(), 2u);
    const auto& row = r.value().frames[1];
    EXPECT_EQ(row.type, 13); // Resultset.Row
    if (i == 0) {
      EXPECT_GT(row.payload.size(), 600000u);
    }
  }
  EXPECT_TRUE(req.value()->close().ok());
}

// compression-algorithms picks the algorithm, in the user's order, and each
// one carries large messages both ways across several Compression messages.
TEST_P(session_it, each_compression_algorithm_on_request) {
  if (!GetParam().is_80) {
    m_opts.compression = compression_mode::required;
    m_opts.compression_algorithms = {"zstd_stream"};
    auto c = open();
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.err().code, client_errc::compression) << c.err().message;
    return;
  }
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"zstd_stream"}, "zstd_stream"},
      {{"deflate_stream"}, "deflate_stream"},
      {{"lz4_message"}, "lz4_message"},
      {{"lz4_message", "deflate_stream", "zstd_stream"}, "lz4_message"},
      {{"ZSTD", "deflate"}, "zstd_stream"},
  };
  for (const auto& [wanted, chosen] : cases) {
    SCOPED_TRACE(chosen);
    m_opts.compression = compression_mode::required;
    m_opts.compression_algorithms = wanted;
    auto c = open();
    ASSERT_TRUE(c.ok()) << c.err().message;
    EXPECT_EQ(c.value()->compression(), chosen);
    auto& pipe = c.value()->pipeline();
    // ~1 MB to the server, ~1.2 MB back, then small requests on the same
    // streams.
    std::string big;
    for (int i = 0; big.size() < 1000000; ++i) big += "row" + std::to_string(i) + ",";
    const std::vector<std::pair<std::string, std::string>> queries = {
        {"SELECT CONCAT('len=', LENGTH('" + big + "'))", "len=" + std::to_string(big.size())},
        {"SELECT REPEAT('abcdef', 200000)", ""},
        {"SELECT 6 * 7", ""},
    };
    for (const auto& q : queries) {
      ASSERT_TRUE(protocol::encode_stmt_execute(pipe.output(), q.first).ok());
      pipe.expect(protocol::replies::statement);
    }
    for (std::size_t i = 0; i < queries.size(); ++i) {
      auto r = c.value()->read_reply();
      ASSERT_TRUE(r.ok()) << r.err().message;
      ASSERT_TRUE(r.value().ok()) << r.value().error->message;
      ASSERT_GE(r.value().frames.size(), 2u);
      const auto& row = r.value().frames[1];
      ASSERT_EQ(row.type, 13); // Resultset.Row
      if (i == 0) {
        EXPECT_NE(row.payload.find(queries[0].second), std::string::npos);
      }
      if (i == 1) {
        EXPECT_GT(row.payload.size(), 1200000u);
      }
    }
    EXPECT_TRUE(c.value()->close().ok());
  }
}

// Hosts are tried by priority, and a dead one is skipped: the 5.7 server
// answers "client generates ids", the 8.0 one "server generates ids", so the
// probe result shows which server the session reached.
TEST(session_failover, hosts_by_priority_skipping_dead_ones) {
  auto o80 = parse_uri(env("MYSQLX_TEST_URI_80"));
  auto o57 = parse_uri(env("MYSQLX_TEST_URI_57"));
  ASSERT_TRUE(o80.ok() && o57.ok()) << "MYSQLX_TEST_URI_80/57 must both be set";
  connect_options o = o80.value();
  host_address h80 = o80.value().hosts[0], h57 = o57.value().hosts[0];
  host_address dead = h80;
  dead.port = 1; // nothing listens there
  o.connect_timeout = std::chrono::milliseconds(5000);

  h80.priority = 10, h57.priority = 90;
  o.hosts = {h80, h57};
  auto c = connection::open(o);
  ASSERT_TRUE(c.ok()) << c.err().message;
  EXPECT_FALSE(c.value()->server_generates_ids()); // 5.7: highest priority

  h80.priority = 90, h57.priority = 10;
  o.hosts = {h57, h80};
  c = connection::open(o);
  ASSERT_TRUE(c.ok()) << c.err().message;
  EXPECT_TRUE(c.value()->server_generates_ids()); // 8.0 now

  dead.priority = 100, h80.priority = 50, h57.priority = 0;
  o.hosts = {h57, h80, dead};
  c = connection::open(o);
  ASSERT_TRUE(c.ok()) << c.err().message;
  EXPECT_TRUE(c.value()->server_generates_ids()); // dead skipped, then 8.0
}

INSTANTIATE_TEST_SUITE_P(modes, session_it, ::testing::Values(mode{"80", true}, mode{"57", false}),
                         [](const auto& info) { return std::string("mysql") + info.param.name; });

} // namespace
} // namespace cdk::session
