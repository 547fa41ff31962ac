// tls-versions, tls-ciphersuites, data transfer and misuse over TLS, and
// the server side (accept_tls, tls_server_context).
#include "tls_echo.h"

#include <gtest/gtest.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace tls_test;

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
      // Unrestricted, the server's preference (MySQL 8.0's order) decides.
      {{}, {"TLSv1.2"}, "ECDHE-ECDSA-AES128-GCM-SHA256", "TLSv1.2"},
      {{}, {"TLSv1.3"}, "TLS_AES_128_GCM_SHA256", "TLSv1.3"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE((c.suites.empty() ? std::string("(default)") : c.suites[0]) + " -> " + c.cipher);
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
  bool given; // the lists were given (an empty one is then no version/suite)
  const char* error;
};

// Connector/C++ 8's messages when nothing usable is left; names it cannot
// use are dropped first (the next test).
TEST(Tls, ListsWithNothingUsableAreErrors) {
  const char* const no_version =
      "No valid TLS version was given, valid versions are: TLSv1.2, TLSv1.3";
  const char* const no_cipher = "No valid cipher suite found in the 'tls-ciphersuites' list";
  const bad_case cases[] = {
      {{"TLSv9"}, {}, false, no_version},
      {{"TLSv1", "TLSv1.1"}, {}, false, no_version}, // never enabled, only dropped
      {{}, {}, true, no_version},
      {{}, {"NO-SUCH-CIPHER"}, false, no_cipher},
      {{}, {"TLS_NO_SUCH_SUITE", "TLS_DHE_RSA_WITH_DES_CBC_SHA"}, false, no_cipher},
      // OpenSSL's list syntax is never passed on: not a name, dropped.
      {{}, {"ECDHE-ECDSA-AES128-GCM-SHA256:ALL", "!aNULL"}, false, no_cipher},
      // Only a TLS 1.3 suite, but only TLS 1.2 allowed.
      {{"TLSv1.2"}, {"TLS_AES_128_GCM_SHA256"}, false, "can be used with the allowed tls-versions"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.error);
    tls_echo peer;
    tls_options o = opts_with(ssl_mode::required);
    o.versions = c.versions;
    o.ciphersuites = c.suites;
    o.versions_given = c.given && c.versions.empty();
    o.ciphersuites_given = c.given && !c.versions.empty();
    expect_bad_option(peer.connect(o), c.error);
  }
  tls_echo peer; // an empty cipher list given: no fallback to the defaults
  tls_options o = opts_with(ssl_mode::required);
  o.ciphersuites_given = true;
  expect_bad_option(peer.connect(o), no_cipher);
}

TEST(Tls, UnusableNamesAreDroppedAsConnectorCppDropsThem) {
  tls_echo peer;
  tls_options o = opts_with(ssl_mode::required);
  o.versions = {"foo", "TLSv1.1", "TLSv1.2"};
  o.ciphersuites = {"NO-SUCH-CIPHER", "TLS_DHE_RSA_WITH_DES_CBC_SHA",
                    "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"};
  auto st = peer.connect(o);
  ASSERT_TRUE(st) << st.err().message;
  EXPECT_EQ(peer.client().tls_version(), "TLSv1.2");
  EXPECT_EQ(peer.client().tls_cipher(), "ECDHE-ECDSA-AES128-GCM-SHA256");
}

