// Private to cdk/foundation: OpenSSL state of one TLS connection, and the
// client context built from tls_options. Only .cc files of this directory
// include it, so OpenSSL types never reach stream.h or options.h.
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/foundation/options.h"
#include "cdk/foundation/tls13_records.h"

#include <cstddef>
#include <memory>
#include <openssl/crypto.h>
#include <openssl/ssl.h>
#include <string>
#include <string_view>
#include <vector>

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

// Makes the client sessions of ctx keep the TLS 1.3 application traffic
// secrets (through OpenSSL's key log callback), so that after the handshake
// tls13_records can protect the records instead of OpenSSL
// (tls_session_records.cc).
void keep_traffic_secrets(SSL_CTX* ctx);

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
  void shutdown() noexcept; // close_notify, best effort

  std::string version() const;
  std::string cipher() const;
  std::string server_name() const; // server side: the SNI the client sent
  bool records_in_house() const noexcept { return m_records != nullptr; }

  struct transport; // the BIO's view of the socket (below)

private:
  struct key {}; // only handshake() constructs sessions

public:
  tls_session(key, std::unique_ptr<transport> t, const std::string& peer);

private:
  error io_error(int rc, std::string_view what);
  void take_over_records();
  status records_write(std::string_view bytes);
  result<std::size_t> records_read(char* buf, std::size_t n);

  std::unique_ptr<transport> m_transport;
  ssl_ptr m_ssl;
  std::string m_peer;
  // Set after a client's TLS 1.3 handshake with an AES-GCM suite: from then
  // on the records are ours, and OpenSSL's record layer is never used again.
  std::unique_ptr<tls13_records> m_records;
  std::string m_out;        // sealed records on their way out
  std::vector<char> m_in;   // records as received; opened records in place
  std::size_t m_in_pos = 0; // the next record starts here
  std::size_t m_in_end = 0;
  std::size_t m_plain_pos = 0; // application data opened in place, not yet read
  std::size_t m_plain_end = 0;
  // The thread's OpenSSL error queue was found empty by the last write, and
  // that write succeeded: the read of its reply, which follows with none of
  // the application's code in between, need not look again (tls_session.cc).
  bool m_queue_clear = false;
};

// What the BIO and the in-house records (tls_session_records.cc) share.
struct tls_session::transport {
  int fd = -1;
  std::string pending; // bytes read before the handshake, served first
  std::size_t pending_pos = 0;
  int last_errno = 0; // errno of the last failed send/recv, for messages
  // The TLS 1.3 application traffic secrets, raw, until records take over.
  std::string client_secret, server_secret;
  transport() = default;
  transport(const transport&) = delete;
  transport& operator=(const transport&) = delete;
  ~transport() { forget_secrets(); }
  void forget_secrets() noexcept {
    OPENSSL_cleanse(client_secret.data(), client_secret.size());
    OPENSSL_cleanse(server_secret.data(), server_secret.size());
    client_secret.clear();
    server_secret.clear();
  }
};

} // namespace cdk
