// Certificates made at run time through the OpenSSL API, for TLS tests: no
// key material is checked in, and nothing depends on the openssl CLI.
//
// test_pki::get() builds, once per process, in a fresh temporary directory:
//   ca.pem            CA "mysqlx test CA"
//   other-ca.pem      an unrelated CA "mysqlx other CA"
//   server-cert.pem   CN=mysqlx test server, SAN DNS:localhost, IP:127.0.0.1,
//   server-key.pem      IP:::1, signed by ca.pem
//   revoked-cert.pem  like server-cert.pem, but its serial is in crl.pem
//   revoked-key.pem
//   cn-only-cert.pem  CN=localhost and no SAN, signed by ca.pem
//   cn-only-key.pem
//   crl.pem           ca.pem's CRL, revoking revoked-cert.pem
//   capath/           ca.pem as <subject hash>.0 (an OpenSSL hashed dir)
//   crlpath/          crl.pem as <issuer hash>.r0
// and removes the directory at exit.
#pragma once

#include <string>

namespace test_pki {

struct files {
  std::string dir;
  std::string ca, other_ca, server_cert, server_key, revoked_cert, revoked_key, crl;
  std::string cn_only_cert, cn_only_key;
  std::string capath, crlpath;
  // PEM text of the same, for in-memory use.
  std::string server_cert_pem, server_key_pem;
};

const files& get();

// Reads a whole file (test helper).
std::string read_file(const std::string& path);

} // namespace test_pki
