// Plain TCP and Unix-socket transport: connect errors, address fallback,
// buffered reads, EOF and the server-side listener.
#include "cdk/foundation/connect_detail.h"
#include "cdk/foundation/socket_stream.h"
#include "cdk/foundation/stream.h"
#include "test_server.h"

#include <atomic>
#include <filesystem>
#include <gtest/gtest.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <optional>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using namespace std::chrono_literals;
using test_server::one_shot;

std::uint16_t unused_port() {
  // Bind, note the port, close: nothing listens there right after.
  return test_server::listen_local().port();
}

std::string pattern(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + i % 23);
  return s;
}

// Whether this machine has an IPv6 loopback to test with.
bool have_ipv6_loopback() {
  return cdk::listener::listen_tcp("::1", 0).ok();
}

TEST(Connect, RefusedPortNamesAddressAndReason) {
  std::uint16_t port = unused_port();
  auto s = cdk::connect_tcp("127.0.0.1", port, 2s);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.err().code, cdk::client_errc::conn_host_error);
  EXPECT_EQ(s.err().origin, cdk::error_origin::connection);
  EXPECT_EQ(s.err().message,
            "Can't connect to 127.0.0.1:" + std::to_string(port) + " (Connection refused)");
}

TEST(Connect, UnknownHost) {
  auto s = cdk::connect_tcp("no-such-host.invalid", 33060, 2s);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.err().code, cdk::client_errc::unknown_host);
  EXPECT_EQ(s.err().message.rfind("Unknown host 'no-such-host.invalid'", 0), 0u) << s.err().message;
}

TEST(Connect, TimeoutWhenThePeerNeverAnswers) {
  // A listener with a full accept queue drops further SYNs, so a connect to
  // it neither succeeds nor fails: only the timeout ends it.
  auto l = cdk::listener::listen_tcp("127.0.0.1", 0, /*backlog=*/0);
  ASSERT_TRUE(l);
  std::vector<std::unique_ptr<cdk::stream>> fillers;
  std::optional<cdk::error> failure;
  for (int i = 0; i < 16 && !failure; ++i) {
    auto s = cdk::connect_tcp("127.0.0.1", l.value().port(), 300ms);
    if (s) {
      fillers.push_back(std::move(s).value());
    } else {
      failure = std::move(s).err();
    }
  }
  ASSERT_TRUE(failure) << "the accept queue never filled up";
  EXPECT_EQ(failure->code, cdk::client_errc::timeout) << failure->message;
  EXPECT_NE(failure->message.find("timed out after 300 ms"), std::string::npos);
}

TEST(Connect, TriesEveryAddressInOrder) {
  if (!have_ipv6_loopback()) GTEST_SKIP() << "no IPv6 loopback (::1) on this machine";
  one_shot srv(test_server::listen_local(), [](cdk::socket_stream& s) { (void)s.write("hi"); });
  // ::1 first (nothing listens there on this port), then 127.0.0.1.
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICHOST;
  std::string port = std::to_string(srv.port());
  addrinfo* v6 = nullptr;
  addrinfo* v4 = nullptr;
  ASSERT_EQ(getaddrinfo("::1", port.c_str(), &hints, &v6), 0);
  ASSERT_EQ(getaddrinfo("127.0.0.1", port.c_str(), &hints, &v4), 0);
  v6->ai_next = v4;
  auto s = cdk::connect_resolved(v6, "localhost", srv.port(), 2s);
  v6->ai_next = nullptr;
  ASSERT_TRUE(s) << s.err().message;
  auto hi = test_server::read_exact(*s.value(), 2);
  ASSERT_TRUE(hi);
  EXPECT_EQ(hi.value(), "hi");
  // With only the refusing address, the error names the host as given.
  auto bad = cdk::connect_resolved(v6, "localhost", srv.port(), 2s);
  freeaddrinfo(v6);
  freeaddrinfo(v4);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.err().message, "Can't connect to localhost:" + port + " (Connection refused)");
}

bool nodelay(int fd) {
  int on = 0;
  socklen_t len = sizeof on;
  return ::getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, &len) == 0 && on != 0;
}

TEST(Connect, ResolvesNamesAndSetsNodelay) {
  bool server_nodelay = false;
  one_shot srv(test_server::listen_local(), [&server_nodelay](cdk::socket_stream& s) {
    server_nodelay = nodelay(s.native_handle());
    (void)s.write("ok");
  });
  auto s = cdk::connect_tcp("localhost", srv.port(), 2s);
  ASSERT_TRUE(s) << s.err().message;
  auto& sock = dynamic_cast<cdk::socket_stream&>(*s.value());
  EXPECT_TRUE(nodelay(sock.native_handle()));
  EXPECT_EQ(sock.peer(), "localhost:" + std::to_string(srv.port()));
  auto got = test_server::read_exact(sock, 2);
  ASSERT_TRUE(got);
  EXPECT_EQ(got.value(), "ok");
  srv.join();
  EXPECT_TRUE(server_nodelay);
}

