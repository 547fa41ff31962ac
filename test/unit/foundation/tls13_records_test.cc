// tls13_records against OpenSSL as the other end, with no socket: an OpenSSL
// client and server run the handshake over a memory BIO pair; then the
// client's records are ours. OpenSSL's server must read what we seal, and we
// must read what it writes: tickets, KeyUpdate, close_notify. A second
// tls13_records with the secrets swapped plays a server that sends what
// OpenSSL would not (other alerts, padding, split or misplaced messages).
#include "cdk/foundation/tls13_records.h"
#include "test_pki.h"

#include <gtest/gtest.h>
#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <string>
#include <vector>

namespace {

using cdk::tls13_records;
using kind = tls13_records::opened::kind;

struct ctx_free {
  void operator()(SSL_CTX* c) const noexcept { SSL_CTX_free(c); }
};
struct ssl_free {
  void operator()(SSL* s) const noexcept { SSL_free(s); }
};

// Secrets from the key log, as hex text turned into bytes.
struct secrets {
  std::string client, server;
};

void capture(const SSL* ssl, const char* line) {
  auto* s = static_cast<secrets*>(SSL_get_app_data(ssl));
  std::string l(line);
  std::string* into = l.rfind("CLIENT_TRAFFIC_SECRET_0 ", 0) == 0   ? &s->client
                      : l.rfind("SERVER_TRAFFIC_SECRET_0 ", 0) == 0 ? &s->server
                                                                    : nullptr;
  if (into == nullptr) return;
  long len = 0;
  unsigned char* raw = OPENSSL_hexstr2buf(l.substr(l.rfind(' ') + 1).c_str(), &len);
  into->assign(reinterpret_cast<char*>(raw), static_cast<std::size_t>(len));
  OPENSSL_free(raw);
}

// What the client read: application data, how many records were handled
// without data, whether close_notify came, and the first error.
struct drained {
  std::string data;
  int nothing = 0;
  bool closed = false;
  std::string error;
};

class handshaken {
public:
  explicit handshaken(const char* suite = "TLS_AES_128_GCM_SHA256",
                      std::uint64_t key_update_after = tls13_records::default_key_update_after) {
    const auto& pki = test_pki::get();
    m_sctx.reset(SSL_CTX_new(TLS_server_method()));
    m_cctx.reset(SSL_CTX_new(TLS_client_method()));
    SSL_CTX_set_min_proto_version(m_sctx.get(), TLS1_3_VERSION);
    SSL_CTX_set_ciphersuites(m_sctx.get(), suite);
    BIO* cert_bio = BIO_new_mem_buf(pki.server_cert_pem.data(), -1);
    BIO* key_bio = BIO_new_mem_buf(pki.server_key_pem.data(), -1);
    X509* cert = PEM_read_bio_X509(cert_bio, nullptr, nullptr, nullptr);
    EVP_PKEY* pkey = PEM_read_bio_PrivateKey(key_bio, nullptr, nullptr, nullptr);
    EXPECT_EQ(SSL_CTX_use_certificate(m_sctx.get(), cert), 1);
    EXPECT_EQ(SSL_CTX_use_PrivateKey(m_sctx.get(), pkey), 1);
    X509_free(cert);
    EVP_PKEY_free(pkey);
    BIO_free(cert_bio);
    BIO_free(key_bio);
    SSL_CTX_set_keylog_callback(m_cctx.get(), capture);

    m_server.reset(SSL_new(m_sctx.get()));
    m_client.reset(SSL_new(m_cctx.get()));
    SSL_set_app_data(m_client.get(), &m_secrets);
    BIO* client_end = nullptr;
    BIO* server_end = nullptr;
    BIO_new_bio_pair(&client_end, 1 << 20, &server_end, 1 << 20); // room for 100 KB
    SSL_set_bio(m_client.get(), client_end, client_end);
    SSL_set_bio(m_server.get(), server_end, server_end);
    m_wire = client_end; // owned by the client SSL
    SSL_set_connect_state(m_client.get());
    SSL_set_accept_state(m_server.get());
    int c = 0;
    int s = 0;
    for (int i = 0; i < 20 && (c != 1 || s != 1); ++i) {
      c = SSL_do_handshake(m_client.get());
      s = SSL_do_handshake(m_server.get());
    }
    EXPECT_EQ(c, 1);
    EXPECT_EQ(s, 1);
    auto name = SSL_CIPHER_standard_name(SSL_get_current_cipher(m_client.get()));
    auto which = tls13_records::suite_for(name);
    EXPECT_TRUE(which.has_value()) << name;
    auto r = tls13_records::make(*which, m_secrets.client, m_secrets.server, key_update_after);
    EXPECT_TRUE(r) << (r ? "" : r.err().message);
    if (r) m_records = std::move(r).value();
    // The "server" that seals with the server's secret.
    auto f = tls13_records::make(*which, m_secrets.server, m_secrets.client);
    if (f) m_forger = std::move(f).value();
  }

