// Bit layout of local ids (see generator.h), shared by the generator and the
// decoder so the two cannot drift apart.
#pragma once

#include "cdk/docid/hex.h"

#include <cstdint>

namespace cdk::docid::layout {

// Fields wider than their slot are truncated (ms to 48 bits by the shift).
// hi: 48-bit ms | version 7 | the counter's high 12 bits (rand_a)
// lo: variant 10 | the counter's low 14 bits | 48-bit random tail
inline void encode(char* out, std::uint64_t ms, std::uint32_t counter,
                   std::uint64_t tail) noexcept {
  const std::uint64_t hi = (ms << 16) | (std::uint64_t{7} << 12) | ((counter >> 14) & 0xfff);
  const std::uint64_t lo = (std::uint64_t{2} << 62) | (std::uint64_t{counter & 0x3fffu} << 48) |
                           (tail & 0xffff'ffff'ffff);
  hex::put128(out, hi, lo);
}

inline unsigned version(std::uint64_t hi) noexcept {
  return (hi >> 12) & 0xf;
}
inline unsigned variant(std::uint64_t lo) noexcept {
  return static_cast<unsigned>(lo >> 62);
}
inline std::uint64_t unix_ms(std::uint64_t hi) noexcept {
  return hi >> 16;
}
inline std::uint32_t counter(std::uint64_t hi, std::uint64_t lo) noexcept {
  return static_cast<std::uint32_t>(((hi & 0xfff) << 14) | ((lo >> 48) & 0x3fff));
}
inline std::uint64_t tail(std::uint64_t lo) noexcept {
  return lo & 0xffff'ffff'ffff;
}

} // namespace cdk::docid::layout
