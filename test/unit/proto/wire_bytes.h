// Test helpers: hex <-> bytes and X Protocol framing, so expectations can be
// written exactly as the facts sheet prints them ("08 03 10 02 ...").
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace proto_test {

// "08 03 1a" -> bytes; spaces are ignored.
inline std::string from_hex(std::string_view hex) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::invalid_argument("bad hex digit");
  };
  std::string out;
  int high = -1;
  for (char c : hex) {
    if (c == ' ') continue;
    if (high < 0) {
      high = nibble(c);
    } else {
      out.push_back(static_cast<char>(high * 16 + nibble(c)));
      high = -1;
    }
  }
  if (high >= 0) throw std::invalid_argument("odd number of hex digits");
  return out;
}

// Bytes -> "08 03 1a", so a failing comparison prints readable output.
inline std::string to_hex(std::string_view bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char b : bytes) {
    if (!out.empty()) out.push_back(' ');
    out.push_back(digits[b >> 4]);
    out.push_back(digits[b & 0xf]);
  }
  return out;
}

// X Protocol frame: 4-byte little-endian length of (type byte + payload),
// the type byte, then the payload.
inline std::string frame(std::uint8_t type, std::string_view payload) {
  const std::uint32_t len = static_cast<std::uint32_t>(payload.size() + 1);
  std::string out;
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((len >> (8 * i)) & 0xff));
  out.push_back(static_cast<char>(type));
  out.append(payload);
  return out;
}

} // namespace proto_test
