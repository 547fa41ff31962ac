// zstd_stream: one zstd context per direction, ZSTD_e_flush per message,
// the same strict bounds as deflate_stream on the receiving side.
#include "cdk/foundation/compression.h"
#include "compression_test_data.h"

#include <gtest/gtest.h>
#include <string>
#include <zstd.h>

namespace {

using cdk::zstd_form;
using cdk::zstd_stream_compressor;
using cdk::zstd_stream_decompressor;

// Decodes a run of zstd data with libzstd directly, independently of ours.
std::string zstd_decode_all(const std::string& in) {
  ZSTD_DCtx* d = ZSTD_createDCtx();
  std::string out(8 << 20, '\0');
  ZSTD_inBuffer ib{in.data(), in.size(), 0};
  ZSTD_outBuffer ob{out.data(), out.size(), 0};
  std::size_t rc = ZSTD_decompressStream(d, &ob, &ib);
  EXPECT_FALSE(ZSTD_isError(rc)) << ZSTD_getErrorName(rc);
  EXPECT_EQ(ib.pos, ib.size);
  out.resize(ob.pos);
  ZSTD_freeDCtx(d);
  return out;
}

std::string expect_ok(cdk::result<std::string> r) {
  EXPECT_TRUE(r) << r.err().message;
  return r ? r.value() : std::string("<error>");
}

TEST(ZstdStream, RoundTripsManyMessagesOnOneStream) {
  zstd_stream_compressor tx;
  zstd_stream_decompressor rx;
  std::string all_plain, all_wire;
  for (int i = 0; i < 50; ++i) {
    std::string msg;
    for (int j = 0; j <= i % 7; ++j) msg += row(i * 10 + j);
    std::string wire = tx.compress(msg);
    EXPECT_EQ(expect_ok(rx.decompress(wire, msg.size(), no_limit)), msg);
    all_plain += msg;
    all_wire += wire;
  }
  // One frame for the whole stream: its magic number appears once, at the
  // start, and the concatenation decodes with plain libzstd.
  EXPECT_EQ(all_wire.substr(0, 4), std::string("\x28\xb5\x2f\xfd", 4));
  EXPECT_EQ(all_wire.find(std::string("\x28\xb5\x2f\xfd", 4), 1), std::string::npos);
  EXPECT_EQ(zstd_decode_all(all_wire), all_plain);
}

TEST(ZstdStream, LaterMessagesUseTheEarlierHistory) {
  zstd_stream_compressor tx;
  std::string msg;
  for (int i = 0; i < 20; ++i) msg += row(i * 37);
  std::string first = tx.compress(msg);
  std::string again = tx.compress(msg);
  EXPECT_LT(again.size(), first.size() / 2) << first.size() << " vs " << again.size();
  zstd_stream_decompressor rx;
  EXPECT_EQ(expect_ok(rx.decompress(first, msg.size(), no_limit)), msg);
  EXPECT_EQ(expect_ok(rx.decompress(again, msg.size(), no_limit)), msg);
  // Without the first message (and its frame header) the second is not zstd.
  zstd_stream_decompressor fresh;
  EXPECT_FALSE(fresh.decompress(again, msg.size(), no_limit));
}

TEST(ZstdStream, EmptyAndLargeMessages) {
  zstd_stream_compressor tx;
  zstd_stream_decompressor rx;
  EXPECT_EQ(expect_ok(rx.decompress(tx.compress(""), 0, no_limit)), "");
  std::string big;
  for (int i = 0; i < 40000; ++i) big += row(i); // several MiB, many blocks
  std::string wire = tx.compress(big);
  EXPECT_LT(wire.size(), big.size() / 4);
  EXPECT_EQ(expect_ok(rx.decompress(wire, big.size(), no_limit)), big);
  EXPECT_EQ(expect_ok(rx.decompress(tx.compress("after"), 5, no_limit)), "after");
}

TEST(ZstdStream, OutputLargerThanDeclaredIsRejectedAndTheStreamStaysFailed) {
  zstd_stream_compressor tx;
  std::string zeros(1 << 20, '\0'); // a tiny payload that expands to 1 MiB
  std::string wire = tx.compress(zeros);
  ASSERT_LT(wire.size(), 1000u);
  zstd_stream_decompressor rx;
  auto r = rx.decompress(wire, 1000, no_limit);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().code, cdk::client_errc::compression);
  EXPECT_TRUE(r.err().fatal);
  EXPECT_NE(r.err().message.find("zstd_stream: payload decompresses to more than the declared "
                                 "1000 bytes"),
            std::string::npos)
      << r.err().message;
  auto later = rx.decompress(tx.compress("x"), 1, no_limit);
  ASSERT_FALSE(later);
  EXPECT_NE(later.err().message.find("unusable after an earlier error"), std::string::npos);
}

TEST(ZstdStream, DeclaredSizeAboveTheMaximumIsRejectedUpFront) {
  zstd_stream_compressor tx;
  std::string msg(5000, 'a');
  zstd_stream_decompressor rx;
  auto r = rx.decompress(tx.compress(msg), msg.size(), 4096);
  ASSERT_FALSE(r);
  EXPECT_NE(r.err().message.find("declared uncompressed size 5000 exceeds the maximum of 4096"),
            std::string::npos)
      << r.err().message;
}

