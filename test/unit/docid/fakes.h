// Injected clock and random sources for generator tests.
#pragma once

#include "cdk/docid/sources.h"

#include <array>
#include <atomic>
#include <cstring>
#include <string>

namespace docid_test {

// A clock the test moves by hand.
struct manual_clock final : cdk::docid::clock_source {
  explicit manual_clock(std::uint64_t start) : ms(start) {}
  std::uint64_t now_ms() noexcept override { return ms.load(); }
  std::atomic<std::uint64_t> ms;
};

// 0, 1, 2, ... so a test knows exactly which bytes each draw gets.
struct counting_random final : cdk::docid::random_source {
  void fill(unsigned char* out, std::size_t size) noexcept override {
    for (std::size_t i = 0; i < size; ++i) out[i] = next++;
    ++fills;
  }
  unsigned char next = 0;
  int fills = 0;
};

// Every byte the same: 0xff makes the counter seed its largest value.
struct constant_random final : cdk::docid::random_source {
  explicit constant_random(unsigned char v) : value(v) {}
  void fill(unsigned char* out, std::size_t size) noexcept override {
    std::memset(out, value, size);
  }
  unsigned char value;
};

using id_bytes = std::array<char, 32>;

inline std::string str(const id_bytes& id) {
  return std::string(id.data(), id.size());
}

inline bool less(const id_bytes& a, const id_bytes& b) {
  return std::memcmp(a.data(), b.data(), a.size()) < 0;
}

} // namespace docid_test