TEST(Connect, Ipv6Loopback) {
  if (!have_ipv6_loopback()) GTEST_SKIP() << "no IPv6 loopback (::1) on this machine";
  auto l = cdk::listener::listen_tcp("::1", 0);
  ASSERT_TRUE(l) << l.err().message;
  one_shot srv(std::move(l).value(), [](cdk::socket_stream& s) {
    auto got = test_server::read_exact(s, 3);
    if (got) (void)s.write(got.value() + "!");
  });
  auto s = cdk::connect_tcp("::1", srv.port(), 2s);
  ASSERT_TRUE(s) << s.err().message;
  ASSERT_TRUE(s.value()->write("abc"));
  auto back = test_server::read_exact(*s.value(), 4);
  ASSERT_TRUE(back);
  EXPECT_EQ(back.value(), "abc!");
  EXPECT_FALSE(s.value()->is_local());
}

TEST(Connect, UnixSocket) {
  std::string path = std::filesystem::temp_directory_path() /
                     ("mysqlx-test-" + std::to_string(::getpid()) + ".sock");
  auto l = cdk::listener::listen_unix(path);
  ASSERT_TRUE(l) << l.err().message;
  {
    one_shot srv(std::move(l).value(), [](cdk::socket_stream& s) {
      EXPECT_TRUE(s.is_local());
      (void)s.write("local");
    });
    auto s = cdk::connect_unix(path, 2s);
    ASSERT_TRUE(s) << s.err().message;
    EXPECT_TRUE(s.value()->is_local());
    EXPECT_FALSE(s.value()->is_tls());
    auto got = test_server::read_exact(*s.value(), 5);
    ASSERT_TRUE(got);
    EXPECT_EQ(got.value(), "local");
  }
  // The listener removed its socket file.
  EXPECT_FALSE(std::filesystem::exists(path));
  auto missing = cdk::connect_unix(path, 2s);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.err().code, cdk::client_errc::connection_error);
  EXPECT_EQ(missing.err().message,
            "Can't connect to local socket '" + path + "' (No such file or directory)");
  auto too_long = cdk::connect_unix(std::string(200, 'x'), 2s);
  ASSERT_FALSE(too_long);
  EXPECT_EQ(too_long.err().code, cdk::client_errc::bad_option);
}

TEST(Stream, SmallReadsAreServedFromTheBuffer) {
  const std::string data = pattern(10000);
  one_shot srv(test_server::listen_local(), [&data](cdk::socket_stream& s) {
    (void)s.write(data);
    char c;
    (void)s.read_some(&c, 1); // keep the connection until the client is done
  });
  auto s = cdk::connect_tcp("127.0.0.1", srv.port(), 2s);
  ASSERT_TRUE(s);
  auto& sock = dynamic_cast<cdk::socket_stream&>(*s.value());
  std::string got;
  char c;
  auto one = sock.read_some(&c, 1);
  ASSERT_TRUE(one);
  ASSERT_EQ(one.value(), 1u);
  got += c;
  // One recv() took more than was asked for; it waits in the buffer.
  EXPECT_GT(sock.buffered(), 0u);
  EXPECT_LT(sock.buffered(), cdk::socket_stream::read_buffer_size);
  while (got.size() < data.size()) {
    char buf[3];
    auto r = sock.read_some(buf, std::min<std::size_t>(sizeof buf, data.size() - got.size()));
    ASSERT_TRUE(r) << r.err().message;
    got.append(buf, r.value());
  }
  EXPECT_EQ(got, data);
  EXPECT_EQ(sock.buffered(), 0u);
  ASSERT_TRUE(sock.write("x"));
}

TEST(Stream, LargeReadsBypassTheBuffer) {
  const std::string data = pattern(std::size_t{200} * 1024);
  one_shot srv(test_server::listen_local(),
               [&data](cdk::socket_stream& s) { (void)s.write(data); });
  auto s = cdk::connect_tcp("127.0.0.1", srv.port(), 2s);
  ASSERT_TRUE(s);
  auto got = test_server::read_exact(*s.value(), data.size());
  ASSERT_TRUE(got) << got.err().message;
  EXPECT_EQ(got.value(), data);
}

