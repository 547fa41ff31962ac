// The checks shared by the decompressor fuzz targets (fuzz_inflate,
// fuzz_zstd, fuzz_lz4).
//
// decode_records: records of [u16 declared size][u16 payload length][payload],
// both little-endian, fed to one decompressor as consecutive Compression
// payloads (max_size 32 KiB). Checks: no crash, no output other than exactly
// the declared size (at most max_size when it is 0, unknown), and once a
// call fails every later call fails.
// round_trip: the input, cut into messages, through a compressor and a
// decompressor must come back unchanged, with the size declared or not.
#pragma once

#include "cdk/foundation/compression.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace fuzz_decompress {

constexpr std::size_t max_size = 32 * 1024;

inline unsigned u16(const std::uint8_t* p) {
  return p[0] | (p[1] << 8);
}

template <class Decompressor> void decode_records(const std::uint8_t* data, std::size_t size) {
  Decompressor rx;
  bool failed = false;
  while (size >= 4) {
    std::size_t declared = u16(data);
    std::size_t len = u16(data + 2);
    data += 4;
    size -= 4;
    if (len > size) len = size;
    auto out = rx.decompress(std::string_view(reinterpret_cast<const char*>(data), len), declared,
                             max_size);
    data += len;
    size -= len;
    if (out) {
      const std::size_t got = out.value().size();
      if (failed || got > max_size || (declared != 0 && got != declared)) std::abort();
    } else {
      if (out.err().code != cdk::client_errc::compression) std::abort();
      failed = true;
    }
  }
}

template <class Decompressor, class Compressor>
void round_trip(Compressor tx, const std::uint8_t* data, std::size_t size) {
  std::string_view all(reinterpret_cast<const char*>(data), size);
  Decompressor rx;
  // Message lengths come from the data itself, so cuts vary with the input.
  std::size_t pos = 0;
  while (pos < all.size()) {
    std::size_t len = 1 + static_cast<unsigned char>(all[pos]) * 7;
    std::string_view msg = all.substr(pos, len);
    pos += msg.size();
    const std::size_t declared = pos % 3 == 0 ? 0 : msg.size(); // sometimes unknown
    auto back = rx.decompress(tx.compress(msg), declared, max_size);
    if (!back || back.value() != msg) std::abort();
  }
}

} // namespace fuzz_decompress
