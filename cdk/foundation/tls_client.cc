// The client-side TLS context built from tls_options (one per connection, so
// options never leak between connections with different settings).
//
// Semantics, as in MySQL's connectors:
// - REQUIRED encrypts without checking the certificate; VERIFY_CA checks the
//   chain against ssl-ca/ssl-capath (the system store when neither is set);
//   VERIFY_IDENTITY also checks the host against the certificate's SAN
//   (OpenSSL falls back to the CN only when there is no DNS SAN).
// - tls-versions: only TLSv1.2 and TLSv1.3 are allowed. Other names (TLSv1,
//   TLSv1.1, typos) are dropped, as Connector/C++ 8 drops them; a given list
//   left with nothing fails with Connector/C++'s message. Dropping never
//   enables anything: the range is TLSv1.2..TLSv1.3 at most.
// - tls-ciphersuites is the complete list of allowed ciphers: TLS 1.3 suites
//   (TLS_AES_..., TLS_CHACHA20_...) and TLS 1.2 ciphers (OpenSSL names, or
//   IANA names with _WITH_). A version with no listed cipher is disabled.
//   Names OpenSSL does not know or offer are dropped (Connector/C++ 8); a
//   given list left with nothing fails, never falling back to the defaults.
#include "cdk/foundation/tls_session.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <openssl/err.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <string>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace cdk {

bool is_ip_literal(std::string_view host) {
  std::string h(host);
  unsigned char buf[sizeof(in6_addr)];
  return inet_pton(AF_INET, h.c_str(), buf) == 1 || inet_pton(AF_INET6, h.c_str(), buf) == 1;
}

namespace {

error bad_option(std::string msg) {
  return error::client(client_errc::bad_option, std::move(msg));
}

error ssl_error(std::string msg) {
  return error::connection(client_errc::ssl_connection, std::move(msg));
}

std::string join(const std::vector<std::string>& names, const char* sep) {
  std::string out;
  for (const auto& n : names) {
    if (!out.empty()) out += sep;
    out += n;
  }
  return out;
}

status apply_versions(SSL_CTX* ctx, const tls_options& opts) {
  const bool defaults = opts.versions.empty() && !opts.versions_given;
  bool v12 = defaults;
  bool v13 = defaults;
  for (const auto& v : opts.versions) {
    if (strcasecmp(v.c_str(), "TLSv1.2") == 0) v12 = true;
    if (strcasecmp(v.c_str(), "TLSv1.3") == 0) v13 = true;
  }
  if (!v12 && !v13) {
    // Connector/C++ 8's words, which programs and its tests compare.
    return bad_option("No valid TLS version was given, valid versions are: TLSv1.2, TLSv1.3");
  }
  SSL_CTX_set_min_proto_version(ctx, v12 ? TLS1_2_VERSION : TLS1_3_VERSION);
  SSL_CTX_set_max_proto_version(ctx, v13 ? TLS1_3_VERSION : TLS1_2_VERSION);
  return ok();
}

bool is_tls13_suite(const std::string& name) {
  return name.rfind("TLS_", 0) == 0 && name.find("_WITH_") == std::string::npos;
}

// A name of OpenSSL's cipher list syntax that is only a name: no operator
// (':', '!', '+', '-' first, '@') that would change what the list allows.
bool is_plain_name(const std::string& n) {
  if (n.empty() || n[0] == '-') return false;
  for (char c : n) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

status apply_ciphers(SSL_CTX* ctx, const tls_options& opts) {
  const std::vector<std::string>& names = opts.ciphersuites;
  if (names.empty() && !opts.ciphersuites_given) return ok(); // OpenSSL's defaults
  std::vector<std::string> v12, v13;
  for (const auto& n : names) {
    if (!is_plain_name(n)) continue;
    if (is_tls13_suite(n)) {
      if (SSL_CTX_set_ciphersuites(ctx, n.c_str()) != 1) {
        ERR_clear_error(); // unknown or unavailable: dropped
        continue;
      }
      v13.push_back(n);
      continue;
    }
    // IANA names ("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256") map to OpenSSL's.
    std::string ossl = n.find("_WITH_") != std::string::npos ? OPENSSL_cipher_name(n.c_str()) : n;
    if (ossl == "(NONE)" || SSL_CTX_set_cipher_list(ctx, ossl.c_str()) != 1) {
      ERR_clear_error(); // unknown or unavailable: dropped
      continue;
    }
    v12.push_back(ossl);
  }
  if (v12.empty() && v13.empty()) {
    // Connector/C++ 8's words.
    return bad_option("No valid cipher suite found in the 'tls-ciphersuites' list");
  }
  // An empty TLS 1.3 list disables TLS 1.3; TLS 1.2 has no empty list, so
  // it is disabled through the version range instead.
  SSL_CTX_set_ciphersuites(ctx, join(v13, ":").c_str());
  if (!v12.empty()) SSL_CTX_set_cipher_list(ctx, join(v12, ":").c_str());
  int min = SSL_CTX_get_min_proto_version(ctx);
  int max = SSL_CTX_get_max_proto_version(ctx);
  if (v12.empty()) min = TLS1_3_VERSION;
  if (v13.empty()) max = TLS1_2_VERSION;
  if (min > max) {
    return bad_option("tls-ciphersuites: no cipher in [" + join(names, ", ") +
                      "] can be used with the allowed tls-versions");
  }
  SSL_CTX_set_min_proto_version(ctx, min);
  SSL_CTX_set_max_proto_version(ctx, max);
  return ok();
}

// OpenSSL reads hashed directories lazily and accepts a missing one, which
// would turn a typo into a vague verify failure later.
status check_dir(const std::string& dir, const char* option) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return ssl_error(std::string("Can't use ") + option + " '" + dir + "': not a directory");
  }
  return ok();
}

