// The blocking driver over an in-memory scripted server.
#include "cdk/protocol/messages.h"
#include "cdk/session/connection.h"
#include "fake_server.h"

namespace cdk::session {
namespace {

using test::fake_server;

connect_options options() {
  connect_options o;
  o.user = "app";
  o.password = "S3cr3t-pa55";
  return o;
}

result<std::unique_ptr<connection>> open_with(std::unique_ptr<fake_server> s,
                                              const connect_options& o) {
  return connection::open(std::move(s), o, "db.example");
}

TEST(connection, tls_compression_and_probe_with_an_80_server) {
  auto server = std::make_unique<fake_server>();
  fake_server* peer = server.get();
  auto at_end = std::make_shared<std::vector<int>>();
  server->received_at_end = at_end;
  auto c = open_with(std::move(server), options());
  ASSERT_TRUE(c.ok()) << c.err().message;
  connection& conn = *c.value();
  EXPECT_EQ(conn.tls_version(), "TLSv1.3");
  EXPECT_EQ(conn.tls_cipher(), "TLS_AES_256_GCM_SHA384");
  EXPECT_EQ(conn.compression(), "deflate_stream");
  EXPECT_EQ(conn.client_id(), 42u);
  EXPECT_TRUE(conn.server_generates_ids());
  EXPECT_EQ(conn.info().auth_mechanism, "PLAIN");
  // Expect.Close of the probe is not sent yet: it goes with the first request.
  EXPECT_EQ(peer->received, (std::vector<int>{1, 2, 2, 2, 4, 24}));

  // Requests after set-up are compressed when the flight is 1000 bytes or
  // more; replies are matched in order.
  const auto before = peer->compressed_writes;
  protocol::encode_expect_close(conn.pipeline().output()); // any request/reply pair
  conn.pipeline().expect(protocol::replies::ok);
  protocol::append_frame(conn.pipeline().output(), 12, std::string(1000, 'q'));
  conn.pipeline().expect(protocol::replies::statement);
  auto r1 = conn.read_reply();
  ASSERT_TRUE(r1.ok()) << r1.err().message;
  EXPECT_EQ(r1.value().last().type, 0);
  auto r2 = conn.read_reply();
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(r2.value().last().type, 17);
  EXPECT_EQ(r2.value().info.client_id, 1u);
  EXPECT_EQ(peer->compressed_writes, before + 1); // both requests in one compressed write
  // A small flight goes plain (as Connector/C++ sends messages under 1000 bytes).
  protocol::append_frame(conn.pipeline().output(), 12, "");
  conn.pipeline().expect(protocol::replies::statement);
  ASSERT_TRUE(conn.read_reply().ok());
  EXPECT_EQ(peer->compressed_writes, before + 1);
  EXPECT_EQ(peer->received.back(), 12);
  EXPECT_TRUE(conn.close().ok()); // frees the stream: `peer` is gone
  ASSERT_FALSE(at_end->empty());
  EXPECT_EQ(at_end->back(), 3);
  EXPECT_FALSE(conn.is_open());
}

TEST(connection, a_57_server_means_client_generated_ids) {
  auto server = std::make_unique<fake_server>();
  server->emulate_57 = true;
  fake_server* peer = server.get();
  auto c = open_with(std::move(server), options());
  ASSERT_TRUE(c.ok()) << c.err().message;
  EXPECT_FALSE(c.value()->server_generates_ids());
  EXPECT_TRUE(c.value()->info().probed);
  EXPECT_EQ(c.value()->compression(), "");
  // No Expect.Close (25) after the 5160.
  EXPECT_EQ(peer->received, (std::vector<int>{1, 2, 2, 4, 24}));
  // Uncompressed, the reply's LOCAL notice is taken from the read buffer
  // (pipeline::take_state_notice) and still counts for this reply only.
  for (int i = 0; i < 2; ++i) {
    protocol::append_frame(c.value()->pipeline().output(), 12, "");
    c.value()->pipeline().expect(protocol::replies::statement);
  }
  for (int i = 0; i < 2; ++i) {
    auto r = c.value()->read_reply();
    ASSERT_TRUE(r.ok()) << r.err().message;
    EXPECT_EQ(r.value().info.client_id, 1u);
    ASSERT_EQ(r.value().frames.size(), 1u); // the notice is no frame of it
    EXPECT_EQ(r.value().last().type, 17);
  }
}

TEST(connection, wrong_password_is_1045_without_the_password) {
  auto server = std::make_unique<fake_server>();
  server->password = "the-right-one";
  connect_options o = options();
  o.tls.mode = ssl_mode::disabled;
  auto c = open_with(std::move(server), o);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.err().code, 1045u);
  EXPECT_NE(c.err().message.find("Access denied"), std::string::npos);
  EXPECT_EQ(c.err().message.find("S3cr3t-pa55"), std::string::npos);
}

TEST(connection, auto_on_plain_tcp_uses_mysql41) {
  auto server = std::make_unique<fake_server>();
  server->offer_tls = false;
  connect_options o = options();
  o.tls.mode = ssl_mode::disabled;
  auto c = open_with(std::move(server), o);
  ASSERT_TRUE(c.ok()) << c.err().message;
  EXPECT_EQ(c.value()->info().auth_mechanism, "MYSQL41");
  EXPECT_EQ(c.value()->tls_version(), "");
}

// Issue 36: a connect through the scripted server, and the round trips it
// waited for, to the session and then (the probe's Expect.Close riding with
// it) to the first statement's reply, which must cost exactly one more.
struct counted {
  std::unique_ptr<connection> conn;
  fake_server* peer = nullptr;
  int session = -1;
};

counted open_counted(const connect_options& o, bool local = false, bool refuse_mysql41 = false) {
  auto server = std::make_unique<fake_server>();
  server->local = local;
  server->refuse_mysql41 = refuse_mysql41;
  counted out;
  out.peer = server.get();
  auto c = open_with(std::move(server), o);
  EXPECT_TRUE(c.ok()) << c.err().message;
  if (!c) return out;
  out.conn = std::move(c.value());
  out.session = out.peer->round_trips;
  protocol::append_frame(out.conn->pipeline().output(), 12, "");
  out.conn->pipeline().expect(protocol::replies::statement);
  auto r = out.conn->read_reply();
  EXPECT_TRUE(r.ok()) << r.err().message;
  EXPECT_EQ(out.peer->round_trips, out.session + 1);
  return out;
}

connect_options without_tls(auth_method m) {
  connect_options o = options();
  o.tls.mode = ssl_mode::disabled;
  o.auth = m;
  return o;
}

TEST(connection, tls_plain_session_in_three_round_trips) {
  // CapabilitiesGet+Set{tls}; the TLS handshake; Sets + PLAIN + Expect.Open.
  auto c = open_counted(options());
  ASSERT_TRUE(c.conn);
  EXPECT_EQ(c.conn->compression(), "deflate_stream");
  EXPECT_EQ(c.session, 3);
}

TEST(connection, mysql41_without_tls_in_two_round_trips) {
  // Get + compression + attributes + AuthenticateStart; Continue + Expect.Open.
  auto c = open_counted(without_tls(auth_method::mysql41));
  ASSERT_TRUE(c.conn);
  EXPECT_EQ(c.conn->info().auth_mechanism, "MYSQL41");
  EXPECT_TRUE(c.conn->server_generates_ids());
  EXPECT_EQ(c.session, 2);
  EXPECT_EQ(c.peer->received, (std::vector<int>{1, 2, 2, 4, 5, 24, 25, 12}));
}

TEST(connection, auto_without_tls_probes_after_authentication) {
  // A fallback may follow MYSQL41, and after a failed attempt the server
  // reads nothing but AuthenticateStart: the probe waits for the Ok.
  auto c = open_counted(without_tls(auth_method::auto_select));
  EXPECT_EQ(c.session, 3);
}

TEST(connection, auto_fallback_costs_its_round_trips_only_when_needed) {
  // MYSQL41 refused: AuthenticateStart(SHA256_MEMORY), then its answer with
  // the probe (no fallback is left): two more than MYSQL41's own exchange.
  auto c = open_counted(without_tls(auth_method::auto_select), false, true);
  ASSERT_TRUE(c.conn);
  EXPECT_EQ(c.conn->info().auth_mechanism, "SHA256_MEMORY");
  EXPECT_EQ(c.session, 4);
}

TEST(connection, unix_socket_session_in_one_round_trip) {
  auto c = open_counted(options(), true);
  ASSERT_TRUE(c.conn);
  EXPECT_EQ(c.conn->info().auth_mechanism, "PLAIN");
  EXPECT_EQ(c.session, 1);
}

TEST(connection, speculative_compression_refused_costs_no_round_trip) {
  // Without TLS the algorithm is asked for before the server's list is in:
  // one it does not offer is refused (5175) and the session is uncompressed.
  connect_options o = without_tls(auth_method::mysql41);
  o.compression_algorithms = {"zstd_stream"};
  auto c = open_counted(o);
  ASSERT_TRUE(c.conn);
  EXPECT_EQ(c.conn->compression(), "");
  EXPECT_EQ(c.session, 2);
}

TEST(connection, required_compression_without_tls_waits_for_the_list) {
  connect_options o = without_tls(auth_method::mysql41);
  o.compression = compression_mode::required;
  o.compression_algorithms = {"zstd_stream", "deflate_stream"};
  auto c = open_counted(o);
  ASSERT_TRUE(c.conn);
  EXPECT_EQ(c.conn->compression(), "deflate_stream");
  EXPECT_EQ(c.session, 3);
}

TEST(connection, tls_required_without_server_support_fails) {
  auto server = std::make_unique<fake_server>();
  server->offer_tls = false;
  auto c = open_with(std::move(server), options());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.err().code, client_errc::ssl_connection);
}

