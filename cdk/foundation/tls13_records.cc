#include "cdk/foundation/tls13_records.h"

#include <algorithm>
#include <cstring>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/ssl.h>

namespace cdk {

namespace {

using suite = tls13_records::suite;

constexpr std::size_t max_body = tls13_records::max_record - tls13_records::header_size;
// Post-handshake messages are tickets and KeyUpdate (one byte). A ticket is
// a few hundred bytes in practice; its largest form under RFC 8446 section
// 4.6.1 (lifetime, age_add, nonce<0..255>, ticket<1..2^16-1>,
// extensions<0..2^16-2>) bounds what is buffered.
constexpr std::size_t max_handshake_message = 4 + 4 + 1 + 255 + 2 + 65535 + 2 + 65534;
constexpr std::uint8_t new_session_ticket = 4;
constexpr std::uint8_t key_update = 24;
constexpr std::uint8_t close_notify = 0;
constexpr std::uint8_t user_canceled = 90;

struct suite_info {
  const char* cipher;
  const char* digest;
  std::size_t key_len;
  std::size_t hash_len;
};

suite_info info(suite s) {
  if (s == suite::aes_128_gcm_sha256) return {"AES-128-GCM", "SHA256", 16, 32};
  return {"AES-256-GCM", "SHA384", 32, 48};
}

// Also empties the thread's OpenSSL error queue, where a failed EVP call
// may have left entries that later OpenSSL calls on this thread would
// mistake for their own.
error tls_error(std::string why) {
  ERR_clear_error();
  return error::connection(client_errc::ssl_connection, std::move(why));
}

struct kdf_ctx_deleter {
  void operator()(EVP_KDF_CTX* c) const noexcept { EVP_KDF_CTX_free(c); }
};
struct cipher_deleter {
  void operator()(EVP_CIPHER* c) const noexcept { EVP_CIPHER_free(c); }
};

// HKDF-Expand-Label(secret, label, "", len) of RFC 8446 section 7.1.
bool expand_label(const suite_info& si, const unsigned char* secret, std::string_view label,
                  unsigned char* out, std::size_t len) {
  static constexpr std::string_view prefix = "tls13 ";
  std::array<unsigned char, 2 + 1 + 255 + 1> hkdf_label{};
  std::size_t n = 0;
  hkdf_label[n++] = static_cast<unsigned char>(len >> 8);
  hkdf_label[n++] = static_cast<unsigned char>(len);
  hkdf_label[n++] = static_cast<unsigned char>(prefix.size() + label.size());
  std::memcpy(&hkdf_label[n], prefix.data(), prefix.size());
  n += prefix.size();
  std::memcpy(&hkdf_label[n], label.data(), label.size());
  n += label.size();
  hkdf_label[n++] = 0; // no context

  EVP_KDF* kdf = EVP_KDF_fetch(nullptr, "HKDF", nullptr);
  if (kdf == nullptr) return false;
  std::unique_ptr<EVP_KDF_CTX, kdf_ctx_deleter> ctx(EVP_KDF_CTX_new(kdf));
  EVP_KDF_free(kdf); // the context holds its own reference
  if (!ctx) return false;
  int mode = EVP_KDF_HKDF_MODE_EXPAND_ONLY;
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode),
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, const_cast<char*>(si.digest), 0),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<unsigned char*>(secret),
                                        si.hash_len),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, hkdf_label.data(), n),
      OSSL_PARAM_construct_end()};
  return EVP_KDF_derive(ctx.get(), out, len, params) == 1;
}

// The per-record nonce: the static IV XOR the 64-bit sequence number,
// right-aligned (RFC 8446 section 5.3).
std::array<unsigned char, 12> nonce(const std::array<unsigned char, 12>& iv, std::uint64_t seq) {
  std::array<unsigned char, 12> n = iv;
  for (int i = 0; i < 8; ++i) n[11 - i] ^= static_cast<unsigned char>(seq >> (8 * i));
  return n;
}

std::size_t be16(const unsigned char* p) {
  return (std::size_t{p[0]} << 8) | p[1];
}

} // namespace

std::optional<suite> tls13_records::suite_for(std::string_view standard_name) {
  if (standard_name == "TLS_AES_128_GCM_SHA256") return suite::aes_128_gcm_sha256;
  if (standard_name == "TLS_AES_256_GCM_SHA384") return suite::aes_256_gcm_sha384;
  return std::nullopt;
}

tls13_records::direction::~direction() {
  EVP_CIPHER_CTX_free(ctx);
  OPENSSL_cleanse(secret.data(), secret.size());
  OPENSSL_cleanse(iv.data(), iv.size());
}

tls13_records::tls13_records(key /*unused*/, suite s, std::uint64_t key_update_after)
    : m_suite(s), m_key_update_after(key_update_after) {}

tls13_records::~tls13_records() = default;

