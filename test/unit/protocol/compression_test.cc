// Compression frames: wrapping, transparent expansion, and the bounds.
#include "cdk/foundation/compression.h"
#include "cdk/protocol/compression.h"
#include "cdk/protocol/message.h"
#include "mysqlx_connection.pb.h"

#include <gtest/gtest.h>

namespace cdk::protocol {
namespace {

std::string some_frames() {
  std::string s;
  append_frame(s, 11, "notice");
  append_frame(s, 13, std::string(1000, 'r')); // compressible
  append_frame(s, 17, "");
  return s;
}

std::vector<frame> read_all(frame_reader& r) {
  std::vector<frame> out;
  for (;;) {
    auto f = r.next();
    EXPECT_TRUE(f.ok()) << f.err().message;
    if (!f.ok() || !f.value()) break;
    out.push_back(std::move(*f.value()));
  }
  return out;
}

TEST(compression, round_trip_server_to_client) {
  frame_compressor server(19);
  ASSERT_TRUE(server.enable("deflate_stream").ok());
  std::string wire = some_frames();
  ASSERT_TRUE(server.wrap(wire).ok());
  EXPECT_EQ(static_cast<unsigned char>(wire[4]), 19);
  EXPECT_LT(wire.size(), some_frames().size());

  frame_reader client;
  ASSERT_TRUE(client.enable_compression("deflate_stream").ok());
  std::string plain;
  append_frame(plain, 0, ""); // uncompressed frames still pass
  ASSERT_TRUE(client.feed(wire + plain).ok());
  auto got = read_all(client);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].payload, "notice");
  EXPECT_EQ(got[1].payload, std::string(1000, 'r'));
  EXPECT_EQ(got[2].type, 17);
  EXPECT_EQ(got[3].type, 0);
}

// Issue 34: one Compression message may hold several replies. Once its
// first frame is taken, the others are inflated and waiting, though no
// byte of the message is left (buffered() is 0): holds_input() says so,
// which is what connection::readable() (a future's wait_for()) asks.
TEST(compression, holds_input_counts_frames_inflated_and_not_yet_returned) {
  frame_compressor server(19);
  ASSERT_TRUE(server.enable("zstd_stream").ok());
  std::string wire = some_frames();
  ASSERT_TRUE(server.wrap(wire).ok());
  frame_reader client;
  ASSERT_TRUE(client.enable_compression("zstd_stream").ok());
  EXPECT_FALSE(client.holds_input());
  ASSERT_TRUE(client.feed(wire).ok());
  EXPECT_TRUE(client.holds_input());
  auto first = client.next();
  ASSERT_TRUE(first.ok() && first.value());
  EXPECT_EQ(client.buffered(), 0u);  // the whole message was taken in
  EXPECT_TRUE(client.holds_input()); // two frames wait, inflated
  ASSERT_TRUE(client.next().value());
  ASSERT_TRUE(client.next().value());
  EXPECT_FALSE(client.holds_input());
}

TEST(compression, peek_shows_inflated_and_plain_frames_never_an_unread_compression_message) {
  frame_compressor server(19);
  ASSERT_TRUE(server.enable("lz4_message").ok());
  std::string wire = some_frames();
  ASSERT_TRUE(server.wrap(wire).ok());
  append_frame(wire, 0, "plain");
  frame_reader client;
  ASSERT_TRUE(client.enable_compression("lz4_message").ok());
  ASSERT_TRUE(client.feed(wire).ok());
  EXPECT_FALSE(client.peek_plain()); // the Compression message is next()'s
  client.skip_plain();               // so this drops nothing
  auto first = client.next();
  ASSERT_TRUE(first.ok() && first.value());
  EXPECT_EQ(first.value()->payload, "notice");
  auto v = client.peek_plain(); // the second inflated frame, in place
  ASSERT_TRUE(v);
  EXPECT_EQ(v->type, 13);
  EXPECT_EQ(v->payload, std::string(1000, 'r'));
  client.skip_plain();
  auto third = client.next();
  ASSERT_TRUE(third.ok() && third.value());
  EXPECT_EQ(third.value()->type, 17);
  v = client.peek_plain(); // the plain frame after the Compression message
  ASSERT_TRUE(v);
  EXPECT_EQ(v->type, 0);
  EXPECT_EQ(v->payload, "plain");
  client.skip_plain();
  auto none = client.next();
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none.value());
}

