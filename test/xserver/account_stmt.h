// Account statements MySQL 8.0 takes and MariaDB does not, and what they mean
// for the X Plugin's authentication (auth.cc).
//
// MySQL's `CREATE/ALTER USER ... IDENTIFIED WITH caching_sha2_password BY
// 'pw'` (or sha256_password, mysql_native_password) is a syntax error in
// MariaDB, which has neither SHA-2 plugin. xserverd runs it as `IDENTIFIED BY
// 'pw'` (a mysql_native_password account: the hash PLAIN and MYSQL41 check)
// and remembers the MySQL plugin in the account's mysql.global_priv JSON
// (key `xserverd_mysql_plugin`; MariaDB keeps unknown keys through GRANT,
// ALTER USER and RENAME USER, and DROP USER drops the row). The X Plugin
// then treats the account as MySQL would (account_verification_handler.cc):
// MYSQL41 only for mysql_native_password accounts, PLAIN for all three,
// SHA256_MEMORY from the cache for all.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xserver {

struct account_plugin {
  std::string user, host; // unquoted; host '%' when the statement names none
  std::string plugin;     // MySQL's plugin name, lower case
};

struct account_statement {
  std::string sql; // the statement for MariaDB
  // The accounts whose plugin the statement names, in its order.
  std::vector<account_plugin> plugins;
};

// For CREATE USER / ALTER USER: the statement with every `IDENTIFIED WITH
// <MySQL plugin> [BY 'pw']` rewritten as `IDENTIFIED BY 'pw'` (or `BY ''`),
// and the plugins. nullopt for any other statement (run as it is).
std::optional<account_statement> rewrite_account_statement(std::string_view sql);

// The statements after which MySQL's mysqlx_cache_cleaner drops SHA256_MEMORY
// cache entries (MYSQL_AUDIT_AUTHENTICATION_{CREDENTIAL_CHANGE,AUTHID_RENAME,
// AUTHID_DROP}): ALTER USER, SET PASSWORD, GRANT, RENAME USER, DROP USER;
// FLUSH PRIVILEGES clears the whole cache (AUTHENTICATION_FLUSH).
enum class cache_effect { none, check_accounts, clear };
cache_effect sha256_cache_effect(std::string_view sql);

} // namespace xserver