result<std::unique_ptr<tls13_records>> tls13_records::make(suite s, std::string_view write_secret,
                                                           std::string_view read_secret,
                                                           std::uint64_t key_update_after) {
  const suite_info si = info(s);
  if (write_secret.size() != si.hash_len || read_secret.size() != si.hash_len) {
    return tls_error("TLS traffic secrets of the wrong length");
  }
  auto r = std::make_unique<tls13_records>(key{}, s, std::max<std::uint64_t>(key_update_after, 1));
  auto bytes = [](std::string_view v) { return reinterpret_cast<const unsigned char*>(v.data()); };
  if (auto st = r->set_keys(r->m_write, bytes(write_secret), true); !st) return std::move(st).err();
  if (auto st = r->set_keys(r->m_read, bytes(read_secret), false); !st) return std::move(st).err();
  return r;
}

status tls13_records::set_keys(direction& d, const unsigned char* secret, bool encrypt) {
  const suite_info si = info(m_suite);
  if (secret != d.secret.data()) std::memcpy(d.secret.data(), secret, si.hash_len);
  std::array<unsigned char, 32> k{};
  bool done = expand_label(si, d.secret.data(), "key", k.data(), si.key_len) &&
              expand_label(si, d.secret.data(), "iv", d.iv.data(), d.iv.size());
  if (done && d.ctx == nullptr) d.ctx = EVP_CIPHER_CTX_new();
  if (done && d.ctx != nullptr) {
    std::unique_ptr<EVP_CIPHER, cipher_deleter> cipher(
        EVP_CIPHER_fetch(nullptr, si.cipher, nullptr));
    done = cipher &&
           EVP_CipherInit_ex(d.ctx, cipher.get(), nullptr, k.data(), nullptr, encrypt ? 1 : 0) == 1;
  } else {
    done = false;
  }
  OPENSSL_cleanse(k.data(), k.size());
  d.seq = 0;
  if (!done) return tls_error("TLS key setup failed");
  return ok();
}

status tls13_records::next_keys(direction& d, bool encrypt) {
  const suite_info si = info(m_suite);
  std::array<unsigned char, 48> next{};
  bool done = expand_label(si, d.secret.data(), "traffic upd", next.data(), si.hash_len);
  status st = done ? set_keys(d, next.data(), encrypt) : tls_error("TLS key update failed");
  OPENSSL_cleanse(next.data(), next.size());
  return st;
}

status tls13_records::seal(std::uint8_t content_type, std::string_view bytes, std::string& out,
                           std::size_t padding) {
  if (padding >= max_plain) return tls_error("TLS record padding too large");
  const std::size_t room = max_plain - padding;
  do {
    if (m_update_owed || m_write.seq >= m_key_update_after) {
      if (auto st = send_key_update(out); !st) return st;
    }
    const std::size_t n = std::min(bytes.size(), room);
    if (auto st = seal_one(content_type, bytes.substr(0, n), padding, out); !st) return st;
    bytes.remove_prefix(n);
  } while (!bytes.empty());
  return ok();
}

status tls13_records::seal_close_notify(std::string& out) {
  const char body[2] = {1, static_cast<char>(close_notify)}; // warning, close_notify
  return seal(alert, std::string_view(body, sizeof body), out);
}

status tls13_records::send_key_update(std::string& out) {
  // update_not_requested: the peer's keys are its own business.
  const char msg[5] = {static_cast<char>(key_update), 0, 0, 1, 0};
  if (auto st = seal_one(handshake, std::string_view(msg, sizeof msg), 0, out); !st) return st;
  m_update_owed = false;
  return next_keys(m_write, true);
}

status tls13_records::seal_one(std::uint8_t type, std::string_view bytes, std::size_t padding,
                               std::string& out) {
  const std::size_t inner = bytes.size() + 1 + padding; // content, type, zeros
  const std::size_t body = inner + tag_size;
  const std::size_t at = out.size();
  out.resize(at + header_size + body);
  auto* h = reinterpret_cast<unsigned char*>(&out[at]);
  h[0] = application_data; // the outer type of every protected record
  h[1] = 3;
  h[2] = 3;
  h[3] = static_cast<unsigned char>(body >> 8);
  h[4] = static_cast<unsigned char>(body);
  unsigned char* p = h + header_size;
  if (!bytes.empty()) std::memcpy(p, bytes.data(), bytes.size());
  p[bytes.size()] = type;
  std::memset(p + bytes.size() + 1, 0, padding);

  const auto n = nonce(m_write.iv, m_write.seq);
  int len = 0;
  int fin = 0;
  EVP_CIPHER_CTX* c = m_write.ctx;
  bool done = EVP_CipherInit_ex(c, nullptr, nullptr, nullptr, n.data(), -1) == 1 &&
              EVP_CipherUpdate(c, nullptr, &len, h, header_size) == 1 &&
              EVP_CipherUpdate(c, p, &len, p, static_cast<int>(inner)) == 1 &&
              EVP_CipherFinal_ex(c, p + len, &fin) == 1 &&
              EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, tag_size, p + inner) == 1;
  if (!done) {
    out.resize(at);
    return tls_error("TLS record encryption failed");
  }
  ++m_write.seq;
  return ok();
}

