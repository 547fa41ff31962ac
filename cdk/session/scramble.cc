#include "cdk/session/scramble.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

namespace cdk::session {
namespace detail {
namespace {

std::string digest(const EVP_MD* md, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  // EVP_Digest only fails on allocation failure; an empty result then makes
  // authentication fail at the server instead of sending garbage.
  if (EVP_Digest(data.data(), data.size(), out, &len, md, nullptr) != 1) return {};
  std::string r(reinterpret_cast<const char*>(out), len);
  OPENSSL_cleanse(out, sizeof out);
  return r;
}

} // namespace

std::string sha1(std::string_view data) {
  return digest(EVP_sha1(), data);
}
std::string sha256(std::string_view data) {
  return digest(EVP_sha256(), data);
}

std::string hex_upper(std::string_view raw) {
  static constexpr char digits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(raw.size() * 2);
  for (unsigned char c : raw) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 0xf]);
  }
  return out;
}

} // namespace detail

namespace {

// a ^= b over the common length (both are digests of the same size).
void xor_into(std::string& a, const std::string& b) {
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) a[i] = static_cast<char>(a[i] ^ b[i]);
}

} // namespace

std::string mysql41_response(std::string_view password, std::string_view salt) {
  if (password.empty()) return {};
  std::string h1 = detail::sha1(password);
  std::string h2 = detail::sha1(h1);
  std::string salted(salt);
  salted += h2;
  std::string h3 = detail::sha1(salted);
  xor_into(h1, h3);
  std::string out = "*" + detail::hex_upper(h1);
  secure_wipe(h1);
  secure_wipe(h2);
  secure_wipe(salted);
  return out;
}

std::string sha256_memory_response(std::string_view password, std::string_view salt) {
  std::string h1 = detail::sha256(password);
  std::string h2 = detail::sha256(h1); // what the server's cache holds
  h2 += salt;
  std::string h3 = detail::sha256(h2);
  xor_into(h1, h3);
  std::string out = detail::hex_upper(h1);
  secure_wipe(h1);
  secure_wipe(h2);
  return out;
}

std::string auth_payload(std::string_view schema, std::string_view user,
                         std::string_view response) {
  std::string out;
  out.reserve(schema.size() + user.size() + response.size() + 2);
  out.append(schema).push_back('\0');
  out.append(user).push_back('\0');
  out.append(response);
  return out;
}

void secure_wipe(std::string& s) noexcept {
  if (!s.empty()) OPENSSL_cleanse(s.data(), s.size());
  s.clear();
}

} // namespace cdk::session
