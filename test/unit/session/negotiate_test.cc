// Capability decisions: TLS, compression, connection attributes.
#include "cdk/session/handshake.h"
#include "cdk/session/negotiate.h"
#include "script.h"

#include <gtest/gtest.h>

namespace cdk::session {
namespace {

using protocol::value;
using protocol::value_field;

std::vector<value_field> caps_with(bool tls, std::vector<std::string> algorithms) {
  std::vector<value_field> caps;
  if (tls) caps.push_back({"tls", value::of_bool(false)});
  if (!algorithms.empty()) {
    std::vector<value> items;
    for (auto& a : algorithms) items.push_back(value::of_string(a));
    caps.push_back({"compression", value::of_object({{"algorithm", value::of_array(items)}})});
  }
  return caps;
}

TEST(negotiate, tls_decisions) {
  tls_options t;
  EXPECT_TRUE(decide_tls(t, false, caps_with(true, {})).value());
  EXPECT_FALSE(decide_tls(t, true, caps_with(true, {})).value()); // Unix socket
  auto missing = decide_tls(t, false, caps_with(false, {}));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.err().code, client_errc::ssl_connection);
  t.mode = ssl_mode::disabled;
  EXPECT_FALSE(decide_tls(t, false, caps_with(true, {})).value());
  t.mode = ssl_mode::verify_identity;
  EXPECT_FALSE(decide_tls(t, false, caps_with(false, {})).ok());
}

// Taken when set, as Connector/C++ 8 takes them, and refused before a
// session is attempted, each error naming its cause.
TEST(negotiate, external_auth_is_refused_naming_it) {
  connect_options o;
  EXPECT_TRUE(check_connectable(o).ok());
  o.auth = auth_method::external;
  auto st = check_connectable(o);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.err().code, client_errc::auth_plugin);
  EXPECT_EQ(st.err().message.rfind("EXTERNAL authentication is not supported by the X Protocol", 0),
            0u)
      << st.err().message;
  // The mechanism list refuses it in the same words.
  auto plan = auth_plan(auth_method::external, true);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.err().message, st.err().message);
}

TEST(negotiate, required_compression_with_only_unknown_algorithms_is_refused_naming_them) {
  connect_options o;
  o.compression = compression_mode::required;
  EXPECT_TRUE(check_connectable(o).ok()); // no list: every algorithm we support
  o.unknown_compression_algorithms = "'BAD_Algorithm', 'brotli'";
  auto st = check_connectable(o);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.err().code, client_errc::compression);
  EXPECT_NE(st.err().message.find("compression is REQUIRED but compression-algorithms names no "
                                  "algorithm this connector knows"),
            std::string::npos)
      << st.err().message;
  EXPECT_NE(st.err().message.find("it names only 'BAD_Algorithm', 'brotli'"), std::string::npos)
      << st.err().message;
  o.unknown_compression_algorithms = "";
  EXPECT_NE(check_connectable(o).err().message.find("the list is empty"), std::string::npos);
  o.compression = compression_mode::preferred; // not required: the builder turned it off
  EXPECT_TRUE(check_connectable(o).ok());
}

TEST(negotiate, compression_picks_the_first_common_algorithm) {
  const std::vector<std::string> supported{"deflate_stream"};
  auto caps = caps_with(false, {"DEFLATE_STREAM", "lz4_message", "zstd_stream"});
  EXPECT_EQ(decide_compression(compression_mode::preferred, {}, supported, caps).value(),
            "deflate_stream");
  EXPECT_EQ(
      decide_compression(compression_mode::required, {"lz4", "deflate"}, supported, caps).value(),
      "deflate_stream");
  EXPECT_EQ(decide_compression(compression_mode::disabled, {}, supported, caps).value(), "");
}

TEST(negotiate, compression_without_a_common_algorithm) {
  const std::vector<std::string> supported{"deflate_stream"};
  auto lz4_only = caps_with(false, {"lz4_message"});
  EXPECT_EQ(decide_compression(compression_mode::preferred, {}, supported, lz4_only).value(), "");
  auto req = decide_compression(compression_mode::required, {}, supported, lz4_only);
  ASSERT_FALSE(req.ok());
  EXPECT_EQ(req.err().code, client_errc::compression);
  EXPECT_NE(req.err().message.find("lz4_message"), std::string::npos);
  EXPECT_NE(req.err().message.find("deflate_stream"), std::string::npos);
  // 5.7: no compression capability at all.
  EXPECT_FALSE(decide_compression(compression_mode::required, {}, supported, {}).ok());
  // The user's list excludes what both sides have.
  EXPECT_FALSE(decide_compression(compression_mode::required, {"zstd_stream"}, supported,
                                  caps_with(false, {"deflate_stream", "zstd_stream"}))
                   .ok());
}

TEST(negotiate, default_attributes_describe_the_client) {
  auto attrs = default_client_attributes();
  std::vector<std::string> keys;
  for (auto& [k, v] : attrs) {
    keys.push_back(k);
    EXPECT_FALSE(v.empty()) << k;
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"_client_name", "_client_version", "_os", "_platform",
                                            "_pid"}));
  EXPECT_EQ(attrs[0].second, "mysqlx");
}