TEST(compression, stream_state_carries_across_messages_and_splits) {
  frame_compressor client(46);
  ASSERT_TRUE(client.enable("deflate_stream").ok());
  std::string wire;
  for (int i = 0; i < 3; ++i) {
    std::string batch = some_frames();
    ASSERT_TRUE(client.wrap(batch).ok());
    wire += batch;
  }
  for (std::size_t cut = 0; cut < wire.size(); cut += 7) {
    frame_reader server(default_max_frame_size, 46);
    ASSERT_TRUE(server.enable_compression("deflate_stream").ok());
    ASSERT_TRUE(server.feed(wire.substr(0, cut)).ok());
    auto got = read_all(server);
    ASSERT_TRUE(server.feed(wire.substr(cut)).ok());
    auto rest = read_all(server);
    got.insert(got.end(), rest.begin(), rest.end());
    ASSERT_EQ(got.size(), 9u) << "cut at " << cut;
    EXPECT_EQ(got[7].payload, std::string(1000, 'r'));
  }
}

TEST(compression, frames_beyond_the_peers_limit_go_in_several_compression_frames) {
  // A server that takes messages of at most 1017 bytes also refuses a
  // Compression message that inflates to more (MySQL checks both). The frames
  // are 11 + 1005 + 5 bytes: {notice, rows} fits in 1017, the next one not.
  frame_compressor client(46);
  ASSERT_TRUE(client.enable("deflate_stream", 1017).ok());
  std::string wire = some_frames() + some_frames();
  ASSERT_TRUE(client.wrap(wire).ok());
  // Each Compression frame declares at most 1017 bytes, and the server, whose
  // limit is 1017, reads back all six frames in order.
  frame_reader server(1017, 46);
  ASSERT_TRUE(server.enable_compression("deflate_stream").ok());
  ASSERT_TRUE(server.feed(wire).ok());
  auto got = read_all(server);
  ASSERT_EQ(got.size(), 6u);
  for (int i : {0, 3}) {
    EXPECT_EQ(got[i].payload, "notice");
    EXPECT_EQ(got[i + 1].payload, std::string(1000, 'r'));
    EXPECT_EQ(got[i + 2].type, 17);
  }
  // Without a limit it is one Compression frame, which that server refuses.
  frame_compressor unlimited(46);
  ASSERT_TRUE(unlimited.enable("deflate_stream").ok());
  std::string one = some_frames() + some_frames();
  ASSERT_TRUE(unlimited.wrap(one).ok());
  frame_reader strict(1017, 46);
  ASSERT_TRUE(strict.enable_compression("deflate_stream").ok());
  ASSERT_TRUE(strict.feed(one).ok());
  EXPECT_FALSE(strict.next().ok());
}

TEST(compression, a_single_frame_above_the_limit_goes_alone) {
  frame_compressor client(46);
  ASSERT_TRUE(client.enable("deflate_stream", 100).ok());
  std::string wire = some_frames();
  ASSERT_TRUE(client.wrap(wire).ok());
  frame_reader server(default_max_frame_size, 46);
  ASSERT_TRUE(server.enable_compression("deflate_stream").ok());
  ASSERT_TRUE(server.feed(wire).ok());
  EXPECT_EQ(read_all(server).size(), 3u);
}

std::string compression_frame(std::uint64_t declared, const std::string& inflated) {
  deflate_stream_compressor z;
  Mysqlx::Connection::Compression m;
  m.set_uncompressed_size(declared);
  m.set_payload(z.compress(inflated));
  std::string out;
  EXPECT_TRUE(append_message(out, std::uint8_t{19}, m).ok());
  return out;
}

