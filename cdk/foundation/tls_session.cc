// One TLS connection over a blocking socket, client or server side.
//
// OpenSSL talks to the socket through our own BIO rather than BIO_s_socket:
// - SIGPIPE: BIO_s_socket writes with write(), which raises SIGPIPE when the
//   peer has gone. Our BIO uses send(MSG_NOSIGNAL), so a dead peer is just
//   EPIPE. The alternatives were worse: ignoring SIGPIPE process-wide changes
//   the application's signal disposition, and blocking it per thread around
//   each SSL_write needs sigtimedwait() to discard a pending signal.
// - Bytes read before the upgrade: the plain-text read buffer may already
//   hold the start of the TLS stream; the BIO serves those first.
// - EINTR is retried inside the BIO, so OpenSSL never sees it.
//
// OpenSSL's record layer protects every record, client and server side, for
// every TLS version and cipher suite: the connector never seals or opens a
// record itself, and never sees a traffic secret (issue 23).
#include "cdk/foundation/tls_session.h"

#include "cdk/foundation/fd.h"
#include "cdk/foundation/socket_stream.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <openssl/err.h>
#include <sys/socket.h>

namespace cdk {

struct tls_session::transport {
  int fd = -1;
  std::string pending; // bytes read before the handshake, served first
  std::size_t pending_pos = 0;
  int last_errno = 0; // errno of the last failed send/recv, for messages
};

namespace {

using transport = tls_session::transport;

int bio_read(BIO* bio, char* out, int len) {
  auto* t = static_cast<transport*>(BIO_get_data(bio));
  BIO_clear_retry_flags(bio);
  if (len <= 0) return 0;
  if (t->pending_pos < t->pending.size()) {
    std::size_t n =
        std::min<std::size_t>(static_cast<std::size_t>(len), t->pending.size() - t->pending_pos);
    std::copy_n(t->pending.data() + t->pending_pos, n, out);
    t->pending_pos += n;
    return static_cast<int>(n);
  }
  for (;;) {
    ssize_t rc = ::recv(t->fd, out, static_cast<std::size_t>(len), 0);
    if (rc >= 0) return static_cast<int>(rc); // 0: EOF
    if (errno == EINTR) continue;
    t->last_errno = errno;
    if (errno == EAGAIN || errno == EWOULDBLOCK) BIO_set_retry_read(bio);
    return -1;
  }
}

int bio_write(BIO* bio, const char* in, int len) {
  auto* t = static_cast<transport*>(BIO_get_data(bio));
  BIO_clear_retry_flags(bio);
  if (len <= 0) return 0;
  for (;;) {
    ssize_t rc = ::send(t->fd, in, static_cast<std::size_t>(len), MSG_NOSIGNAL);
    if (rc >= 0) return static_cast<int>(rc);
    if (errno == EINTR) continue;
    t->last_errno = errno;
    if (errno == EAGAIN || errno == EWOULDBLOCK) BIO_set_retry_write(bio);
    return -1;
  }
}

long bio_ctrl(BIO* /*bio*/, int cmd, long /*num*/, void* /*ptr*/) {
  // send() has no user-space buffer to flush; everything else is unsupported.
  return cmd == BIO_CTRL_FLUSH ? 1 : 0;
}

int bio_create(BIO* bio) {
  BIO_set_init(bio, 1);
  return 1;
}

// Created once, never freed: OpenSSL keeps no per-method state to leak.
BIO_METHOD* socket_bio_method() {
  static BIO_METHOD* method = [] {
    BIO_METHOD* m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "cdk socket");
    if (m == nullptr) return m;
    BIO_meth_set_read(m, bio_read);
    BIO_meth_set_write(m, bio_write);
    BIO_meth_set_ctrl(m, bio_ctrl);
    BIO_meth_set_create(m, bio_create);
    return m;
  }();
  return method;
}

// SSL_get_error() reads the thread's error queue, so anything left there
// (by other code on this thread) would turn a plain EOF or EPIPE into a TLS
// error: the queue must be empty before each SSL_read/SSL_write. Emptying an
// empty queue with ERR_clear_error() still resets all its 16 slots, about
// 800 instructions, twice per request (issue 13); peeking first costs a
// fifth of that. A read right after a successful write skips even the peek:
// nothing but this connection's own code ran in between, and it leaves the
// queue empty (every failure path drains it).
void clear_stale_errors() {
  if (ERR_peek_error() != 0) ERR_clear_error();
}

bool is_eof_error(unsigned long e) {
  return ERR_GET_LIB(e) == ERR_LIB_SSL && ERR_GET_REASON(e) == SSL_R_UNEXPECTED_EOF_WHILE_READING;
}

} // namespace

std::string take_ssl_error(std::string_view fallback) {
  unsigned long last = 0;
  // The last error is the most specific one ("certificate verify failed").
  while (unsigned long e = ERR_get_error()) last = e;
  if (last == 0) return std::string(fallback);
  const char* reason = ERR_reason_error_string(last);
  if (reason != nullptr) return reason;
  char buf[256];
  ERR_error_string_n(last, buf, sizeof buf);
  return buf;
}

tls_session::tls_session(key /*unused*/, std::unique_ptr<transport> t, const std::string& peer)
    : m_transport(std::move(t)), m_peer(peer) {}

tls_session::~tls_session() = default;