TEST(connection, no_reachable_host_names_them_all) {
  connect_options o = options();
  o.connect_timeout = std::chrono::milliseconds(2000);
  o.hosts = {{"127.0.0.1", 1, "", 10}, {"", 33060, "/nonexistent/mysqlx.sock", 90}};
  auto c = connection::open(o);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.err().origin, error_origin::connection);
  // Highest priority first: the socket, then 127.0.0.1:1, each with why.
  const std::string& m = c.err().message;
  EXPECT_EQ(m.rfind("Could not connect to any of the given data sources: all 2 hosts failed", 0),
            0u)
      << m;
  const auto sock = m.find("/nonexistent/mysqlx.sock: Can't connect to local socket");
  const auto tcp = m.find("127.0.0.1:1: Can't connect to 127.0.0.1:1");
  ASSERT_NE(sock, std::string::npos) << m;
  ASSERT_NE(tcp, std::string::npos) << m;
  EXPECT_LT(sock, tcp) << m;
  EXPECT_EQ(m.find(o.password), std::string::npos);
}

// TLS asked for (ssl-mode given) with only Unix sockets to connect to is an
// error before anything is tried; a default mode, DISABLED, or a TCP host
// in the list too go on to connect (here, to sockets that do not exist).
TEST(connection, tls_asked_for_over_unix_sockets_only_is_refused) {
  connect_options o = options();
  o.hosts = {{"", 33060, "/nonexistent/mysqlx.sock", std::nullopt}};
  o.tls.mode = ssl_mode::required;
  o.tls.mode_given = true;
  auto c = connection::open(o);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.err().origin, error_origin::client);
  EXPECT_EQ(c.err().message.rfind("SSL connection over Unix domain socket requested", 0), 0u)
      << c.err().message;
  o.tls.mode_given = false; // the default: TLS is simply not used on the socket
  EXPECT_EQ(connection::open(o).err().origin, error_origin::connection);
  o.tls.mode_given = true;
  o.tls.mode = ssl_mode::disabled;
  EXPECT_EQ(connection::open(o).err().origin, error_origin::connection);
  o.tls.mode = ssl_mode::verify_ca;
  o.hosts.push_back({"127.0.0.1", 1, "", std::nullopt});
  EXPECT_EQ(connection::open(o).err().origin, error_origin::connection);
}