result<std::optional<frame>> read_one(const std::string& wire, std::uint64_t max = 1 << 20) {
  frame_reader r(max);
  EXPECT_TRUE(r.enable_compression("deflate_stream").ok());
  EXPECT_TRUE(r.feed(wire).ok());
  return r.next();
}

TEST(compression, declared_size_above_the_limit_is_refused) {
  auto r = read_one(compression_frame(1ull << 40, some_frames()));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, client_errc::compression);
  EXPECT_NE(r.err().message.find("1099511627776"), std::string::npos) << r.err().message;
}

TEST(compression, inflating_past_the_declared_size_is_refused) {
  auto r = read_one(compression_frame(10, some_frames()));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, client_errc::compression);
}

TEST(compression, inner_frame_over_the_limit_is_refused) {
  // A small payload whose inner length prefix claims 5000 bytes.
  const std::string lying = std::string("\x88\x13\x00\x00\x0d", 5) + "tiny";
  auto r = read_one(compression_frame(lying.size(), lying), 4096);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, client_errc::malformed_packet);
  EXPECT_NE(r.err().message.find("5000"), std::string::npos) << r.err().message;
}

TEST(compression, frames_before_an_inner_frame_over_the_limit_come_first) {
  std::string inflated;
  append_frame(inflated, 12, "first");
  inflated += std::string("\x88\x13\x00\x00\x0d", 5) + "tiny"; // claims 5000
  frame_reader r(4096, 19);
  ASSERT_TRUE(r.enable_compression("deflate_stream").ok());
  ASSERT_TRUE(r.feed(compression_frame(inflated.size(), inflated)).ok());
  auto first = r.next();
  ASSERT_TRUE(first.ok()) << first.err().message;
  ASSERT_TRUE(first.value().has_value());
  EXPECT_EQ(first.value()->payload, "first");
  auto bad = r.next();
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(r.fault(), compression_fault::too_large);
}

TEST(compression, set_max_size_bounds_later_messages_and_what_they_inflate_to) {
  frame_reader r(1 << 20, 19);
  ASSERT_TRUE(r.enable_compression("deflate_stream").ok());
  const std::string inflated = some_frames(); // a frame of 1005 bytes inside
  r.set_max_size(1000);
  EXPECT_EQ(r.max_size(), 1000u);
  ASSERT_TRUE(r.feed(compression_frame(inflated.size(), inflated)).ok());
  auto f = r.next();
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(r.fault(), compression_fault::too_large);
}

TEST(compression, buffered_counts_the_message_being_received) {
  frame_reader r;
  std::string wire;
  append_frame(wire, 12, "abcdef");
  ASSERT_TRUE(r.feed(wire.substr(0, 7)).ok());
  EXPECT_EQ(r.buffered(), 7u);
  ASSERT_TRUE(r.feed(wire.substr(7)).ok());
  ASSERT_TRUE(r.next().value().has_value());
  EXPECT_EQ(r.buffered(), 0u);
}

TEST(compression, partial_or_nested_inner_frames_are_malformed) {
  std::string partial = some_frames();
  partial.pop_back();
  frame_reader r;
  ASSERT_TRUE(r.enable_compression("deflate_stream").ok());
  ASSERT_TRUE(r.feed(compression_frame(partial.size(), partial)).ok());
  bool failed = false;
  for (int i = 0; i < 4 && !failed; ++i) failed = !r.next().ok();
  EXPECT_TRUE(failed);

  std::string nested;
  append_frame(nested, 19, "x");
  auto n = read_one(compression_frame(nested.size(), nested));
  ASSERT_FALSE(n.ok());
  EXPECT_NE(n.err().message.find("nested"), std::string::npos);
}

TEST(compression, garbage_payload_with_or_without_a_size) {
  Mysqlx::Connection::Compression m;
  m.set_uncompressed_size(100);
  m.set_payload("not zlib at all");
  std::string wire;
  ASSERT_TRUE(append_message(wire, std::uint8_t{19}, m).ok());
  EXPECT_FALSE(read_one(wire).ok());
  m.clear_uncompressed_size();
  wire.clear();
  ASSERT_TRUE(append_message(wire, std::uint8_t{19}, m).ok());
  EXPECT_FALSE(read_one(wire).ok());
}

