// The TLS test peer: an in-process TLS echo server (server-side API) and the
// client connection to it, plus assertion helpers shared by the TLS tests.
#pragma once

#include "cdk/foundation/socket_stream.h"
#include "cdk/foundation/stream.h"
#include "cdk/foundation/tls_server.h"
#include "test_pki.h"
#include "test_server.h"

#include <atomic>
#include <gtest/gtest.h>
#include <memory>
#include <string>

namespace tls_test {

using cdk::ssl_mode;
using cdk::tls_options;

struct server_view {
  bool tls_ok = false;
  std::string version, cipher, sni, error;
};

// Which certificate the test server presents (test_pki.h).
enum class server_cert { good, revoked, cn_only };

// A TLS echo server for one connection: handshake, then echo until EOF.
class tls_echo {
public:
  explicit tls_echo(server_cert cert = server_cert::good)
      : m_ctx(make_ctx(cert)),
        m_server(test_server::listen_local(), [this](cdk::socket_stream& s) { serve(s); }) {}

  // Connects, upgrades with opts/host, and round-trips a message.
  cdk::status connect(const tls_options& opts, const std::string& host = "127.0.0.1") {
    auto s = cdk::connect_tcp("127.0.0.1", m_server.port(), std::chrono::seconds(5));
    if (!s) return std::move(s).err();
    m_client = std::move(s).value();
    if (auto st = m_client->start_tls(opts, host); !st) {
      m_client.reset(); // the server's handshake ends with EOF
      m_server.join();
      return st;
    }
    if (auto st = m_client->write("ping"); !st) return st;
    auto echo = test_server::read_exact(*m_client, 4);
    if (!echo) return std::move(echo).err();
    EXPECT_EQ(echo.value(), "ping");
    return cdk::ok();
  }
  const server_view& server() {
    m_client.reset();
    m_server.join();
    return m_view;
  }
  cdk::stream& client() { return *m_client; }
  // Makes the server drop the connection (it stops echoing on the next
  // read), keeping the client open.
  void stop_server() {
    m_stop = true;
    (void)m_client->write("!");
    m_server.join();
  }

private:
  static cdk::tls_server_context make_ctx(server_cert cert) {
    const auto& pki = test_pki::get();
    auto ctx = cert == server_cert::revoked
                   ? cdk::tls_server_context::from_files(pki.revoked_cert, pki.revoked_key)
               : cert == server_cert::cn_only
                   ? cdk::tls_server_context::from_files(pki.cn_only_cert, pki.cn_only_key)
                   : cdk::tls_server_context::from_files(pki.server_cert, pki.server_key);
    if (!ctx) throw std::runtime_error(ctx.err().message);
    return std::move(ctx).value();
  }
  void serve(cdk::socket_stream& s) {
    auto st = s.accept_tls(m_ctx);
    if (!st) {
      m_view.error = st.err().message;
      return;
    }
    m_view.tls_ok = true;
    m_view.version = s.tls_version();
    m_view.cipher = s.tls_cipher();
    m_view.sni = s.tls_server_name();
    char buf[256];
    for (;;) {
      auto got = s.read_some(buf, sizeof buf);
      if (!got || m_stop || !s.write(std::string_view(buf, got.value()))) return;
    }
  }

  // Order matters: the client is destroyed first, so the server thread
  // sees EOF and the one_shot destructor can join it.
  cdk::tls_server_context m_ctx;
  server_view m_view;
  std::atomic<bool> m_stop{false};
  test_server::one_shot m_server;
  std::unique_ptr<cdk::stream> m_client;
};

inline tls_options opts_with(ssl_mode mode, std::string ca = {}) {
  tls_options o;
  o.mode = mode;
  o.ca = std::move(ca);
  return o;
}

inline void expect_ssl_error(const cdk::status& st, const std::string& text) {
  ASSERT_FALSE(st.ok()) << "expected a TLS failure mentioning: " << text;
  EXPECT_EQ(st.err().code, cdk::client_errc::ssl_connection) << st.err().message;
  EXPECT_TRUE(st.err().fatal);
  EXPECT_NE(st.err().message.find(text), std::string::npos) << st.err().message;
}

inline void expect_bad_option(const cdk::status& st, const std::string& text) {
  ASSERT_FALSE(st.ok()) << "expected a bad option mentioning: " << text;
  EXPECT_EQ(st.err().code, cdk::client_errc::bad_option) << st.err().message;
  EXPECT_NE(st.err().message.find(text), std::string::npos) << st.err().message;
}

} // namespace tls_test
