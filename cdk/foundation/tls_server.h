// Server side of TLS, for xserverd: a context loaded once from a certificate
// chain and a private key (PEM), shared by every accepted connection, and
// used with socket_stream::accept_tls(). The connector itself never uses it.
//
// Accepts TLS 1.2 and 1.3 with MySQL 8.0's default cipher lists and order
// (server preference), DHE included; clients restrict further with
// tls-versions / tls-ciphersuites. No client certificates.
//
//   auto ctx = cdk::tls_server_context::from_files("server-cert.pem", "server-key.pem");
//   if (!ctx) die(ctx.err().message);
//   ... stream->accept_tls(ctx.value()) ...
#pragma once

#include "cdk/foundation/error.h"

#include <memory>
#include <string>
#include <string_view>

struct ssl_ctx_st; // OpenSSL's SSL_CTX, kept opaque here

namespace cdk {

class tls_server_context {
public:
  // cert_file: PEM, the server certificate first, then any intermediates.
  // Errors (client_errc::ssl_connection) name the file and OpenSSL's reason.
  static result<tls_server_context> from_files(const std::string& cert_file,
                                               const std::string& key_file);
  // The same from PEM text in memory.
  static result<tls_server_context> from_pem(std::string_view cert_pem, std::string_view key_pem);

  // Copies share one OpenSSL context; safe to use from many threads at once.
  ssl_ctx_st* native() const noexcept { return m_ctx.get(); }

private:
  explicit tls_server_context(std::shared_ptr<ssl_ctx_st> ctx) : m_ctx(std::move(ctx)) {}
  std::shared_ptr<ssl_ctx_st> m_ctx;
};

} // namespace cdk
