// TLS client (stream::start_tls) against an in-process TLS server
// (socket_stream::accept_tls) with certificates made at run time.
#include "cdk/foundation/socket_stream.h"
#include "cdk/foundation/stream.h"
#include "cdk/foundation/tls_server.h"
#include "test_pki.h"
#include "test_server.h"

#include <atomic>
#include <gtest/gtest.h>
#include <string>
#include <thread>

namespace {

using cdk::ssl_mode;
using cdk::tls_options;

struct server_view {
  bool tls_ok = false;
  std::string version, cipher, sni, error;
};

// A TLS echo server for one connection: handshake, then echo until EOF.
class tls_echo {
public:
  explicit tls_echo(bool revoked_cert = false)
      : m_ctx(make_ctx(revoked_cert)),
        m_server(test_server::listen_local(), [this](cdk::socket_stream& s) { serve(s); }) {}

  // Connects, upgrades with opts/host, and round-trips a message.
  cdk::status connect(const tls_options& opts, const std::string& host = "127.0.0.1") {
    auto s = cdk::connect_tcp("127.0.0.1", m_server.port(), std::chrono::seconds(5));
    if (!s) return std::move(s).err();
    m_client = std::move(s).value();
    if (auto st = m_client->start_tls(opts, host); !st) {
      m_client.reset(); // the server's handshake ends with EOF
      m_server.join();
      return st;
    }
    if (auto st = m_client->write("ping"); !st) return st;
    auto echo = test_server::read_exact(*m_client, 4);
    if (!echo) return std::move(echo).err();
    EXPECT_EQ(echo.value(), "ping");
    return cdk::ok();
  }
  const server_view& server() {
    m_client.reset();
    m_server.join();
    return m_view;
  }
  cdk::stream& client() { return *m_client; }
  // Makes the server drop the connection (it stops echoing on the next
  // read), keeping the client open.
  void stop_server() {
    m_stop = true;
    (void)m_client->write("!");
    m_server.join();
  }

private:
  static cdk::tls_server_context make_ctx(bool revoked) {
    const auto& pki = test_pki::get();
    auto ctx = revoked ? cdk::tls_server_context::from_files(pki.revoked_cert, pki.revoked_key)
                       : cdk::tls_server_context::from_files(pki.server_cert, pki.server_key);
    if (!ctx) throw std::runtime_error(ctx.err().message);
    return std::move(ctx).value();
  }
  void serve(cdk::socket_stream& s) {
    auto st = s.accept_tls(m_ctx);
    if (!st) {
      m_view.error = st.err().message;
      return;
    }
    m_view.tls_ok = true;
    m_view.version = s.tls_version();
    m_view.cipher = s.tls_cipher();
    m_view.sni = s.tls_server_name();
    char buf[256];
    for (;;) {
      auto got = s.read_some(buf, sizeof buf);
      if (!got || m_stop || !s.write(std::string_view(buf, got.value()))) return;
    }
  }

