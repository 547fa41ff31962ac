#include "cdk/foundation/tls_server.h"

#include "cdk/foundation/tls_session.h"

#include <openssl/err.h>
#include <openssl/pem.h>

namespace cdk {

namespace {

error ssl_error(std::string msg) {
  return error::connection(client_errc::ssl_connection, std::move(msg));
}

// What mysqld 8.0 offers when ssl_cipher and tls_ciphersuites are unset
// (MySQL's include/tls_ciphers.h): AEAD ciphers with forward secrecy, in its
// order of preference, which the server's preference makes the one chosen.
// The "!" entries are the weak ciphers it always excludes.
constexpr const char* mysql_tls12_ciphers =
    "!aNULL:!eNULL:!EXPORT:!LOW:!MD5:!DES:!3DES:!RC2:!RC4:!PSK:"
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:"
    "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:"
    "ECDHE-ECDSA-AES256-CCM:ECDHE-ECDSA-AES128-CCM:"
    "DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:"
    "DHE-RSA-AES256-CCM:DHE-RSA-AES128-CCM:DHE-RSA-CHACHA20-POLY1305";
constexpr const char* mysql_tls13_ciphersuites =
    "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:"
    "TLS_AES_128_CCM_SHA256";

result<std::shared_ptr<SSL_CTX>> new_server_ctx() {
  ERR_clear_error();
  std::shared_ptr<SSL_CTX> ctx(SSL_CTX_new(TLS_server_method()), SSL_CTX_free);
  if (!ctx) return ssl_error("Can't create a TLS context: " + take_ssl_error("out of memory"));
  SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);
  SSL_CTX_set_options(ctx.get(), SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION |
                                     SSL_OP_CIPHER_SERVER_PREFERENCE);
  if (SSL_CTX_set_cipher_list(ctx.get(), mysql_tls12_ciphers) != 1 ||
      SSL_CTX_set_ciphersuites(ctx.get(), mysql_tls13_ciphersuites) != 1)
    return ssl_error("Can't set the TLS ciphers: " + take_ssl_error("none available"));
  // mysqld sets DH parameters so that the DHE-RSA ciphers of its list work;
  // without them OpenSSL's server skips those and a client offering only
  // them gets a handshake failure alert.
  SSL_CTX_set_dh_auto(ctx.get(), 1);
  return ctx;
}

status check_key(SSL_CTX* ctx) {
  if (SSL_CTX_check_private_key(ctx) != 1) {
    return ssl_error("The TLS private key does not match the certificate: " +
                     take_ssl_error("mismatch"));
  }
  return ok();
}

struct bio_deleter {
  void operator()(BIO* b) const noexcept { BIO_free(b); }
};
struct x509_deleter {
  void operator()(X509* x) const noexcept { X509_free(x); }
};
struct pkey_deleter {
  void operator()(EVP_PKEY* k) const noexcept { EVP_PKEY_free(k); }
};

std::unique_ptr<BIO, bio_deleter> mem_bio(std::string_view pem) {
  return std::unique_ptr<BIO, bio_deleter>(
      BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

} // namespace

result<tls_server_context> tls_server_context::from_files(const std::string& cert_file,
                                                          const std::string& key_file) {
  auto ctx = new_server_ctx();
  if (!ctx) return std::move(ctx).err();
  SSL_CTX* c = ctx.value().get();
  if (SSL_CTX_use_certificate_chain_file(c, cert_file.c_str()) != 1) {
    return ssl_error("Can't load TLS certificate '" + cert_file +
                     "': " + take_ssl_error("unreadable"));
  }
  if (SSL_CTX_use_PrivateKey_file(c, key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    return ssl_error("Can't load TLS key '" + key_file + "': " + take_ssl_error("unreadable"));
  }
  if (auto st = check_key(c); !st) return std::move(st).err();
  return tls_server_context(std::move(ctx).value());
}

result<tls_server_context> tls_server_context::from_pem(std::string_view cert_pem,
                                                        std::string_view key_pem) {
  auto ctx = new_server_ctx();
  if (!ctx) return std::move(ctx).err();
  SSL_CTX* c = ctx.value().get();
  auto certs = mem_bio(cert_pem);
  std::unique_ptr<X509, x509_deleter> leaf(
      certs ? PEM_read_bio_X509(certs.get(), nullptr, nullptr, nullptr) : nullptr);
  if (!leaf || SSL_CTX_use_certificate(c, leaf.get()) != 1) {
    return ssl_error("Can't load TLS certificate from PEM: " + take_ssl_error("no certificate"));
  }
  // Any further certificates are the chain up to (not including) the root.
  while (X509* extra = PEM_read_bio_X509(certs.get(), nullptr, nullptr, nullptr)) {
    if (SSL_CTX_add0_chain_cert(c, extra) != 1) {
      X509_free(extra);
      return ssl_error("Can't add a chain certificate: " + take_ssl_error("unknown"));
    }
  }
  ERR_clear_error(); // the loop ends with a "no start line" error
  auto keys = mem_bio(key_pem);
  std::unique_ptr<EVP_PKEY, pkey_deleter> key(
      keys ? PEM_read_bio_PrivateKey(keys.get(), nullptr, nullptr, nullptr) : nullptr);
  if (!key || SSL_CTX_use_PrivateKey(c, key.get()) != 1) {
    return ssl_error("Can't load TLS key from PEM: " + take_ssl_error("no key"));
  }
  if (auto st = check_key(c); !st) return std::move(st).err();
  return tls_server_context(std::move(ctx).value());
}

} // namespace cdk
