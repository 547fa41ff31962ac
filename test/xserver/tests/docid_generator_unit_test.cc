// The id generator alone (facts section 1): format, serial arithmetic,
// overflow, thread safety.
#include "test/xserver/docid_generator.h"

#include <gtest/gtest.h>
#include <set>
#include <thread>

namespace xserver {
namespace {

constexpr std::uint64_t jan_2024 = 1704067200; // 0x65920080

TEST(DocidGenerator, DefaultsGiveSerialOneTwoThree) {
  docid_generator g(jan_2024);
  EXPECT_EQ(g.generate(0, 1, 1), "0000659200800000000000000001");
  EXPECT_EQ(g.generate(0, 1, 1), "0000659200800000000000000002");
}

TEST(DocidGenerator, PrefixOffsetAndIncrement) {
  docid_generator g(jan_2024);
  EXPECT_EQ(g.generate(7, 3, 7), "0007659200800000000000000003");
  EXPECT_EQ(g.generate(7, 3, 7), "000765920080000000000000000a");
  EXPECT_EQ(g.generate(7, 3, 7), "0007659200800000000000000011");
  EXPECT_EQ(g.generate(0xffff, 3, 7).substr(0, 4), "ffff");
}

TEST(DocidGenerator, StridesFromTheFacts) {
  docid_generator g(1);
  std::vector<std::string> got;
  for (int i = 0; i < 5; ++i) got.push_back(g.generate(0, 1, 5).substr(12));
  EXPECT_EQ(got,
            (std::vector<std::string>{"0000000000000001", "0000000000000006", "000000000000000b",
                                      "0000000000000010", "0000000000000015"}));
  docid_generator h(1);
  h.set_serial_for_test(1);
  EXPECT_EQ(h.generate(0, 5, 10).substr(12), "0000000000000005");
  EXPECT_EQ(h.generate(0, 5, 10).substr(12), "000000000000000f");
}

TEST(DocidGenerator, IncrementOneIgnoresOffset) {
  docid_generator g(1);
  EXPECT_EQ(g.generate(1, 5, 1), "0001000000010000000000000001");
  g.set_serial_for_test(1);
  EXPECT_EQ(g.generate(1, 1, 1), "0001000000010000000000000002");
}

TEST(DocidGenerator, SerialOverflowMovesTheTimestampOn) {
  docid_generator g(jan_2024);
  g.set_serial_for_test(~std::uint64_t(0));
  EXPECT_EQ(g.generate(0, 1, 1), "0000659200810000000000000001");
  EXPECT_EQ(g.timestamp(), jan_2024 + 1);
  docid_generator h(jan_2024);
  h.set_serial_for_test(~std::uint64_t(0));
  EXPECT_EQ(h.generate(0, 0, 1), "0000659200810000000000000000");
  docid_generator k(jan_2024);
  k.set_serial_for_test(~std::uint64_t(0) - 2);
  EXPECT_EQ(k.generate(0, 1, 4).substr(4, 8), "65920081");
}

TEST(DocidGenerator, SharedByThreadsEveryIdUniqueAndIncreasingPerThread) {
  docid_generator g(jan_2024);
  constexpr int threads = 4, per_thread = 5000;
  std::vector<std::vector<std::string>> got(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int i = 0; i < per_thread; ++i) got[t].push_back(g.generate(0, 1, 1));
    });
  for (auto& th : pool) th.join();
  std::set<std::string> all;
  for (const auto& ids : got) {
    EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
    all.insert(ids.begin(), ids.end());
  }
  EXPECT_EQ(all.size(), std::size_t(threads * per_thread));
}

} // namespace
} // namespace xserver
