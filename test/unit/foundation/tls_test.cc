// TLS client verification (ssl-mode, CA, CRL, host name) against an
// in-process TLS server with certificates made at run time.
#include "tls_echo.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace tls_test;

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

// Points OpenSSL's default CA file (the "system store") elsewhere while alive.
class default_ca_file {
public:
  explicit default_ca_file(const std::string& path) {
    if (const char* old = std::getenv("SSL_CERT_FILE")) m_old = old;
    ::setenv("SSL_CERT_FILE", path.c_str(), 1);
  }
  ~default_ca_file() {
    if (m_old) {
      ::setenv("SSL_CERT_FILE", m_old->c_str(), 1);
    } else {
      ::unsetenv("SSL_CERT_FILE");
    }
  }

private:
  std::optional<std::string> m_old;
};

TEST(Tls, VerifyCaWithoutCaUsesTheSystemStore) {
  {
    default_ca_file system(test_pki::get().ca);
    tls_echo peer;
    auto st = peer.connect(opts_with(ssl_mode::verify_ca));
    EXPECT_TRUE(st) << (st ? "" : st.err().message);
  }
  {
    default_ca_file system(test_pki::get().other_ca);
    tls_echo peer;
    expect_ssl_error(peer.connect(opts_with(ssl_mode::verify_ca)), "certificate verify failed");
  }
}

TEST(Tls, UnreadableCaAndCrlLocationsAreNamed) {
  {
    tls_echo peer; // OpenSSL alone said "system lib"
    expect_ssl_error(peer.connect(opts_with(ssl_mode::verify_ca, "/tmp")),
                     "Can't load ssl-ca '/tmp': it is a directory, not a PEM file (a directory "
                     "is ssl-capath)");
  }
  {
    tls_echo peer;
    expect_ssl_error(peer.connect(opts_with(ssl_mode::verify_ca, "/nonexistent/ca.pem")),
                     "Can't load ssl-ca '/nonexistent/ca.pem': the file does not exist");
  }
  {
    tls_echo peer;
    tls_options o = opts_with(ssl_mode::verify_ca);
    o.capath = "/nonexistent/certs";
    expect_ssl_error(peer.connect(o), "Can't use ssl-capath '/nonexistent/certs': not a directory");
  }
  {
    tls_echo peer;
    tls_options o = opts_with(ssl_mode::verify_ca, test_pki::get().ca);
    o.crl = "/nonexistent/crl.pem";
    expect_ssl_error(peer.connect(o),
                     "Can't load ssl-crl '/nonexistent/crl.pem': the file does not exist");
  }
  {
    tls_echo peer;
    tls_options o = opts_with(ssl_mode::verify_ca, test_pki::get().ca);
    o.crlpath = test_pki::get().crl; // a file, not a directory
    expect_ssl_error(peer.connect(o), "ssl-crlpath '" + test_pki::get().crl + "': not a directory");
  }
}

TEST(Tls, VerifyIdentityAcceptsNamesInTheCertificate) {
  for (const char* host : {"localhost", "127.0.0.1", "::1"}) {
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

TEST(Tls, VerifyIdentityFallsBackToTheCnWithoutSan) {
  {
    tls_echo peer(server_cert::cn_only);
    auto st = peer.connect(opts_with(ssl_mode::verify_identity, test_pki::get().ca), "localhost");
    EXPECT_TRUE(st) << (st ? "" : st.err().message);
  }
  {
    tls_echo peer(server_cert::cn_only);
    auto st = peer.connect(opts_with(ssl_mode::verify_identity, test_pki::get().ca), "db.example");
    expect_ssl_error(st, "hostname mismatch");
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
    tls_echo peer(server_cert::revoked);
    tls_options o = opts_with(ssl_mode::verify_ca, pki.ca);
    o.crl = pki.crl;
    expect_ssl_error(peer.connect(o), "certificate revoked");
  }
  {
    tls_echo peer(server_cert::revoked);
    tls_options o = opts_with(ssl_mode::verify_ca, pki.ca);
    o.crlpath = pki.crlpath;
    expect_ssl_error(peer.connect(o), "certificate revoked");
  }
  {
    tls_echo peer(server_cert::revoked); // without the CRL it passes
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

} // namespace
