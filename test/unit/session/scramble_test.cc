// Scrambles against vectors computed independently of this code, at test
// writing time, with the OpenSSL command line and a byte-wise XOR:
//   h1=$(printf %s "$pw" | openssl dgst -sha1 -binary)          # MYSQL41
//   h3=sha1(salt ++ sha1(h1));  response = "*" + HEX(h1 XOR h3)
//   s1=sha256(pw); s3=sha256(sha256(s1) ++ salt); response = HEX(s1 XOR s3)
// with salt = bytes 0x01..0x14 (20 bytes, like the server's challenge).
#include "cdk/session/scramble.h"

#include <gtest/gtest.h>

namespace cdk::session {
namespace {

std::string test_salt() {
  std::string s;
  for (int i = 1; i <= 20; ++i) s.push_back(static_cast<char>(i));
  return s;
}

TEST(scramble, mysql41_vectors) {
  EXPECT_EQ(mysql41_response("secret", test_salt()), "*B32BB3A583E1340C0A1108D58B1BE49781AD8C2F");
  EXPECT_EQ(mysql41_response("p\xc3\xa4ss w0rd!", test_salt()),
            "*C92C37947C08C630BD500DF4D55066284F94E3DD");
}

TEST(scramble, mysql41_empty_password_sends_empty_response) {
  EXPECT_EQ(mysql41_response("", test_salt()), "");
}

TEST(scramble, sha256_memory_vectors) {
  EXPECT_EQ(sha256_memory_response("secret", test_salt()),
            "746EBE205D56A0707ACB3E796E834E0DD7B1D61743B26BD5202C7A623230C7C9");
  EXPECT_EQ(sha256_memory_response("p\xc3\xa4ss w0rd!", test_salt()),
            "A4007606B885AA50B5DA92F527AE6CFE3EAC85D7B197B2CB77604CA85E359717");
}

// MySQL's manual shows PASSWORD('mypass') = '*6C8989366EAF75BB670AD8EA7A7FC1176A95CEF4',
// i.e. the stored hash SHA1(SHA1(pw)). Verify a response the way the server
// does: SHA1(response XOR SHA1(salt ++ stored)) must equal the stored hash.
TEST(scramble, mysql41_response_verifies_against_the_documented_stored_hash) {
  const std::string stored_hex = "6C8989366EAF75BB670AD8EA7A7FC1176A95CEF4";
  const std::string stored = detail::sha1(detail::sha1("mypass"));
  ASSERT_EQ(detail::hex_upper(stored), stored_hex);
  const std::string salt = test_salt();
  const std::string response = mysql41_response("mypass", salt);
  ASSERT_EQ(response.size(), 41u);
  std::string raw;
  for (std::size_t i = 1; i < response.size(); i += 2)
    raw.push_back(static_cast<char>(std::stoi(response.substr(i, 2), nullptr, 16)));
  const std::string mask = detail::sha1(salt + stored);
  for (std::size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<char>(raw[i] ^ mask[i]);
  EXPECT_EQ(detail::hex_upper(detail::sha1(raw)), stored_hex);
  EXPECT_NE(mysql41_response("wrong", salt), response);
}

TEST(scramble, salt_changes_the_response) {
  std::string other = test_salt();
  other[0] = 'x';
  EXPECT_NE(mysql41_response("secret", other), mysql41_response("secret", test_salt()));
  EXPECT_NE(sha256_memory_response("secret", other), sha256_memory_response("secret", test_salt()));
}

TEST(scramble, auth_payload_layout) {
  EXPECT_EQ(auth_payload("shop", "app", "pw"), std::string("shop\0app\0pw", 11));
  EXPECT_EQ(auth_payload("", "app", ""), std::string("\0app\0", 5));
}

TEST(scramble, secure_wipe_clears) {
  std::string s = "password";
  secure_wipe(s);
  EXPECT_TRUE(s.empty());
}

} // namespace
} // namespace cdk::session
