// Authentication decisions in the handshake: AUTO's fallback, PLAIN's
// refusal on insecure transports, and no password in any error.
#include "cdk/session/handshake.h"
#include "cdk/session/scramble.h"
#include "script.h"

namespace cdk::session {
namespace {

using namespace test;
using kind = next_action::kind;

constexpr const char* password = "S3cr3t-pa55";

connect_options tcp_options(auth_method m) {
  connect_options o;
  o.user = "app";
  o.password = password;
  o.tls.mode = ssl_mode::disabled;
  o.compression = compression_mode::disabled;
  o.send_connection_attributes = false;
  o.auth = m;
  return o;
}

handshake_env env(bool local = false) {
  handshake_env e;
  e.local_transport = local;
  e.client_attributes = {};
  return e;
}

// Every byte the client writes, for checks on what left the client.
struct recorder {
  std::string written;
  next_action feed(handshake& hs, std::vector<frame> frames) {
    next_action a;
    for (auto& f : frames) a = hs.on_frame(std::move(f));
    return record(hs, std::move(a));
  }
  next_action record(handshake& hs, next_action a) {
    if (a.what == kind::write) {
      written += a.bytes;
      last_write = client_frames(a.bytes);
      EXPECT_EQ(hs.resume().what, kind::read);
    }
    return a;
  }
  std::vector<frame> last_write;
};

TEST(auth, auto_on_plain_tcp_falls_back_from_mysql41_to_sha256_memory) {
  handshake hs(tcp_options(auth_method::auto_select), env());
  recorder r;
  r.record(hs, hs.start());
  // MYSQL41 starts in the first write, with CapabilitiesGet.
  ASSERT_EQ(types(r.last_write), (std::vector<int>{1, 4}));
  EXPECT_EQ(parse<Mysqlx::Session::AuthenticateStart>(r.last_write[1]).mech_name(), "MYSQL41");
  r.feed(hs, {capabilities_frame(false, {})});
  r.feed(hs, {challenge_frame(salt20())});
  ASSERT_EQ(types(r.last_write), std::vector<int>{5}); // no probe: a fallback may follow
  r.feed(hs, {error_frame(1045, "Access denied for user 'app'@'localhost' (using password: YES)")});
  ASSERT_EQ(types(r.last_write), std::vector<int>{4});
  EXPECT_EQ(parse<Mysqlx::Session::AuthenticateStart>(r.last_write[0]).mech_name(),
            "SHA256_MEMORY");
  r.feed(hs, {challenge_frame(salt20())});
  ASSERT_EQ(types(r.last_write), (std::vector<int>{5, 24}));
  EXPECT_EQ(parse<Mysqlx::Session::AuthenticateContinue>(r.last_write[0]).auth_data(),
            std::string("\0app\0", 5) + sha256_memory_response(password, salt20()));
  EXPECT_EQ(r.feed(hs, {auth_ok_frame()}).what, kind::read);
  r.feed(hs, {ok_frame()});
  ASSERT_EQ(types(r.last_write), std::vector<int>{25});
  next_action a = r.feed(hs, {ok_frame()});
  ASSERT_EQ(a.what, kind::done);
  EXPECT_FALSE(a.err);
  EXPECT_EQ(hs.info().auth_mechanism, "SHA256_MEMORY");
  EXPECT_TRUE(hs.info().server_generates_ids);
  EXPECT_EQ(r.written.find(password), std::string::npos); // hashed, never plain
}

TEST(auth, auto_reports_1045_when_both_mechanisms_fail) {
  handshake hs(tcp_options(auth_method::auto_select), env());
  recorder r;
  r.record(hs, hs.start());
  r.feed(hs, {capabilities_frame(false, {})});
  r.feed(hs, {challenge_frame(salt20())});
  r.feed(hs, {error_frame(1045, "Access denied for user 'app'@'h' (using password: YES)")});
  r.feed(hs, {challenge_frame(salt20())});
  next_action a =
      r.feed(hs, {error_frame(1045, "Access denied for user 'app'@'h' (using password: YES)")});
  ASSERT_EQ(a.what, kind::done);
  ASSERT_TRUE(a.err);
  EXPECT_EQ(a.err->code, 1045u);
  EXPECT_EQ(a.err->origin, error_origin::server);
  EXPECT_NE(a.err->message.find("MYSQL41 and SHA256_MEMORY"), std::string::npos);
  EXPECT_NE(a.err->message.find("Access denied"), std::string::npos);
  EXPECT_EQ(a.err->message.find(password), std::string::npos);
}

TEST(auth, auto_on_a_57_server_reports_mysql41s_access_denied) {
  handshake hs(tcp_options(auth_method::auto_select), env());
  recorder r;
  r.record(hs, hs.start());
  r.feed(hs, {capabilities_frame(false, {})});
  r.feed(hs, {challenge_frame(salt20())});
  r.feed(hs, {error_frame(1045, "Access denied for user 'app'@'h' (using password: YES)")});
  // 5.7 has no SHA256_MEMORY: FATAL 1251 to the second AuthenticateStart.
  next_action a =
      r.feed(hs, {error_frame(1251, "Invalid authentication method SHA256_MEMORY", true)});
  ASSERT_TRUE(a.err);
  EXPECT_EQ(a.err->code, 1045u);
  EXPECT_TRUE(a.err->fatal);
  EXPECT_NE(a.err->message.find("Access denied"), std::string::npos) << a.err->message;
}

TEST(auth, a_missing_schema_is_reported_as_it_is_not_as_a_password_problem) {
  // The server checked the credentials, then could not USE the URI's
  // schema: SHA256_MEMORY would not help, and the message is the server's.
  handshake hs(tcp_options(auth_method::auto_select), env());
  recorder r;
  r.record(hs, hs.start());
  r.feed(hs, {capabilities_frame(false, {})});
  r.feed(hs, {challenge_frame(salt20())});
  const std::string before = r.written;
  next_action a = r.feed(hs, {error_frame(1049, "Unknown database 'shop'")});
  ASSERT_EQ(a.what, kind::done);
  ASSERT_TRUE(a.err);
  EXPECT_EQ(a.err->code, 1049u);
  EXPECT_EQ(a.err->message, "Unknown database 'shop'");
  EXPECT_EQ(r.written, before); // no second AuthenticateStart
}

TEST(auth, fatal_auth_error_is_not_retried) {
  handshake hs(tcp_options(auth_method::auto_select), env());
  recorder r;
  r.record(hs, hs.start());
  r.feed(hs, {capabilities_frame(false, {})});
  r.feed(hs, {challenge_frame(salt20())});
  next_action a = r.feed(hs, {error_frame(1045, "Access denied", true)});
  ASSERT_TRUE(a.err);
  EXPECT_TRUE(a.err->fatal);
  EXPECT_EQ(a.err->message, "Access denied");
}

TEST(auth, plain_over_tcp_is_refused_before_the_password_is_sent) {
  handshake hs(tcp_options(auth_method::plain), env());
  recorder r;
  next_action a = r.record(hs, hs.start());
  ASSERT_EQ(a.what, kind::done);
  ASSERT_TRUE(a.err);
  EXPECT_EQ(a.err->code, client_errc::auth_plugin);
  EXPECT_NE(a.err->message.find("PLAIN"), std::string::npos);
  EXPECT_NE(a.err->message.find("TLS"), std::string::npos);
  EXPECT_EQ(r.written, ""); // not a byte: the decision needs no server
}

TEST(auth, auto_on_a_unix_socket_is_plain_without_tls) {
  connect_options o = tcp_options(auth_method::auto_select);
  o.tls.mode = ssl_mode::required; // ignored on a socket
  handshake hs(o, env(true));
  recorder r;
  r.record(hs, hs.start());
  // One write: nothing of it depends on a reply.
  ASSERT_EQ(types(r.last_write), (std::vector<int>{1, 4, 24}));
  EXPECT_EQ(parse<Mysqlx::Session::AuthenticateStart>(r.last_write[1]).mech_name(), "PLAIN");
  EXPECT_FALSE(hs.info().tls);
}

TEST(auth, explicit_plain_over_tls_is_allowed) {
  connect_options o = tcp_options(auth_method::plain);
  o.tls.mode = ssl_mode::required;
  handshake hs(o, env());
  recorder r;
  r.record(hs, hs.start());
  ASSERT_EQ(types(r.last_write), (std::vector<int>{1, 2}));
  r.feed(hs, {capabilities_frame(true, {})});
  ASSERT_EQ(r.feed(hs, {ok_frame()}).what, kind::start_tls);
  r.record(hs, hs.on_tls(ok()));
  ASSERT_EQ(types(r.last_write), (std::vector<int>{4, 24}));
}

TEST(auth, short_challenge_is_a_protocol_error) {
  handshake hs(tcp_options(auth_method::mysql41), env());
  recorder r;
  r.record(hs, hs.start());
  r.feed(hs, {capabilities_frame(false, {})});
  next_action a = r.feed(hs, {challenge_frame("short")});
  ASSERT_TRUE(a.err);
  EXPECT_EQ(a.err->code, client_errc::malformed_packet);
  EXPECT_NE(a.err->message.find("5 bytes"), std::string::npos);
}

TEST(auth, client_id_notice_during_auth_is_recorded) {
  connect_options o = tcp_options(auth_method::mysql41);
  o.docids = docid_mode::client;
  handshake hs(o, env());
  recorder r;
  r.record(hs, hs.start());
  r.feed(hs, {capabilities_frame(false, {})});
  r.feed(hs, {challenge_frame(salt20())});
  next_action a = r.feed(hs, {client_id_notice(99), auth_ok_frame()});
  ASSERT_EQ(a.what, kind::done);
  EXPECT_EQ(hs.info().client_id, 99u);
}

} // namespace
} // namespace cdk::session
