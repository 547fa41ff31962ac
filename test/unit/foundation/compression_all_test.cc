// What every algorithm promises alike: round trips at every level, empty,
// tiny and multi-megabyte messages, the declared-size checks, unknown sizes
// (expected_size 0), truncated and corrupted payloads, and the level range.
#include "cdk/foundation/compression.h"
#include "compression_test_data.h"

#include <gtest/gtest.h>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace cdk;

// One compressor form and its decompressor.
struct deflate_case {
  static constexpr std::string_view algorithm = "deflate_stream";
  using rx = deflate_stream_decompressor;
  static deflate_stream_compressor make(int level) { return deflate_stream_compressor(level); }
};
struct zstd_flush_case {
  static constexpr std::string_view algorithm = "zstd_stream";
  using rx = zstd_stream_decompressor;
  static zstd_stream_compressor make(int level) { return zstd_stream_compressor(level); }
};
struct zstd_frame_case {
  static constexpr std::string_view algorithm = "zstd_stream";
  using rx = zstd_stream_decompressor;
  static zstd_stream_compressor make(int level) {
    return zstd_stream_compressor(level, zstd_form::frame_per_message);
  }
};
struct lz4_case {
  static constexpr std::string_view algorithm = "lz4_message";
  using rx = lz4_message_decompressor;
  static lz4_message_compressor make(int level) { return lz4_message_compressor(level); }
};

struct case_names {
  template <class T> static std::string GetName(int) {
    if (std::is_same_v<T, deflate_case>) return "deflate";
    if (std::is_same_v<T, zstd_flush_case>) return "zstd_flush";
    if (std::is_same_v<T, zstd_frame_case>) return "zstd_frame";
    return "lz4";
  }
};

template <class T> class Compression : public ::testing::Test {};
using all_cases = ::testing::Types<deflate_case, zstd_flush_case, zstd_frame_case, lz4_case>;
TYPED_TEST_SUITE(Compression, all_cases, case_names);

std::string expect_ok(result<std::string> r) {
  EXPECT_TRUE(r) << r.err().message;
  return r ? r.value() : std::string("<error>");
}

void expect_error(const result<std::string>& r, const std::string& text) {
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().code, client_errc::compression);
  EXPECT_EQ(r.err().origin, error_origin::connection);
  EXPECT_TRUE(r.err().fatal);
  EXPECT_NE(r.err().message.find(text), std::string::npos) << r.err().message;
}

std::string rows(int first, int count) {
  std::string s;
  for (int i = first; i < first + count; ++i) s += row(i);
  return s;
}

// Several MiB, half rows and half random bytes, so that it spans many
// blocks of every algorithm (LZ4's are 64 KiB) and does not shrink to nothing.
std::string big_message() {
  std::string s = rows(0, 40000);
  std::mt19937 gen(42);
  std::uniform_int_distribution<int> byte(0, 255);
  for (std::size_t i = 0, n = s.size(); i < n; ++i) s += static_cast<char>(byte(gen));
  return s;
}

TYPED_TEST(Compression, RoundTripsAtLevelsAcrossTheRange) {
  const int lo = compression_level_min(TypeParam::algorithm);
  const int hi = compression_level_max(TypeParam::algorithm);
  std::vector<int> levels{lo, hi, (lo + hi) / 2, 1, 3};
  if (lo < 0) levels.push_back(-5); // zstd's fast levels
  for (int level : levels) {
    if (!compression_level_valid(TypeParam::algorithm, level)) continue;
    auto tx = TypeParam::make(level);
    typename TypeParam::rx rx;
    for (int i = 0; i < 5; ++i) {
      std::string msg = rows(i * 100, 50 + i * 200);
      EXPECT_EQ(expect_ok(rx.decompress(tx.compress(msg), msg.size(), no_limit)), msg)
          << "level " << level;
    }
  }
}

TYPED_TEST(Compression, EmptyOneByteAndMultiMegabyteMessages) {
  auto tx = TypeParam::make(1);
  typename TypeParam::rx rx;
  EXPECT_EQ(expect_ok(rx.decompress(tx.compress(""), 0, no_limit)), "");
  EXPECT_EQ(expect_ok(rx.decompress(tx.compress("x"), 1, no_limit)), "x");
  const std::string big = big_message();
  std::string wire = tx.compress(big);
  EXPECT_LT(wire.size(), big.size());
  EXPECT_EQ(expect_ok(rx.decompress(wire, big.size(), no_limit)), big);
  // compress_append adds to what is there.
  std::string out = "prefix";
  tx.compress_append("after", out);
  EXPECT_EQ(out.substr(0, 6), "prefix");
  EXPECT_EQ(expect_ok(rx.decompress(std::string_view(out).substr(6), 5, no_limit)), "after");
}

TYPED_TEST(Compression, UnknownSizeGivesWhatThePayloadHolds) {
  auto tx = TypeParam::make(1);
  typename TypeParam::rx rx;
  for (int n : {0, 1, 10, 3000}) {
    std::string msg = rows(n, n);
    EXPECT_EQ(expect_ok(rx.decompress(tx.compress(msg), 0, no_limit)), msg);
    // Known and unknown sizes mix on one stream.
    EXPECT_EQ(expect_ok(rx.decompress(tx.compress(msg), msg.size(), no_limit)), msg);
  }
  // The maximum itself is fine.
  std::string msg = rows(0, 100);
  EXPECT_EQ(expect_ok(rx.decompress(tx.compress(msg), 0, msg.size())), msg);
}

