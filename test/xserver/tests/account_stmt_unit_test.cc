// MySQL's account statements as xserverd runs them on MariaDB, without a
// server (account_stmt.h).
#include "test/xserver/account_stmt.h"

#include <gtest/gtest.h>

namespace xserver {
namespace {

TEST(AccountStatement, MySqlPluginsBecomeMariaDbsPasswordClause) {
  auto a = rewrite_account_statement(
      "CREATE USER 'doomuser'@'%' IDENTIFIED WITH caching_sha2_password BY '!pw';");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->sql, "CREATE USER 'doomuser'@'%' IDENTIFIED BY '!pw';");
  ASSERT_EQ(a->plugins.size(), 1u);
  EXPECT_EQ(a->plugins[0].user, "doomuser");
  EXPECT_EQ(a->plugins[0].host, "%");
  EXPECT_EQ(a->plugins[0].plugin, "caching_sha2_password");

  a = rewrite_account_statement("create user if not exists u IDENTIFIED  WITH 'SHA256_PASSWORD' "
                                "by 'a''b', `v`@localhost identified with mysql_native_password");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->sql,
            "create user if not exists u IDENTIFIED  by 'a''b', `v`@localhost identified BY ''");
  ASSERT_EQ(a->plugins.size(), 2u);
  EXPECT_EQ(a->plugins[0].user, "u");
  EXPECT_EQ(a->plugins[0].plugin, "sha256_password");
  EXPECT_EQ(a->plugins[1].user, "v");
  EXPECT_EQ(a->plugins[1].host, "localhost");
  EXPECT_EQ(a->plugins[1].plugin, "mysql_native_password");

  a = rewrite_account_statement("ALTER USER /* c */ 'x'@'h' IDENTIFIED BY 'p'");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->sql, "ALTER USER /* c */ 'x'@'h' IDENTIFIED BY 'p'");
  EXPECT_TRUE(a->plugins.empty());
  // Plugins MySQL's X Plugin does not know are MariaDB's business.
  a = rewrite_account_statement("CREATE USER x IDENTIFIED WITH unix_socket");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->sql, "CREATE USER x IDENTIFIED WITH unix_socket");
  EXPECT_TRUE(a->plugins.empty());
  EXPECT_FALSE(rewrite_account_statement("SELECT 'CREATE USER'"));
  EXPECT_FALSE(rewrite_account_statement("CREATE TABLE user (a INT)"));
}

TEST(AccountStatement, WhatEmptiesTheSha256Cache) {
  EXPECT_EQ(sha256_cache_effect("FLUSH PRIVILEGES"), cache_effect::clear);
  EXPECT_EQ(sha256_cache_effect("drop user u"), cache_effect::check_accounts);
  EXPECT_EQ(sha256_cache_effect("RENAME USER a TO b"), cache_effect::check_accounts);
  EXPECT_EQ(sha256_cache_effect("ALTER USER a IDENTIFIED BY 'x'"), cache_effect::check_accounts);
  EXPECT_EQ(sha256_cache_effect("SET PASSWORD FOR a = 'x'"), cache_effect::check_accounts);
  EXPECT_EQ(sha256_cache_effect("GRANT ALL ON *.* TO a"), cache_effect::check_accounts);
  EXPECT_EQ(sha256_cache_effect("CREATE USER a"), cache_effect::none);
  EXPECT_EQ(sha256_cache_effect("SELECT 1"), cache_effect::none);
}

} // namespace
} // namespace xserver
