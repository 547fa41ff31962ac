#include "test/xserver/auth_math.h"

#include <cstring>
#include <openssl/evp.h>
#include <openssl/rand.h>

namespace xserver::auth {

namespace {

std::string hex(const unsigned char* p, std::size_t n, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    out += digits[p[i] >> 4];
    out += digits[p[i] & 15];
  }
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool unhex(std::string_view text, unsigned char* out, std::size_t n) {
  if (text.size() != 2 * n) return false;
  for (std::size_t i = 0; i < n; ++i) {
    int hi = hex_value(text[2 * i]), lo = hex_value(text[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = static_cast<unsigned char>(hi << 4 | lo);
  }
  return true;
}

void digest(const EVP_MD* md, std::string_view a, std::string_view b, unsigned char* out) {
  EVP_MD_CTX* c = EVP_MD_CTX_new();
  EVP_DigestInit_ex(c, md, nullptr);
  EVP_DigestUpdate(c, a.data(), a.size());
  EVP_DigestUpdate(c, b.data(), b.size());
  EVP_DigestFinal_ex(c, out, nullptr);
  EVP_MD_CTX_free(c);
}

void sha1(std::string_view a, std::string_view b, unsigned char* out) {
  digest(EVP_sha1(), a, b, out);
}

void sha256(std::string_view a, std::string_view b, unsigned char* out) {
  digest(EVP_sha256(), a, b, out);
}

std::string_view view(const unsigned char* p, std::size_t n) {
  return {reinterpret_cast<const char*>(p), n};
}

} // namespace

std::string make_nonce() {
  unsigned char buf[20];
  RAND_bytes(buf, sizeof buf);
  std::string out;
  // Printable 7-bit bytes other than NUL and '$', like MySQL's user salt.
  for (unsigned char b : buf) {
    char c = static_cast<char>((b & 0x7f) % 94 + 33);
    out += c == '$' ? '#' : c;
  }
  return out;
}

std::string native_password_hash(std::string_view password) {
  if (password.empty()) return {};
  unsigned char s1[20], s2[20];
  sha1(password, {}, s1);
  sha1(view(s1, 20), {}, s2);
  return "*" + hex(s2, 20, true);
}

bool verify_mysql41(std::string_view stored, std::string_view nonce, std::string_view response) {
  if (response.empty() || stored.empty()) return response.empty() && stored.empty();
  unsigned char stage2[20], scramble[20], mask[20], candidate[20], check[20];
  if (stored.size() != 41 || stored[0] != '*' || !unhex(stored.substr(1), stage2, 20)) return false;
  if (response.size() != 41 || response[0] != '*' || !unhex(response.substr(1), scramble, 20))
    return false;
  // scramble = SHA1(pw) XOR SHA1(nonce + stage2): unmask, then hash again.
  sha1(nonce, view(stage2, 20), mask);
  for (int i = 0; i < 20; ++i) candidate[i] = scramble[i] ^ mask[i];
  sha1(view(candidate, 20), {}, check);
  return std::memcmp(check, stage2, 20) == 0;
}

sha256_digest sha256_stage2(std::string_view password) {
  unsigned char s1[32];
  sha256_digest s2;
  sha256(password, {}, s1);
  sha256(view(s1, 32), {}, s2.data());
  return s2;
}

bool verify_sha256_memory(const sha256_digest& stage2, std::string_view nonce,
                          std::string_view response) {
  if (!response.empty() && response.back() == '\0') response.remove_suffix(1);
  unsigned char scramble[32], mask[32], candidate[32], check[32];
  if (!unhex(response, scramble, 32)) return false;
  // scramble = SHA256(pw) XOR SHA256(stage2 + nonce).
  sha256(view(stage2.data(), 32), nonce, mask);
  for (int i = 0; i < 32; ++i) candidate[i] = scramble[i] ^ mask[i];
  sha256(view(candidate, 32), {}, check);
  return std::memcmp(check, stage2.data(), 32) == 0;
}

std::optional<credentials> split_auth_data(std::string_view data) {
  const auto a = data.find('\0');
  if (a == std::string_view::npos) return std::nullopt;
  const auto b = data.find('\0', a + 1);
  if (b == std::string_view::npos) return std::nullopt;
  return credentials{std::string(data.substr(0, a)), std::string(data.substr(a + 1, b - a - 1)),
                     std::string(data.substr(b + 1))};
}

std::string mysql41_response(std::string_view password, std::string_view nonce) {
  if (password.empty()) return {};
  unsigned char s1[20], s2[20], mask[20];
  sha1(password, {}, s1);
  sha1(view(s1, 20), {}, s2);
  sha1(nonce, view(s2, 20), mask);
  for (int i = 0; i < 20; ++i) s1[i] ^= mask[i];
  return "*" + hex(s1, 20, true);
}

std::string sha256_memory_response(std::string_view password, std::string_view nonce) {
  unsigned char s1[32], mask[32];
  sha256(password, {}, s1);
  const sha256_digest s2 = sha256_stage2(password);
  sha256(view(s2.data(), 32), nonce, mask);
  for (int i = 0; i < 32; ++i) s1[i] ^= mask[i];
  return hex(s1, 32, true);
}

} // namespace xserver::auth
