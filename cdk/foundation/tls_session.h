// Private to cdk/foundation: OpenSSL state of one TLS connection, and the
// client context built from tls_options. Only .cc files of this directory
// include it, so OpenSSL types never reach stream.h or options.h.
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/foundation/options.h"

#include <cstddef>
#include <memory>
#include <openssl/ssl.h>
#include <string>
#include <string_view>

namespace cdk {

struct ssl_ctx_deleter {
  void operator()(SSL_CTX* ctx) const noexcept { SSL_CTX_free(ctx); }
};
using ssl_ctx_ptr = std::unique_ptr<SSL_CTX, ssl_ctx_deleter>;

struct ssl_deleter {
  void operator()(SSL* ssl) const noexcept { SSL_free(ssl); }
};
using ssl_ptr = std::unique_ptr<SSL, ssl_deleter>;

// Text of the most recent OpenSSL error (e.g. "certificate verify failed"),
// or `fallback` when the queue is empty. Clears the thread's error queue.
std::string take_ssl_error(std::string_view fallback);

// True when host is an IPv4 or IPv6 literal (no SNI; IP SAN check).
bool is_ip_literal(std::string_view host);

// The client context for one connection: verification mode, CA/CRL files,
// tls-versions and tls-ciphersuites. Bad option values are bad_option errors;
// unreadable files are ssl_connection errors naming the file.
result<ssl_ctx_ptr> make_client_ctx(const tls_options& opts, std::string_view host);

class tls_session {
public:
  enum class role { client, server };

  // Runs the handshake on the blocking socket fd. `pending` holds bytes the
  // caller already read from fd: they are the start of the TLS stream.
  // sni_host: sent as SNI by a client when it is a name (not an IP literal).
  static result<std::unique_ptr<tls_session>> handshake(SSL_CTX* ctx, int fd,
                                                        std::string_view pending, role r,
                                                        std::string_view sni_host,
                                                        const std::string& peer);
  ~tls_session();
  tls_session(const tls_session&) = delete;
  tls_session& operator=(const tls_session&) = delete;

  status write(std::string_view bytes);
  result<std::size_t> read(char* buf, std::size_t n);
  // Bytes a read() may return without touching the socket: decrypted, or
  // read ahead from the socket and not yet decrypted, or read before the
  // handshake. A record read ahead in part counts too: its read then waits
  // only for the rest of it.
  bool has_buffered() const noexcept;
  void shutdown() noexcept; // close_notify, best effort

  std::string version() const;
  std::string cipher() const;
  std::string server_name() const; // server side: the SNI the client sent

  struct transport; // the BIO's view of the socket (tls_session.cc)

private:
  struct key {}; // only handshake() constructs sessions

public:
  tls_session(key, std::unique_ptr<transport> t, const std::string& peer);

private:
  error io_error(int rc, std::string_view what);

  std::unique_ptr<transport> m_transport;
  ssl_ptr m_ssl;
  std::string m_peer;
  // The thread's OpenSSL error queue was found empty by the last write, and
  // that write succeeded: the read of its reply, which follows with none of
  // the application's code in between, need not look again (tls_session.cc).
  bool m_queue_clear = false;
};

} // namespace cdk