TEST(Stream, EofIsLostConnection) {
  one_shot srv(test_server::listen_local(), [](cdk::socket_stream& s) { (void)s.write("ab"); });
  auto s = cdk::connect_tcp("127.0.0.1", srv.port(), 2s);
  ASSERT_TRUE(s);
  auto got = test_server::read_exact(*s.value(), 2); // data before the EOF still arrives
  ASSERT_TRUE(got);
  char c;
  auto r = s.value()->read_some(&c, 1);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().code, cdk::client_errc::lost_connection);
  EXPECT_TRUE(r.err().fatal);
  EXPECT_EQ(r.err().message, "Lost connection to 127.0.0.1:" + std::to_string(srv.port()) +
                                 " (connection closed by peer)");
}

TEST(Stream, WritingToAClosedPeerIsAnErrorNotSigpipe) {
  one_shot srv(test_server::listen_local(), [](cdk::socket_stream&) {});
  auto s = cdk::connect_tcp("127.0.0.1", srv.port(), 2s);
  ASSERT_TRUE(s);
  srv.join(); // the server closed its end
  // The first writes may still be accepted by the kernel; once the RST is
  // back, send() fails with EPIPE/ECONNRESET. SIGPIPE would kill the test.
  cdk::status st = cdk::ok();
  for (int i = 0; i < 200 && st; ++i) {
    st = s.value()->write(pattern(4096));
    if (st) std::this_thread::sleep_for(5ms);
  }
  ASSERT_FALSE(st);
  EXPECT_EQ(st.err().code, cdk::client_errc::lost_connection) << st.err().message;
}

TEST(Stream, UseAfterCloseIsLostConnection) {
  one_shot srv(test_server::listen_local(), [](cdk::socket_stream&) {});
  auto s = cdk::connect_tcp("127.0.0.1", srv.port(), 2s);
  ASSERT_TRUE(s);
  s.value()->close();
  EXPECT_EQ(s.value()->write("x").err().code, cdk::client_errc::lost_connection);
  char c;
  EXPECT_EQ(s.value()->read_some(&c, 1).err().code, cdk::client_errc::lost_connection);
}

TEST(Stream, IoTimeoutBoundsReadsAndTheTlsHandshake) {
  // A server that accepts and then says nothing until the client is done.
  std::atomic<bool> done{false};
  one_shot srv(test_server::listen_local(), [&done](cdk::socket_stream&) {
    while (!done) std::this_thread::sleep_for(10ms);
  });
  auto s = cdk::connect_tcp("127.0.0.1", srv.port(), 2s);
  ASSERT_TRUE(s);
  auto& sock = dynamic_cast<cdk::socket_stream&>(*s.value());
  ASSERT_TRUE(sock.set_io_timeout(100ms));
  char c;
  auto r = sock.read_some(&c, 1);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().code, cdk::client_errc::timeout) << r.err().message;
  EXPECT_TRUE(r.err().fatal);
  cdk::tls_options tls;
  auto st = sock.start_tls(tls, "127.0.0.1");
  ASSERT_FALSE(st);
  EXPECT_EQ(st.err().code, cdk::client_errc::timeout) << st.err().message;
  EXPECT_NE(st.err().message.find("TLS handshake"), std::string::npos) << st.err().message;
  done = true;
}

TEST(Stream, WriteTimeoutBoundsAWriteThePeerNeverReads) {
  // A server that never reads: once the socket buffers are full, a write
  // waits; the write bound ends it. Reads are bounded separately.
  std::atomic<bool> done{false};
  one_shot srv(test_server::listen_local(), [&done](cdk::socket_stream&) {
    while (!done) std::this_thread::sleep_for(10ms);
  });
  auto s = cdk::connect_tcp("127.0.0.1", srv.port(), 2s);
  ASSERT_TRUE(s);
  ASSERT_TRUE(s.value()->set_timeouts(0ms, 100ms));
  const std::string chunk = pattern(std::size_t{1} << 20);
  cdk::status st = cdk::ok();
  for (int i = 0; i < 256 && st; ++i) st = s.value()->write(chunk); // at most 256 MiB
  ASSERT_FALSE(st);
  EXPECT_EQ(st.err().code, cdk::client_errc::timeout) << st.err().message;
  done = true;
}

// dead-peer-timeout: keepalive finds a silent peer while we wait for a
// reply, await_readable() while our bytes go unacknowledged; both about t.
// (That a cut peer then fails a call is test/integration/partition's.)
int sockopt(int fd, int level, int name) {
  int v = -1;
  socklen_t len = sizeof v;
  EXPECT_EQ(::getsockopt(fd, level, name, &v, &len), 0);
  return v;
}

