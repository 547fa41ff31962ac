// lz4_message: each message one complete, independent LZ4 frame with the
// X Plugin's preferences; the receiver takes whole frames only.
#include "cdk/foundation/compression.h"
#include "compression_test_data.h"

#include <gtest/gtest.h>
#include <lz4frame.h>
#include <string>

namespace {

using cdk::lz4_message_compressor;
using cdk::lz4_message_decompressor;

std::string expect_ok(cdk::result<std::string> r) {
  EXPECT_TRUE(r) << r.err().message;
  return r ? r.value() : std::string("<error>");
}

std::string rows(int first, int count) {
  std::string s;
  for (int i = first; i < first + count; ++i) s += row(i);
  return s;
}

// Decodes one payload with a fresh LZ4F context, independently of ours;
// fails unless it is exactly one complete frame.
std::string lz4_decode_one_frame(const std::string& in) {
  LZ4F_dctx* d = nullptr;
  EXPECT_FALSE(LZ4F_isError(LZ4F_createDecompressionContext(&d, LZ4F_VERSION)));
  std::string out(8 << 20, '\0');
  std::size_t dst = out.size(), src = in.size();
  std::size_t rc = LZ4F_decompress(d, out.data(), &dst, in.data(), &src, nullptr);
  EXPECT_EQ(rc, 0u) << (LZ4F_isError(rc) ? LZ4F_getErrorName(rc) : "frame not complete");
  EXPECT_EQ(src, in.size());
  out.resize(dst);
  LZ4F_freeDecompressionContext(d);
  return out;
}

// One frame made by LZ4F directly, with other preferences than ours.
std::string lz4_frame(const std::string& msg, LZ4F_preferences_t prefs) {
  std::string out(LZ4F_compressFrameBound(msg.size(), &prefs), '\0');
  std::size_t n = LZ4F_compressFrame(out.data(), out.size(), msg.data(), msg.size(), &prefs);
  EXPECT_FALSE(LZ4F_isError(n));
  out.resize(n);
  return out;
}

TEST(Lz4Message, EveryMessageIsOneIndependentFrame) {
  lz4_message_compressor tx;
  lz4_message_decompressor rx;
  std::string previous;
  for (int i = 0; i < 20; ++i) {
    std::string msg = rows(i * 10, 1 + i % 7);
    std::string wire;
    tx.compress_append(msg, wire);
    // Magic number, then FLG 0x60 (version 1, independent blocks, no
    // checksums, no content size) and BD 0x40 (64 KiB blocks).
    ASSERT_GE(wire.size(), 7u);
    EXPECT_EQ(wire.substr(0, 6), std::string("\x04\x22\x4d\x18\x60\x40", 6));
    EXPECT_EQ(lz4_decode_one_frame(wire), msg);
    EXPECT_EQ(expect_ok(rx.decompress(wire, msg.size(), no_limit)), msg);
  }
}

TEST(Lz4Message, NothingCarriesOverBetweenMessages) {
  lz4_message_compressor tx;
  std::string msg = rows(0, 20);
  std::string first = tx.compress(msg);
  EXPECT_EQ(tx.compress(msg), first);
  // ... so a fresh decompressor can start with any message.
  lz4_message_decompressor fresh;
  EXPECT_EQ(expect_ok(fresh.decompress(tx.compress(msg), msg.size(), no_limit)), msg);
}

TEST(Lz4Message, LargeMessagesSpanManyBlocks) {
  lz4_message_compressor tx(9);
  std::string big = rows(0, 80000); // about 6 MiB: many 64 KiB blocks
  std::string wire = tx.compress(big);
  EXPECT_LT(wire.size(), big.size() / 4);
  EXPECT_EQ(lz4_decode_one_frame(wire), big);
  lz4_message_decompressor rx;
  EXPECT_EQ(expect_ok(rx.decompress(wire, big.size(), no_limit)), big);
  EXPECT_EQ(expect_ok(rx.decompress(wire, 0, no_limit)), big);
}

// The BD byte of a frame: block size id in bits 4..6 (4: 64 KiB .. 7: 4 MiB).
int block_size_id(const std::string& frame) {
  return (static_cast<unsigned char>(frame.at(5)) >> 4) & 7;
}

TEST(Lz4Message, LargeBlocksFollowTheMessageSize) {
  // What the connector sends: the largest block size not above the
  // message's size; 64 KiB below that, and always without large_blocks (what
  // MySQL's server and xserverd send).
  lz4_message_compressor client(2, true), server(2, false);
  lz4_message_decompressor rx;
  const struct {
    std::size_t size;
    int id;
  } cases[] = {{100, 4},     {65535, 4},   {65536, 4},   {262143, 4},  {262144, 5},
               {1048575, 5}, {1048576, 6}, {4194303, 6}, {4194304, 7}, {6u << 20, 7}};
  std::string all = rows(0, 120000);
  ASSERT_GT(all.size(), std::size_t{6} << 20);
  for (const auto& c : cases) {
    const std::string msg = all.substr(0, c.size);
    const std::string wire = client.compress(msg);
    EXPECT_EQ(block_size_id(wire), c.id) << c.size << " bytes";
    EXPECT_EQ(lz4_decode_one_frame(wire), msg);
    EXPECT_EQ(expect_ok(rx.decompress(wire, msg.size(), no_limit)), msg);
    EXPECT_EQ(block_size_id(server.compress(msg)), 4) << c.size << " bytes";
  }
}

TEST(Lz4Message, OtherPeersFramesDecodeToo) {
  // 4 MiB and linked blocks, checksums, a content size: all LZ4F can make.
  std::string msg = rows(0, 70000);
  LZ4F_preferences_t prefs{};
  prefs.frameInfo.blockSizeID = LZ4F_max4MB;
  prefs.frameInfo.blockMode = LZ4F_blockLinked;
  prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
  prefs.frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled;
  prefs.frameInfo.contentSize = msg.size();
  lz4_message_decompressor rx;
  EXPECT_EQ(expect_ok(rx.decompress(lz4_frame(msg, prefs), msg.size(), no_limit)), msg);
  EXPECT_EQ(expect_ok(rx.decompress(lz4_frame("", prefs), 0, no_limit)), "");
}

TEST(Lz4Message, APayloadMayHoldSeveralFrames) {
  lz4_message_compressor tx;
  std::string a = rows(0, 5), b = rows(5, 50), c;
  std::string wire = tx.compress(a) + tx.compress(b) + tx.compress(c);
  lz4_message_decompressor rx;
  EXPECT_EQ(expect_ok(rx.decompress(wire, a.size() + b.size(), no_limit)), a + b);
  EXPECT_EQ(expect_ok(rx.decompress(wire, 0, no_limit)), a + b);
  // An empty payload holds no frame and no bytes.
  EXPECT_EQ(expect_ok(rx.decompress("", 0, no_limit)), "");
}

TEST(Lz4Message, AFrameSplitOverTwoPayloadsIsRejected) {
  lz4_message_compressor tx;
  std::string msg = rows(0, 100);
  std::string wire = tx.compress(msg);
  for (std::size_t cut : {std::size_t{3}, std::size_t{7}, wire.size() / 2, wire.size() - 1}) {
    lz4_message_decompressor rx;
    // Even with an unknown size: the frame has not ended.
    auto r = rx.decompress(wire.substr(0, cut), 0, no_limit);
    ASSERT_FALSE(r) << cut;
    EXPECT_NE(r.err().message.find("lz4_message: payload ends inside a frame"), std::string::npos)
        << r.err().message;
    EXPECT_FALSE(rx.decompress(wire.substr(cut), 0, no_limit));
  }
}

TEST(Lz4Message, GarbageIsRejected) {
  const std::string inputs[] = {
      std::string("\x00\x01\x02\x03garbage", 11), // bad magic number
      // Block size id 3 (BD 0x30): LZ4 knows only 4..7 (64 KiB..4 MiB).
      std::string("\x04\x22\x4d\x18\x60\x30\x00", 7),
      // A block that claims more than its 64 KiB maximum.
      std::string("\x04\x22\x4d\x18\x60\x40\x82\xff\xff\xff\x7f", 11),
  };
  const char* why[] = {"frameType_unknown", "maxBlockSize_invalid", "corrupt data"};
  for (int i = 0; i < 3; ++i) {
    lz4_message_decompressor rx;
    auto r = rx.decompress(inputs[i], 10, no_limit);
    ASSERT_FALSE(r) << i;
    EXPECT_EQ(r.err().code, cdk::client_errc::compression);
    EXPECT_NE(r.err().message.find(why[i]), std::string::npos) << r.err().message;
  }
}

} // namespace