  // Order matters: the client is destroyed first, so the server thread
  // sees EOF and the one_shot destructor can join it.
  cdk::tls_server_context m_ctx;
  server_view m_view;
  std::atomic<bool> m_stop{false};
  test_server::one_shot m_server;
  std::unique_ptr<cdk::stream> m_client;
};

tls_options opts_with(ssl_mode mode, std::string ca = {}) {
  tls_options o;
  o.mode = mode;
  o.ca = std::move(ca);
  return o;
}

void expect_ssl_error(const cdk::status& st, const std::string& text) {
  ASSERT_FALSE(st.ok()) << "expected a TLS failure mentioning: " << text;
  EXPECT_EQ(st.err().code, cdk::client_errc::ssl_connection) << st.err().message;
  EXPECT_TRUE(st.err().fatal);
  EXPECT_NE(st.err().message.find(text), std::string::npos) << st.err().message;
}

void expect_bad_option(const cdk::status& st, const std::string& text) {
  ASSERT_FALSE(st.ok()) << "expected a bad option mentioning: " << text;
  EXPECT_EQ(st.err().code, cdk::client_errc::bad_option) << st.err().message;
  EXPECT_NE(st.err().message.find(text), std::string::npos) << st.err().message;
}

TEST(Tls, RequiredEncryptsAndReportsVersionAndCipher) {
  tls_echo peer;
  ASSERT_TRUE(peer.connect(opts_with(ssl_mode::required))) << "REQUIRED failed";
  EXPECT_TRUE(peer.client().is_tls());
  EXPECT_FALSE(peer.client().is_local());
  std::string version = peer.client().tls_version();
  EXPECT_TRUE(version == "TLSv1.2" || version == "TLSv1.3") << version;
  std::string cipher = peer.client().tls_cipher();
  EXPECT_FALSE(cipher.empty());
  const auto& srv = peer.server();
  EXPECT_TRUE(srv.tls_ok);
  EXPECT_EQ(srv.version, version); // both ends agree
  EXPECT_EQ(srv.cipher, cipher);
}

TEST(Tls, RequiredDoesNotVerifyTheCertificate) {
  tls_echo peer;
  // A CA that did not sign the server certificate, and a name not in it.
  tls_options o = opts_with(ssl_mode::required, test_pki::get().other_ca);
  EXPECT_TRUE(peer.connect(o, "not-the-server.example"));
}

TEST(Tls, VerifyCaPassesWithTheIssuingCa) {
  tls_echo peer;
  auto st = peer.connect(opts_with(ssl_mode::verify_ca, test_pki::get().ca));
  EXPECT_TRUE(st) << (st ? "" : st.err().message);
}

TEST(Tls, VerifyCaPassesWithCapath) {
  tls_echo peer;
  tls_options o = opts_with(ssl_mode::verify_ca);
  o.capath = test_pki::get().capath;
  auto st = peer.connect(o);
  EXPECT_TRUE(st) << (st ? "" : st.err().message);
}

TEST(Tls, VerifyCaFailsWithAnotherCa) {
  tls_echo peer;
  auto st = peer.connect(opts_with(ssl_mode::verify_ca, test_pki::get().other_ca));
  expect_ssl_error(st, "TLS handshake failed: certificate verify failed");
  expect_ssl_error(st, "unable to get local issuer certificate");
  EXPECT_FALSE(peer.server().tls_ok);
}

TEST(Tls, VerifyCaWithoutCaUsesTheSystemStore) {
  tls_echo peer; // our test CA is not in the system store
  expect_ssl_error(peer.connect(opts_with(ssl_mode::verify_ca)), "certificate verify failed");
}

TEST(Tls, UnreadableCaFileIsNamed) {
  tls_echo peer;
  expect_ssl_error(peer.connect(opts_with(ssl_mode::verify_ca, "/nonexistent/ca.pem")),
                   "ssl-ca '/nonexistent/ca.pem'");
}

TEST(Tls, VerifyIdentityAcceptsNamesInTheCertificate) {
  for (const char* host : {"localhost", "127.0.0.1"}) {
    SCOPED_TRACE(host);
    tls_echo peer;
    auto st = peer.connect(opts_with(ssl_mode::verify_identity, test_pki::get().ca), host);
    EXPECT_TRUE(st) << (st ? "" : st.err().message);
  }
}

TEST(Tls, VerifyIdentityRejectsOtherNames) {
  {
    tls_echo peer;
    auto st = peer.connect(opts_with(ssl_mode::verify_identity, test_pki::get().ca), "db.example");
    expect_ssl_error(st, "hostname mismatch");
  }
  {
    tls_echo peer;
    auto st = peer.connect(opts_with(ssl_mode::verify_identity, test_pki::get().ca), "10.0.0.1");
    expect_ssl_error(st, "IP address mismatch");
  }
  {
    tls_echo peer; // VERIFY_CA alone does not look at the name
    EXPECT_TRUE(peer.connect(opts_with(ssl_mode::verify_ca, test_pki::get().ca), "db.example"));
  }
}

TEST(Tls, VerifyIdentityNeedsAHost) {
  tls_echo peer;
  expect_bad_option(peer.connect(opts_with(ssl_mode::verify_identity, test_pki::get().ca), ""),
                    "VERIFY_IDENTITY");
}

TEST(Tls, SniIsSentForNamesOnly) {
  {
    tls_echo peer;
    ASSERT_TRUE(peer.connect(opts_with(ssl_mode::required), "localhost"));
    EXPECT_EQ(peer.server().sni, "localhost");
  }
  {
    tls_echo peer;
    ASSERT_TRUE(peer.connect(opts_with(ssl_mode::required), "127.0.0.1"));
    EXPECT_EQ(peer.server().sni, "");
  }
}

TEST(Tls, CrlRejectsARevokedCertificate) {
  const auto& pki = test_pki::get();
  {
    tls_echo peer(/*revoked_cert=*/true);
    tls_options o = opts_with(ssl_mode::verify_ca, pki.ca);
    o.crl = pki.crl;
    expect_ssl_error(peer.connect(o), "certificate revoked");
  }
  {
    tls_echo peer(/*revoked_cert=*/true);
    tls_options o = opts_with(ssl_mode::verify_ca, pki.ca);
    o.crlpath = pki.crlpath;
    expect_ssl_error(peer.connect(o), "certificate revoked");
  }
  {
    tls_echo peer(/*revoked_cert=*/true); // without the CRL it passes
    EXPECT_TRUE(peer.connect(opts_with(ssl_mode::verify_ca, pki.ca)));
  }
  {
    tls_echo peer; // the CRL does not list the good certificate
    tls_options o = opts_with(ssl_mode::verify_ca, pki.ca);
    o.crl = pki.crl;
    auto st = peer.connect(o);
    EXPECT_TRUE(st) << (st ? "" : st.err().message);
  }
}

TEST(Tls, TlsVersionsSelectTheProtocol) {
  for (const char* v : {"TLSv1.2", "TLSv1.3"}) {
    SCOPED_TRACE(v);
    tls_echo peer;
    tls_options o = opts_with(ssl_mode::required);
    o.versions = {v};
    ASSERT_TRUE(peer.connect(o));
    EXPECT_EQ(peer.client().tls_version(), v);
  }
  tls_echo peer; // TLSv1.1 is known but not allowed: dropped from the list
  tls_options o = opts_with(ssl_mode::required);
  o.versions = {"TLSv1.1", "TLSv1.2"};
  ASSERT_TRUE(peer.connect(o));
  EXPECT_EQ(peer.client().tls_version(), "TLSv1.2");
}

struct cipher_case {
  std::vector<std::string> suites;
  std::vector<std::string> versions;
  const char* cipher;
  const char* version;
};

TEST(Tls, CiphersuitesAreHonoured) {
  // The test server's key is EC, so TLS 1.2 ciphers are ECDHE-ECDSA ones.
  const cipher_case cases[] = {
      {{"ECDHE-ECDSA-AES128-GCM-SHA256"}, {}, "ECDHE-ECDSA-AES128-GCM-SHA256", "TLSv1.2"},
      {{"TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"}, {}, "ECDHE-ECDSA-AES256-GCM-SHA384", "TLSv1.2"},
      {{"TLS_AES_128_GCM_SHA256"}, {}, "TLS_AES_128_GCM_SHA256", "TLSv1.3"},
      {{"TLS_CHACHA20_POLY1305_SHA256", "ECDHE-ECDSA-AES128-GCM-SHA256"},
       {"TLSv1.2"},
       "ECDHE-ECDSA-AES128-GCM-SHA256",
       "TLSv1.2"},
      {{"TLS_CHACHA20_POLY1305_SHA256", "ECDHE-ECDSA-AES128-GCM-SHA256"},
       {},
       "TLS_CHACHA20_POLY1305_SHA256",
       "TLSv1.3"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.suites[0] + " -> " + c.cipher);
    tls_echo peer;
    tls_options o = opts_with(ssl_mode::required);
    o.ciphersuites = c.suites;
    o.versions = c.versions;
    auto st = peer.connect(o);
    ASSERT_TRUE(st) << st.err().message;
    EXPECT_EQ(peer.client().tls_cipher(), c.cipher);
    EXPECT_EQ(peer.client().tls_version(), c.version);
  }
}

struct bad_case {
  std::vector<std::string> versions;
  std::vector<std::string> suites;
  const char* error;
};

TEST(Tls, BadVersionsAndCiphersuitesAreErrors) {
  const bad_case cases[] = {
      {{"TLSv1.2", "TLSv9"}, {}, "tls-versions: unknown TLS version 'TLSv9'"},
      {{"TLSv1", "TLSv1.1"}, {}, "no allowed TLS version in [TLSv1, TLSv1.1]"},
      {{},
       {"ECDHE-ECDSA-AES128-GCM-SHA256", "NO-SUCH-CIPHER"},
       "tls-ciphersuites: unknown TLS 1.2 cipher 'NO-SUCH-CIPHER'"},
      {{}, {"TLS_NO_SUCH_SUITE"}, "unknown TLS 1.3 cipher suite 'TLS_NO_SUCH_SUITE'"},
      // Only a TLS 1.3 suite, but only TLS 1.2 allowed.
      {{"TLSv1.2"}, {"TLS_AES_128_GCM_SHA256"}, "can be used with the allowed tls-versions"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.error);
    tls_echo peer;
    tls_options o = opts_with(ssl_mode::required);
    o.versions = c.versions;
    o.ciphersuites = c.suites;
    expect_bad_option(peer.connect(o), c.error);
  }
}

TEST(Tls, LargeTransfersSurviveSmallReads) {
  tls_echo peer;
  ASSERT_TRUE(peer.connect(opts_with(ssl_mode::required)));
  std::string big(300 * 1024, '\0');
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 31 % 251);
  ASSERT_TRUE(peer.client().write(big));
  std::string back;
  char buf[7];
  while (back.size() < big.size()) {
    auto got = peer.client().read_some(buf, std::min(sizeof buf, big.size() - back.size()));
    ASSERT_TRUE(got) << got.err().message;
    ASSERT_GE(got.value(), 1u);
    back.append(buf, got.value());
  }
  EXPECT_EQ(back, big);
}

