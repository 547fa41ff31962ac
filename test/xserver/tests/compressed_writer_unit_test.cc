// compressed_writer without a server: which frames are compressed, where
// blocks close in each style, and the bytes of the Compression header.
#include "cdk/protocol/compression.h"
#include "cdk/protocol/frame.h"
#include "mysqlx_notice.pb.h"
#include "test/xserver/compressed_writer.h"

#include <gtest/gtest.h>

namespace xserver {
namespace {

using cdk::protocol::append_frame;

std::string notice(Mysqlx::Notice::Frame::Scope scope, int param, bool with_scope = true) {
  Mysqlx::Notice::SessionStateChanged s;
  s.set_param(static_cast<Mysqlx::Notice::SessionStateChanged::Parameter>(param));
  Mysqlx::Notice::Frame f;
  f.set_type(Mysqlx::Notice::Frame::SESSION_STATE_CHANGED);
  if (with_scope) f.set_scope(scope);
  f.set_payload(s.SerializeAsString());
  return f.SerializeAsString();
}

TEST(CompressedWriter, CompressesResultSetsAndLocalNoticesOnly) {
  for (std::uint8_t t : {12, 13, 14, 15, 16, 18}) EXPECT_TRUE(compressible(t, "")) << int(t);
  for (std::uint8_t t : {0, 1, 2, 3, 4, 17}) EXPECT_FALSE(compressible(t, "")) << int(t);
  EXPECT_TRUE(compressible(11, notice(Mysqlx::Notice::Frame::LOCAL, 4)));         // ROWS_AFFECTED
  EXPECT_FALSE(compressible(11, notice(Mysqlx::Notice::Frame::GLOBAL, 4)));       // global
  EXPECT_FALSE(compressible(11, notice(Mysqlx::Notice::Frame::LOCAL, 4, false))); // default GLOBAL
  EXPECT_FALSE(compressible(11, notice(Mysqlx::Notice::Frame::LOCAL, 11))); // CLIENT_ID_ASSIGNED
  EXPECT_FALSE(compressible(11, notice(Mysqlx::Notice::Frame::LOCAL, 2)));  // ACCOUNT_EXPIRED
}

TEST(CompressedWriter, StyleFromTheCapabilityFields) {
  EXPECT_EQ(style_of(true, -1), compression_style::group);
  EXPECT_EQ(style_of(false, 0), compression_style::multiple);
  EXPECT_EQ(style_of(true, 1), compression_style::single); // max 1 wins
  EXPECT_EQ(style_of(false, 1), compression_style::single);
}

struct wire_item {
  bool compressed;
  std::vector<std::uint8_t> types; // the frames inside, or the plain frame's type
};

// Splits the writer's output into plain frames and Compression messages,
// expanding the latter with one reader for the whole stream.
std::vector<wire_item> layout(const std::string& algorithm, const std::string& wire) {
  std::vector<wire_item> out;
  cdk::protocol::frame_decoder outer;
  cdk::protocol::frame_reader inner;
  EXPECT_TRUE(inner.enable_compression(algorithm).ok());
  EXPECT_TRUE(outer.feed(wire).ok());
  while (auto f = outer.next()) {
    if (f->type != 19) {
      out.push_back({false, {f->type}});
      continue;
    }
    wire_item item{true, {}};
    std::string bytes;
    append_frame(bytes, f->type, f->payload);
    EXPECT_TRUE(inner.feed(bytes).ok());
    for (;;) {
      auto g = inner.next();
      EXPECT_TRUE(g.ok());
      if (!g.ok() || !g.value()) break;
      item.types.push_back(g.value()->type);
    }
    out.push_back(std::move(item));
  }
  return out;
}

std::string flight() {
  std::string s;
  append_frame(s, 12, "meta1");
  append_frame(s, 12, "meta2");
  append_frame(s, 13, "row1");
  append_frame(s, 13, "row2");
  append_frame(s, 13, "row3");
  append_frame(s, 14, "");
  append_frame(s, 11, notice(Mysqlx::Notice::Frame::LOCAL, 4));
  append_frame(s, 17, ""); // StmtExecuteOk: plain, closes the block
  append_frame(s, 13, "row4");
  return s;
}

TEST(CompressedWriter, GroupMixesTypesUntilAPlainFrame) {
  compressed_writer w;
  ASSERT_TRUE(w.enable("deflate_stream", 3, compression_style::group, -1).ok());
  std::string wire = flight();
  ASSERT_TRUE(w.wrap(wire).ok());
  auto l = layout("deflate_stream", wire);
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l[0].types, (std::vector<std::uint8_t>{12, 12, 13, 13, 13, 14, 11}));
  EXPECT_FALSE(l[1].compressed);
  EXPECT_EQ(l[1].types, std::vector<std::uint8_t>{17});
  EXPECT_TRUE(l[2].compressed); // the flight's end closes the last block
  EXPECT_EQ(l[2].types, std::vector<std::uint8_t>{13});
}

TEST(CompressedWriter, MultipleKeepsOneTypePerMessageAndAMaximumCapsIt) {
  compressed_writer w;
  ASSERT_TRUE(w.enable("zstd_stream", 3, compression_style::multiple, 2).ok());
  std::string wire = flight();
  ASSERT_TRUE(w.wrap(wire).ok());
  auto l = layout("zstd_stream", wire);
  std::vector<std::vector<std::uint8_t>> got;
  got.reserve(l.size());
  for (const auto& i : l) got.push_back(i.types);
  EXPECT_EQ(got, (std::vector<std::vector<std::uint8_t>>{
                     {12, 12}, {13, 13}, {13}, {14}, {11}, {17}, {13}}));
}

TEST(CompressedWriter, SingleIsOneFramePerMessage) {
  compressed_writer w;
  ASSERT_TRUE(w.enable("zstd_stream", 3, compression_style::single, 0).ok());
  std::string wire = flight();
  ASSERT_TRUE(w.wrap(wire).ok());
  for (const auto& i : layout("zstd_stream", wire)) EXPECT_EQ(i.types.size(), 1u);
}

TEST(CompressedWriter, BlocksCloseAfterFivePagesOfFrames) {
  compressed_writer w;
  ASSERT_TRUE(w.enable("deflate_stream", 3, compression_style::group, -1).ok());
  std::string wire;
  for (int i = 0; i < 100; ++i) append_frame(wire, 13, std::string(995, 'r')); // 1000 each
  ASSERT_TRUE(w.wrap(wire).ok());
  auto l = layout("deflate_stream", wire);
  ASSERT_EQ(l.size(), 5u); // 21 frames (21000 > 20480 bytes) per block: 21+21+21+21+16
  EXPECT_EQ(l[0].types.size(), 21u);
  EXPECT_EQ(l[4].types.size(), 16u);
}

TEST(CompressedWriter, HeaderIsEncodedAsTheXPluginEncodesIt) {
  compressed_writer w;
  ASSERT_TRUE(w.enable("deflate_stream", 3, compression_style::multiple, -1).ok());
  std::string wire;
  append_frame(wire, 13, "row");
  ASSERT_TRUE(w.wrap(wire).ok());
  // frame header, then server_messages=13, uncompressed_size=8 as a 5-byte
  // varint, payload length as a 5-byte varint.
  EXPECT_EQ(static_cast<unsigned char>(wire[4]), 19);
  EXPECT_EQ(wire.substr(5, 9), std::string("\x10\x0d\x08\x88\x80\x80\x80\x00\x22", 9));
  EXPECT_EQ(static_cast<unsigned char>(wire[18]), 0x00); // the length's last byte
  EXPECT_EQ(static_cast<unsigned char>(wire[19]), 0x78); // the zlib header
}

TEST(CompressedWriter, DisabledIsANoOp) {
  compressed_writer w;
  std::string wire = flight();
  const std::string before = wire;
  ASSERT_TRUE(w.wrap(wire).ok());
  EXPECT_EQ(wire, before);
}

} // namespace
} // namespace xserver