  tls13_records& records() { return *m_records; }
  tls13_records& forger() { return *m_forger; }
  SSL* server() { return m_server.get(); }

  // Bytes towards the server, as if the client had sent them.
  void to_server(const std::string& bytes) {
    ASSERT_EQ(BIO_write(m_wire, bytes.data(), static_cast<int>(bytes.size())),
              static_cast<int>(bytes.size()));
  }
  std::string server_reads() {
    std::string got;
    char buf[4096];
    for (;;) {
      int n = SSL_read(m_server.get(), buf, sizeof buf);
      if (n <= 0) break;
      got.append(buf, static_cast<std::size_t>(n));
    }
    ERR_clear_error();
    return got;
  }
  // Everything the server wrote, as bytes.
  std::string from_server() {
    std::string got;
    char buf[4096];
    for (int n; (n = BIO_read(m_wire, buf, sizeof buf)) > 0;) got.append(buf, n);
    return got;
  }
  // Opens every record of `wire` the way tls_session does, in place.
  drained open_all(std::string wire) {
    drained d;
    std::size_t pos = 0;
    while (pos < wire.size() && d.error.empty() && !d.closed) {
      auto size = m_records->record_size(std::string_view(wire).substr(pos));
      if (!size) {
        d.error = size.err().message;
        break;
      }
      if (size.value() == 0 || size.value() > wire.size() - pos) {
        d.error = "incomplete record";
        break;
      }
      char* rec = wire.data() + pos;
      auto o = m_records->open(std::string_view(rec, size.value()), rec + 5);
      pos += size.value();
      if (!o) {
        d.error = o.err().message;
      } else if (o.value().what == kind::data) {
        d.data.append(rec + 5, o.value().size);
      } else if (o.value().what == kind::nothing) {
        ++d.nothing;
      } else {
        d.closed = true;
      }
    }
    return d;
  }

private:
  std::unique_ptr<SSL_CTX, ctx_free> m_sctx, m_cctx;
  std::unique_ptr<SSL, ssl_free> m_server, m_client;
  BIO* m_wire = nullptr;
  secrets m_secrets;
  std::unique_ptr<tls13_records> m_records, m_forger;
};

std::string pattern(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>(i * 13 % 251);
  return s;
}

TEST(Tls13Records, OnlyAesGcmSuitesAreHandled) {
  EXPECT_TRUE(tls13_records::suite_for("TLS_AES_128_GCM_SHA256"));
  EXPECT_TRUE(tls13_records::suite_for("TLS_AES_256_GCM_SHA384"));
  EXPECT_FALSE(tls13_records::suite_for("TLS_CHACHA20_POLY1305_SHA256"));
  EXPECT_FALSE(tls13_records::suite_for("TLS_AES_128_CCM_SHA256"));
  EXPECT_FALSE(tls13_records::suite_for("ECDHE-ECDSA-AES128-GCM-SHA256"));
}

TEST(Tls13Records, OpensslReadsWhatIsSealedHere) {
  for (const char* suite : {"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384"}) {
    SCOPED_TRACE(suite);
    handshaken h(suite);
    std::string wire;
    ASSERT_TRUE(h.records().seal("ping", wire));
    h.to_server(wire);
    EXPECT_EQ(h.server_reads(), "ping");

    // 100 KB: seven records, none over 2^14 bytes of content.
    const std::string big = pattern(std::size_t{100} * 1024);
    wire.clear();
    ASSERT_TRUE(h.records().seal(big, wire));
    std::size_t records = 0;
    for (std::size_t pos = 0; pos < wire.size(); ++records) {
      auto size = h.records().record_size(std::string_view(wire).substr(pos));
      ASSERT_TRUE(size);
      EXPECT_LE(size.value(), 5 + 16384 + 1 + 16);
      pos += size.value();
    }
    EXPECT_EQ(records, 7u);
    h.to_server(wire);
    EXPECT_EQ(h.server_reads(), big);
    EXPECT_EQ(h.records().write_sequence(), 8u);
  }
}

TEST(Tls13Records, WhatOpensslWritesIsOpenedAndTicketsAreSkipped) {
  handshaken h;
  // OpenSSL's server sent its tickets after the handshake; one more now.
  ASSERT_EQ(SSL_new_session_ticket(h.server()), 1);
  const std::string big = pattern(40000);
  ASSERT_EQ(SSL_write(h.server(), "pong", 4), 4);
  ASSERT_EQ(SSL_write(h.server(), big.data(), static_cast<int>(big.size())),
            static_cast<int>(big.size()));
  drained d = h.open_all(h.from_server());
  EXPECT_EQ(d.error, "");
  EXPECT_EQ(d.data, "pong" + big);
  EXPECT_GE(d.nothing, 3); // OpenSSL's two tickets and ours
  EXPECT_FALSE(d.closed);
}

TEST(Tls13Records, AServerKeyUpdateIsHonouredAndAnswered) {
  handshaken h;
  (void)h.open_all(h.from_server()); // the tickets
  ASSERT_EQ(SSL_key_update(h.server(), SSL_KEY_UPDATE_REQUESTED), 1);
  ASSERT_EQ(SSL_write(h.server(), "after", 5), 5);
  drained d = h.open_all(h.from_server());
  EXPECT_EQ(d.error, "");
  EXPECT_EQ(d.data, "after");
  EXPECT_EQ(h.records().read_sequence(), 1u); // the new key's first record

  // Our KeyUpdate goes out first; OpenSSL reads the data under our new key.
  std::string wire;
  ASSERT_TRUE(h.records().seal("reply", wire));
  EXPECT_EQ(h.records().write_sequence(), 1u);
  h.to_server(wire);
  EXPECT_EQ(h.server_reads(), "reply");

  // An update the server does not ask us to answer changes only its key.
  ASSERT_EQ(SSL_key_update(h.server(), SSL_KEY_UPDATE_NOT_REQUESTED), 1);
  ASSERT_EQ(SSL_write(h.server(), "again", 5), 5);
  EXPECT_EQ(h.open_all(h.from_server()).data, "again");
  wire.clear();
  ASSERT_TRUE(h.records().seal("still", wire));
  EXPECT_EQ(h.records().write_sequence(), 2u); // no KeyUpdate of ours
  h.to_server(wire);
  EXPECT_EQ(h.server_reads(), "still");
}

TEST(Tls13Records, OurKeysChangeAfterTheRecordLimit) {
  handshaken h("TLS_AES_128_GCM_SHA256", 3);
  std::string expect;
  for (int i = 0; i < 10; ++i) {
    std::string wire;
    const std::string msg = "message " + std::to_string(i);
    ASSERT_TRUE(h.records().seal(msg, wire));
    EXPECT_LE(h.records().write_sequence(), 3u);
    h.to_server(wire);
    expect += msg;
  }
  EXPECT_EQ(h.server_reads(), expect);
}

TEST(Tls13Records, CloseNotifyEndsTheStreamBothWays) {
  handshaken h;
  ASSERT_EQ(SSL_write(h.server(), "last", 4), 4);
  SSL_shutdown(h.server());
  drained d = h.open_all(h.from_server());
  EXPECT_EQ(d.data, "last");
  EXPECT_TRUE(d.closed);
  EXPECT_EQ(d.error, "");

  handshaken h2;
  std::string wire;
  ASSERT_TRUE(h2.records().seal_close_notify(wire));
  h2.to_server(wire);
  char buf[8];
  EXPECT_EQ(SSL_read(h2.server(), buf, sizeof buf), 0);
  EXPECT_EQ(SSL_get_error(h2.server(), 0), SSL_ERROR_ZERO_RETURN);
}

TEST(Tls13Records, EveryChangedByteFailsTheRecord) {
  handshaken h;
  (void)h.open_all(h.from_server());
  ASSERT_EQ(SSL_write(h.server(), "payload", 7), 7);
  const std::string good = h.from_server();
  for (std::size_t i = 0; i < good.size(); ++i) {
    SCOPED_TRACE(i);
    handshaken fresh; // a record that failed leaves the stream unusable
    (void)fresh.open_all(fresh.from_server());
    ASSERT_EQ(SSL_write(fresh.server(), "payload", 7), 7);
    std::string bad = fresh.from_server();
    bad[i] = static_cast<char>(bad[i] ^ 0x01);
    drained d = fresh.open_all(bad);
    EXPECT_NE(d.error, "");
    EXPECT_EQ(d.data, "");
    // Nothing left in the error queue for the thread's next OpenSSL call.
    EXPECT_EQ(ERR_peek_error(), 0u);
  }
}

TEST(Tls13Records, BadHeadersAreRefusedBeforeDecryption) {
  handshaken h;
  auto size = [&](const std::string& header) { return h.records().record_size(header); };
  EXPECT_EQ(size(std::string("\x17\x03\x03\x00", 4)).value(), 0u); // not all there yet
  auto expect_error = [&](const std::string& header, const std::string& text) {
    auto r = size(header);
    ASSERT_FALSE(r) << text;
    EXPECT_EQ(r.err().code, cdk::client_errc::ssl_connection);
    EXPECT_NE(r.err().message.find(text), std::string::npos) << r.err().message;
  };
  expect_error(std::string("\x15\x03\x03\x00\x02", 5), "record type 21");
  expect_error(std::string("\x14\x03\x03\x00\x01", 5), "record type 20");
  expect_error(std::string("\x16\x03\x03\x00\x20", 5), "record type 22");
  expect_error(std::string("\x17\x03\x03\x41\x01", 5), "16641 bytes exceeds the limit of 16640");
  expect_error(std::string("\x17\x03\x03\x00\x10", 5), "too short");
  EXPECT_EQ(size(std::string("\x17\x03\x03\x41\x00", 5)).value(), 5u + 16640);
}

// Records a server could send that OpenSSL's does not here: sealed by the
// forger, which holds the server's secret.
TEST(Tls13Records, AlertsPaddingAndOddMessagesFromTheServer) {
  auto from_forger = [](handshaken& h, std::uint8_t type, const std::string& bytes,
                        std::size_t padding = 0) {
    std::string wire;
    EXPECT_TRUE(h.forger().seal(type, bytes, wire, padding));
    return h.open_all(wire);
  };
  {
    handshaken h;
    drained d = from_forger(h, tls13_records::alert, std::string("\x02\x28", 2));
    EXPECT_NE(d.error.find("TLS alert from the server: handshake failure"), std::string::npos)
        << d.error;
  }
  {
    handshaken h; // user_canceled is ignored; close_notify follows it
    drained d = from_forger(h, tls13_records::alert, std::string("\x01\x5a", 2));
    EXPECT_EQ(d.error, "");
    EXPECT_EQ(d.nothing, 1);
  }
  {
    handshaken h; // padding after the content type is stripped
    drained d = from_forger(h, tls13_records::application_data, "padded", 300);
    EXPECT_EQ(d.error, "");
    EXPECT_EQ(d.data, "padded");
  }
  {
    handshaken h; // an empty application data record is allowed
    drained d = from_forger(h, tls13_records::application_data, "");
    EXPECT_EQ(d.error, "");
    EXPECT_EQ(d.nothing, 1);
  }
  {
    handshaken h;
    drained d = from_forger(h, 26, "x");
    EXPECT_NE(d.error.find("content type 26"), std::string::npos) << d.error;
  }
  {
    handshaken h; // a CertificateRequest: post-handshake auth was never offered
    drained d = from_forger(h, tls13_records::handshake, std::string("\x0d\x00\x00\x01\x00", 5));
    EXPECT_NE(d.error.find("handshake message type 13"), std::string::npos) << d.error;
  }
  {
    handshaken h; // a ticket split over two records, then data
    const std::string ticket = std::string("\x04\x00\x00\x0a", 4) + "0123456789";
    std::string wire;
    ASSERT_TRUE(h.forger().seal(tls13_records::handshake, ticket.substr(0, 6), wire));
    ASSERT_TRUE(h.forger().seal(tls13_records::handshake, ticket.substr(6), wire));
    ASSERT_TRUE(h.forger().seal("data", wire));
    drained d = h.open_all(wire);
    EXPECT_EQ(d.error, "");
    EXPECT_EQ(d.data, "data");
    EXPECT_EQ(d.nothing, 2);
  }
  {
    handshaken h; // data in the middle of a split handshake message
    std::string wire;
    ASSERT_TRUE(
        h.forger().seal(tls13_records::handshake, std::string("\x04\x00\x00\x0a", 4), wire));
    ASSERT_TRUE(h.forger().seal("data", wire));
    drained d = h.open_all(wire);
    EXPECT_NE(d.error.find("interrupted"), std::string::npos) << d.error;
  }
  {
    handshaken h; // a KeyUpdate must end its record
    drained d = from_forger(h, tls13_records::handshake,
                            std::string("\x18\x00\x00\x01\x00\x04\x00\x00\x00", 9));
    EXPECT_NE(d.error.find("KeyUpdate not at the end"), std::string::npos) << d.error;
  }
  {
    handshaken h;
    drained d = from_forger(h, tls13_records::handshake, std::string("\x18\x00\x00\x01\x02", 5));
    EXPECT_NE(d.error.find("malformed TLS KeyUpdate"), std::string::npos) << d.error;
  }
  {
    handshaken h; // a message too big to buffer is refused from its header
    // 131,337 bytes is the largest ticket RFC 8446 allows; one more is refused.
    drained d = from_forger(h, tls13_records::handshake, std::string("\x04\x02\x01\x0a", 4));
    EXPECT_NE(d.error.find("131338 bytes"), std::string::npos) << d.error;
    handshaken h2; // the largest is awaited
    drained waits = from_forger(h2, tls13_records::handshake, std::string("\x04\x02\x01\x09", 4));
    EXPECT_EQ(waits.error, "");
    EXPECT_EQ(waits.nothing, 1);
  }
}

TEST(Tls13Records, AllZeroContentHasNoTypeAndIsRefused) {
  handshaken h;
  // Content type 0 followed by padding: nothing but zeros inside.
  std::string wire;
  ASSERT_TRUE(h.forger().seal(0, "", wire, 10));
  drained d = h.open_all(wire);
  EXPECT_NE(d.error.find("without a content type"), std::string::npos) << d.error;
}

} // namespace