// MySQL's server reads a Compression message without uncompressed_size (or
// with 0) until its payload runs out; so does the reader, within max_size.
TEST(compression, a_missing_size_inflates_up_to_the_limit) {
  for (std::uint64_t limit : {std::uint64_t{1} << 20, std::uint64_t{100}}) {
    frame_reader r(limit);
    ASSERT_TRUE(r.enable_compression("deflate_stream").ok());
    ASSERT_TRUE(r.feed(compression_frame(0, some_frames())).ok());
    auto f = r.next();
    if (limit < some_frames().size()) {
      ASSERT_FALSE(f.ok());
      EXPECT_EQ(r.fault(), compression_fault::decompression);
      continue;
    }
    ASSERT_TRUE(f.ok()) << f.err().message;
    EXPECT_EQ(f.value()->payload, "notice");
  }
}

TEST(compression, faults_say_what_went_wrong) {
  Mysqlx::Connection::Compression no_payload;
  no_payload.set_uncompressed_size(5);
  std::string wire;
  ASSERT_TRUE(append_message(wire, std::uint8_t{19}, no_payload).ok());
  frame_reader r;
  ASSERT_TRUE(r.enable_compression("deflate_stream").ok());
  ASSERT_TRUE(r.feed(wire).ok());
  EXPECT_FALSE(r.next().ok());
  EXPECT_EQ(r.fault(), compression_fault::bad_frame);

  frame_reader off;
  ASSERT_TRUE(off.feed(compression_frame(5, "xxxxx")).ok());
  EXPECT_FALSE(off.next().ok());
  EXPECT_EQ(off.fault(), compression_fault::not_enabled);

  frame_reader big(1 << 20);
  ASSERT_TRUE(big.enable_compression("deflate_stream").ok());
  ASSERT_TRUE(big.feed(compression_frame(std::uint64_t{1} << 30, some_frames())).ok());
  EXPECT_FALSE(big.next().ok());
  EXPECT_EQ(big.fault(), compression_fault::too_large);
}

TEST(compression, compression_frame_without_negotiation_is_an_error) {
  frame_reader r;
  ASSERT_TRUE(r.feed(compression_frame(5, "xxxxx")).ok());
  auto f = r.next();
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.err().message.find("not negotiated"), std::string::npos);
}

TEST(compression, unknown_algorithm) {
  frame_reader r;
  EXPECT_EQ(r.enable_compression("snappy").err().code, client_errc::compression);
  frame_compressor c;
  EXPECT_FALSE(c.enable("snappy").ok());
  std::string untouched = "abc";
  EXPECT_TRUE(c.wrap(untouched).ok());
  EXPECT_EQ(untouched, "abc"); // disabled: no-op
}

// Every algorithm in supported_compression() through the frame layer.
TEST(compression_algorithms, supported_in_the_x_plugins_order_of_preference) {
  // The official connectors prefer zstd_stream, then lz4_message, then
  // deflate_stream (MySQL's server lists them the other way round).
  EXPECT_EQ(supported_compression(),
            (std::vector<std::string>{"zstd_stream", "lz4_message", "deflate_stream"}));
}

class each_algorithm : public ::testing::TestWithParam<std::string> {};

std::string batch(int i) {
  std::string s;
  append_frame(s, 11, "notice " + std::to_string(i));
  append_frame(s, 13, std::string(500 + i, static_cast<char>('a' + i % 26)));
  append_frame(s, 17, "");
  return s;
}

