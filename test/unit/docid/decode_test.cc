#include "cdk/docid/decode.h"
#include "cdk/docid/generator.h"
#include "fakes.h"

#include <gtest/gtest.h>

namespace {

using cdk::docid::classify;
using cdk::docid::id_format;

TEST(Decode, ServerIdFromTheMySqlGuide) {
  // X DevAPI user guide example; 0x6075f681 = 1618343553 = 2021-04-13T19:52:33Z.
  const auto info = classify("00006075f6810000000000000006");
  ASSERT_EQ(info.format, id_format::server);
  EXPECT_EQ(info.server.prefix, 0u);
  EXPECT_EQ(info.server.start_time, 0x6075f681u);
  EXPECT_EQ(info.server.serial, 6u);
  EXPECT_EQ(cdk::docid::iso8601_utc(info.server.start_time * 1000ull, false),
            "2021-04-13T19:52:33Z");
}

TEST(Decode, ServerIdRoundTrip) {
  const cdk::docid::server_id_fields cases[] = {
      {0, 0x65920080, 1}, {7, 0x65920080, 0x11}, {0xffff, 0xffffffff, ~0ull}, {0x1234, 1, 0}};
  for (const auto& f : cases) {
    const std::string id = cdk::docid::format_server_id(f);
    ASSERT_EQ(id.size(), 28u);
    const auto info = classify(id);
    ASSERT_EQ(info.format, id_format::server) << id;
    EXPECT_EQ(info.server.prefix, f.prefix);
    EXPECT_EQ(info.server.start_time, f.start_time);
    EXPECT_EQ(info.server.serial, f.serial);
  }
  EXPECT_EQ(cdk::docid::format_server_id({7, 0x65920080, 0xa}), "000765920080000000000000000a");
}

TEST(Decode, LocalIdRoundTrip) {
  const cdk::docid::local_id_fields cases[] = {
      {7, 1'763'700'000'123, 0x10203, 0x040506070809},
      {7, 0, 0, 0},
      {7, (1ull << 48) - 1, cdk::docid::counter_max, (1ull << 48) - 1}};
  for (const auto& f : cases) {
    const std::string id = cdk::docid::format_local_id(f);
    const auto info = classify(id);
    ASSERT_EQ(info.format, id_format::local) << id;
    EXPECT_EQ(info.local.version, 7u);
    EXPECT_EQ(info.local.unix_ms, f.unix_ms);
    EXPECT_EQ(info.local.counter, f.counter);
    EXPECT_EQ(info.local.random, f.random);
    EXPECT_EQ(cdk::docid::format_local_id(info.local), id);
  }
}

TEST(Decode, GeneratedIdRoundTrip) {
  docid_test::manual_clock clock(1'700'000'000'000);
  docid_test::counting_random random;
  cdk::docid::generator gen(&clock, &random);
  for (int i = 0; i < 100; ++i) {
    clock.ms = clock.ms + static_cast<std::uint64_t>(i % 3);
    const std::string id = gen.next();
    const auto info = classify(id);
    ASSERT_EQ(info.format, id_format::local);
    EXPECT_EQ(info.local.unix_ms, clock.ms.load());
    EXPECT_EQ(cdk::docid::format_local_id(info.local), id);
  }
}

TEST(Decode, OpaqueIdsSayWhy) {
  struct {
    const char* id;
    const char* why_part;
  } cases[] = {
      {"", "neither 28"},
      {"user-0001", "neither 28"},
      {"00006075F6810000000000000006", "lower-case"}, // upper case: not the server's
      {"00006075f681000000000000000g", "lower-case"},
      {"0190a1b2c3d44def8123456789abcdef", "not a version 7"}, // version 4
      {"0190a1b2c3d47def0123456789abcdef", "variant"},         // variant 0
      {"0190a1b2c3d47def-123456789abcdef", "lower-case"},
  };
  for (const auto& c : cases) {
    const auto info = classify(c.id);
    EXPECT_EQ(info.format, id_format::opaque) << c.id;
    ASSERT_NE(info.why_opaque, nullptr) << c.id;
    EXPECT_NE(std::string(info.why_opaque).find(c.why_part), std::string::npos)
        << c.id << ": " << info.why_opaque;
  }
}

TEST(Decode, Iso8601) {
  EXPECT_EQ(cdk::docid::iso8601_utc(0, true), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(cdk::docid::iso8601_utc(1'763'700'000'123, true), "2025-11-21T04:40:00.123Z");
  EXPECT_EQ(cdk::docid::iso8601_utc(1'763'700'000'123, false), "2025-11-21T04:40:00Z");
}

} // namespace