// EXTERNAL and REQUIRED compression with no known algorithm fail before any
// socket: the error is the client's, not "can't connect" to a host where
// nothing listens.
TEST(connection, unconnectable_settings_fail_before_a_socket_is_opened) {
  connect_options o = options();
  o.hosts = {{"127.0.0.1", 1, "", std::nullopt}};
  o.auth = auth_method::external;
  auto c = connection::open(o);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.err().origin, error_origin::client);
  EXPECT_EQ(c.err().code, client_errc::auth_plugin) << c.err().message;
  o.auth = auth_method::auto_select;
  o.compression = compression_mode::required;
  o.unknown_compression_algorithms = "'BAD_Algorithm'";
  c = connection::open(o);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.err().code, client_errc::compression) << c.err().message;
  EXPECT_NE(c.err().message.find("'BAD_Algorithm'"), std::string::npos) << c.err().message;
  o.unknown_compression_algorithms.reset();
  EXPECT_EQ(connection::open(o).err().origin, error_origin::connection);
}

TEST(connection, max_incoming_size_bounds_incoming_frames) {
  connect_options o = options();
  o.max_incoming_size = 16; // the Capabilities reply is larger
  auto c = open_with(std::make_unique<fake_server>(), o);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.err().code, client_errc::malformed_packet);
  EXPECT_NE(c.err().message.find("maximum message size of 16 bytes"), std::string::npos)
      << c.err().message;
}

