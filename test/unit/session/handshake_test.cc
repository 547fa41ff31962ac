// The handshake state machine against a scripted peer: the exact messages
// the client sends at each step, and the decisions it takes.
#include "cdk/session/handshake.h"
#include "cdk/session/scramble.h"
#include "script.h"

namespace cdk::session {
namespace {

using namespace test;
using kind = next_action::kind;

constexpr const char* password = "S3cr3t-pa55";

connect_options base_options() {
  connect_options o;
  o.user = "app";
  o.password = password;
  o.schema = "shop";
  return o;
}

handshake_env env(bool local = false) {
  handshake_env e;
  e.local_transport = local;
  e.compression_supported = {"deflate_stream"};
  e.client_attributes = {{"_client_name", "mysqlx"}, {"_pid", "42"}};
  return e;
}

// Feeds frames; every one but the last must ask for more.
next_action feed(handshake& hs, std::vector<frame> frames) {
  next_action a;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    a = hs.on_frame(std::move(frames[i]));
    if (i + 1 < frames.size()) {
      EXPECT_EQ(a.what, kind::read) << "frame " << i;
    }
  }
  return a;
}

// start() without TLS, compression or attributes: CapabilitiesGet and
// AuthenticateStart(MYSQL41) in one write; `caps` answers the first.
void start_plain(handshake& hs, frame caps) {
  next_action a = hs.start();
  ASSERT_EQ(a.what, kind::write);
  auto sent = client_frames(a.bytes);
  ASSERT_EQ(types(sent), (std::vector<int>{1, 4}));
  EXPECT_EQ(parse<Mysqlx::Session::AuthenticateStart>(sent[1]).mech_name(), "MYSQL41");
  ASSERT_EQ(hs.resume().what, kind::read);
  ASSERT_EQ(feed(hs, {std::move(caps)}).what, kind::read); // the challenge is due
}

TEST(handshake, tls_compression_plain_and_probe_ok) {
  handshake hs(base_options(), env());
  next_action a = hs.start();
  // CapabilitiesGet and CapabilitiesSet{tls=true}, last in the write.
  ASSERT_EQ(a.what, kind::write);
  auto sent = client_frames(a.bytes);
  ASSERT_EQ(types(sent), (std::vector<int>{1, 2}));
  auto tls_set = parse<Mysqlx::Connection::CapabilitiesSet>(sent[1]);
  ASSERT_EQ(tls_set.capabilities().capabilities_size(), 1);
  EXPECT_EQ(tls_set.capabilities().capabilities(0).name(), "tls");
  EXPECT_TRUE(tls_set.capabilities().capabilities(0).value().scalar().v_bool());
  ASSERT_EQ(hs.resume().what, kind::read);
  a = feed(hs, {server_hello(), capabilities_frame(true, {"lz4_message", "deflate_stream"})});
  ASSERT_EQ(a.what, kind::read);
  ASSERT_EQ(feed(hs, {ok_frame()}).what, kind::start_tls);

  // After TLS, one write: compression, attributes, PLAIN (AUTO over TLS)
  // and the probe.
  a = hs.on_tls(ok());
  ASSERT_EQ(a.what, kind::write);
  sent = client_frames(a.bytes);
  ASSERT_EQ(types(sent), (std::vector<int>{2, 2, 4, 24}));
  auto comp = parse<Mysqlx::Connection::CapabilitiesSet>(sent[0]).capabilities().capabilities(0);
  EXPECT_EQ(comp.name(), "compression");
  EXPECT_EQ(comp.value().obj().fld(0).key(), "algorithm");
  EXPECT_EQ(comp.value().obj().fld(0).value().scalar().v_string().value(), "deflate_stream");
  auto attrs = parse<Mysqlx::Connection::CapabilitiesSet>(sent[1]).capabilities().capabilities(0);
  EXPECT_EQ(attrs.name(), "session_connect_attrs");
  ASSERT_EQ(attrs.value().obj().fld_size(), 2);
  EXPECT_EQ(attrs.value().obj().fld(0).key(), "_client_name");
  EXPECT_EQ(attrs.value().obj().fld(0).value().scalar().v_string().value(), "mysqlx");
  auto start = parse<Mysqlx::Session::AuthenticateStart>(sent[2]);
  EXPECT_EQ(start.mech_name(), "PLAIN");
  EXPECT_EQ(start.auth_data(), std::string("shop\0app\0", 9) + password);
  EXPECT_EQ(sent[3].payload, std::string("\x08\x01\x12\x02\x08\x03", 6));
  ASSERT_EQ(hs.resume().what, kind::read);
  a = feed(hs, {ok_frame()});
  ASSERT_EQ(a.what, kind::enable_compression);
  EXPECT_EQ(a.algorithm, "deflate_stream");
  ASSERT_EQ(hs.resume().what, kind::read);

  a = feed(hs, {ok_frame(), client_id_notice(17), auth_ok_frame(), ok_frame()});
  ASSERT_EQ(a.what, kind::write); // Expect.Close
  EXPECT_EQ(types(client_frames(a.bytes)), std::vector<int>{25});
  ASSERT_EQ(hs.resume().what, kind::read);
  a = feed(hs, {ok_frame()});
  ASSERT_EQ(a.what, kind::done);
  EXPECT_FALSE(a.err) << a.err->message;

  const session_info& info = hs.info();
  EXPECT_TRUE(info.tls);
  EXPECT_EQ(info.compression, "deflate_stream");
  EXPECT_EQ(info.auth_mechanism, "PLAIN");
  EXPECT_EQ(info.client_id, 17u);
  EXPECT_TRUE(info.probed);
  EXPECT_TRUE(info.server_generates_ids);
  ASSERT_EQ(info.global_notices.size(), 1u);
  EXPECT_TRUE(info.global_notices[0].is(protocol::notice_type::server_hello));
}

// A plain TCP connection with TLS, compression and attributes off.
connect_options plain_tcp_options() {
  connect_options o = base_options();
  o.tls.mode = ssl_mode::disabled;
  o.compression = compression_mode::disabled;
  o.send_connection_attributes = false;
  return o;
}

// Runs to the point where the probe's Expect.Open has been sent: with an
// explicit MYSQL41 there is no fallback, so it rides with AuthenticateContinue.
void run_to_probe(handshake& hs) {
  start_plain(hs, capabilities_frame(false, {}));
  next_action a = feed(hs, {challenge_frame(salt20())});
  ASSERT_EQ(a.what, kind::write);
  auto sent = client_frames(a.bytes);
  ASSERT_EQ(types(sent), (std::vector<int>{5, 24}));
  EXPECT_EQ(parse<Mysqlx::Session::AuthenticateContinue>(sent[0]).auth_data(),
            std::string("shop\0app\0", 9) + mysql41_response(password, salt20()));
  ASSERT_EQ(hs.resume().what, kind::read);
  ASSERT_EQ(feed(hs, {auth_ok_frame()}).what, kind::read); // the probe's reply is due
}

TEST(handshake, probe_5160_means_client_ids_and_no_close) {
  connect_options o = plain_tcp_options();
  o.auth = auth_method::mysql41;
  handshake hs(o, env());
  run_to_probe(hs);
  next_action a = feed(hs, {error_frame(5160, "Unknown condition key")});
  ASSERT_EQ(a.what, kind::done); // done: nothing more is written, no Expect.Close
  EXPECT_FALSE(a.err);
  EXPECT_TRUE(hs.info().probed);
  EXPECT_FALSE(hs.info().server_generates_ids);
}

TEST(handshake, probe_other_error_is_a_session_error) {
  connect_options o = plain_tcp_options();
  o.auth = auth_method::mysql41;
  handshake hs(o, env());
  run_to_probe(hs);
  next_action a = feed(hs, {error_frame(5168, "Expectation failed")});
  ASSERT_EQ(a.what, kind::done);
  ASSERT_TRUE(a.err);
  EXPECT_EQ(a.err->code, 5168u);
  EXPECT_EQ(a.err->origin, error_origin::server);
}

TEST(handshake, probe_ok_then_close_error_is_a_session_error) {
  connect_options o = plain_tcp_options();
  o.auth = auth_method::mysql41;
  handshake hs(o, env());
  run_to_probe(hs);
  next_action a = feed(hs, {ok_frame()});
  ASSERT_EQ(a.what, kind::write);
  EXPECT_EQ(types(client_frames(a.bytes)), std::vector<int>{25});
  hs.resume();
  a = feed(hs, {error_frame(5158, "Expect block currently not open")});
  ASSERT_TRUE(a.err);
  EXPECT_EQ(a.err->code, 5158u);
}

TEST(handshake, deferred_close_finishes_at_the_probes_ok) {
  connect_options o = plain_tcp_options();
  o.auth = auth_method::mysql41;
  handshake_env e = env();
  e.defer_probe_close = true;
  handshake hs(o, e);
  run_to_probe(hs);
  next_action a = feed(hs, {ok_frame()});
  ASSERT_EQ(a.what, kind::done); // no Expect.Close written here
  EXPECT_FALSE(a.err);
  EXPECT_TRUE(hs.info().server_generates_ids);
  EXPECT_TRUE(hs.info().probe_close_pending);
}

TEST(handshake, docid_mode_client_skips_the_probe) {
  connect_options o = plain_tcp_options();
  o.auth = auth_method::mysql41;
  o.docids = docid_mode::client;
  handshake hs(o, env());
  start_plain(hs, capabilities_frame(false, {}));
  next_action a = feed(hs, {challenge_frame(salt20())});
  EXPECT_EQ(types(client_frames(a.bytes)), std::vector<int>{5}); // no Expect.Open
  hs.resume();
  a = feed(hs, {auth_ok_frame()});
  ASSERT_EQ(a.what, kind::done);
  EXPECT_FALSE(a.err);
  EXPECT_FALSE(hs.info().probed);
  EXPECT_EQ(hs.info().auth_mechanism, "MYSQL41");
}

TEST(handshake, docid_mode_server_on_a_57_server_fails_clearly) {
  connect_options o = plain_tcp_options();
  o.auth = auth_method::mysql41;
  o.docids = docid_mode::server;
  handshake hs(o, env());
  run_to_probe(hs);
  next_action a = feed(hs, {error_frame(5160, "Unknown condition key")});
  ASSERT_TRUE(a.err);
  EXPECT_EQ(a.err->code, client_errc::docid_unsupported);
}

} // namespace
} // namespace cdk::session
