// Hex encoding and decoding for ids.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace cdk::docid::hex {

// Eight lower-case hex digits of a 32-bit value, most significant first, as
// one 64-bit word in memory order. No table and no loop: each nibble is moved
// into its own byte, then 0..9 -> '0'..'9' and 10..15 -> 'a'..'f' byte-wise.
inline std::uint64_t hex8(std::uint32_t x) noexcept {
  std::uint64_t t = x;
  t = (t | (t << 16)) & 0x0000'ffff'0000'ffffu;
  t = (t | (t << 8)) & 0x00ff'00ff'00ff'00ffu;
  t = (t | (t << 4)) & 0x0f0f'0f0f'0f0f'0f0fu; // byte k = nibble k (k = 0: least significant)
  const std::uint64_t letters = ((t + 0x0606'0606'0606'0606u) >> 4) & 0x0101'0101'0101'0101u;
  t += 0x3030'3030'3030'3030u + letters * ('a' - '0' - 10);
  // Most significant nibble first in memory.
  if constexpr (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) t = __builtin_bswap64(t);
  return t;
}

// Writes `digits` (8 or 16) lower-case hex digits of the low bits of `v`.
inline void put(char* out, std::uint64_t v, unsigned digits = 16) noexcept {
  if (digits == 16) {
    const std::uint64_t hi = hex8(static_cast<std::uint32_t>(v >> 32));
    std::memcpy(out, &hi, 8);
    out += 8;
  }
  const std::uint64_t lo = hex8(static_cast<std::uint32_t>(v));
  std::memcpy(out, &lo, 8);
}

// Writes 32 lower-case hex digits of hi:lo (hi first). SSE2, part of every
// x86-64 CPU, turns all 16 bytes into 32 digits in a dozen instructions.
inline void put128(char* out, std::uint64_t hi, std::uint64_t lo) noexcept {
#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  const __m128i bytes = _mm_set_epi64x(static_cast<long long>(__builtin_bswap64(lo)),
                                       static_cast<long long>(__builtin_bswap64(hi)));
  const __m128i low4 = _mm_set1_epi8(0x0f);
  const __m128i high_nibbles = _mm_and_si128(_mm_srli_epi16(bytes, 4), low4);
  const __m128i low_nibbles = _mm_and_si128(bytes, low4);
  // Interleave so each byte's high nibble comes first.
  const __m128i first = _mm_unpacklo_epi8(high_nibbles, low_nibbles);
  const __m128i second = _mm_unpackhi_epi8(high_nibbles, low_nibbles);
  const __m128i nine = _mm_set1_epi8(9);
  const __m128i zero = _mm_set1_epi8('0');
  const __m128i gap = _mm_set1_epi8('a' - '0' - 10);
  const auto to_ascii = [&](__m128i n) {
    return _mm_add_epi8(_mm_add_epi8(n, zero), _mm_and_si128(_mm_cmpgt_epi8(n, nine), gap));
  };
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), to_ascii(first));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16), to_ascii(second));
#else
  put(out, hi);
  put(out + 16, lo);
#endif
}

// Writes 4 lower-case hex digits of `v`.
inline void put4(char* out, std::uint16_t v) noexcept {
  const std::uint64_t w = hex8(v);
  std::memcpy(out, reinterpret_cast<const char*>(&w) + 4, 4);
}

// Lower-case hex digit value, or -1. Upper case is rejected on purpose: ids
// are compared as byte strings, so "ABC" is not the id "abc".
inline constexpr int lower_digit(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// Parses up to 16 lower-case hex digits; false on any other character.
inline constexpr bool parse(std::string_view s, std::uint64_t& v) noexcept {
  v = 0;
  for (const char c : s) {
    const int d = lower_digit(c);
    if (d < 0) return false;
    v = (v << 4) | static_cast<std::uint64_t>(d);
  }
  return true;
}

} // namespace cdk::docid::hex
