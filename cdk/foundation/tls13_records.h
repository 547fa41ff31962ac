// Private to cdk/foundation: TLS 1.3 record protection (RFC 8446 section 5)
// for a connection whose handshake OpenSSL has finished. This is the part of
// TLS that kernel TLS takes over from OpenSSL; here it runs in user space.
//
// Why: a single add() is one small request and one small reply. Around the
// AEAD calls, which take about 6,400 instructions for the two records,
// OpenSSL 3.0's record layer spent another 5,900 (BIO controls, buffer
// bookkeeping, allocations, parameter lookups by name): a single add went
// from 19.7k to 14.0k client instructions without it (issue 13).
//
// What stays OpenSSL's: the handshake and certificate checks (all of it runs
// in SSL_connect), AES-GCM (EVP) and HKDF (EVP_KDF). What this does:
// - the record header, the nonce (the static IV XOR the sequence number), the
//   inner content type and its zero padding;
// - the messages a server may send after the handshake: NewSessionTicket is
//   ignored (the connector never resumes sessions), KeyUpdate is honoured
//   (the read key changes; when the server asks, our KeyUpdate goes out
//   before our next record and the write key changes);
// - alerts: close_notify ends the stream, user_canceled is ignored, any other
//   alert is an error that names it;
// - our own KeyUpdate after `key_update_after` records, well inside
//   AES-GCM's limit of 2^24.5 records per key (RFC 8446 section 5.5).
//
// Only TLS_AES_128_GCM_SHA256 and TLS_AES_256_GCM_SHA384 are handled;
// tls_session keeps OpenSSL's record layer for everything else.
//
// Sans-I/O: seal() appends records to a buffer, open() decrypts one record
// that the caller has read whole (record_size() says how long it is).
#pragma once

#include "cdk/foundation/error.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <openssl/types.h>
#include <optional>
#include <string>
#include <string_view>

namespace cdk {

class tls13_records {
public:
  enum class suite { aes_128_gcm_sha256, aes_256_gcm_sha384 };
  // The suite of an IANA cipher suite name ("TLS_AES_128_GCM_SHA256"), if
  // this class handles it.
  static std::optional<suite> suite_for(std::string_view standard_name);

  // RFC 8446 content types.
  static constexpr std::uint8_t alert = 21;
  static constexpr std::uint8_t handshake = 22;
  static constexpr std::uint8_t application_data = 23;

  static constexpr std::size_t header_size = 5;
  static constexpr std::size_t tag_size = 16;
  static constexpr std::size_t max_plain = 16384;                          // 2^14
  static constexpr std::size_t max_record = header_size + max_plain + 256; // 2^14 + 256 body
  static constexpr std::uint64_t default_key_update_after = std::uint64_t{1} << 24;

  // write_secret/read_secret: the application traffic secrets (raw bytes, as
  // long as the suite's hash); a client writes with the client's and reads
  // with the server's. Fails only when OpenSSL cannot set up the cipher.
  static result<std::unique_ptr<tls13_records>>
  make(suite s, std::string_view write_secret, std::string_view read_secret,
       std::uint64_t key_update_after = default_key_update_after);
  ~tls13_records();
  tls13_records(const tls13_records&) = delete;
  tls13_records& operator=(const tls13_records&) = delete;

  // Appends `plain` to `out` as application_data records of at most
  // max_plain bytes each (one empty record for empty input), preceded by a KeyUpdate
  // when one is owed or due.
  status seal(std::string_view plain, std::string& out) {
    return seal(application_data, plain, out);
  }
  // The same for any content type; `padding` zero bytes follow the content
  // type inside the record (RFC 8446 section 5.4; tests use it).
  status seal(std::uint8_t content_type, std::string_view bytes, std::string& out,
              std::size_t padding = 0);
  // Appends a close_notify alert.
  status seal_close_notify(std::string& out);

  // The length of the record that starts `in`, header included: 0 while
  // fewer than header_size bytes are there. An error when the header is not
  // that of a protected TLS 1.3 record or its length breaks the limits.
  result<std::size_t> record_size(std::string_view in) const;

  struct opened {
    enum class kind {
      data,    // `size` bytes of application data at dest
      nothing, // a message handled here, or an empty record: read on
      closed,  // close_notify
    } what;
    std::size_t size;
  };
  // Authenticates and decrypts the whole record `rec` (record_size() bytes)
  // into `dest`, which has room for rec.size() - header_size - tag_size
  // bytes and may be rec.data() + header_size (in place). Nothing at dest is
  // data unless the result says so. Any error leaves the stream unusable.
  result<opened> open(std::string_view rec, char* dest);

  // Records sealed and opened with the current keys (tests).
  std::uint64_t write_sequence() const noexcept { return m_write.seq; }
  std::uint64_t read_sequence() const noexcept { return m_read.seq; }

private:
  // The keys and cipher state of one direction.
  struct direction {
    EVP_CIPHER_CTX* ctx = nullptr;          // owned; OpenSSL wipes the key when it frees it
    std::array<unsigned char, 48> secret{}; // the traffic secret, for KeyUpdate
    std::array<unsigned char, 12> iv{};
    std::uint64_t seq = 0;
    direction() = default;
    direction(const direction&) = delete;
    direction& operator=(const direction&) = delete;
    ~direction();
  };
  struct key {};

public:
  tls13_records(key, suite s, std::uint64_t key_update_after);

private:
  status set_keys(direction& d, const unsigned char* secret, bool encrypt);
  status next_keys(direction& d, bool encrypt); // KeyUpdate: the next secret
  status seal_one(std::uint8_t type, std::string_view bytes, std::size_t padding, std::string& out);
  status send_key_update(std::string& out);
  status on_handshake_bytes(std::string_view bytes);

  suite m_suite;
  std::uint64_t m_key_update_after;
  direction m_write, m_read;
  bool m_update_owed = false; // the peer asked for our KeyUpdate
  std::string m_handshake;    // a post-handshake message split over records
};

} // namespace cdk