TEST(connection, a_fatal_server_error_closes_the_session) {
  auto c = open_with(std::make_unique<fake_server>(), options());
  ASSERT_TRUE(c.ok());
  connection& conn = *c.value();
  protocol::append_frame(conn.pipeline().output(), 17, "");
  conn.pipeline().expect(protocol::replies::statement);
  auto r = conn.read_reply();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, 5000u);
  EXPECT_TRUE(r.err().fatal);
  EXPECT_FALSE(conn.is_open());
  auto again = conn.flush();
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.err().code, 5000u); // the same error, not a new attempt
}

// One Sql.StmtExecute-typed frame with this payload, and its reply.
result<protocol::reply> statement(connection& conn, const std::string& payload) {
  protocol::append_frame(conn.pipeline().output(), 12, payload);
  conn.pipeline().expect(protocol::replies::statement);
  return conn.read_reply();
}

// MySQL closes the connection without an error on a message above its
// mysqlx_max_allowed_packet, but so does a crash: the error names the size
// as a cause only when it can be one (issue 25).
TEST(connection, a_close_after_a_large_request_with_no_known_limit_names_the_size) {
  auto server = std::make_unique<fake_server>();
  server->max_message = 1000;
  auto c = open_with(std::move(server), options());
  ASSERT_TRUE(c.ok());
  connection& conn = *c.value();
  auto r = statement(conn, std::string(2000, 'x'));
  ASSERT_FALSE(r.ok());
  const std::string& m = r.err().message;
  EXPECT_EQ(r.err().code, client_errc::lost_connection);
  // The message, not the flight (the docid probe's Expect.Close rides with
  // it): its type byte and payload, as the server counts.
  EXPECT_NE(m.find("after a message of 2001 bytes, and the server's limit is not known"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("may have been too large"), std::string::npos) << m;
  EXPECT_TRUE(r.err().maybe_applied);
  EXPECT_NE(m.find("the server may have applied it"), std::string::npos) << m;
  EXPECT_FALSE(conn.is_open());
}

TEST(connection, a_close_after_a_message_above_the_known_limit_names_the_size) {
  auto server = std::make_unique<fake_server>();
  server->max_message = 1000;
  auto c = open_with(std::move(server), options());
  ASSERT_TRUE(c.ok());
  // As with max-message-size above the server's limit: the connector sends it.
  c.value()->set_server_message_limit(1000);
  auto r = statement(*c.value(), std::string(2000, 'x'));
  ASSERT_FALSE(r.ok());
  const std::string& m = r.err().message;
  EXPECT_NE(m.find("after a message of 2001 bytes, more than the server reads in one message "
                   "(mysqlx_max_allowed_packet = 1000 when the connector asked): a server closes "
                   "the connection without an error on such a message"),
            std::string::npos)
      << m;
}

// A server that crashes (or is killed) after a large request within its
// known limit: nothing about the size can be why.
TEST(connection, a_close_after_a_message_within_the_known_limit_does_not_blame_the_size) {
  auto server = std::make_unique<fake_server>();
  server->max_message = 1000; // stands for the crash: no reply, the connection closes
  auto c = open_with(std::move(server), options());
  ASSERT_TRUE(c.ok());
  c.value()->set_server_message_limit(64 * 1024 * 1024);
  auto r = statement(*c.value(), std::string(5000, 'x'));
  ASSERT_FALSE(r.ok());
  const std::string& m = r.err().message;
  EXPECT_EQ(r.err().code, client_errc::lost_connection);
  EXPECT_EQ(m.find("closes the connection without an error"), std::string::npos) << m;
  EXPECT_EQ(m.find("too large"), std::string::npos) << m;
  EXPECT_NE(m.find("after a message of 5001 bytes, within the server's limit "
                   "(mysqlx_max_allowed_packet = 67108864 when the connector asked)"),
            std::string::npos)
      << m;
  EXPECT_TRUE(r.err().maybe_applied);
  EXPECT_NE(m.find("the server may have applied it"), std::string::npos) << m;
}

TEST(connection, a_close_after_a_small_request_says_nothing_of_sizes) {
  auto server = std::make_unique<fake_server>();
  fake_server* fake = server.get();
  auto c = open_with(std::move(server), options());
  ASSERT_TRUE(c.ok());
  fake->max_message = 10; // after the handshake
  auto r = statement(*c.value(), std::string(100, 'x'));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, client_errc::lost_connection);
  EXPECT_EQ(r.err().message.find("mysqlx_max_allowed_packet"), std::string::npos)
      << r.err().message;
  EXPECT_EQ(r.err().message.find("message of"), std::string::npos) << r.err().message;
}