TEST(Stream, DeadPeerTimeoutSetsKeepalive) {
  one_shot srv(test_server::listen_local(), [](cdk::socket_stream&) {});
  auto s = cdk::connect_tcp("127.0.0.1", srv.port(), 2s);
  ASSERT_TRUE(s);
  const int fd = dynamic_cast<cdk::socket_stream&>(*s.value()).native_handle();
  EXPECT_EQ(sockopt(fd, SOL_SOCKET, SO_KEEPALIVE), 0); // nothing until asked
  ASSERT_TRUE(s.value()->set_dead_peer_timeout(5000ms));
  EXPECT_EQ(sockopt(fd, SOL_SOCKET, SO_KEEPALIVE), 1);
  // Not TCP_USER_TIMEOUT: Linux would apply it to a closed window too.
  EXPECT_EQ(sockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT), 0);
  EXPECT_EQ(sockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE), 2);
  EXPECT_EQ(sockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL), 1);
  EXPECT_EQ(sockopt(fd, IPPROTO_TCP, TCP_KEEPCNT), 3);
  // 0 turns it off again.
  ASSERT_TRUE(s.value()->set_dead_peer_timeout(0ms));
  EXPECT_EQ(sockopt(fd, SOL_SOCKET, SO_KEEPALIVE), 0);
  srv.join();
}

// A live server that stops reading for longer than dead-peer-timeout (busy
// with an earlier message) is not dead: its kernel answers the window
// probes. (With TCP_USER_TIMEOUT the write failed with ETIMEDOUT.)
TEST(Stream, APeerThatStopsReadingIsNotDead) {
  constexpr std::size_t n = std::size_t{8} << 20; // above any socket buffers
  one_shot srv(test_server::listen_local(), [](cdk::socket_stream& s) {
    std::this_thread::sleep_for(2500ms);
    auto got = test_server::read_exact(s, n);
    (void)s.write(got ? "ok" : "no");
  });
  auto s = cdk::connect_tcp("127.0.0.1", srv.port(), 2s);
  ASSERT_TRUE(s);
  ASSERT_TRUE(s.value()->set_dead_peer_timeout(1000ms));
  ASSERT_TRUE(s.value()->write(pattern(n)));
  auto got = test_server::read_exact(*s.value(), 2);
  ASSERT_TRUE(got) << got.err().message;
  EXPECT_EQ(got.value(), "ok");
  srv.join();
}

TEST(Stream, KeepaliveAddsUpToTheDeadPeerTimeout) {
  for (int t : {1000, 2000, 5000, 10000, 60000, 600000}) {
    const auto k = cdk::keepalive_for(std::chrono::milliseconds(t));
    EXPECT_GE(k.idle, 1) << t;
    EXPECT_GE(k.interval, 1) << t;
    // Never later than the timeout rounded up to seconds (a shorter one is
    // cut by TCP_USER_TIMEOUT at the next probe), never under half of it.
    const int total = k.idle + k.count * k.interval;
    EXPECT_LE(total * 1000, std::max(t, 4000) + 999) << t;
    EXPECT_GE(total * 1000, t / 2) << t;
  }
  // The largest value the option takes still gives what Linux accepts.
  const auto k = cdk::keepalive_for(std::chrono::milliseconds(9'223'372'036'854));
  EXPECT_LE(k.idle, 32767);
  EXPECT_LE(k.interval, 32767);
  EXPECT_GE(k.idle, 1);
}

// The kernel's give-up (ETIMEDOUT) reads as a dead peer, not a plain loss.
TEST(Stream, EtimedoutIsADeadPeer) {
  const cdk::error e = cdk::socket_errno_error("db:33060", ETIMEDOUT);
  EXPECT_EQ(e.code, cdk::client_errc::dead_peer);
  EXPECT_EQ(e.origin, cdk::error_origin::connection);
  EXPECT_NE(e.message.find("stopped answering"), std::string::npos) << e.message;
  EXPECT_EQ(cdk::socket_errno_error("db:33060", ECONNRESET).code,
            cdk::client_errc::lost_connection);
}

TEST(Listener, AcceptTimesOut) {
  auto l = test_server::listen_local();
  auto a = l.accept(50ms);
  ASSERT_FALSE(a);
  EXPECT_EQ(a.err().code, cdk::client_errc::timeout);
}

TEST(Listener, ShutdownWakesABlockedAccept) {
  auto l = test_server::listen_local();
  cdk::result<std::unique_ptr<cdk::socket_stream>> a = cdk::error{};
  std::thread t([&] { a = l.accept(0ms); });
  std::this_thread::sleep_for(100ms);
  l.shutdown();
  t.join();
  ASSERT_FALSE(a);
  EXPECT_EQ(a.err().code, cdk::client_errc::usage) << a.err().message;
}

TEST(Listener, RejectsANonNumericAddress) {
  auto l = cdk::listener::listen_tcp("localhost", 0);
  ASSERT_FALSE(l);
  EXPECT_EQ(l.err().code, cdk::client_errc::bad_option);
}

} // namespace