TEST(Tls, StartTlsMisuseIsAUsageError) {
  {
    tls_echo peer;
    ASSERT_TRUE(peer.connect(opts_with(ssl_mode::required)));
    auto st = peer.client().start_tls(opts_with(ssl_mode::required), "127.0.0.1");
    ASSERT_FALSE(st);
    EXPECT_EQ(st.err().code, cdk::client_errc::usage);
  }
  tls_echo peer;
  auto st = peer.connect(opts_with(ssl_mode::disabled));
  ASSERT_FALSE(st);
  EXPECT_EQ(st.err().code, cdk::client_errc::usage);
  EXPECT_NE(st.err().message.find("DISABLED"), std::string::npos);
}

TEST(Tls, ServerKeepsAClientHelloThatArrivedWithPlainData) {
  // The client sends a plain byte and its ClientHello back to back; the
  // server's buffered read of the byte also takes in the ClientHello, which
  // accept_tls() must still see.
  const auto& pki = test_pki::get();
  auto ctx = cdk::tls_server_context::from_pem(pki.server_cert_pem, pki.server_key_pem);
  ASSERT_TRUE(ctx) << ctx.err().message;
  std::size_t buffered_at_upgrade = 0;
  std::string server_error = "not run";
  test_server::one_shot srv(test_server::listen_local(), [&](cdk::socket_stream& s) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    auto x = test_server::read_exact(s, 1);
    buffered_at_upgrade = s.buffered();
    auto st = x ? s.accept_tls(ctx.value()) : cdk::status(x.err());
    server_error = st ? "" : st.err().message;
    if (st) (void)s.write(x.value());
  });
  auto c = cdk::connect_tcp("127.0.0.1", srv.port(), std::chrono::seconds(5));
  ASSERT_TRUE(c);
  ASSERT_TRUE(
      dynamic_cast<cdk::socket_stream&>(*c.value()).set_io_timeout(std::chrono::seconds(10)));
  ASSERT_TRUE(c.value()->write("X"));
  auto st = c.value()->start_tls(opts_with(ssl_mode::verify_identity, pki.ca), "localhost");
  ASSERT_TRUE(st) << st.err().message;
  auto back = test_server::read_exact(*c.value(), 1);
  ASSERT_TRUE(back) << back.err().message;
  EXPECT_EQ(back.value(), "X");
  c.value().reset();
  srv.join();
  EXPECT_EQ(server_error, "");
  EXPECT_GT(buffered_at_upgrade, 0u) << "the ClientHello was not read ahead";
}

