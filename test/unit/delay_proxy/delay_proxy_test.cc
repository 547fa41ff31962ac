// xdelay (test/delay_proxy) in front of an echo server: the delay is added
// once per direction, per byte, not per request; pipelined requests overlap;
// bulk data passes intact and fast; closes go through and free the pair.
// The bounds are loose on purpose: this checks function on a loaded 2-core
// machine (or under a sanitizer), it is not a benchmark.
#include "harness.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <random>

namespace {

using namespace xdelay_test;
using std::chrono::duration;
using ms = duration<double, std::milli>;

ms since(clock::time_point start) {
  return clock::now() - start;
}

// One 16-byte request and its echo.
ms round_trip(const socket_fd& s) {
  const std::string request(16, 'r');
  const auto start = clock::now();
  s.send_all(request);
  const std::string reply = s.receive(request.size());
  const ms took = since(start);
  EXPECT_EQ(reply, request);
  return took;
}

// FNV-1a over 64-bit words: cheap enough that the test measures the proxy.
std::uint64_t checksum(std::uint64_t h, const std::string& bytes) {
  for (std::size_t i = 0; i + 8 <= bytes.size(); i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes.data() + i, 8);
    h = (h ^ word) * 0x100000001b3ULL;
  }
  return h;
}

TEST(DelayProxy, RoundTripGainsTwiceTheDelay) {
  echo_server echo;
  xdelay_process proxy(echo.port(), "5");
  const socket_fd s = connect_to(proxy.port());
  ms fastest{1e9};
  for (int i = 0; i < 5; ++i) {
    const ms rtt = round_trip(s);
    EXPECT_GE(rtt.count(), 10.0); // held 5 ms each way: never less
    fastest = std::min(fastest, rtt);
  }
  EXPECT_LT(fastest.count(), 10.0 + 20.0); // the delay, not more, give or take the scheduler
}

