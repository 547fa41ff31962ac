// A library that imports what check_tls_imports.sh refuses, so the check is
// seen to fail where it must (packaging_tls_imports_catch).
#include <openssl/kdf.h>
#include <openssl/ssl.h>

extern "C" __attribute__((visibility("default"))) int probe(SSL* ssl, char* buf, int n) {
  SSL_CTX_set_keylog_callback(SSL_get_SSL_CTX(ssl), nullptr);
  EVP_KDF* kdf = EVP_KDF_fetch(nullptr, "HKDF", nullptr);
  EVP_KDF_free(kdf);
  return SSL_read(ssl, buf, n);
}
