// Typed messages: protobuf encoding into frames, server errors, type checks.
#include "cdk/protocol/message.h"
#include "mysqlx.pb.h"
#include "mysqlx_session.pb.h"

#include <gtest/gtest.h>

namespace cdk::protocol {
namespace {

TEST(message, append_message_frames_the_serialized_payload) {
  Mysqlx::Session::AuthenticateStart start;
  start.set_mech_name("PLAIN");
  std::string out = "prefix";
  ASSERT_TRUE(append_message(out, client_msg::sess_authenticate_start, start).ok());
  const std::string payload = start.SerializeAsString();
  std::string expected = "prefix";
  append_frame(expected, 4, payload);
  EXPECT_EQ(out, expected);
}

TEST(message, empty_message_is_a_one_byte_frame) {
  std::string out;
  ASSERT_TRUE(append_message(out, server_msg::ok, Mysqlx::Ok()).ok());
  EXPECT_EQ(out, std::string("\x01\x00\x00\x00\x00", 5));
}

std::string error_payload(Mysqlx::Error::Severity sev, std::uint32_t code, const char* state,
                          const char* msg) {
  Mysqlx::Error e;
  e.set_severity(sev);
  e.set_code(code);
  if (state) e.set_sql_state(state);
  e.set_msg(msg);
  return e.SerializeAsString();
}

TEST(message, server_error_keeps_code_state_text_and_severity) {
  const error e = decode_server_error(
      error_payload(Mysqlx::Error::ERROR, 1045, "28000", "Access denied for user 'u'@'h'"));
  EXPECT_EQ(e.origin, error_origin::server);
  EXPECT_EQ(e.code, 1045u);
  EXPECT_EQ(e.sql_state, "28000");
  EXPECT_EQ(e.message, "Access denied for user 'u'@'h'");
  EXPECT_FALSE(e.fatal);
  const error f =
      decode_server_error(error_payload(Mysqlx::Error::FATAL, 5000, nullptr, "Invalid message"));
  EXPECT_TRUE(f.fatal);
  EXPECT_EQ(f.sql_state, "HY000"); // absent: the X Plugin's default
}

TEST(message, unparsable_server_error_is_a_fatal_protocol_error) {
  const error e = decode_server_error("\x10"); // truncated varint
  EXPECT_EQ(e.origin, error_origin::connection);
  EXPECT_EQ(e.code, client_errc::malformed_packet);
  EXPECT_TRUE(e.fatal);
}

TEST(message, expect_server_message_accepts_the_expected_type) {
  Mysqlx::Ok ok;
  ok.set_msg("bye!");
  auto r = expect_server_message<Mysqlx::Ok>(frame{0, ok.SerializeAsString()}, server_msg::ok);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().msg(), "bye!");
}

TEST(message, expect_server_message_turns_error_frames_into_errors) {
  auto r = expect_server_message<Mysqlx::Ok>(
      frame{1, error_payload(Mysqlx::Error::ERROR, 5160, "HY000", "Unknown condition key")},
      server_msg::ok);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, 5160u);
  EXPECT_EQ(r.err().origin, error_origin::server);
}

TEST(message, expect_server_message_names_an_unexpected_type) {
  auto r = expect_server_message<Mysqlx::Ok>(frame{13, ""}, server_msg::ok);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, client_errc::malformed_packet);
  EXPECT_TRUE(r.err().fatal);
  EXPECT_NE(r.err().message.find("Mysqlx.Resultset.Row"), std::string::npos) << r.err().message;
  EXPECT_NE(r.err().message.find("Mysqlx.Ok"), std::string::npos) << r.err().message;
}

} // namespace
} // namespace cdk::protocol