result<std::size_t> tls13_records::record_size(std::string_view in) const {
  if (in.size() < header_size) return std::size_t{0};
  const auto* h = reinterpret_cast<const unsigned char*>(in.data());
  if (h[0] != application_data) {
    return tls_error("unexpected TLS record type " + std::to_string(h[0]) +
                     " after the handshake (unexpected_message)");
  }
  const std::size_t body = be16(h + 3);
  if (body > max_body) {
    return tls_error("TLS record of " + std::to_string(body) + " bytes exceeds the limit of " +
                     std::to_string(max_body) + " (record_overflow)");
  }
  if (body < tag_size + 1) {
    return tls_error("TLS record of " + std::to_string(body) + " bytes is too short");
  }
  return header_size + body;
}

result<tls13_records::opened> tls13_records::open(std::string_view rec, char* dest) {
  const auto* h = reinterpret_cast<const unsigned char*>(rec.data());
  const std::size_t body = rec.size() - header_size - tag_size;
  auto* out = reinterpret_cast<unsigned char*>(dest);
  const auto n = nonce(m_read.iv, m_read.seq);
  int len = 0;
  int fin = 0;
  EVP_CIPHER_CTX* c = m_read.ctx;
  // OpenSSL copies the tag; it does not write through the pointer.
  void* tag = const_cast<unsigned char*>(h + header_size + body);
  bool authentic = EVP_CipherInit_ex(c, nullptr, nullptr, nullptr, n.data(), -1) == 1 &&
                   EVP_CipherUpdate(c, nullptr, &len, h, header_size) == 1 &&
                   EVP_CipherUpdate(c, out, &len, h + header_size, static_cast<int>(body)) == 1 &&
                   EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, tag_size, tag) == 1 &&
                   EVP_CipherFinal_ex(c, out + len, &fin) == 1;
  if (!authentic) return tls_error("TLS record failed authentication (bad_record_mac)");
  ++m_read.seq;

  // TLSInnerPlaintext: content, then the content type, then zeros.
  std::size_t size = body;
  while (size > 0 && out[size - 1] == 0) --size;
  if (size == 0) return tls_error("TLS record without a content type (unexpected_message)");
  const std::uint8_t type = out[--size];
  if (size > max_plain) return tls_error("TLS record content over 2^14 bytes (record_overflow)");
  if (!m_handshake.empty() && type != handshake) {
    return tls_error("TLS handshake message interrupted by a record of type " +
                     std::to_string(type) + " (unexpected_message)");
  }
  switch (type) {
  case application_data:
    return opened{size > 0 ? opened::kind::data : opened::kind::nothing, size};
  case handshake:
    if (size == 0) return tls_error("empty TLS handshake record (unexpected_message)");
    if (auto st = on_handshake_bytes(std::string_view(dest, size)); !st) return std::move(st).err();
    return opened{opened::kind::nothing, 0};
  case alert:
    if (size != 2) return tls_error("TLS alert of " + std::to_string(size) + " bytes");
    if (out[1] == close_notify) return opened{opened::kind::closed, 0};
    if (out[1] == user_canceled) return opened{opened::kind::nothing, 0}; // close_notify follows
    return tls_error(std::string("TLS alert from the server: ") +
                     SSL_alert_desc_string_long(out[1]));
  default:
    return tls_error("unexpected TLS content type " + std::to_string(type) +
                     " (unexpected_message)");
  }
}

status tls13_records::on_handshake_bytes(std::string_view bytes) {
  m_handshake.append(bytes.data(), bytes.size());
  std::size_t pos = 0;
  while (m_handshake.size() - pos >= 4) {
    const auto* m = reinterpret_cast<const unsigned char*>(m_handshake.data() + pos);
    const std::size_t len = (std::size_t{m[1]} << 16) | be16(m + 2);
    if (len > max_handshake_message) {
      return tls_error("TLS handshake message of " + std::to_string(len) +
                       " bytes after the handshake");
    }
    if (m_handshake.size() - pos - 4 < len) break; // the rest is in the next record
    if (m[0] == key_update) {
      if (len != 1 || m[4] > 1) return tls_error("malformed TLS KeyUpdate (decode_error)");
      // Keys change at a record boundary: nothing may follow in this record.
      if (pos + 5 != m_handshake.size()) {
        return tls_error("TLS KeyUpdate not at the end of its record (unexpected_message)");
      }
      if (m[4] == 1) m_update_owed = true;
      m_handshake.clear();
      return next_keys(m_read, false);
    }
    if (m[0] != new_session_ticket) { // tickets are dropped: sessions are never resumed
      return tls_error("unexpected TLS handshake message type " + std::to_string(m[0]) +
                       " after the handshake (unexpected_message)");
    }
    pos += 4 + len;
  }
  m_handshake.erase(0, pos);
  return ok();
}

} // namespace cdk
