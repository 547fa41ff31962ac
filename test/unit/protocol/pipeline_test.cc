// Pipelining: replies matched in order, notices attributed, errors.
#include "cdk/protocol/message.h"
#include "cdk/protocol/messages.h"
#include "cdk/protocol/pipeline.h"
#include "mysqlx.pb.h"
#include "mysqlx_notice.pb.h"

#include <gtest/gtest.h>

namespace cdk::protocol {
namespace {

frame notice_frame(Mysqlx::Notice::Frame::Scope scope, std::uint64_t rows) {
  Mysqlx::Notice::SessionStateChanged ssc;
  ssc.set_param(Mysqlx::Notice::SessionStateChanged::ROWS_AFFECTED);
  auto* v = ssc.add_value();
  v->set_type(Mysqlx::Datatypes::Scalar::V_UINT);
  v->set_v_unsigned_int(rows);
  Mysqlx::Notice::Frame f;
  f.set_type(Mysqlx::Notice::Frame::SESSION_STATE_CHANGED);
  f.set_scope(scope);
  f.set_payload(ssc.SerializeAsString());
  return frame{11, f.SerializeAsString()};
}

frame error_frame(std::uint32_t code, bool fatal) {
  Mysqlx::Error e;
  e.set_code(code);
  e.set_severity(fatal ? Mysqlx::Error::FATAL : Mysqlx::Error::ERROR);
  e.set_msg("boom");
  e.set_sql_state("HY000");
  return frame{1, e.SerializeAsString()};
}

std::optional<reply> feed(pipeline& p, frame f) {
  auto r = p.on_frame(std::move(f));
  EXPECT_TRUE(r.ok()) << r.err().message;
  return r.ok() ? std::move(r.value()) : std::nullopt;
}

TEST(pipeline, queues_requests_into_one_buffer) {
  pipeline p;
  encode_expect_close(p.output());
  p.expect(replies::ok);
  encode_session_reset(p.output(), false);
  p.expect(replies::ok);
  EXPECT_EQ(p.pending(), 2u);
  EXPECT_EQ(p.take_output(), std::string("\x01\x00\x00\x00\x19\x01\x00\x00\x00\x06", 10));
  EXPECT_TRUE(p.output().empty());
}

TEST(pipeline, replies_in_order_with_their_local_notices) {
  pipeline p;
  p.expect(replies::statement);
  p.expect(replies::statement);
  EXPECT_FALSE(feed(p, notice_frame(Mysqlx::Notice::Frame::LOCAL, 3)));
  EXPECT_FALSE(feed(p, frame{12, "meta"}));
  EXPECT_FALSE(feed(p, frame{13, "row"}));
  EXPECT_FALSE(feed(p, frame{14, ""}));
  auto first = feed(p, frame{17, ""});
  ASSERT_TRUE(first);
  EXPECT_TRUE(first->ok());
  ASSERT_EQ(first->frames.size(), 4u);
  EXPECT_EQ(first->frames[1].payload, "row");
  EXPECT_EQ(first->last().type, 17);
  EXPECT_EQ(first->info.rows_affected, 3u);
  EXPECT_FALSE(feed(p, notice_frame(Mysqlx::Notice::Frame::LOCAL, 5)));
  auto second = feed(p, frame{17, ""});
  ASSERT_TRUE(second);
  EXPECT_EQ(second->info.rows_affected, 5u); // not mixed with the first reply's
  EXPECT_EQ(p.pending(), 0u);
}

// The connection hands LOCAL SessionStateChanged notices over from its read
// buffer, as views: the same effect as through on_frame().
TEST(pipeline, state_notices_are_taken_from_a_view) {
  pipeline p;
  const frame local = notice_frame(Mysqlx::Notice::Frame::LOCAL, 4);
  const frame global = notice_frame(Mysqlx::Notice::Frame::GLOBAL, 9);
  EXPECT_FALSE(p.take_state_notice(frame_view{local.type, local.payload})); // nothing pending
  p.expect(replies::statement);
  EXPECT_FALSE(p.take_state_notice(frame_view{global.type, global.payload}));
  EXPECT_FALSE(p.take_state_notice(frame_view{17, local.payload})); // not a notice
  EXPECT_TRUE(p.take_state_notice(frame_view{local.type, local.payload}));
  auto r = feed(p, frame{17, ""});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->info.rows_affected, 4u);
  EXPECT_TRUE(p.global_notices().empty()); // the GLOBAL one was left to on_frame()
  p.expect(replies::statement);
  auto fatal = p.on_frame(error_frame(1053, true));
  ASSERT_TRUE(fatal.ok());
  ASSERT_TRUE(fatal.value());
  EXPECT_TRUE(fatal.value()->error);
  EXPECT_TRUE(p.broken());
  EXPECT_FALSE(p.take_state_notice(frame_view{local.type, local.payload})); // broken
}

TEST(pipeline, global_notices_are_kept_apart) {
  pipeline p;
  p.expect(replies::ok);
  EXPECT_FALSE(feed(p, frame{11, std::string("\x08\x05", 2)})); // ServerHello
  EXPECT_FALSE(feed(p, notice_frame(Mysqlx::Notice::Frame::GLOBAL, 9)));
  auto r = feed(p, frame{0, ""});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->info.rows_affected, 0u);
  ASSERT_EQ(p.global_notices().size(), 2u);
  EXPECT_TRUE(p.global_notices()[0].is(notice_type::server_hello));
}

