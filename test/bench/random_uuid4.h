// Random UUIDv4 ids (32 hex digits, no dashes) for the benchmarks that show
// what random primary keys cost InnoDB; set with Session::setDocIdGenerator.
#pragma once

#include <cstdint>
#include <random>
#include <string>

namespace bench {

inline std::string random_uuid4(std::mt19937_64& rng) {
  static const char hex[] = "0123456789abcdef";
  std::string s(32, '0');
  const std::uint64_t a = rng(), b = rng();
  for (int k = 0; k < 16; ++k) {
    s[k] = hex[(a >> (4 * k)) & 15];
    s[16 + k] = hex[(b >> (4 * k)) & 15];
  }
  s[12] = '4';              // version 4
  s[16] = hex[8 + (b & 3)]; // variant 10xx
  return s;
}

} // namespace bench
