// What the X Plugin's connection variables do in xserverd, as MySQL 8.0's X
// Plugin does it (session_io.cc): the idle and read timeouts end with a
// GLOBAL warning notice and a close, the write and connect timeouts and a
// message above mysqlx_max_allowed_packet with a silent close, a connection
// above mysqlx_max_connections is closed unanswered; and the counters.
// Small timeouts (1 s) keep them quick; GLOBAL changes are put back.
#include "mysqlx_notice.pb.h"
#include "mysqlx_sql.pb.h"
#include "test/xserver/tests/xvars_test_util.h"

#include <chrono>
#include <gtest/gtest.h>
#include <thread>

namespace xtest {
namespace {

using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

// What the server sends until it closes the connection, and after how
// long; nullopt if it has not closed within `limit`.
struct close_seen {
  std::vector<frame> frames;
  clock_type::duration after;
};
std::optional<close_seen> until_closed(xclient& c, std::chrono::seconds limit) {
  c.set_read_timeout(limit);
  const auto start = clock_type::now();
  close_seen seen;
  while (auto f = c.read()) seen.frames.push_back(std::move(*f));
  seen.after = clock_type::now() - start;
  if (seen.after >= limit) return std::nullopt; // our read timed out: still open
  return seen;
}

// ngs::Client::on_read_timeout: Warning{ERROR, 1810, "IO Read error:
// read_timeout exceeded"} in a GLOBAL notice, which has no scope field.
void expect_read_timeout_notice(const std::vector<frame>& frames) {
  ASSERT_EQ(frames.size(), 1u) << describe(frames);
  ASSERT_TRUE(is(frames[0], server_msg::notice)) << describe(frames);
  Mysqlx::Notice::Frame n;
  ASSERT_TRUE(n.ParseFromString(frames[0].payload));
  EXPECT_EQ(n.type(), static_cast<std::uint32_t>(Mysqlx::Notice::Frame::WARNING));
  EXPECT_FALSE(n.has_scope());
  Mysqlx::Notice::Warning w;
  ASSERT_TRUE(w.ParseFromString(n.payload()));
  EXPECT_EQ(w.level(), Mysqlx::Notice::Warning::ERROR);
  EXPECT_EQ(w.code(), 1810u);
  EXPECT_EQ(w.msg(), "IO Read error: read_timeout exceeded");
}

// Counters move when the server's session thread has finished closing,
// which may be a little after the client saw the close.
bool status_reaches(const std::string& name, std::uint64_t at_least) {
  xclient c = authed(port80());
  for (int i = 0; i < 100; ++i) {
    if (status_of(c, name) >= at_least) return true;
    std::this_thread::sleep_for(50ms);
  }
  return false;
}

std::string select_stmt(xclient& c, const std::string& sql) {
  Mysqlx::Sql::StmtExecute m;
  m.set_stmt(sql);
  return c.encode(client_msg::sql_stmt_execute, m);
}

// A SELECT 1 whose frame length (type byte and payload) is exactly `length`.
std::string select_one_of_length(xclient& c, std::size_t length) {
  for (std::size_t pad = length; pad > 0; --pad) {
    const std::string wire = select_stmt(c, "SELECT 1 #" + std::string(pad, 'x'));
    if (wire.size() - 4 == length) return wire;
  }
  throw std::runtime_error("no SELECT of that length");
}

TEST(XvarsIo80, AnIdleSessionPastWaitTimeoutGetsMySQLsNoticeAndIsClosed) {
  xclient first = authed(port80());
  const std::uint64_t aborted = status_of(first, "Mysqlx_aborted_clients");
  xclient c = authed(port80());
  expect_ok(c, "SET SESSION mysqlx_wait_timeout = 1");
  auto seen = until_closed(c, 10s);
  ASSERT_TRUE(seen) << "not closed";
  expect_read_timeout_notice(seen->frames);
  EXPECT_GE(seen->after, 900ms); // it waited for the timeout
  EXPECT_TRUE(status_reaches("Mysqlx_aborted_clients", aborted + 1));
}

TEST(XvarsIo80, ReadTimeoutBoundsAStalledMessageNotAStalledLength) {
  xclient c = authed(port80());
  expect_ok(c, "SET SESSION mysqlx_read_timeout = 1");
  const std::string wire = select_stmt(c, "SELECT 7");
  // Two of the four length bytes: still waiting for a message (wait_timeout).
  c.send_raw(wire.substr(0, 2));
  std::this_thread::sleep_for(1800ms);
  c.send_raw(wire.substr(2));
  EXPECT_EQ(rows_of(c.reply()), (rows_t{{"7"}}));
  // The length and part of the message: read_timeout.
  c.send_raw(wire.substr(0, 7));
  auto seen = until_closed(c, 10s);
  ASSERT_TRUE(seen) << "not closed";
  expect_read_timeout_notice(seen->frames);
}

TEST(XvarsIo80, WriteTimeoutClosesAClientThatStopsReading) {
  xclient first = authed(port80());
  const std::uint64_t aborted = status_of(first, "Mysqlx_aborted_clients");
  xclient c = authed(port80());
  expect_ok(c, "SET SESSION mysqlx_write_timeout = 1");
  // 64 MiB of rows: far more than the socket buffers hold.
  c.send_raw(select_stmt(c, "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r "
                            "WHERE n < 64) SELECT REPEAT('x', 1048576) FROM r"));
  std::this_thread::sleep_for(6s); // the kernel takes a few seconds to stop accepting data
  auto seen = until_closed(c, 30s);
  ASSERT_TRUE(seen) << "not closed";
  // What was written before the timeout arrives, then the end.
  ASSERT_FALSE(seen->frames.empty());
  EXPECT_FALSE(is(seen->frames.back(), server_msg::sql_stmt_execute_ok));
  EXPECT_LT(rows_of(seen->frames).size(), 64u);
  EXPECT_TRUE(status_reaches("Mysqlx_aborted_clients", aborted + 1));
}

TEST(XvarsIo80, ConnectTimeoutClosesAConnectionThatDoesNotAuthenticate) {
  global_setting g("mysqlx_connect_timeout", "1");
  xclient first = authed(port80());
  const std::uint64_t errors = status_of(first, "Mysqlx_connection_errors");
  xclient idle(port80()); // ServerHello read, then nothing
  auto seen = until_closed(idle, 10s);
  ASSERT_TRUE(seen) << "not closed";
  EXPECT_TRUE(seen->frames.empty()) << describe(seen->frames); // without a word
  EXPECT_TRUE(status_reaches("Mysqlx_connection_errors", errors + 1));
  // An authenticated session is past it.
  xclient in = authed(port80());
  std::this_thread::sleep_for(1500ms);
  EXPECT_EQ(rows_of(in.sql("SELECT 1")), (rows_t{{"1"}}));
}

TEST(XvarsIo80, TheTlsHandshakeWaitsAtMostReadTimeout) {
  global_setting g("mysqlx_read_timeout", "1");
  xclient c(port80());
  ASSERT_TRUE(is(cap_set(c, {{"tls", any_bool(true)}}).back(), server_msg::ok));
  // No ClientHello follows: Client::activate_tls gives up after
  // min(mysqlx_connect_timeout, mysqlx_read_timeout).
  auto seen = until_closed(c, 10s);
  ASSERT_TRUE(seen) << "not closed";
  EXPECT_TRUE(seen->frames.empty()) << describe(seen->frames);
}

TEST(XvarsIo80, SetGlobalTimeoutAlsoAppliesToTheConnectionThatSetsIt) {
  global_setting keep("mysqlx_wait_timeout", "DEFAULT"); // puts it back afterwards
  xclient c = authed(port80());
  expect_ok(c, "SET GLOBAL mysqlx_wait_timeout = 1");
  // Its session value stays; new sessions get the new GLOBAL value ...
  EXPECT_EQ(rows_of(c.sql("SELECT @@session.mysqlx_wait_timeout")), (rows_t{{"28800"}}));
  xclient later = authed(port80());
  EXPECT_EQ(rows_of(later.sql("SELECT @@mysqlx_wait_timeout")), (rows_t{{"1"}}));
  // ... and, as update_thd_system_variable hands the value to the setting
  // session's client, this connection now waits 1 s too.
  auto seen = until_closed(c, 10s);
  ASSERT_TRUE(seen) << "not closed";
  expect_read_timeout_notice(seen->frames);
}

TEST(XvarsIo80, AnInteractiveClientWaitsInteractiveTimeout) {
  global_setting g("mysqlx_interactive_timeout", "1");
  xclient c(port80());
  ASSERT_TRUE(is(cap_set(c, {{"client.interactive", any_bool(true)}}).back(), server_msg::ok));
  ASSERT_TRUE(is(c.auth("MYSQL41", "xtest", "xtest-pw").back(), server_msg::sess_authenticate_ok));
  EXPECT_EQ(rows_of(c.sql("SELECT @@mysqlx_wait_timeout, @@global.mysqlx_wait_timeout")),
            (rows_t{{"1", "28800"}}));
  auto seen = until_closed(c, 10s);
  ASSERT_TRUE(seen) << "not closed";
  expect_read_timeout_notice(seen->frames);
  xclient plain = authed(port80()); // not interactive: mysqlx_wait_timeout
  EXPECT_EQ(rows_of(plain.sql("SELECT @@mysqlx_wait_timeout")), (rows_t{{"28800"}}));
}

TEST(XvarsIo80, MaxAllowedPacketIsTheLimitOfEachMessage) {
  xclient c = authed(port80());
  EXPECT_EQ(rows_of(c.sql("SELECT @@mysqlx_max_allowed_packet")), (rows_t{{"67108864"}}));
  global_setting g("mysqlx_max_allowed_packet", "1024");
  // At the limit: answered.
  c.send_raw(select_one_of_length(c, 1024));
  EXPECT_EQ(rows_of(c.reply()), (rows_t{{"1"}}));
  // One above, behind a message that fits: that one is answered, then the
  // connection closes without a word (Protocol_decoder: "Force disconnect").
  c.send_raw(select_stmt(c, "SELECT 2") + select_one_of_length(c, 1025));
  EXPECT_EQ(rows_of(c.reply()), (rows_t{{"2"}}));
  auto seen = until_closed(c, 10s);
  ASSERT_TRUE(seen) << "not closed";
  EXPECT_TRUE(seen->frames.empty()) << describe(seen->frames);
}

TEST(XvarsIo80, SetGlobalMaxAllowedPacketAppliesToTheNextMessage) {
  global_setting keep("mysqlx_max_allowed_packet", "DEFAULT");
  xclient c = authed(port80());
  // Both in one write: the second one's length is read under the new limit.
  c.send_raw(select_stmt(c, "SET GLOBAL mysqlx_max_allowed_packet = 1024") +
             select_one_of_length(c, 2000));
  EXPECT_TRUE(is(c.reply().back(), server_msg::sql_stmt_execute_ok));
  auto seen = until_closed(c, 10s);
  ASSERT_TRUE(seen) << "not closed";
  EXPECT_TRUE(seen->frames.empty()) << describe(seen->frames);
}

TEST(XvarsIo80, ConnectionsAboveMaxConnectionsAreClosedUnanswered) {
  xclient first = authed(port80()); // in before the limit goes down
  const std::uint64_t rejected = status_of(first, "Mysqlx_connections_rejected");
  global_setting g("mysqlx_max_connections", "1");
  xclient refused(port80(), /*hello=*/false);
  refused.set_read_timeout(10s);
  EXPECT_FALSE(refused.read()); // no ServerHello: closed at once
  EXPECT_EQ(status_of(first, "Mysqlx_connections_rejected"), rejected + 1);
}

TEST(XvarsIo80, AcceptedAndClosedConnectionsAreCounted) {
  xclient c = authed(port80());
  const std::uint64_t accepted = status_of(c, "Mysqlx_connections_accepted");
  const std::uint64_t closed = status_of(c, "Mysqlx_connections_closed");
  { xclient brief(port80()); }
  EXPECT_GE(status_of(c, "Mysqlx_connections_accepted"), accepted + 1);
  EXPECT_TRUE(status_reaches("Mysqlx_connections_closed", closed + 1));
}

} // namespace
} // namespace xtest
