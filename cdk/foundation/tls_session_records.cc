// The in-house record path of a client tls_session: after a TLS 1.3
// handshake with an AES-GCM suite, tls13_records protects the records and
// this file moves them to and from the socket itself (the reasons are in
// tls13_records.h). OpenSSL hands over the application traffic secrets
// through its key log callback. The handover happens only when OpenSSL holds
// no bytes it has read and not processed, so both record sequences start at
// zero; otherwise OpenSSL's record layer stays (tls_session.cc).
#include "cdk/foundation/socket_stream.h"
#include "cdk/foundation/tls_session.h"

#include <algorithm>
#include <cstring>
#include <openssl/crypto.h>
#include <openssl/err.h>

namespace cdk {

namespace {

using transport = tls_session::transport;

// The key log line "<LABEL> <client random> <secret>", all hex: keeps the
// two application traffic secrets and ignores every other label.
void keylog_line(const SSL* ssl, const char* line) {
  auto* t = static_cast<transport*>(SSL_get_app_data(ssl));
  if (t == nullptr) return;
  std::string_view l(line);
  std::string* into = nullptr;
  if (l.rfind("CLIENT_TRAFFIC_SECRET_0 ", 0) == 0) into = &t->client_secret;
  if (l.rfind("SERVER_TRAFFIC_SECRET_0 ", 0) == 0) into = &t->server_secret;
  std::size_t at = l.rfind(' ');
  if (into == nullptr || at == std::string_view::npos) return;
  long len = 0;
  unsigned char* raw = OPENSSL_hexstr2buf(line + at + 1, &len);
  if (raw == nullptr) { // not what OpenSSL writes: no handover
    ERR_clear_error();
    return;
  }
  into->assign(reinterpret_cast<const char*>(raw), static_cast<std::size_t>(len));
  OPENSSL_clear_free(raw, static_cast<std::size_t>(len));
}

error read_failed(error e) {
  e.message.insert(0, "TLS read failed: ");
  return e;
}

} // namespace

void keep_traffic_secrets(SSL_CTX* ctx) {
  SSL_CTX_set_keylog_callback(ctx, keylog_line);
}

void tls_session::take_over_records() {
  SSL* ssl = m_ssl.get();
  transport& t = *m_transport;
  const SSL_CIPHER* cipher = SSL_get_current_cipher(ssl);
  auto suite =
      cipher != nullptr ? tls13_records::suite_for(SSL_CIPHER_standard_name(cipher)) : std::nullopt;
  if (SSL_version(ssl) == TLS1_3_VERSION && suite && SSL_has_pending(ssl) == 0) {
    auto records = tls13_records::make(*suite, t.client_secret, t.server_secret);
    if (records) {
      m_records = std::move(records).value();
      // Bytes read before the upgrade and not used by the handshake are
      // the start of the record stream.
      m_in.resize(2 * tls13_records::max_record);
      std::string_view rest(t.pending);
      rest.remove_prefix(std::min(t.pending_pos, rest.size()));
      if (rest.size() > m_in.size()) m_in.resize(rest.size());
      std::copy(rest.begin(), rest.end(), m_in.begin());
      m_in_end = rest.size();
      t.pending_pos = t.pending.size();
      SSL_set_quiet_shutdown(ssl, 1); // OpenSSL's sequence numbers are stale now
    }
  }
  t.forget_secrets();
  SSL_set_app_data(ssl, nullptr);
  ERR_clear_error(); // a failed handover falls back to OpenSSL, with a clean queue
}

status tls_session::records_write(std::string_view bytes) {
  // Sealed 16 records at a time, so a large write needs no second copy of
  // itself in memory.
  constexpr std::size_t batch = 16 * tls13_records::max_plain;
  while (!bytes.empty()) {
    std::string_view part = bytes.substr(0, batch);
    m_out.clear();
    if (auto st = m_records->seal(part, m_out); !st) return st;
    if (auto st = send_all(m_transport->fd, m_out, m_peer); !st) return st;
    bytes.remove_prefix(part.size());
  }
  return ok();
}

result<std::size_t> tls_session::records_read(char* buf, std::size_t n) {
  for (;;) {
    if (m_plain_pos < m_plain_end) {
      std::size_t take = std::min(n, m_plain_end - m_plain_pos);
      std::memcpy(buf, m_in.data() + m_plain_pos, take);
      m_plain_pos += take;
      return take;
    }
    std::string_view avail(m_in.data() + m_in_pos, m_in_end - m_in_pos);
    auto size = m_records->record_size(avail);
    if (!size) return read_failed(std::move(size).err());
    const std::size_t need = size.value();
    if (need == 0 || avail.size() < need) {
      if (m_in_pos > 0) { // room for a whole record at the front
        std::memmove(m_in.data(), m_in.data() + m_in_pos, avail.size());
        m_in_end = avail.size();
        m_in_pos = 0;
      }
      auto got = recv_some(m_transport->fd, m_in.data() + m_in_end, m_in.size() - m_in_end, m_peer);
      if (!got) return std::move(got).err();
      m_in_end += got.value();
      continue;
    }
    // A record whose content fits is opened straight into the caller's
    // buffer; any other is opened in place and served from there.
    char* rec = m_in.data() + m_in_pos;
    const std::size_t body = need - tls13_records::header_size - tls13_records::tag_size;
    char* dest = n >= body ? buf : rec + tls13_records::header_size;
    auto opened = m_records->open(std::string_view(rec, need), dest);
    m_in_pos += need;
    if (!opened) return read_failed(std::move(opened).err());
    const auto& o = opened.value();
    if (o.what == tls13_records::opened::kind::closed) {
      return lost_connection_error(m_peer, "connection closed by peer");
    }
    if (o.what == tls13_records::opened::kind::data) {
      if (dest == buf) return o.size;
      m_plain_pos = static_cast<std::size_t>(dest - m_in.data());
      m_plain_end = m_plain_pos + o.size;
    }
  }
}

} // namespace cdk
