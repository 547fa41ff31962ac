// The verification half of MYSQL41, PLAIN and SHA256_MEMORY (facts section
// 7.4), kept free of I/O so that it is tested on its own. The client half is
// here too, for xserverd's tests.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace xserver::auth {

using sha256_digest = std::array<unsigned char, 32>;

// 20 random bytes, none of them NUL, as the nonce of MYSQL41/SHA256_MEMORY.
std::string make_nonce();

// "*" + 40 upper-case hex digits of SHA1(SHA1(password)): MariaDB's
// mysql_native_password authentication_string. Empty password -> "".
std::string native_password_hash(std::string_view password);

// stored: the account's authentication_string; response: "*<40 hex>" (any
// case) or empty. Empty response only matches an empty stored hash.
bool verify_mysql41(std::string_view stored, std::string_view nonce, std::string_view response);

// SHA256(SHA256(password)): what the SHA256_MEMORY cache keeps.
sha256_digest sha256_stage2(std::string_view password);

// response: 64 hex digits (any case), optionally followed by a NUL.
bool verify_sha256_memory(const sha256_digest& stage2, std::string_view nonce,
                          std::string_view response);

// "schema\0user\0rest" as sent by the client; nullopt if malformed.
struct credentials {
  std::string schema, user, secret;
};
std::optional<credentials> split_auth_data(std::string_view data);

// Client side (tests).
std::string mysql41_response(std::string_view password, std::string_view nonce);
std::string sha256_memory_response(std::string_view password, std::string_view nonce);

} // namespace xserver::auth