TEST(ZstdStream, OutputSmallerThanDeclaredIsRejected) {
  zstd_stream_compressor tx;
  std::string msg = row(7);
  zstd_stream_decompressor rx;
  auto r = rx.decompress(tx.compress(msg), msg.size() + 1, no_limit);
  ASSERT_FALSE(r);
  EXPECT_NE(r.err().message.find("decompresses to " + std::to_string(msg.size()) +
                                 " bytes, declared " + std::to_string(msg.size() + 1)),
            std::string::npos)
      << r.err().message;
}

TEST(ZstdStream, TruncatedPayloadsAreRejectedAtEveryCut) {
  zstd_stream_compressor tx;
  std::string msg;
  for (int i = 0; i < 100; ++i) msg += row(i);
  std::string wire = tx.compress(msg);
  for (std::size_t cut = 0; cut < wire.size(); ++cut) {
    zstd_stream_decompressor rx;
    auto r = rx.decompress(wire.substr(0, cut), msg.size(), no_limit);
    ASSERT_FALSE(r) << "cut at " << cut;
    EXPECT_EQ(r.err().code, cdk::client_errc::compression);
  }
}

TEST(ZstdStream, GarbageIsRejected) {
  const std::string inputs[] = {
      std::string("\x00\x01\x02\x03garbage", 11),                  // bad magic number
      std::string("\x28\xb5\x2f\xfd\xff\xff\xff\xff\xff", 9),      // reserved header bits
      std::string("\x28\xb5\x2f\xfd\x00\x00\xff\xff\xff\xff", 10), // bad block
  };
  for (const auto& in : inputs) {
    zstd_stream_decompressor rx;
    auto r = rx.decompress(in, 10, no_limit);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.err().code, cdk::client_errc::compression);
  }
}

TEST(ZstdStream, AFrameAskingForAHugeWindowIsRefused) {
  // A frame that needs a 128 MiB window: we would have to allocate it.
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ASSERT_FALSE(ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, 27)));
  std::string msg(1000, 'z');
  std::string wire(ZSTD_compressBound(msg.size()) + 64, '\0');
  ZSTD_inBuffer ib{msg.data(), msg.size(), 0};
  ZSTD_outBuffer ob{wire.data(), wire.size(), 0};
  ASSERT_EQ(ZSTD_compressStream2(c, &ob, &ib, ZSTD_e_flush), 0u);
  wire.resize(ob.pos);
  ZSTD_freeCCtx(c);
  zstd_stream_decompressor rx;
  auto r = rx.decompress(wire, msg.size(), no_limit);
  ASSERT_FALSE(r);
  EXPECT_NE(r.err().message.find("corrupt data"), std::string::npos) << r.err().message;
}

TEST(ZstdStream, APeerThatEndsItsFrameMayStartANewOne) {
  // ZSTD_e_end closes the frame; libzstd decoders then read the next one.
  std::string a = "first message", b = "second message";
  std::string wa(ZSTD_compressBound(a.size()), '\0'), wb(ZSTD_compressBound(b.size()), '\0');
  wa.resize(ZSTD_compress(wa.data(), wa.size(), a.data(), a.size(), 3));
  wb.resize(ZSTD_compress(wb.data(), wb.size(), b.data(), b.size(), 3));
  zstd_stream_decompressor rx;
  EXPECT_EQ(expect_ok(rx.decompress(wa, a.size(), no_limit)), a);
  EXPECT_EQ(expect_ok(rx.decompress(wb, b.size(), no_limit)), b);
}

TEST(ZstdStream, FramePerMessageMakesOneWholeFramePerMessage) {
  // As MySQL's X Plugin sends them: each message decodes alone, with its
  // size in the frame header.
  zstd_stream_compressor tx(3, zstd_form::frame_per_message);
  zstd_stream_decompressor rx;
  for (int i = 0; i < 20; ++i) {
    std::string msg;
    for (int j = 0; j <= i % 7; ++j) msg += row(i * 10 + j);
    if (i == 5) msg.clear();
    std::string wire = tx.compress(msg);
    EXPECT_EQ(ZSTD_getFrameContentSize(wire.data(), wire.size()), msg.size());
    EXPECT_EQ(ZSTD_findFrameCompressedSize(wire.data(), wire.size()), wire.size());
    EXPECT_EQ(zstd_decode_all(wire), msg);
    // ... and one decompressor reads frame after frame.
    EXPECT_EQ(expect_ok(rx.decompress(wire, msg.size(), no_limit)), msg);
  }
}

TEST(ZstdStream, FramePerMessageCarriesNothingOver) {
  zstd_stream_compressor tx(3, zstd_form::frame_per_message);
  std::string msg;
  for (int i = 0; i < 20; ++i) msg += row(i * 37);
  std::string first = tx.compress(msg);
  EXPECT_EQ(tx.compress(msg), first);
}

TEST(ZstdStream, SeveralFramesInOnePayloadAndFormsMixed) {
  zstd_stream_compressor frames(3, zstd_form::frame_per_message);
  std::string a = row(1), b = row(2) + row(3);
  zstd_stream_decompressor rx;
  std::string two = frames.compress(a) + frames.compress(b);
  EXPECT_EQ(expect_ok(rx.decompress(two, a.size() + b.size(), no_limit)), a + b);
  EXPECT_EQ(expect_ok(rx.decompress(two, 0, no_limit)), a + b);
  // After whole frames, a peer may switch to one flushed frame for good.
  zstd_stream_compressor flushed;
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(expect_ok(rx.decompress(flushed.compress(b), b.size(), no_limit)), b);
}

} // namespace
