// deflate_stream: one zlib stream per direction, a sync flush per message,
// strict bounds on the receiving side.
#include "cdk/foundation/compression.h"
#include "compression_test_data.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>
#include <zlib.h>

namespace {

using cdk::deflate_stream_compressor;
using cdk::deflate_stream_decompressor;

// Inflates a whole zlib stream in one go, independently of our decompressor.
std::string inflate_all(const std::string& in) {
  z_stream z{};
  EXPECT_EQ(inflateInit(&z), Z_OK);
  std::string out(1 << 20, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int rc = inflate(&z, Z_SYNC_FLUSH);
  EXPECT_TRUE(rc == Z_OK || rc == Z_BUF_ERROR) << rc;
  out.resize(z.total_out);
  inflateEnd(&z);
  return out;
}

TEST(DeflateStream, RoundTripsManyMessagesOnOneStream) {
  deflate_stream_compressor tx;
  deflate_stream_decompressor rx;
  std::string all_plain, all_wire;
  std::vector<std::size_t> sizes;
  for (int i = 0; i < 50; ++i) {
    std::string msg;
    for (int j = 0; j <= i % 7; ++j) msg += row(i * 10 + j);
    std::string wire = tx.compress(msg);
    // Each message ends on a sync flush: the empty stored block 00 00 ff ff.
    ASSERT_GE(wire.size(), 4u);
    EXPECT_EQ(wire.substr(wire.size() - 4), std::string("\0\0\xff\xff", 4));
    auto back = rx.decompress(wire, msg.size(), no_limit);
    ASSERT_TRUE(back) << back.err().message;
    EXPECT_EQ(back.value(), msg);
    all_plain += msg;
    all_wire += wire;
    sizes.push_back(wire.size());
  }
  // One continuous stream: the concatenation is a single valid zlib stream
  // that inflates to the concatenated messages.
  EXPECT_EQ(inflate_all(all_wire), all_plain);
  EXPECT_EQ(static_cast<unsigned char>(all_wire[0]), 0x78u); // zlib header, once
}

TEST(DeflateStream, LaterMessagesUseTheEarlierDictionary) {
  deflate_stream_compressor tx;
  std::string msg = row(1) + row(2) + row(3);
  std::string first = tx.compress(msg);
  std::string again = tx.compress(msg);
  // The second copy is a back-reference into the first: a fresh stream
  // could not compress it that well.
  EXPECT_LT(again.size(), first.size() / 2) << first.size() << " vs " << again.size();
  deflate_stream_decompressor rx;
  ASSERT_TRUE(rx.decompress(first, msg.size(), no_limit));
  auto second = rx.decompress(again, msg.size(), no_limit);
  ASSERT_TRUE(second) << second.err().message;
  EXPECT_EQ(second.value(), msg);
  // Without the first message the second cannot be decoded.
  deflate_stream_decompressor fresh;
  EXPECT_FALSE(fresh.decompress(again, msg.size(), no_limit));
}

TEST(DeflateStream, EmptyAndLargeMessages) {
  deflate_stream_compressor tx;
  deflate_stream_decompressor rx;
  std::string empty_wire = tx.compress("");
  auto e = rx.decompress(empty_wire, 0, no_limit);
  ASSERT_TRUE(e) << e.err().message;
  EXPECT_EQ(e.value(), "");
  std::string big;
  for (int i = 0; i < 40000; ++i) big += row(i); // several MiB
  std::string wire = tx.compress(big);
  auto b = rx.decompress(wire, big.size(), no_limit);
  ASSERT_TRUE(b) << b.err().message;
  EXPECT_EQ(b.value(), big);
}

TEST(DeflateStream, OutputLargerThanDeclaredIsRejected) {
  deflate_stream_compressor tx;
  std::string zeros(1 << 20, '\0'); // a small payload that inflates to 1 MiB
  std::string wire = tx.compress(zeros);
  deflate_stream_decompressor rx;
  auto r = rx.decompress(wire, 1000, no_limit);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().code, cdk::client_errc::compression);
  EXPECT_TRUE(r.err().fatal);
  EXPECT_NE(r.err().message.find("more than the declared 1000 bytes"), std::string::npos)
      << r.err().message;
  // The stream is now unusable: later calls fail too.
  auto later = rx.decompress(tx.compress("x"), 1, no_limit);
  ASSERT_FALSE(later);
  EXPECT_EQ(later.err().code, cdk::client_errc::compression);
}

TEST(DeflateStream, DeclaredSizeAboveTheMaximumIsRejectedUpFront) {
  deflate_stream_compressor tx;
  std::string msg(5000, 'a');
  deflate_stream_decompressor rx;
  auto r = rx.decompress(tx.compress(msg), msg.size(), 4096);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().code, cdk::client_errc::compression);
  EXPECT_NE(r.err().message.find("declared uncompressed size 5000 exceeds the maximum of 4096"),
            std::string::npos)
      << r.err().message;
}

TEST(DeflateStream, OutputSmallerThanDeclaredIsRejected) {
  deflate_stream_compressor tx;
  std::string msg = row(7);
  deflate_stream_decompressor rx;
  auto r = rx.decompress(tx.compress(msg), msg.size() + 1, no_limit);
  ASSERT_FALSE(r);
  EXPECT_NE(r.err().message.find("decompresses to " + std::to_string(msg.size()) +
                                 " bytes, declared " + std::to_string(msg.size() + 1)),
            std::string::npos)
      << r.err().message;
}

TEST(DeflateStream, TruncatedPayloadIsRejected) {
  deflate_stream_compressor tx;
  std::string msg;
  for (int i = 0; i < 100; ++i) msg += row(i);
  std::string wire = tx.compress(msg);
  deflate_stream_decompressor rx;
  auto r = rx.decompress(wire.substr(0, wire.size() / 2), msg.size(), no_limit);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().code, cdk::client_errc::compression);
}

TEST(DeflateStream, GarbageIsRejected) {
  const std::string inputs[] = {
      std::string("\x00\x01\x02\x03garbage", 11),     // bad zlib header
      std::string("\x78\x9c\xff\xff\xff\xff\xff", 7), // good header, bad block type
  };
  for (const auto& in : inputs) {
    deflate_stream_decompressor rx;
    auto r = rx.decompress(in, 10, no_limit);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.err().code, cdk::client_errc::compression);
    EXPECT_NE(r.err().message.find("corrupt data"), std::string::npos) << r.err().message;
  }
}

TEST(DeflateStream, DataAfterTheEndOfTheStreamIsRejected) {
  // A peer that finished its stream (Z_FINISH) may not send more.
  std::string msg = "hello";
  std::string wire(64, '\0');
  uLongf len = wire.size();
  ASSERT_EQ(compress(reinterpret_cast<Bytef*>(wire.data()), &len,
                     reinterpret_cast<const Bytef*>(msg.data()), msg.size()),
            Z_OK);
  wire.resize(len);
  deflate_stream_decompressor rx;
  auto r = rx.decompress(wire + "x", msg.size(), no_limit);
  ASSERT_FALSE(r);
  EXPECT_NE(r.err().message.find("after the end of the stream"), std::string::npos)
      << r.err().message;
}

} // namespace
