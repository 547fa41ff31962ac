// MYSQL41 / SHA256_MEMORY verification against the client-side formulas.
#include "test/xserver/auth_math.h"

#include <gtest/gtest.h>

namespace xserver::auth {
namespace {

TEST(AuthMath, NativeHashMatchesMariaDbPasswordFunction) {
  // SELECT PASSWORD('xtest-pw') on MariaDB 10.11.
  EXPECT_EQ(native_password_hash("xtest-pw"), "*AC7EE37B5C54B81C66149C3215358AFC24717694");
  EXPECT_EQ(native_password_hash(""), "");
}

TEST(AuthMath, Mysql41AcceptsTheRightPasswordOnly) {
  const std::string nonce = make_nonce();
  ASSERT_EQ(nonce.size(), 20u);
  EXPECT_EQ(nonce.find('\0'), std::string::npos);
  const std::string stored = native_password_hash("secret");
  std::string resp = mysql41_response("secret", nonce);
  EXPECT_TRUE(verify_mysql41(stored, nonce, resp));
  for (auto& c : resp) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  EXPECT_TRUE(verify_mysql41(stored, nonce, resp)); // Node sends lower case
  EXPECT_FALSE(verify_mysql41(stored, nonce, mysql41_response("Secret", nonce)));
  EXPECT_FALSE(verify_mysql41(stored, make_nonce(), mysql41_response("secret", nonce)));
  EXPECT_FALSE(verify_mysql41(stored, nonce, ""));
  EXPECT_TRUE(verify_mysql41("", nonce, "")); // empty password account
  EXPECT_FALSE(verify_mysql41(stored, nonce, "*zz"));
}

TEST(AuthMath, Sha256MemoryAcceptsTheRightPasswordOnly) {
  const std::string nonce = make_nonce();
  const auto stage2 = sha256_stage2("secret");
  const std::string resp = sha256_memory_response("secret", nonce);
  EXPECT_EQ(resp.size(), 64u);
  EXPECT_TRUE(verify_sha256_memory(stage2, nonce, resp));
  EXPECT_TRUE(verify_sha256_memory(stage2, nonce, resp + '\0')); // Node's trailing NUL
  EXPECT_FALSE(verify_sha256_memory(stage2, nonce, sha256_memory_response("other", nonce)));
  EXPECT_FALSE(verify_sha256_memory(stage2, nonce, ""));
}

TEST(AuthMath, SplitAuthData) {
  auto c = split_auth_data(std::string("db\0user\0pw", 10));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->schema, "db");
  EXPECT_EQ(c->user, "user");
  EXPECT_EQ(c->secret, "pw");
  EXPECT_FALSE(split_auth_data("no-nuls"));
  auto empty = split_auth_data(std::string("\0u\0", 3));
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->secret, "");
}

} // namespace
} // namespace xserver::auth
