#include "cdk/docid/decode.h"
#include "cdk/docid/generator.h"
#include "fakes.h"

#include <cstring>
#include <gtest/gtest.h>
#include <thread>
#include <vector>

namespace {

using cdk::docid::generator;
using docid_test::counting_random;
using docid_test::id_bytes;
using docid_test::manual_clock;

constexpr std::uint64_t t0 = 1'763'700'000'123; // 2025-11-21T04:40:00.123Z

cdk::docid::local_id_fields decode_local(const std::string& id) {
  const auto info = cdk::docid::classify(id);
  EXPECT_EQ(info.format, cdk::docid::id_format::local) << id;
  return info.local;
}

TEST(Generator, FormatVersionVariantAndInjectedSources) {
  manual_clock clock(t0);
  counting_random random;
  generator gen(&clock, &random);
  const std::string id = gen.next();
  ASSERT_EQ(id.size(), 32u);
  for (const char c : id) EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) << id;
  EXPECT_EQ(id[12], '7') << id;                                   // version 7
  EXPECT_NE(std::string("89ab").find(id[16]), std::string::npos); // variant 10
  EXPECT_EQ(id.substr(0, 12), "019aa4b6457b");                    // t0 in 48-bit hex
  // The first draw is bytes 00..09: counter seed 0x00010203 (top bit cleared
  // to 25 bits), tail 04..09.
  const auto f = decode_local(id);
  EXPECT_EQ(f.unix_ms, t0);
  EXPECT_EQ(f.counter, 0x00010203u);
  EXPECT_EQ(f.random, 0x040506070809u);
  EXPECT_EQ(random.fills, 1);
}

TEST(Generator, WritesIntoCallersBufferOnly) {
  generator gen;
  char buf[34];
  std::memset(buf, '#', sizeof buf);
  gen.generate(buf + 1);
  EXPECT_EQ(buf[0], '#');
  EXPECT_EQ(buf[33], '#');
  EXPECT_EQ(cdk::docid::classify(std::string_view(buf + 1, 32)).format,
            cdk::docid::id_format::local);
  std::string s = "x";
  gen.append_to(s);
  EXPECT_EQ(s.size(), 33u);
  EXPECT_EQ(s[0], 'x');
}

TEST(Generator, TimestampIsTheSystemClock) {
  const auto before = cdk::docid::precise_system_clock().now_ms();
  const auto f = decode_local(generator::process().next());
  const auto after = cdk::docid::precise_system_clock().now_ms();
  // The default clock may be the coarse one, up to one 4 ms tick behind.
  EXPECT_GE(f.unix_ms + 10, before);
  EXPECT_LE(f.unix_ms, after);
}

TEST(Generator, TenMillionIdsStrictlyIncreasing) {
  auto& gen = generator::process();
  id_bytes prev{};
  id_bytes cur{};
  gen.generate(prev.data());
  for (int i = 0; i < 10'000'000; ++i) {
    gen.generate(cur.data());
    // Uniqueness follows from strict increase.
    ASSERT_LT(std::memcmp(prev.data(), cur.data(), 32), 0)
        << "id " << i << ": " << docid_test::str(prev) << " then " << docid_test::str(cur);
    prev = cur;
  }
}

TEST(Generator, TwoThreadsNoDuplicatesEachIncreasing) {
  constexpr std::size_t per_thread = 2'000'000;
  std::vector<id_bytes> ids[2];
  std::thread threads[2];
  for (int t = 0; t < 2; ++t) {
    ids[t].resize(per_thread);
    threads[t] = std::thread([&v = ids[t]] {
      for (auto& id : v) generator::process().generate(id.data());
    });
  }
  for (auto& th : threads) th.join();
  for (const auto& v : ids)
    for (std::size_t i = 1; i < v.size(); ++i) {
      ASSERT_TRUE(docid_test::less(v[i - 1], v[i])) << i;
    }
  // Both lists are sorted: merge them; the merge must be strictly increasing.
  std::size_t a = 0;
  std::size_t b = 0;
  const id_bytes* prev = nullptr;
  while (a < per_thread || b < per_thread) {
    const bool take_a =
        b == per_thread || (a < per_thread && docid_test::less(ids[0][a], ids[1][b]));
    const id_bytes& cur = take_a ? ids[0][a++] : ids[1][b++];
    if (prev != nullptr) {
      ASSERT_TRUE(docid_test::less(*prev, cur)) << "duplicate " << docid_test::str(cur);
    }
    prev = &cur;
  }
}

TEST(Generator, ClockSteppingBackKeepsOrderAndTimestamp) {
  manual_clock clock(t0);
  generator gen(&clock, nullptr);
  std::string prev = gen.next();
  for (int i = 0; i < 1000; ++i) {
    if (i == 500) clock.ms = t0 - 1000; // back one second
    const std::string cur = gen.next();
    ASSERT_LT(prev, cur) << i;
    EXPECT_EQ(decode_local(cur).unix_ms, t0) << "the last timestamp is kept";
    prev = cur;
  }
  clock.ms = t0 + 1;
  const std::string later = gen.next();
  EXPECT_LT(prev, later);
  EXPECT_EQ(decode_local(later).unix_ms, t0 + 1);
}

TEST(Generator, FrozenClockMillionIdsCountOn) {
  manual_clock clock(t0);
  generator gen(&clock, nullptr);
  std::string prev = gen.next();
  const auto first = decode_local(prev);
  for (std::uint32_t i = 1; i < 1'000'000; ++i) {
    const std::string cur = gen.next();
    ASSERT_LT(prev, cur) << i;
    const auto f = decode_local(cur);
    // The seed leaves 2^25 of headroom: a million ids never run ahead.
    ASSERT_EQ(f.unix_ms, t0) << i;
    ASSERT_EQ(f.counter, first.counter + i) << i;
    ASSERT_EQ(f.random, first.random) << i;
    prev = cur;
  }
}

TEST(Generator, CounterOverflowAdvancesTimestampWithoutWaiting) {
  manual_clock clock(t0);
  docid_test::constant_random random(0xff); // seed = 2^25 - 1, the largest
  generator gen(&clock, &random);
  id_bytes prev{};
  id_bytes cur{};
  gen.generate(prev.data());
  const std::uint32_t seed = decode_local(docid_test::str(prev)).counter;
  ASSERT_EQ(seed, (1u << 25) - 1);
  const std::uint32_t room = cdk::docid::counter_max - seed;
  for (std::uint32_t i = 0; i < room + 3; ++i) {
    gen.generate(cur.data());
    ASSERT_TRUE(docid_test::less(prev, cur)) << i;
    prev = cur;
  }
  // room ids used the counter up; the next three moved to t0 + 1 with a new seed.
  const auto f = decode_local(docid_test::str(cur));
  EXPECT_EQ(f.unix_ms, t0 + 1);
  EXPECT_EQ(f.counter, seed + 2);
}

TEST(Generator, NeverCollidesWithServerIds) {
  auto& gen = generator::process();
  for (int i = 0; i < 1000; ++i) {
    const std::string id = gen.next();
    ASSERT_EQ(id.size(), cdk::docid::local_id_length);
    ASSERT_NE(cdk::docid::classify(id).format, cdk::docid::id_format::server);
  }
  // And the server's own format is never 32 characters.
  const std::string server = cdk::docid::format_server_id({0xffff, 0xffffffff, ~0ull});
  EXPECT_EQ(server.size(), 28u);
}

} // namespace