// OpenSSL says only "system lib" for a file it cannot open: say why.
status check_file(const std::string& file, const char* option) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) {
    const int err = errno;
    return ssl_error(
        std::string("Can't load ") + option + " '" + file + "': " +
        (err == ENOENT ? std::string("the file does not exist") : std::string(std::strerror(err))));
  }
  if (S_ISDIR(st.st_mode)) {
    return ssl_error(std::string("Can't load ") + option + " '" + file +
                     "': it is a directory, not a PEM file" +
                     (std::string(option) == "ssl-ca" ? " (a directory is ssl-capath)" : ""));
  }
  if (::access(file.c_str(), R_OK) != 0) {
    const int err = errno;
    return ssl_error(std::string("Can't load ") + option + " '" + file +
                     "': " + std::strerror(err));
  }
  return ok();
}

status load_trust(SSL_CTX* ctx, const tls_options& opts) {
  if (opts.ca.empty() && opts.capath.empty()) {
    if (SSL_CTX_set_default_verify_paths(ctx) != 1) {
      return ssl_error("Can't load the system CA certificates: " + take_ssl_error("unknown"));
    }
    return ok();
  }
  if (!opts.capath.empty()) {
    if (auto st = check_dir(opts.capath, "ssl-capath"); !st) return st;
  }
  if (!opts.ca.empty()) {
    if (auto st = check_file(opts.ca, "ssl-ca"); !st) return st;
  }
  const char* ca = opts.ca.empty() ? nullptr : opts.ca.c_str();
  const char* capath = opts.capath.empty() ? nullptr : opts.capath.c_str();
  if (SSL_CTX_load_verify_locations(ctx, ca, capath) != 1) {
    std::string what =
        ca != nullptr ? "ssl-ca '" + opts.ca + "'" : "ssl-capath '" + opts.capath + "'";
    return ssl_error("Can't load " + what + ": " + take_ssl_error("unreadable"));
  }
  return ok();
}

status load_crls(SSL_CTX* ctx, const tls_options& opts) {
  if (opts.crl.empty() && opts.crlpath.empty()) return ok();
  X509_STORE* store = SSL_CTX_get_cert_store(ctx);
  if (!opts.crl.empty()) {
    if (auto st = check_file(opts.crl, "ssl-crl"); !st) return st;
    X509_LOOKUP* lookup = X509_STORE_add_lookup(store, X509_LOOKUP_file());
    if (lookup == nullptr || X509_load_crl_file(lookup, opts.crl.c_str(), X509_FILETYPE_PEM) <= 0) {
      return ssl_error("Can't load ssl-crl '" + opts.crl + "': " + take_ssl_error("unreadable"));
    }
  }
  if (!opts.crlpath.empty()) {
    if (auto st = check_dir(opts.crlpath, "ssl-crlpath"); !st) return st;
    // A hashed directory (<issuer hash>.r0), looked up while verifying.
    X509_LOOKUP* lookup = X509_STORE_add_lookup(store, X509_LOOKUP_hash_dir());
    if (lookup == nullptr ||
        X509_LOOKUP_add_dir(lookup, opts.crlpath.c_str(), X509_FILETYPE_PEM) != 1) {
      return ssl_error("Can't use ssl-crlpath '" + opts.crlpath +
                       "': " + take_ssl_error("unreadable"));
    }
  }
  X509_STORE_set_flags(store, X509_V_FLAG_CRL_CHECK | X509_V_FLAG_CRL_CHECK_ALL);
  return ok();
}

status set_identity(SSL_CTX* ctx, std::string_view host) {
  if (host.empty()) {
    return bad_option(
        "ssl-mode=VERIFY_IDENTITY needs a host name to check the certificate against");
  }
  std::string h(host);
  X509_VERIFY_PARAM* param = SSL_CTX_get0_param(ctx);
  int rc = 0;
  if (is_ip_literal(h)) {
    rc = X509_VERIFY_PARAM_set1_ip_asc(param, h.c_str());
  } else {
    X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    rc = X509_VERIFY_PARAM_set1_host(param, h.c_str(), h.size());
  }
  if (rc != 1) return bad_option("Can't check the server certificate against host '" + h + "'");
  return ok();
}

} // namespace

result<ssl_ctx_ptr> make_client_ctx(const tls_options& opts, std::string_view host) {
  ERR_clear_error();
  ssl_ctx_ptr ctx(SSL_CTX_new(TLS_client_method()));
  if (!ctx) return ssl_error("Can't create a TLS context: " + take_ssl_error("out of memory"));
  // No compression (CRIME) and no renegotiation; the defaults in OpenSSL 3.
  SSL_CTX_set_options(ctx.get(), SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION);
  if (auto st = apply_versions(ctx.get(), opts); !st) return std::move(st).err();
  if (auto st = apply_ciphers(ctx.get(), opts); !st) return std::move(st).err();
  if (opts.mode == ssl_mode::verify_ca || opts.mode == ssl_mode::verify_identity) {
    SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
    if (auto st = load_trust(ctx.get(), opts); !st) return std::move(st).err();
    if (auto st = load_crls(ctx.get(), opts); !st) return std::move(st).err();
    if (opts.mode == ssl_mode::verify_identity) {
      if (auto st = set_identity(ctx.get(), host); !st) return std::move(st).err();
    }
  } else {
    SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_NONE, nullptr);
  }
  return ctx;
}

} // namespace cdk