namespace xserver {
namespace {

// What the Mysqlx_bytes_*_compressed_payload / _uncompressed_frame status
// variables show: the payload field's length and the frames inside.
TEST(CompressionBytes, SentCountsPayloadAndFramesOfEveryBlock) {
  compressed_writer w;
  ASSERT_TRUE(w.enable("deflate_stream", 3, compression_style::group, -1).ok());
  std::string frames;
  append_frame(frames, 13, std::string(3000, 'a')); // Row
  append_frame(frames, 14, "");                     // FetchDone
  const std::size_t plain = frames.size();
  ASSERT_TRUE(w.wrap(frames).ok());
  EXPECT_EQ(w.sent().uncompressed, plain);
  // One Compression frame: header (5), uncompressed_size (1 + 5), payload
  // tag and length (1 + 5), the payload.
  EXPECT_EQ(w.sent().compressed, frames.size() - 5 - 6 - 6);
  EXPECT_GT(w.sent().compressed, 0u);
}

TEST(CompressionBytes, ReceivedFollowsFramesCutAnywhere) {
  // A client's Compression message (type 46) between two plain frames,
  // fed one byte at a time.
  auto c = cdk::protocol::payload_compressor::make("deflate_stream");
  ASSERT_TRUE(c.ok());
  std::string inner;
  append_frame(inner, 12, std::string(500, 'q')); // StmtExecute
  std::string wire;
  append_frame(wire, 1, "");
  ASSERT_TRUE(cdk::protocol::append_compression_frame(wire, 46, c.value(), inner).ok());
  const std::size_t compressed_frame = wire.size() - 5;
  append_frame(wire, 7, "xyz");
  compressed_input_meter m(46);
  for (char ch : wire) m.feed(std::string_view(&ch, 1));
  EXPECT_EQ(m.received().uncompressed, inner.size());
  EXPECT_EQ(m.received().compressed, compressed_frame - 5 - 6 - 6);
}

} // namespace
} // namespace xserver
