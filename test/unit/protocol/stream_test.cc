// Streamed replies: the pipeline hands a statement reply back one message at
// a time (stream_front()), and result_decoder turns those messages into rows
// and result-set boundaries as they come. Byte buffers in, no server.
#include "cdk/protocol/frame.h"
#include "cdk/protocol/message.h"
#include "cdk/protocol/pipeline.h"
#include "cdk/protocol/resultset.h"
#include "mysqlx.pb.h"
#include "mysqlx_notice.pb.h"
#include "mysqlx_resultset.pb.h"

#include <gtest/gtest.h>

namespace cdk::protocol {
namespace {

void add_meta(std::string& wire, const char* name) {
  Mysqlx::Resultset::ColumnMetaData m;
  m.set_type(Mysqlx::Resultset::ColumnMetaData::SINT);
  m.set_name(name);
  ASSERT_TRUE(append_message(wire, server_msg::resultset_column_meta_data, m).ok());
}

void add_row(std::string& wire, std::int64_t n, int fields = 1) {
  Mysqlx::Resultset::Row r;
  // Zigzag in unsigned arithmetic: shifting a negative value left is undefined.
  const auto zigzag = (static_cast<std::uint64_t>(n) << 1) ^ static_cast<std::uint64_t>(n >> 63);
  std::string f;
  for (std::uint64_t v = zigzag;; v >>= 7) {
    f += static_cast<char>((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    if (v <= 0x7f) break;
  }
  for (int i = 0; i < fields; ++i) r.add_field(f);
  ASSERT_TRUE(append_message(wire, server_msg::resultset_row, r).ok());
}

void add_empty(std::string& wire, server_msg t) {
  append_frame(wire, type_byte(t), "");
}

void add_rows_affected(std::string& wire, std::uint64_t rows) {
  Mysqlx::Notice::SessionStateChanged ssc;
  ssc.set_param(Mysqlx::Notice::SessionStateChanged::ROWS_AFFECTED);
  auto* v = ssc.add_value();
  v->set_type(Mysqlx::Datatypes::Scalar::V_UINT);
  v->set_v_unsigned_int(rows);
  Mysqlx::Notice::Frame f;
  f.set_type(Mysqlx::Notice::Frame::SESSION_STATE_CHANGED);
  f.set_scope(Mysqlx::Notice::Frame::LOCAL);
  f.set_payload(ssc.SerializeAsString());
  ASSERT_TRUE(append_message(wire, server_msg::notice, f).ok());
}

void add_error(std::string& wire, std::uint32_t code, bool fatal = false) {
  Mysqlx::Error e;
  e.set_code(code);
  e.set_severity(fatal ? Mysqlx::Error::FATAL : Mysqlx::Error::ERROR);
  e.set_msg("Subquery returns more than 1 row");
  e.set_sql_state("21000");
  ASSERT_TRUE(append_message(wire, server_msg::error, e).ok());
}

// What the reader of one streamed reply saw, part by part.
struct streamed {
  std::vector<reply> parts;
  std::vector<std::vector<std::int64_t>> sets; // first column of each row, per set
  std::vector<std::string> first_column_names;
  std::optional<error> decode_error;
};

// Feeds `wire` (split into chunks of `chunk` bytes) through a frame decoder
// into `p`, streaming the front reply, and decodes each part.
streamed stream_reply(pipeline& p, const std::string& wire, std::size_t chunk = 7) {
  streamed out;
  frame_decoder frames;
  result_decoder dec;
  p.stream_front();
  for (std::size_t pos = 0; pos < wire.size(); pos += chunk) {
    EXPECT_TRUE(frames.feed(std::string_view(wire).substr(pos, chunk)).ok());
    while (auto f = frames.next()) {
      auto r = p.on_frame(std::move(*f));
      EXPECT_TRUE(r.ok()) << r.err().message;
      if (!r.ok() || !r.value()) continue;
      reply part = std::move(*r.value());
      for (const frame& m : part.frames) {
        auto e = dec.on_frame(m);
        if (!e) {
          out.decode_error = e.err();
          continue;
        }
        if (e.value() == result_decoder::event::none) continue;
        if (dec.starts_set()) {
          out.sets.emplace_back();
          out.first_column_names.push_back(dec.columns().at(0).name);
        }
        if (e.value() == result_decoder::event::row)
          out.sets.back().push_back(dec.row().at(0).sint);
      }
      out.parts.push_back(std::move(part));
    }
  }
  return out;
}

TEST(stream, each_message_of_a_streamed_reply_comes_as_it_arrives) {
  pipeline p;
  p.expect(replies::statement);
  std::string wire;
  add_meta(wire, "n");
  for (int i = 1; i <= 3; ++i) add_row(wire, i * 100);
  add_empty(wire, server_msg::resultset_fetch_done);
  add_rows_affected(wire, 3);
  add_empty(wire, server_msg::sql_stmt_execute_ok);
  streamed s = stream_reply(p, wire);
  // metadata, 3 rows, FetchDone: parts with more; StmtExecuteOk ends it.
  ASSERT_EQ(s.parts.size(), 6u);
  for (std::size_t i = 0; i + 1 < s.parts.size(); ++i) {
    EXPECT_TRUE(s.parts[i].more);
    EXPECT_EQ(s.parts[i].frames.size(), 1u);
    EXPECT_EQ(s.parts[i].info.rows_affected, 0u);
  }
  const reply& last = s.parts.back();
  EXPECT_FALSE(last.more);
  EXPECT_TRUE(last.ok());
  EXPECT_EQ(last.last().type, type_byte(server_msg::sql_stmt_execute_ok));
  EXPECT_EQ(last.info.rows_affected, 3u); // what the notices said comes with the end
  ASSERT_EQ(s.sets.size(), 1u);
  EXPECT_EQ(s.sets[0], (std::vector<std::int64_t>{100, 200, 300}));
  EXPECT_EQ(s.first_column_names[0], "n");
  EXPECT_FALSE(p.streaming());
  EXPECT_EQ(p.pending(), 0u);
}

TEST(stream, the_reply_after_a_streamed_one_is_whole_again) {
  pipeline p;
  p.expect(replies::statement);
  p.expect(replies::statement);
  std::string wire;
  add_meta(wire, "n");
  add_row(wire, 1);
  add_empty(wire, server_msg::resultset_fetch_done);
  add_empty(wire, server_msg::sql_stmt_execute_ok);
  EXPECT_EQ(stream_reply(p, wire).parts.size(), 4u);
  // The second request's reply is collected as before: one reply, all frames.
  EXPECT_FALSE(p.on_frame(frame{12, "meta"}).value());
  EXPECT_FALSE(p.on_frame(frame{13, "row"}).value());
  EXPECT_FALSE(p.on_frame(frame{14, ""}).value());
  auto r = p.on_frame(frame{17, ""});
  ASSERT_TRUE(r.ok() && r.value());
  EXPECT_FALSE(r.value()->more);
  EXPECT_EQ(r.value()->frames.size(), 4u);
}

TEST(stream, several_result_sets_are_told_apart) {
  pipeline p;
  p.expect(replies::statement);
  std::string wire;
  add_meta(wire, "a");
  add_row(wire, 1);
  add_row(wire, 2);
  add_empty(wire, server_msg::resultset_fetch_done_more_resultsets);
  add_meta(wire, "b");
  add_empty(wire, server_msg::resultset_fetch_done_more_resultsets); // a set with no rows
  add_meta(wire, "c");
  add_row(wire, -7);
  add_empty(wire, server_msg::resultset_fetch_done);
  add_empty(wire, server_msg::sql_stmt_execute_ok);
  streamed s = stream_reply(p, wire, 3);
  ASSERT_EQ(s.sets.size(), 3u);
  EXPECT_EQ(s.sets[0], (std::vector<std::int64_t>{1, 2}));
  EXPECT_TRUE(s.sets[1].empty());
  EXPECT_EQ(s.sets[2], (std::vector<std::int64_t>{-7}));
  EXPECT_EQ(s.first_column_names, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(stream, an_error_after_rows_ends_the_reply_with_it) {
  pipeline p;
  p.expect(replies::statement);
  p.expect(replies::statement);
  std::string wire;
  add_meta(wire, "n");
  add_row(wire, 1);
  add_row(wire, 2);
  add_error(wire, 1242);
  streamed s = stream_reply(p, wire);
  ASSERT_EQ(s.parts.size(), 4u);
  EXPECT_EQ(s.sets.at(0), (std::vector<std::int64_t>{1, 2}));
  ASSERT_FALSE(s.parts.back().more);
  ASSERT_TRUE(s.parts.back().error);
  EXPECT_EQ(s.parts.back().error->code, 1242u);
  EXPECT_EQ(s.parts.back().error->sql_state, "21000");
  // A non-fatal error: the next reply still comes.
  EXPECT_EQ(p.pending(), 1u);
  EXPECT_FALSE(p.broken());
}

TEST(stream, a_fatal_error_breaks_the_pipeline_mid_stream) {
  pipeline p;
  p.expect(replies::statement);
  p.expect(replies::statement);
  std::string wire;
  add_meta(wire, "n");
  add_row(wire, 1);
  add_error(wire, 1053, true);
  streamed s = stream_reply(p, wire);
  ASSERT_TRUE(s.parts.back().error);
  EXPECT_TRUE(s.parts.back().error->fatal);
  EXPECT_TRUE(p.broken());
  EXPECT_EQ(p.pending(), 0u);
  EXPECT_FALSE(p.streaming());
}

TEST(stream, stream_front_with_nothing_pending_does_nothing) {
  pipeline p;
  p.stream_front();
  EXPECT_FALSE(p.streaming());
  EXPECT_FALSE(p.on_frame(frame{17, ""}).ok()); // still an unexpected message
}

TEST(result_decoder, malformed_sequences_are_errors) {
  result_decoder dec;
  std::string wire;
  add_row(wire, 1); // a Row before any ColumnMetaData
  frame_decoder frames;
  ASSERT_TRUE(frames.feed(wire).ok());
  auto e = dec.on_frame(*frames.next());
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.err().code, static_cast<std::uint32_t>(client_errc::malformed_packet));

  // Metadata after a row of the same set.
  result_decoder dec2;
  wire.clear();
  add_meta(wire, "n");
  add_row(wire, 1);
  add_meta(wire, "m");
  ASSERT_TRUE(frames.feed(wire).ok());
  EXPECT_TRUE(dec2.on_frame(*frames.next()).ok());
  EXPECT_EQ(dec2.on_frame(*frames.next()).value(), result_decoder::event::row);
  EXPECT_FALSE(dec2.on_frame(*frames.next()).ok());

  // A row with more fields than columns.
  result_decoder dec3;
  wire.clear();
  add_meta(wire, "n");
  add_row(wire, 1, 2);
  ASSERT_TRUE(frames.feed(wire).ok());
  EXPECT_TRUE(dec3.on_frame(*frames.next()).ok());
  auto bad = dec3.on_frame(*frames.next());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.err().message.find("2 fields for 1 columns"), std::string::npos);
}

TEST(result_decoder, metadata_alone_is_an_unstarted_set) {
  result_decoder dec;
  std::string wire;
  add_meta(wire, "n");
  add_meta(wire, "m");
  frame_decoder frames;
  ASSERT_TRUE(frames.feed(wire).ok());
  EXPECT_EQ(dec.on_frame(*frames.next()).value(), result_decoder::event::none);
  EXPECT_EQ(dec.on_frame(*frames.next()).value(), result_decoder::event::none);
  EXPECT_TRUE(dec.unstarted_set());
  EXPECT_EQ(dec.columns().size(), 2u);
  EXPECT_EQ(dec.on_frame(frame{type_byte(server_msg::resultset_fetch_done), ""}).value(),
            result_decoder::event::set_end);
  EXPECT_TRUE(dec.starts_set()); // the set's first (and only) event
  EXPECT_FALSE(dec.unstarted_set());
}

} // namespace
} // namespace cdk::protocol
