#include "test_pki.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace test_pki {

namespace {

template <typename T, void (*F)(T*)> struct deleter {
  void operator()(T* p) const noexcept { F(p); }
};
using pkey_ptr = std::unique_ptr<EVP_PKEY, deleter<EVP_PKEY, EVP_PKEY_free>>;
using x509_ptr = std::unique_ptr<X509, deleter<X509, X509_free>>;
using crl_ptr = std::unique_ptr<X509_CRL, deleter<X509_CRL, X509_CRL_free>>;
using bio_ptr = std::unique_ptr<BIO, deleter<BIO, BIO_free_all>>;
using time_ptr = std::unique_ptr<ASN1_TIME, deleter<ASN1_TIME, ASN1_TIME_free>>;

void check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("test PKI: ") + what + " failed");
}

pkey_ptr new_key() {
  // EC P-256: fast to generate, unlike RSA.
  pkey_ptr key(EVP_EC_gen("P-256"));
  check(key != nullptr, "EVP_EC_gen");
  return key;
}

void add_ext(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  check(ext != nullptr, "X509V3_EXT_conf_nid");
  X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
}

// issuer == nullptr: self-signed (a CA).
x509_ptr make_cert(const char* cn, long serial, EVP_PKEY* key, X509* issuer, EVP_PKEY* issuer_key,
                   const char* san) {
  x509_ptr cert(X509_new());
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), serial);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 30L * 24 * 3600);
  X509_set_pubkey(cert.get(), key);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(cn),
                             -1, -1, 0);
  X509* signer = issuer != nullptr ? issuer : cert.get();
  X509_set_issuer_name(cert.get(), X509_get_subject_name(signer));
  add_ext(cert.get(), signer, NID_subject_key_identifier, "hash");
  add_ext(cert.get(), signer, NID_authority_key_identifier, "keyid:always");
  if (issuer == nullptr) {
    add_ext(cert.get(), signer, NID_basic_constraints, "critical,CA:TRUE");
    add_ext(cert.get(), signer, NID_key_usage, "critical,keyCertSign,cRLSign");
  } else {
    add_ext(cert.get(), signer, NID_basic_constraints, "critical,CA:FALSE");
    add_ext(cert.get(), signer, NID_key_usage, "critical,digitalSignature");
    add_ext(cert.get(), signer, NID_ext_key_usage, "serverAuth");
    if (san != nullptr) add_ext(cert.get(), signer, NID_subject_alt_name, san);
  }
  check(X509_sign(cert.get(), issuer_key != nullptr ? issuer_key : key, EVP_sha256()) > 0,
        "X509_sign");
  return cert;
}

crl_ptr make_crl(X509* ca, EVP_PKEY* ca_key, long revoked_serial) {
  crl_ptr crl(X509_CRL_new());
  X509_CRL_set_version(crl.get(), 1);
  X509_CRL_set_issuer_name(crl.get(), X509_get_subject_name(ca));
  time_ptr now(X509_gmtime_adj(nullptr, -60));
  time_ptr next(X509_gmtime_adj(nullptr, 30L * 24 * 3600));
  X509_CRL_set1_lastUpdate(crl.get(), now.get());
  X509_CRL_set1_nextUpdate(crl.get(), next.get());
  X509_REVOKED* rev = X509_REVOKED_new();
  ASN1_INTEGER* serial = ASN1_INTEGER_new();
  ASN1_INTEGER_set(serial, revoked_serial);
  X509_REVOKED_set_serialNumber(rev, serial);
  X509_REVOKED_set_revocationDate(rev, now.get());
  ASN1_INTEGER_free(serial);
  X509_CRL_add0_revoked(crl.get(), rev);
  X509_CRL_sort(crl.get());
  check(X509_CRL_sign(crl.get(), ca_key, EVP_sha256()) > 0, "X509_CRL_sign");
  return crl;
}