TYPED_TEST(Compression, UnknownSizeStillStopsAtTheMaximum) {
  auto tx = TypeParam::make(1);
  std::string zeros(4 << 20, '\0'); // a small payload that expands to 4 MiB
  std::string wire = tx.compress(zeros);
  ASSERT_LT(wire.size(), 100000u);
  typename TypeParam::rx rx;
  expect_error(rx.decompress(wire, 0, zeros.size() - 1),
               "payload decompresses to more than the maximum of " +
                   std::to_string(zeros.size() - 1) + " bytes");
  expect_error(rx.decompress(tx.compress("x"), 0, no_limit), "unusable after an earlier error");
}

TYPED_TEST(Compression, DeclaredSizesAreChecked) {
  const std::string msg = rows(0, 50);
  // The first message of a stream, for a fresh decompressor.
  auto first = [&] { return TypeParam::make(1).compress(msg); };
  {
    typename TypeParam::rx rx;
    expect_error(rx.decompress(first(), msg.size(), msg.size() - 1),
                 "declared uncompressed size " + std::to_string(msg.size()) +
                     " exceeds the maximum of " + std::to_string(msg.size() - 1));
  }
  {
    typename TypeParam::rx rx;
    expect_error(rx.decompress(first(), msg.size() - 1, no_limit),
                 "payload decompresses to more than the declared " +
                     std::to_string(msg.size() - 1) + " bytes");
    expect_error(rx.decompress(first(), msg.size(), no_limit), "unusable after an earlier error");
  }
  {
    typename TypeParam::rx rx;
    expect_error(rx.decompress(first(), msg.size() + 1, no_limit),
                 "payload decompresses to " + std::to_string(msg.size()) + " bytes, declared " +
                     std::to_string(msg.size() + 1));
  }
}

TYPED_TEST(Compression, TruncatedPayloadsAreRejectedAtEveryCut) {
  auto tx = TypeParam::make(1);
  std::string msg = rows(0, 100);
  std::string wire = tx.compress(msg);
  // A sync flush ends on the last block's end code and an empty stored
  // block (header bits, 00 00 ff ff): no data, so deflate's cuts in those
  // last 5 bytes lose nothing and go unnoticed.
  const std::size_t marker = TypeParam::algorithm == "deflate_stream" ? 5 : 0;
  for (std::size_t cut = 0; cut < wire.size() - marker; ++cut) {
    typename TypeParam::rx rx;
    auto r = rx.decompress(std::string_view(wire).substr(0, cut), msg.size(), no_limit);
    ASSERT_FALSE(r) << "cut at " << cut;
    EXPECT_EQ(r.err().code, client_errc::compression);
  }
}

TYPED_TEST(Compression, CorruptedPayloadsNeverBreakTheBounds) {
  // Without checksums a flipped bit may decode to other bytes; what must
  // hold is an error, or exactly the declared size.
  auto tx = TypeParam::make(1);
  std::string msg = rows(0, 30);
  const std::string wire = tx.compress(msg);
  for (std::size_t i = 0; i < wire.size(); ++i) {
    for (unsigned char flip : {0x01, 0x80, 0xff}) {
      std::string bad = wire;
      bad[i] = static_cast<char>(bad[i] ^ flip);
      typename TypeParam::rx rx;
      auto r = rx.decompress(bad, msg.size(), no_limit);
      if (r)
        EXPECT_EQ(r.value().size(), msg.size());
      else
        EXPECT_EQ(r.err().code, client_errc::compression);
    }
  }
}

TYPED_TEST(Compression, LevelsOutsideTheRangeThrow) {
  const int lo = compression_level_min(TypeParam::algorithm);
  const int hi = compression_level_max(TypeParam::algorithm);
  EXPECT_THROW(TypeParam::make(lo - 1), std::invalid_argument);
  EXPECT_THROW(TypeParam::make(hi + 1), std::invalid_argument);
  EXPECT_NO_THROW(TypeParam::make(lo));
  EXPECT_NO_THROW(TypeParam::make(hi));
}

TEST(CompressionLevels, TheRangesOfMysqlsXPlugin) {
  EXPECT_EQ(compression_level_min("deflate_stream"), 1);
  EXPECT_EQ(compression_level_max("deflate_stream"), 9);
  EXPECT_EQ(compression_level_min("lz4_message"), 0);
  EXPECT_EQ(compression_level_max("lz4_message"), 16);
  EXPECT_LT(compression_level_min("zstd_stream"), 0);  // ZSTD_minCLevel()
  EXPECT_EQ(compression_level_max("zstd_stream"), 22); // ZSTD_maxCLevel()
  EXPECT_FALSE(compression_level_valid("zstd_stream", 0));
  EXPECT_TRUE(compression_level_valid("zstd_stream", -1));
  EXPECT_TRUE(compression_level_valid("lz4_message", 0));
  EXPECT_FALSE(compression_level_valid("deflate_stream", 0));
  EXPECT_FALSE(compression_level_valid("deflate_stream", -1)); // zlib's "default"
  EXPECT_THROW(zstd_stream_compressor(0), std::invalid_argument);
  EXPECT_THROW(compression_level_min("brotli"), std::invalid_argument);
  EXPECT_THROW(compression_level_valid("DEFLATE_STREAM", 3), std::invalid_argument);
}

} // namespace