result<std::unique_ptr<tls_session>> tls_session::handshake(SSL_CTX* ctx, int fd,
                                                            std::string_view pending, role r,
                                                            std::string_view sni_host,
                                                            const std::string& peer) {
  auto fail = [](const std::string& why) {
    return error::connection(client_errc::ssl_connection, "TLS handshake failed: " + why);
  };
  ERR_clear_error();
  auto t = std::make_unique<transport>();
  t->fd = fd;
  t->pending.assign(pending.data(), pending.size());
  auto s = std::make_unique<tls_session>(key{}, std::move(t), peer);
  s->m_ssl.reset(SSL_new(ctx));
  BIO_METHOD* method = socket_bio_method();
  if (!s->m_ssl || method == nullptr) return fail(take_ssl_error("out of memory"));
  BIO* bio = BIO_new(method);
  if (bio == nullptr) return fail(take_ssl_error("out of memory"));
  BIO_set_data(bio, s->m_transport.get());
  SSL_set_bio(s->m_ssl.get(), bio, bio); // the SSL owns the BIO from here

  SSL* ssl = s->m_ssl.get();
  int rc = 0;
  if (r == role::client) {
    // Read-ahead: each recv() takes what has arrived, up to OpenSSL's record
    // buffer, instead of a record's 5-byte header and then its body, so a
    // small reply (an add's) costs one system call, not two (issue 13: the
    // kernel's share is most of a single add's CPU). Whoever polls the
    // socket (a future's wait_for()) asks has_buffered() first, which
    // counts the bytes OpenSSL holds.
    SSL_set_read_ahead(ssl, 1);
    if (!sni_host.empty() && !is_ip_literal(sni_host)) {
      std::string host(sni_host);
      SSL_set_tlsext_host_name(ssl, host.c_str());
    }
    rc = SSL_connect(ssl);
  } else {
    rc = SSL_accept(ssl);
  }
  if (rc == 1) return s;

  int kind = SSL_get_error(ssl, rc);
  unsigned long e = ERR_peek_last_error();
  if (kind == SSL_ERROR_WANT_READ || kind == SSL_ERROR_WANT_WRITE) {
    ERR_clear_error(); // only with an I/O timeout (socket_stream::set_io_timeout)
    return error::connection(client_errc::timeout, "TLS handshake with " + peer + " timed out");
  }
  if (kind == SSL_ERROR_SYSCALL || kind == SSL_ERROR_ZERO_RETURN || is_eof_error(e)) {
    int err = s->m_transport->last_errno;
    ERR_clear_error();
    return fail(err != 0 ? errno_text(err) : "connection closed by " + peer);
  }
  std::string why = take_ssl_error("unknown error");
  long verify = SSL_get_verify_result(ssl);
  if (verify != X509_V_OK) {
    why += " (";
    why += X509_verify_cert_error_string(verify);
    why += ")";
  }
  return fail(why);
}

error tls_session::io_error(int rc, std::string_view what) {
  int kind = SSL_get_error(m_ssl.get(), rc);
  unsigned long e = ERR_peek_last_error();
  if (kind == SSL_ERROR_WANT_READ || kind == SSL_ERROR_WANT_WRITE) {
    ERR_clear_error();
    return socket_errno_error(m_peer, m_transport->last_errno);
  }
  if (kind == SSL_ERROR_ZERO_RETURN || is_eof_error(e) || (kind == SSL_ERROR_SYSCALL && e == 0)) {
    int err = m_transport->last_errno;
    ERR_clear_error();
    return err != 0 ? socket_errno_error(m_peer, err)
                    : lost_connection_error(m_peer, "connection closed by peer");
  }
  std::string why = std::string(what) + ": " + take_ssl_error("unknown TLS error");
  return error::connection(client_errc::ssl_connection, std::move(why));
}

status tls_session::write(std::string_view bytes) {
  clear_stale_errors();
  m_queue_clear = false;
  m_transport->last_errno = 0;
  while (!bytes.empty()) {
    // SSL_write takes an int length; without partial writes enabled it
    // writes all of a chunk or fails.
    int chunk = static_cast<int>(std::min<std::size_t>(bytes.size(), INT_MAX / 2));
    int rc = SSL_write(m_ssl.get(), bytes.data(), chunk);
    if (rc <= 0) return io_error(rc, "TLS write failed");
    bytes.remove_prefix(static_cast<std::size_t>(rc));
  }
  m_queue_clear = true;
  return ok();
}

result<std::size_t> tls_session::read(char* buf, std::size_t n) {
  if (!m_queue_clear) clear_stale_errors();
  m_queue_clear = false; // the application may run before the next read
  m_transport->last_errno = 0;
  int want = static_cast<int>(std::min<std::size_t>(n, INT_MAX / 2));
  int rc = SSL_read(m_ssl.get(), buf, want);
  if (rc <= 0) return io_error(rc, "TLS read failed");
  return static_cast<std::size_t>(rc);
}

bool tls_session::has_buffered() const noexcept {
  // SSL_has_pending(), not SSL_pending(): with read-ahead on, the records
  // OpenSSL has read from the socket and not yet decrypted are counted only
  // by the former, and a reply among them never makes the socket readable
  // again (issue 34: wait_for() timed out on a reply already received).
  return SSL_has_pending(m_ssl.get()) == 1 ||
         m_transport->pending_pos < m_transport->pending.size();
}

void tls_session::shutdown() noexcept {
  if (m_ssl) SSL_shutdown(m_ssl.get()); // sends close_notify; no wait for the reply
  ERR_clear_error();
}

std::string tls_session::version() const {
  return SSL_get_version(m_ssl.get());
}

std::string tls_session::cipher() const {
  const char* name = SSL_get_cipher_name(m_ssl.get());
  return name != nullptr ? name : "";
}

std::string tls_session::server_name() const {
  const char* name = SSL_get_servername(m_ssl.get(), TLSEXT_NAMETYPE_host_name);
  return name != nullptr ? name : "";
}

} // namespace cdk