// A silent server: the timeout names the bound and what was waited for,
// never a size.
TEST(connection, a_read_timeout_after_a_large_request_names_the_option_not_the_size) {
  auto server = std::make_unique<fake_server>();
  fake_server* fake = server.get();
  connect_options o = options();
  o.read_timeout = std::chrono::milliseconds(250);
  auto c = open_with(std::move(server), o);
  ASSERT_TRUE(c.ok());
  fake->silent = true;
  auto r = statement(*c.value(), std::string(5000, 'x'));
  ASSERT_FALSE(r.ok());
  const std::string& m = r.err().message;
  EXPECT_EQ(r.err().code, client_errc::timeout);
  EXPECT_NE(m.find("(read-timeout=250 ms passed without a byte from the server)"),
            std::string::npos)
      << m;
  EXPECT_EQ(m.find("mysqlx_max_allowed_packet"), std::string::npos) << m;
  EXPECT_NE(m.find("the server may have applied it"), std::string::npos) << m;
  EXPECT_FALSE(c.value()->is_open());
}

// MySQL says why before it closes an idle session (wait_timeout): the
// lost-connection error carries it.
TEST(connection, a_close_after_a_disconnection_notice_names_the_servers_reason) {
  auto server = std::make_unique<fake_server>();
  fake_server* fake = server.get();
  auto c = open_with(std::move(server), options());
  ASSERT_TRUE(c.ok());
  fake->closing_notice = test::disconnect_notice(1810, "IO Read error: read_timeout exceeded");
  auto r = statement(*c.value(), "");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, client_errc::lost_connection);
  EXPECT_NE(r.err().message.find("1810 'IO Read error: read_timeout exceeded'"), std::string::npos)
      << r.err().message;
  EXPECT_FALSE(c.value()->is_open());
}

