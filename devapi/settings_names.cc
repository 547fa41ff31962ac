// Names of options and option values.
#include "cdk/foundation/error.h"
#include "cdk/parser/uri_text.h"
#include "devapi/throw_error.h"

#include <mysqlx/settings.h>

MYSQLX_NAMESPACE_BEGIN

const char* optionValueName(SSLMode mode) noexcept {
  switch (mode) {
  case SSLMode::DISABLED:
    return "disabled";
  case SSLMode::REQUIRED:
    return "required";
  case SSLMode::VERIFY_CA:
    return "verify_ca";
  case SSLMode::VERIFY_IDENTITY:
    return "verify_identity";
  }
  return "unknown";
}

const char* optionValueName(AuthMethod method) noexcept {
  switch (method) {
  case AuthMethod::PLAIN:
    return "plain";
  case AuthMethod::MYSQL41:
    return "mysql41";
  case AuthMethod::EXTERNAL:
    return "external";
  case AuthMethod::SHA256_MEMORY:
    return "sha256_memory";
  }
  return "unknown";
}

const char* optionValueName(CompressionMode mode) noexcept {
  switch (mode) {
  case CompressionMode::DISABLED:
    return "disabled";
  case CompressionMode::PREFERRED:
    return "preferred";
  case CompressionMode::REQUIRED:
    return "required";
  }
  return "unknown";
}

const char* optionValueName(DocIdMode mode) noexcept {
  switch (mode) {
  case DocIdMode::AUTO:
    return "auto";
  case DocIdMode::SERVER:
    return "server";
  case DocIdMode::CLIENT:
    return "client";
  }
  return "unknown";
}

namespace {
// The enumerator's name is the connection-string name in capitals.
template <typename Mode> std::string enumerator_name(Mode mode) {
  const std::string value = optionValueName(mode);
  if (value == "unknown") return "<UNKNOWN (" + std::to_string(static_cast<int>(mode)) + ")>";
  std::string name;
  for (char c : value) name += static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return name;
}
} // namespace

std::string SSLModeName(SSLMode mode) {
  return enumerator_name(mode);
}
std::string AuthMethodName(AuthMethod method) {
  return enumerator_name(method);
}
std::string CompressionModeName(CompressionMode mode) {
  return enumerator_name(mode);
}

DocIdMode parseDocIdMode(const std::string& text) {
  for (DocIdMode m : {DocIdMode::AUTO, DocIdMode::SERVER, DocIdMode::CLIENT}) {
    if (cdk::uri_text::iequals(text, optionValueName(m))) return m;
  }
  detail::throw_error(cdk::error::client(cdk::client_errc::bad_option,
                                         "DocIdMode: expected auto, server or client"));
}

std::string SessionOptionName(SessionOption opt) {
  static const char* const names[] = {"URI",
                                      "HOST",
                                      "PORT",
                                      "PRIORITY",
                                      "USER",
                                      "PWD",
                                      "DB",
                                      "SSL_MODE",
                                      "SSL_CA",
                                      "AUTH",
                                      "SOCKET",
                                      "CONNECT_TIMEOUT",
                                      "CONNECTION_ATTRIBUTES",
                                      "TLS_VERSIONS",
                                      "TLS_CIPHERSUITES",
                                      "DNS_SRV",
                                      "COMPRESSION",
                                      "COMPRESSION_ALGORITHMS",
                                      "SSL_CAPATH",
                                      "SSL_CRL",
                                      "SSL_CRLPATH",
                                      "DOCID_MODE",
                                      "MAX_MESSAGE_SIZE",
                                      "READ_TIMEOUT",
                                      "WRITE_TIMEOUT",
                                      "MAX_IN_FLIGHT",
                                      "DEAD_PEER_TIMEOUT"};
  static_assert(sizeof names / sizeof names[0] == SessionOption::LAST - 1);
  const int i = static_cast<int>(opt) - 1;
  return i >= 0 && i < SessionOption::LAST - 1 ? names[i] : "";
}

std::string ClientOptionName(ClientOption opt) {
  switch (static_cast<int>(opt)) {
  case ClientOption::POOLING:
    return "POOLING";
  case ClientOption::POOL_MAX_SIZE:
    return "POOL_MAX_SIZE";
  case ClientOption::POOL_QUEUE_TIMEOUT:
    return "POOL_QUEUE_TIMEOUT";
  case ClientOption::POOL_MAX_IDLE_TIME:
    return "POOL_MAX_IDLE_TIME";
  default: // a session option, as ClientSettings holds them too
    // (a negative number is no session option, and no value of the Enum)
    if (static_cast<int>(opt) < 0 || static_cast<int>(opt) >= SessionOption::LAST) return "";
    return SessionOptionName(static_cast<SessionOption::Enum>(static_cast<int>(opt)));
  }
}

MYSQLX_NAMESPACE_END