// Every version and suite the connector allows carries a transfer of many
// records each way intact, through OpenSSL's record layer.
TEST(Tls, EverySuiteCarriesManyRecordsBothWays) {
  struct record_case {
    std::vector<std::string> suites, versions;
    const char* cipher;
  };
  const record_case cases[] = {
      {{}, {}, "TLS_AES_128_GCM_SHA256"},
      {{"TLS_AES_256_GCM_SHA384"}, {}, "TLS_AES_256_GCM_SHA384"},
      {{"TLS_CHACHA20_POLY1305_SHA256"}, {}, "TLS_CHACHA20_POLY1305_SHA256"},
      {{}, {"TLSv1.2"}, "ECDHE-ECDSA-AES128-GCM-SHA256"},
  };
  std::string big(std::size_t{100} * 1024, '\0');
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 7 % 253);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.cipher);
    tls_echo peer;
    tls_options o = opts_with(ssl_mode::required);
    o.ciphersuites = c.suites;
    o.versions = c.versions;
    ASSERT_TRUE(peer.connect(o));
    EXPECT_EQ(peer.client().tls_cipher(), c.cipher);
    ASSERT_TRUE(peer.client().write(big));
    auto back = test_server::read_exact(peer.client(), big.size());
    ASSERT_TRUE(back) << back.err().message;
    EXPECT_EQ(back.value(), big);
    EXPECT_TRUE(peer.server().tls_ok);
  }
}

TEST(Tls, LargeTransfersSurviveSmallReads) {
  tls_echo peer;
  ASSERT_TRUE(peer.connect(opts_with(ssl_mode::required)));
  std::string big(std::size_t{300} * 1024, '\0');
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

// Writes to a TLS peer that has closed until a write fails (the first ones
// only fill the socket buffers); with `stale_error`, an OpenSSL error is
// left in this thread's queue before each write, as other code may leave one.
cdk::status write_to_closed_peer(bool stale_error) {
  tls_echo peer;
  if (auto st = peer.connect(opts_with(ssl_mode::required)); !st) return st;
  auto& client = peer.client();
  peer.stop_server();
  cdk::status st = cdk::ok();
  for (int i = 0; i < 200 && st; ++i) {
    if (stale_error) ERR_raise(ERR_LIB_SSL, SSL_R_BAD_LENGTH);
    st = client.write(std::string(4096, 'w'));
    if (st) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ERR_clear_error();
  return st;
}

TEST(Tls, WritingToAClosedTlsPeerIsAnErrorNotSigpipe) {
  cdk::status st = write_to_closed_peer(false);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.err().code, cdk::client_errc::lost_connection) << st.err().message;
}

// SSL_get_error() consults the thread's OpenSSL error queue: an error some
// other code left there must not turn the lost connection into a TLS error.
TEST(Tls, AStaleOpensslErrorDoesNotChangeWhatAWriteReports) {
  cdk::status st = write_to_closed_peer(true);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.err().code, cdk::client_errc::lost_connection) << st.err().message;
}

// The same for reads. A read that directly follows this session's own
// successful write skips the check (nothing else runs on the thread in
// between in the connector: tls_session.cc); any other read still clears
// what other code left.
TEST(Tls, AStaleOpensslErrorDoesNotChangeWhatAReadReports) {
  const auto& pki = test_pki::get();
  auto ctx = cdk::tls_server_context::from_pem(pki.server_cert_pem, pki.server_key_pem);
  ASSERT_TRUE(ctx) << ctx.err().message;
  test_server::one_shot srv(test_server::listen_local(), [&](cdk::socket_stream& s) {
    if (s.accept_tls(ctx.value())) (void)s.write("x"); // then closes
  });
  auto c = cdk::connect_tcp("127.0.0.1", srv.port(), std::chrono::seconds(5));
  ASSERT_TRUE(c);
  ASSERT_TRUE(c.value()->start_tls(opts_with(ssl_mode::verify_ca, pki.ca), "127.0.0.1"));
  ERR_raise(ERR_LIB_SSL, SSL_R_BAD_LENGTH);
  auto x = test_server::read_exact(*c.value(), 1);
  ASSERT_TRUE(x) << x.err().message;
  EXPECT_EQ(x.value(), "x");
  srv.join();
  ERR_raise(ERR_LIB_SSL, SSL_R_BAD_LENGTH);
  char buf[16];
  auto eof = c.value()->read_some(buf, sizeof buf);
  ERR_clear_error();
  ASSERT_FALSE(eof);
  EXPECT_EQ(eof.err().code, cdk::client_errc::lost_connection) << eof.err().message;
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