TEST(negotiate, user_attributes_follow_ours_and_may_not_start_with_underscore) {
  auto all = connection_attributes({{"_client_name", "mysqlx"}}, {{"app", "shop"}});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all.value(), (attribute_list{{"_client_name", "mysqlx"}, {"app", "shop"}}));
  auto bad = connection_attributes({}, {{"_pid", "1"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.err().code, client_errc::bad_option);
  EXPECT_NE(bad.err().message.find("'_pid'"), std::string::npos);
  EXPECT_FALSE(connection_attributes({}, {{"", "x"}}).ok());
}

TEST(negotiate, reserved_attribute_fails_before_anything_is_sent) {
  connect_options o;
  o.connection_attributes = {{"_mine", "x"}};
  handshake hs(o, handshake_env{});
  next_action a = hs.start();
  ASSERT_EQ(a.what, next_action::kind::done);
  ASSERT_TRUE(a.err);
  EXPECT_EQ(a.err->code, client_errc::bad_option);
  EXPECT_TRUE(a.bytes.empty());
}

TEST(negotiate, speculative_compression_is_the_first_we_would_pick) {
  const std::vector<std::string> ours{"zstd_stream", "lz4_message", "deflate_stream"};
  EXPECT_EQ(speculative_compression(compression_mode::preferred, {}, ours), "zstd_stream");
  EXPECT_EQ(speculative_compression(compression_mode::preferred, {"LZ4", "zstd"}, ours),
            "lz4_message");
  EXPECT_EQ(speculative_compression(compression_mode::preferred, {"snappy", "deflate"}, ours),
            "deflate_stream");
  EXPECT_EQ(speculative_compression(compression_mode::preferred, {"snappy"}, ours), "");
  EXPECT_EQ(speculative_compression(compression_mode::disabled, {}, ours), "");
}

using namespace test;
using kind = next_action::kind;

// A TCP session with TLS off and attributes on, through the Sets' replies.
// The Sets and AuthenticateStart leave with CapabilitiesGet, except with
// compression REQUIRED, where they wait for its answer.
next_action through_caps_set(handshake& hs, std::vector<frame> replies, bool sets_wait = false) {
  next_action a = hs.start();
  const auto sent = types(client_frames(a.bytes));
  EXPECT_EQ(sent.back(), sets_wait ? 1 : 4)
      << "the write ends with CapabilitiesGet or AuthenticateStart";
  hs.resume();
  a = hs.on_frame(capabilities_frame(false, {"deflate_stream"}));
  EXPECT_EQ(a.what, sets_wait ? kind::write : kind::read);
  if (sets_wait) hs.resume();
  for (auto& f : replies) {
    a = hs.on_frame(std::move(f));
    if (a.what == kind::enable_compression) a = hs.resume();
  }
  return a;
}

connect_options step2_options(compression_mode m) {
  connect_options o;
  o.user = "app";
  o.tls.mode = ssl_mode::disabled;
  o.compression = m;
  o.auth = auth_method::mysql41;
  return o;
}

handshake_env deflate_env() {
  handshake_env e;
  e.compression_supported = {"deflate_stream"};
  e.client_attributes = {{"_client_name", "mysqlx"}};
  return e;
}

TEST(negotiate, server_without_connect_attrs_5002_is_tolerated) {
  handshake hs(step2_options(compression_mode::disabled), deflate_env());
  next_action a =
      through_caps_set(hs, {error_frame(5002, "Capability 'session_connect_attrs' doesn't exist"),
                            challenge_frame(salt20())});
  ASSERT_EQ(a.what, kind::write);
  EXPECT_EQ(types(client_frames(a.bytes)), (std::vector<int>{5, 24})); // authentication goes on
}

TEST(negotiate, other_attribute_errors_fail_the_session) {
  handshake hs(step2_options(compression_mode::disabled), deflate_env());
  next_action a = through_caps_set(hs, {error_frame(5001, "Capability prepare failed")});
  ASSERT_TRUE(a.err);
  EXPECT_EQ(a.err->code, 5001u);
}

TEST(negotiate, refused_compression_required_vs_preferred) {
  handshake req(step2_options(compression_mode::required), deflate_env());
  next_action a = through_caps_set(req, {error_frame(5175, "Invalid algorithm"), ok_frame()}, true);
  ASSERT_TRUE(a.err);
  EXPECT_EQ(a.err->code, client_errc::compression);
  EXPECT_NE(a.err->message.find("5175"), std::string::npos);

  handshake pref(step2_options(compression_mode::preferred), deflate_env());
  a = through_caps_set(
      pref, {error_frame(5175, "Invalid algorithm"), ok_frame(), challenge_frame(salt20())});
  ASSERT_EQ(a.what, kind::write); // authentication goes on, uncompressed
  EXPECT_EQ(pref.info().compression, "");
}

} // namespace
} // namespace cdk::session
