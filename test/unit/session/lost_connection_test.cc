// What a broken connection's error says about its request (issue 25): the
// size of a message is named as a cause only when it can be one.
#include "cdk/foundation/socket_stream.h"
#include "cdk/protocol/frame.h"
#include "cdk/session/lost_connection.h"

#include <cerrno>
#include <gtest/gtest.h>

namespace cdk::session {
namespace {

const std::string lost_text = "Lost connection to db:33060 (connection closed by peer)";

error lost(bool maybe_applied = true) {
  error e = error::connection(client_errc::lost_connection, lost_text);
  e.maybe_applied = maybe_applied;
  return e;
}

std::string explained(error e, std::uint64_t largest, std::optional<std::uint64_t> limit,
                      const protocol::warning* notice = nullptr) {
  request_facts f;
  f.largest_message = largest;
  f.server_limit = limit;
  f.notice = notice;
  explain_broken_request(e, f);
  return e.message;
}

const std::string applied(maybe_applied_words);

TEST(largest_message, is_the_largest_length_field_not_the_flights_size) {
  std::string flight;
  protocol::append_frame(flight, 12, std::string(300, 'a'));
  protocol::append_frame(flight, 12, std::string(700, 'b'));
  protocol::append_frame(flight, 12, std::string(500, 'c'));
  EXPECT_EQ(largest_message(flight), 701u); // type byte and payload
  EXPECT_EQ(largest_message(""), 0u);
}

TEST(largest_message, a_cut_frame_counts_with_its_announced_length) {
  std::string flight;
  protocol::append_frame(flight, 12, std::string(100, 'a'));
  protocol::append_frame(flight, 12, std::string(900, 'b'));
  flight.resize(flight.size() - 500);
  EXPECT_EQ(largest_message(flight), 901u);
  flight.resize(flight.size() - 400 - 3); // a header cut short is not read
  EXPECT_EQ(largest_message(flight), 101u);
}

TEST(explain, above_the_known_limit_names_the_size) {
  EXPECT_EQ(explained(lost(), 2001, 1000),
            lost_text +
                " after a message of 2001 bytes, more than the server reads in one message "
                "(mysqlx_max_allowed_packet = 1000 when the connector asked): a server closes the "
                "connection without an error on such a message" +
                applied);
}

TEST(explain, within_the_known_limit_says_so_and_does_not_blame_the_size) {
  EXPECT_EQ(explained(lost(), 5079, 67108864),
            lost_text +
                " after a message of 5079 bytes, within the server's limit "
                "(mysqlx_max_allowed_packet = 67108864 when the connector asked)" +
                applied);
}

TEST(explain, a_large_message_with_no_known_limit_may_have_been_too_large) {
  const std::string m = explained(lost(), 513, std::nullopt);
  EXPECT_NE(m.find(" after a message of 513 bytes, and the server's limit is not known"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("so this one may have been too large"), std::string::npos) << m;
}

TEST(explain, a_message_every_server_reads_says_nothing_of_sizes) {
  EXPECT_EQ(explained(lost(), 512, std::nullopt), lost_text + applied);
  EXPECT_EQ(explained(lost(), 0, 1000), lost_text + applied);
}

TEST(explain, the_servers_notice_is_the_reason_given) {
  protocol::warning w;
  w.level = protocol::warning::level_t::error;
  w.code = 1053;
  w.message = "Server shutdown in progress";
  EXPECT_EQ(explained(lost(), 5000, std::nullopt, &w),
            lost_text + ": the server closed it after notice 1053 'Server shutdown in progress'" +
                applied);
}

TEST(explain, nothing_in_flight_says_nothing_of_applying) {
  EXPECT_EQ(explained(lost(false), 0, std::nullopt), lost_text);
}

TEST(explain, a_timeout_never_names_a_size) {
  error e = error::connection(client_errc::timeout, "Timed out waiting for db:33060");
  e.maybe_applied = true;
  EXPECT_EQ(explained(e, 100000, 1000), "Timed out waiting for db:33060" + applied);
}

TEST(explain, a_servers_own_error_is_left_as_it_is) {
  error e{5000, "HY000", "Invalid message", error_origin::server, true, true};
  EXPECT_EQ(explained(e, 100000, 1000), "Invalid message");
}

// The transport's own words, under the explanation above (cdk/foundation).
TEST(lost_connection_why, a_broken_pipe_says_the_other_end_had_closed) {
  EXPECT_EQ(socket_errno_error("db:33060", EPIPE).message,
            "Lost connection to db:33060 (Broken pipe: the other end had closed the connection)");
  EXPECT_EQ(socket_errno_error("db:33060", ECONNRESET).message,
            "Lost connection to db:33060 (Connection reset by peer)");
  EXPECT_EQ(socket_errno_error("db:33060", EAGAIN).code, client_errc::timeout);
}

} // namespace
} // namespace cdk::session