TEST(DelayProxy, PipelinedRequestsOverlap) {
  echo_server echo;
  xdelay_process proxy(echo.port(), "5");
  const socket_fd s = connect_to(proxy.port());
  round_trip(s); // connected through to the echo server
  // A short pause between requests makes the proxy read them one by one,
  // so a delay taken per chunk (each one D after the last) would show.
  std::string sent;
  const auto start = clock::now();
  for (int i = 0; i < 100; ++i) {
    const std::string request = "request " + std::to_string(1'000'000 + i) + "\n"; // 16 bytes
    s.send_all(request);
    sent += request;
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  const ms sending = since(start);
  const std::string replies = s.receive(sent.size());
  const ms took = since(start);
  EXPECT_EQ(replies, sent);
  EXPECT_GE(took.count(), 10.0);
  // One round trip after the last request; serialised it would be 100
  // round trips (1 s), delayed per chunk 100 x 5 ms.
  EXPECT_LT(took.count(), sending.count() + 10.0 + 150.0) << "sending took " << sending.count();
  std::printf("100 pipelined requests: %.1f ms (sending %.1f ms)\n", took.count(), sending.count());
}

TEST(DelayProxy, BulkDataBothWaysIntact) {
  echo_server echo;
  xdelay_process proxy(echo.port(), "20");
  const socket_fd s = connect_to(proxy.port());
  constexpr std::size_t total = std::size_t{8} << 20, block_size = std::size_t{64} << 10;
  std::uint64_t sent_hash = 0xcbf29ce484222325ULL;
  std::string write_error;
  const auto start = clock::now();
  // Written while the echo is read back, or both sides' buffers would fill.
  std::thread writer([&] {
    std::mt19937_64 random(42);
    std::string block(block_size, '\0');
    try {
      for (std::size_t done = 0; done < total; done += block_size) {
        for (std::size_t i = 0; i < block_size; i += 8) {
          const std::uint64_t word = random();
          std::memcpy(block.data() + i, &word, 8);
        }
        sent_hash = checksum(sent_hash, block);
        s.send_all(block);
      }
    } catch (const std::exception& e) {
      write_error = e.what();
    }
  });
  std::uint64_t got_hash = 0xcbf29ce484222325ULL;
  std::size_t got = 0;
  while (got < total) {
    // Whole blocks, so that the words hashed line up with the writer's.
    const std::string part = s.receive(block_size);
    if (part.empty()) break;
    got_hash = checksum(got_hash, part);
    got += part.size();
  }
  writer.join();
  const ms took = since(start);
  double cpu = 0;
  EXPECT_EQ(write_error, "");
  EXPECT_EQ(got, total);
  EXPECT_EQ(got_hash, sent_hash);
  EXPECT_EQ(proxy.stop(&cpu), 0);
  // 60-100 ms here (40 of them delay), 500 under TSan. A relay that waited
  // for a round trip per 64 KiB, as a small window would, needs 5 s; one
  // that lost a wake-up stalls until the client's 30 s timeout.
  EXPECT_LT(took.count(), 3000.0);
  std::printf("8 MiB each way at 20 ms: %.0f ms (%.0f MB/s each way), proxy CPU %.0f ms\n",
              took.count(), total / 1e3 / took.count(), cpu * 1e3);
}

TEST(DelayProxy, HalfCloseGoesThroughAndBack) {
  echo_server echo;
  xdelay_process proxy(echo.port(), "5");
  const int idle = proxy.open_fds();
  const socket_fd s = connect_to(proxy.port());
  round_trip(s);
  const auto start = clock::now();
  ::shutdown(s.get(), SHUT_WR);
  // The end reaches the server D later, which answers and closes; both
  // come back D after that, behind the answer.
  EXPECT_EQ(s.receive(100), "bye");
  EXPECT_GE(since(start).count(), 10.0);
  EXPECT_TRUE(echo.wait_ends(1, std::chrono::seconds(10)));
  const auto deadline = clock::now() + std::chrono::seconds(10);
  while (proxy.open_fds() != idle && clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(proxy.open_fds(), idle); // the pair is dropped
}

TEST(DelayProxy, CloseReachesServerAndDropsThePair) {
  echo_server echo;
  xdelay_process proxy(echo.port(), "5");
  const int idle = proxy.open_fds();
  {
    const socket_fd s = connect_to(proxy.port());
    round_trip(s);
    EXPECT_EQ(proxy.open_fds(), idle + 2);
  }
  EXPECT_TRUE(echo.wait_ends(1, std::chrono::seconds(10)));
  const auto deadline = clock::now() + std::chrono::seconds(10);
  while (proxy.open_fds() != idle && clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(proxy.open_fds(), idle);
  EXPECT_EQ(proxy.stop(), 0); // SIGTERM is a clean exit
}

// Issue 36: the flights log counts the client's runs of bytes, each begun
// after the server's (a round trip waited for), not its writes: three
// ping-pongs, one of them two back-to-back writes, are three flights.
TEST(DelayProxy, FlightsLogCountsTheClientsTurns) {
  char dir[] = "/tmp/xdelay_flightsXXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string log = std::string(dir) + "/flights";
  echo_server echo;
  xdelay_process proxy(echo.port(), "2", log);
  {
    const socket_fd s = connect_to(proxy.port());
    round_trip(s);
    s.send_all(std::string(8, 'a'));
    s.send_all(std::string(8, 'b')); // the same flight: no reply in between
    EXPECT_EQ(s.receive(16), std::string(8, 'a') + std::string(8, 'b'));
    round_trip(s);
  }
  EXPECT_TRUE(echo.wait_ends(1, std::chrono::seconds(10)));
  std::string text;
  const auto deadline = clock::now() + std::chrono::seconds(10);
  while (text.empty() && clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::ifstream f(log);
    std::getline(f, text);
  }
  EXPECT_EQ(text, "flights 3");
  EXPECT_EQ(proxy.stop(), 0);
  std::remove(log.c_str());
  ::rmdir(dir);
}

// The numbers behind README.md: the median of 200 ping-pongs at 0, 0.5 and
// 2 ms, next to the echo server reached directly, and the proxy's CPU time.
TEST(DelayProxy, Accuracy) {
  echo_server echo;
  const auto median_rtt = [](std::uint16_t port) {
    const socket_fd s = connect_to(port);
    std::vector<double> rtts;
    rtts.reserve(200);
    for (int i = 0; i < 200; ++i) rtts.push_back(round_trip(s).count());
    std::nth_element(rtts.begin(), rtts.begin() + 100, rtts.end());
    return rtts[100];
  };
  const double direct = median_rtt(echo.port());
  std::printf("direct: median RTT %.3f ms\n", direct);
  for (const double delay : {0.0, 0.5, 2.0}) {
    xdelay_process proxy(echo.port(), std::to_string(delay));
    const double rtt = median_rtt(proxy.port());
    double cpu = 0;
    EXPECT_EQ(proxy.stop(&cpu), 0);
    std::printf("delay %.1f ms: median RTT %.3f ms (expected %.3f + %.3f direct), "
                "proxy CPU %.1f us per round trip\n",
                delay, rtt, 2 * delay, direct, cpu * 1e6 / 200);
    EXPECT_GE(rtt, 2 * delay);
    EXPECT_LT(rtt, 2 * delay + direct + 5.0);
  }
}

} // namespace