template <typename F> std::string to_pem(F write) {
  bio_ptr bio(BIO_new(BIO_s_mem()));
  check(write(bio.get()) == 1, "PEM write");
  char* data = nullptr;
  long len = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(len));
}

std::string cert_pem(X509* c) {
  return to_pem([c](BIO* b) { return PEM_write_bio_X509(b, c); });
}
std::string key_pem(EVP_PKEY* k) {
  return to_pem([k](BIO* b) {
    return PEM_write_bio_PrivateKey(b, k, nullptr, nullptr, 0, nullptr, nullptr);
  });
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  check(static_cast<bool>(out), "writing a PEM file");
}

std::string hash_name(unsigned long hash, const char* suffix) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%08lx.%s", hash, suffix);
  return buf;
}

struct owner {
  files f;
  owner() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "mysqlx-pki-XXXXXX").string();
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    check(mkdtemp(buf.data()) != nullptr, "mkdtemp");
    f.dir = buf.data();
    auto at = [this](const char* name) { return f.dir + "/" + name; };

    pkey_ptr ca_key = new_key(), other_key = new_key(), srv_key = new_key(), rev_key = new_key(),
             cn_key = new_key();
    x509_ptr ca = make_cert("mysqlx test CA", 1, ca_key.get(), nullptr, nullptr, nullptr);
    x509_ptr other = make_cert("mysqlx other CA", 1, other_key.get(), nullptr, nullptr, nullptr);
    const char* san = "DNS:localhost,IP:127.0.0.1,IP:::1";
    x509_ptr srv = make_cert("mysqlx test server", 2, srv_key.get(), ca.get(), ca_key.get(), san);
    x509_ptr rev = make_cert("mysqlx test server", 3, rev_key.get(), ca.get(), ca_key.get(), san);
    x509_ptr cn_only = make_cert("localhost", 4, cn_key.get(), ca.get(), ca_key.get(), nullptr);
    crl_ptr crl = make_crl(ca.get(), ca_key.get(), 3);

    f.ca = at("ca.pem");
    f.other_ca = at("other-ca.pem");
    f.server_cert = at("server-cert.pem");
    f.server_key = at("server-key.pem");
    f.revoked_cert = at("revoked-cert.pem");
    f.revoked_key = at("revoked-key.pem");
    f.crl = at("crl.pem");
    f.capath = at("capath");
    f.crlpath = at("crlpath");
    f.server_cert_pem = cert_pem(srv.get());
    f.server_key_pem = key_pem(srv_key.get());
    write_file(f.ca, cert_pem(ca.get()));
    write_file(f.other_ca, cert_pem(other.get()));
    write_file(f.server_cert, f.server_cert_pem);
    write_file(f.server_key, f.server_key_pem);
    write_file(f.revoked_cert, cert_pem(rev.get()));
    write_file(f.revoked_key, key_pem(rev_key.get()));
    f.cn_only_cert = at("cn-only-cert.pem");
    f.cn_only_key = at("cn-only-key.pem");
    write_file(f.cn_only_cert, cert_pem(cn_only.get()));
    write_file(f.cn_only_key, key_pem(cn_key.get()));
    std::string crl_text = to_pem([&crl](BIO* b) { return PEM_write_bio_X509_CRL(b, crl.get()); });
    write_file(f.crl, crl_text);
    std::filesystem::create_directory(f.capath);
    std::filesystem::create_directory(f.crlpath);
    write_file(f.capath + "/" + hash_name(X509_subject_name_hash(ca.get()), "0"),
               cert_pem(ca.get()));
    write_file(
        f.crlpath + "/" +
            hash_name(X509_NAME_hash_ex(X509_CRL_get_issuer(crl.get()), nullptr, nullptr, nullptr),
                      "r0"),
        crl_text);
  }
  ~owner() {
    std::error_code ec;
    std::filesystem::remove_all(f.dir, ec);
  }
};

} // namespace

const files& get() {
  static owner o;
  return o.f;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace test_pki