TEST(connection, non_fatal_errors_are_replies) {
  auto c = open_with(std::make_unique<fake_server>(), options());
  ASSERT_TRUE(c.ok());
  protocol::append_frame(c.value()->pipeline().output(), 40, ""); // unknown to the fake
  c.value()->pipeline().expect(protocol::replies::ok);
  auto r = c.value()->read_reply();
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r.value().error);
  EXPECT_EQ(r.value().error->code, 1047u);
  EXPECT_TRUE(c.value()->is_open());
}

TEST(connection, read_reply_without_a_request_is_a_usage_error) {
  auto c = open_with(std::make_unique<fake_server>(), options());
  ASSERT_TRUE(c.ok());
  auto r = c.value()->read_reply();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, client_errc::usage);
}

TEST(connection, connect_timeout_bounds_the_handshake_then_read_and_write_timeouts_apply) {
  auto server = std::make_unique<fake_server>();
  fake_server* fake = server.get();
  connect_options o = options();
  o.connect_timeout = std::chrono::milliseconds(1500);
  o.read_timeout = std::chrono::milliseconds(250);
  o.write_timeout = std::chrono::milliseconds(300);
  auto c = open_with(std::move(server), o);
  ASSERT_TRUE(c.ok()) << c.err().message;
  using ms = std::chrono::milliseconds;
  const std::vector<std::pair<ms, ms>> expected{{ms(1500), ms(1500)}, {ms(250), ms(300)}};
  EXPECT_EQ(fake->timeouts, expected);
}

TEST(connection, a_broken_connection_with_a_request_in_flight_may_have_applied_it) {
  auto server = std::make_unique<fake_server>();
  fake_server* fake = server.get();
  auto c = open_with(std::move(server), options());
  ASSERT_TRUE(c.ok());
  ASSERT_TRUE(statement(*c.value(), "").ok()); // answered: nothing in flight now
  fake->max_message = 10;                      // the server closes on the next request
  auto r = statement(*c.value(), std::string(100, 'x'));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().origin, error_origin::connection);
  EXPECT_TRUE(r.err().maybe_applied);
}

TEST(connection, a_failed_handshake_applied_nothing) {
  auto server = std::make_unique<fake_server>();
  server->password = "another";
  auto bad = open_with(std::move(server), options());
  ASSERT_FALSE(bad.ok());
  EXPECT_FALSE(bad.err().maybe_applied);
  auto server2 = std::make_unique<fake_server>();
  server2->max_message = 10; // CapabilitiesSet is larger: closed mid-handshake
  auto lost = open_with(std::move(server2), options());
  ASSERT_FALSE(lost.ok());
  EXPECT_EQ(lost.err().origin, error_origin::connection);
  EXPECT_FALSE(lost.err().maybe_applied);
}

// Replies a server out of step (or a hostile one) may send: each is a clear
// connection error that closes the session, never a hang or a large
// allocation.
class bad_reply : public ::testing::TestWithParam<std::pair<const char*, std::string>> {};

TEST_P(bad_reply, is_a_connection_error_that_closes_the_session) {
  auto server = std::make_unique<fake_server>();
  fake_server* fake = server.get();
  auto c = open_with(std::move(server), options());
  ASSERT_TRUE(c.ok());
  ASSERT_TRUE(statement(*c.value(), "").ok());
  fake->raw_reply = GetParam().second;
  auto r = statement(*c.value(), "");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().origin, error_origin::connection);
  EXPECT_EQ(r.err().code, client_errc::malformed_packet) << r.err().message;
  EXPECT_TRUE(r.err().maybe_applied);
  EXPECT_NE(r.err().message.find(GetParam().first), std::string::npos) << r.err().message;
  EXPECT_FALSE(c.value()->is_open());
}

std::string raw_frame(std::uint8_t type, const std::string& payload) {
  std::string out;
  protocol::append_frame(out, type, payload);
  return out;
}