TEST_P(each_algorithm, stream_state_carries_across_messages_split_at_every_byte) {
  frame_compressor client(46);
  ASSERT_TRUE(client.enable(GetParam()).ok());
  std::string wire, plain;
  for (int i = 0; i < 4; ++i) {
    std::string b = batch(i);
    plain += b;
    ASSERT_TRUE(client.wrap(b).ok());
    EXPECT_EQ(static_cast<unsigned char>(b[4]), 46);
    wire += b;
  }
  EXPECT_LT(wire.size(), plain.size() / 2);
  for (std::size_t cut = 0; cut <= wire.size(); ++cut) {
    frame_reader server(default_max_frame_size, 46);
    ASSERT_TRUE(server.enable_compression(GetParam()).ok());
    ASSERT_TRUE(server.feed(wire.substr(0, cut)).ok());
    auto got = read_all(server);
    ASSERT_TRUE(server.feed(wire.substr(cut)).ok());
    auto rest = read_all(server);
    got.insert(got.end(), rest.begin(), rest.end());
    ASSERT_EQ(got.size(), 12u) << "cut at " << cut;
    std::string again;
    for (const auto& f : got) append_frame(again, f.type, f.payload);
    ASSERT_EQ(again, plain) << "cut at " << cut;
  }
}

TEST_P(each_algorithm, server_to_client_with_plain_frames_between) {
  frame_compressor server(19);
  ASSERT_TRUE(server.enable(GetParam()).ok());
  frame_reader client;
  ASSERT_TRUE(client.enable_compression(GetParam()).ok());
  for (int i = 0; i < 10; ++i) {
    std::string b = batch(i);
    ASSERT_TRUE(server.wrap(b).ok());
    append_frame(b, 0, ""); // an uncompressed frame after each
    ASSERT_TRUE(client.feed(b).ok());
    auto got = read_all(client);
    ASSERT_EQ(got.size(), 4u);
    EXPECT_EQ(got[0].payload, "notice " + std::to_string(i));
    EXPECT_EQ(got[3].type, 0);
  }
}

TEST_P(each_algorithm, declared_sizes_are_bounded) {
  frame_compressor sender(19);
  ASSERT_TRUE(sender.enable(GetParam()).ok());
  std::string b = batch(1);
  const std::size_t real = b.size();
  ASSERT_TRUE(sender.wrap(b).ok());
  // Rewrite the declared size: larger than the limit, then smaller than
  // the real one; the payload is unchanged.
  for (std::uint64_t declared : {std::uint64_t{1} << 40, std::uint64_t{real - 1}}) {
    Mysqlx::Connection::Compression m;
    ASSERT_TRUE(m.ParseFromString(b.substr(frame_header_size)));
    m.set_uncompressed_size(declared);
    std::string wire;
    ASSERT_TRUE(append_message(wire, std::uint8_t{19}, m).ok());
    frame_reader r(4096);
    ASSERT_TRUE(r.enable_compression(GetParam()).ok());
    ASSERT_TRUE(r.feed(wire).ok());
    auto got = r.next();
    ASSERT_FALSE(got.ok()) << declared;
    EXPECT_EQ(got.err().code, client_errc::compression);
  }
}

INSTANTIATE_TEST_SUITE_P(all, each_algorithm, ::testing::ValuesIn(supported_compression()));

} // namespace
} // namespace cdk::protocol

namespace cdk::protocol {
namespace {

// What the connector sends parses as Mysqlx.Connection.Compression with
// libprotobuf too (MySQL's server reads it with protobuf's varint reader):
// the padded varints are valid, the payload is last and holds the frames.
TEST(compression, sent_messages_are_valid_protobuf_with_the_payload_last) {
  for (const auto& algorithm : supported_compression()) {
    frame_compressor client(46);
    ASSERT_TRUE(client.enable(algorithm).ok());
    std::string wire = some_frames();
    const std::size_t plain = wire.size();
    ASSERT_TRUE(client.wrap(wire).ok());
    const std::string body = wire.substr(frame_header_size);
    Mysqlx::Connection::Compression m;
    ASSERT_TRUE(m.ParseFromString(body)) << algorithm;
    EXPECT_EQ(m.uncompressed_size(), plain);
    EXPECT_FALSE(m.has_client_messages());
    // Field 1 (6 bytes padded), then field 4: tag 0x22 and 5 length bytes.
    EXPECT_EQ(static_cast<unsigned char>(body[0]), 0x08);
    EXPECT_EQ(static_cast<unsigned char>(body[6]), 0x22);
    EXPECT_EQ(body.substr(12), m.payload());
  }
}

} // namespace
} // namespace cdk::protocol