TEST(Tls, WritingToAClosedTlsPeerIsAnErrorNotSigpipe) {
  tls_echo peer;
  ASSERT_TRUE(peer.connect(opts_with(ssl_mode::required)));
  auto& client = peer.client();
  peer.stop_server();
  cdk::status st = cdk::ok();
  for (int i = 0; i < 200 && st; ++i) {
    st = client.write(std::string(4096, 'w'));
    if (st) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_FALSE(st);
  EXPECT_EQ(st.err().code, cdk::client_errc::lost_connection) << st.err().message;
}

TEST(Tls, ServerContextErrorsNameTheFile) {
  auto ctx =
      cdk::tls_server_context::from_files("/nonexistent/cert.pem", test_pki::get().server_key);
  ASSERT_FALSE(ctx);
  EXPECT_EQ(ctx.err().code, cdk::client_errc::ssl_connection);
  EXPECT_NE(ctx.err().message.find("'/nonexistent/cert.pem'"), std::string::npos);
  // A key that does not belong to the certificate.
  auto mismatch =
      cdk::tls_server_context::from_files(test_pki::get().server_cert, test_pki::get().revoked_key);
  ASSERT_FALSE(mismatch);
  EXPECT_NE(mismatch.err().message.find("mismatch"), std::string::npos) << mismatch.err().message;
}

} // namespace
