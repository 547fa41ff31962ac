// Authentication data for the X Protocol mechanisms (facts §7.4). Pure
// functions; the results contain secrets, so callers wipe them when done
// (secure_wipe).
#pragma once

#include <string>
#include <string_view>

namespace cdk::session {

// MYSQL41: '*' and 40 upper-case hex digits of
//   SHA1(pw) XOR SHA1(salt ++ SHA1(SHA1(pw))); empty password -> empty.
std::string mysql41_response(std::string_view password, std::string_view salt);

// SHA256_MEMORY: 64 upper-case hex digits of
//   SHA256(pw) XOR SHA256(SHA256(SHA256(pw)) ++ salt), i.e. the stored
// double hash first, then the salt (the opposite order to MYSQL41).
std::string sha256_memory_response(std::string_view password, std::string_view salt);

// "schema \0 user \0 response": AuthenticateStart.auth_data for PLAIN (with the
// password as response) and AuthenticateContinue.auth_data for the others.
std::string auth_payload(std::string_view schema, std::string_view user, std::string_view response);

// Overwrites s in a way the compiler can't drop, then clears it.
void secure_wipe(std::string& s) noexcept;

namespace detail {
std::string sha1(std::string_view data);   // raw 20-byte digest
std::string sha256(std::string_view data); // raw 32-byte digest
std::string hex_upper(std::string_view raw);
} // namespace detail

} // namespace cdk::session
