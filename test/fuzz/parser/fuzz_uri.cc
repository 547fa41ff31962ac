// libFuzzer target for the connection-string parser. Any input must give a
// value or a cdk::error of kind parse / bad_option: no crash, no hang, no
// exception. Checks a few invariants that hold for every input.
#include "cdk/parser/uri_parser.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

bool is_ours(const cdk::error& e) {
  return e.origin == cdk::error_origin::client && !e.message.empty() &&
         (e.code == cdk::client_errc::parse || e.code == cdk::client_errc::bad_option);
}

bool distinctive(std::string_view password) {
  if (password.size() < 4) return false;
  for (char c : password) {
    if (static_cast<unsigned char>(c) >= 0x80 ||
        std::string_view("!$*~;").find(c) != std::string_view::npos)
      return true;
  }
  return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view uri(reinterpret_cast<const char*>(data), size);
  try {
    auto parts = cdk::parse_uri_parts(uri);
    auto full = cdk::parse_uri(uri);
    if (!parts) {
      // parse_uri() runs the same grammar first and reports the same error.
      check(is_ours(parts.err()) && !full.ok());
      check(full.err().message == parts.err().message);
      return 0;
    }
    check(!parts.value().hosts.empty());
    const std::string password = parts.value().password.value_or("");
    if (!full) {
      check(is_ours(full.err()));
      // The password never shows up in error text. Checked for passwords that
      // hold a byte no fixed message text has, so that a match can only come
      // from quoted input (a password "string" is in "invalid connection string").
      if (distinctive(password)) check(full.err().message.find(password) == std::string::npos);
      return 0;
    }
    const cdk::connect_options& o = full.value();
    check(o.hosts.size() == parts.value().hosts.size());
    for (const auto& h : o.hosts) check(h.socket.empty() != h.host.empty());
    check(o.password == password);
    check(o.connection_attributes.empty() || o.send_connection_attributes);
    if (!o.tls.ca.empty() || !o.tls.capath.empty()) {
      check(o.tls.mode == cdk::ssl_mode::verify_ca || o.tls.mode == cdk::ssl_mode::verify_identity);
    }
  } catch (...) {
    std::abort(); // the parser reports errors as values; nothing may throw
  }
  return 0;
}