TEST(pipeline, non_fatal_error_ends_one_reply_only) {
  pipeline p;
  p.expect(replies::ok);
  p.expect(replies::ok);
  auto r1 = feed(p, error_frame(5160, false));
  ASSERT_TRUE(r1);
  ASSERT_TRUE(r1->error);
  EXPECT_EQ(r1->error->code, 5160u);
  auto r2 = feed(p, frame{0, ""});
  ASSERT_TRUE(r2);
  EXPECT_TRUE(r2->ok());
}

TEST(pipeline, fatal_error_breaks_the_pipeline) {
  pipeline p;
  p.expect(replies::auth);
  p.expect(replies::ok);
  auto r1 = feed(p, error_frame(1045, true));
  ASSERT_TRUE(r1);
  EXPECT_TRUE(r1->error->fatal);
  EXPECT_TRUE(p.broken());
  EXPECT_EQ(p.pending(), 0u);
  auto again = p.on_frame(frame{0, ""});
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.err().code, 1045u);
}

TEST(pipeline, message_with_nothing_pending_is_a_protocol_error) {
  pipeline p;
  auto r = p.on_frame(frame{0, ""});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, client_errc::malformed_packet);
  EXPECT_TRUE(p.broken());
}

TEST(pipeline, reply_of_the_wrong_type_is_a_protocol_error) {
  // A row where only Mysqlx.Ok may come (an Expect.Close's reply): failing
  // at once, naming both types, instead of waiting for an Ok that never comes.
  pipeline p;
  p.expect(replies::ok);
  auto r = p.on_frame(frame{13, "row"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, client_errc::malformed_packet);
  EXPECT_TRUE(r.err().fatal);
  EXPECT_NE(r.err().message.find("Mysqlx.Resultset.Row"), std::string::npos) << r.err().message;
  EXPECT_NE(r.err().message.find("Mysqlx.Ok"), std::string::npos) << r.err().message;
  EXPECT_TRUE(p.broken());
}

TEST(pipeline, auth_ok_in_a_statement_reply_is_a_protocol_error) {
  pipeline p;
  p.expect(replies::statement);
  EXPECT_FALSE(feed(p, frame{12, "meta"}));
  auto r = p.on_frame(frame{4, ""});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, client_errc::malformed_packet);
  EXPECT_NE(r.err().message.find("Mysqlx.Sql.StmtExecuteOk"), std::string::npos) << r.err().message;
}

TEST(pipeline, local_notice_with_nothing_pending_is_ignored) {
  pipeline p;
  EXPECT_FALSE(feed(p, notice_frame(Mysqlx::Notice::Frame::LOCAL, 1)));
  EXPECT_FALSE(p.broken());
  EXPECT_TRUE(p.global_notices().empty());
}

TEST(pipeline, auth_reply_ends_at_a_challenge_or_ok) {
  pipeline p;
  p.expect(replies::auth);
  p.expect(replies::auth);
  auto challenge = feed(p, frame{3, "salt"});
  ASSERT_TRUE(challenge);
  EXPECT_EQ(challenge->last().type, 3);
  EXPECT_FALSE(feed(p, notice_frame(Mysqlx::Notice::Frame::LOCAL, 7)));
  auto done = feed(p, frame{4, ""});
  ASSERT_TRUE(done);
  EXPECT_EQ(done->frames.size(), 1u);
  EXPECT_EQ(done->info.rows_affected, 7u);
}

} // namespace
} // namespace cdk::protocol