INSTANTIATE_TEST_SUITE_P(
    connection, bad_reply,
    ::testing::Values(
        // A frame header announcing 2 GiB: refused from the header alone.
        std::make_pair("maximum message size", std::string("\xff\xff\xff\x7f\x0b", 5)),
        // AuthenticateOk where a statement's reply should be.
        std::make_pair("Mysqlx.Session.AuthenticateOk", raw_frame(4, "")),
        // A notice whose payload is not a Notice.Frame.
        std::make_pair("Mysqlx.Notice.Frame", raw_frame(11, std::string("\xff\xff\xff\xff", 4)))));

} // namespace
} // namespace cdk::session

namespace cdk::session {
namespace {

// A peer on a wrong port: it answers whatever is written with fixed bytes.
class other_protocol_peer final : public stream {
public:
  other_protocol_peer(std::string bytes, std::size_t chunk)
      : m_out(std::move(bytes)), m_chunk(chunk) {}
  status write(std::string_view) override { return ok(); }
  result<std::size_t> read_some(char* buf, std::size_t n) override {
    if (m_out.empty()) return error::connection(client_errc::lost_connection, "closed");
    const std::size_t k = std::min<std::size_t>({n, m_out.size(), m_chunk});
    m_out.copy(buf, k);
    m_out.erase(0, k);
    return k;
  }
  result<bool> readable(std::chrono::milliseconds) override { return !m_out.empty(); }
  status start_tls(const tls_options&, std::string_view) override { return ok(); }
  bool is_tls() const override { return false; }
  bool is_local() const override { return false; }
  std::string tls_version() const override { return {}; }
  std::string tls_cipher() const override { return {}; }
  status set_timeouts(std::chrono::milliseconds, std::chrono::milliseconds) override {
    return ok();
  }
  void close() noexcept override {}

private:
  std::string m_out;
  std::size_t m_chunk;
};

// `chunk`: how many bytes each read gives (a greeting may come in pieces).
std::string connect_error(std::string bytes, std::size_t chunk = 4096) {
  connect_options o = options();
  o.tls.mode = ssl_mode::disabled;
  auto c =
      connection::open(std::make_unique<other_protocol_peer>(std::move(bytes), chunk), o, "db");
  EXPECT_FALSE(c.ok());
  return c.ok() ? std::string() : c.err().message;
}

// The words used to be "X Protocol frame of 1347703880 bytes exceeds ..."
// (HTTP) and "unexpected X Protocol message ... (type 10)" (MySQL's 3306).
TEST(connection, a_server_speaking_another_protocol_is_named) {
  using namespace std::string_literals;
  const std::string http =
      connect_error("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", 3);
  EXPECT_NE(http.find("the server answered in HTTP, not the X Protocol"), std::string::npos)
      << http;
  // A classic greeting: length 74, sequence 0, protocol 10, the version.
  const std::string greeting =
      connect_error("\x4a\0\0\0\x0a"s + "8.0.36\0"s + std::string(67, 'x'));
  EXPECT_NE(greeting.find("speaks MySQL's classic protocol, not the X Protocol (it greeted as "
                          "version 8.0.36)"),
            std::string::npos)
      << greeting;
  EXPECT_NE(greeting.find("33060"), std::string::npos) << greeting;
  const std::string refused =
      connect_error("\x2a\0\0\0\xff\x6a\x04"s + "Host 'x' is not allowed to connect\x01"s);
  EXPECT_NE(refused.find("refused the connection (\"Host 'x' is not allowed to connect?\")"),
            std::string::npos)
      << refused;
  // An X Protocol server's first frames are never taken for another's.
  EXPECT_FALSE(protocol::other_protocol("\x05\0\0\0\x0b\x08\x01\x10\x02"s));
  EXPECT_FALSE(protocol::other_protocol("\x01\0\0\0\x02"s));
  EXPECT_FALSE(protocol::other_protocol("HTTP"));
}

} // namespace
} // namespace cdk::session
