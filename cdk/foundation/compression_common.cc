// What the three algorithms share: decompression errors and the checks
// before a call, and the compression levels each accepts.
#include "cdk/foundation/compression.h"

#include <stdexcept>
#include <string>
#include <zstd.h>

namespace cdk {

namespace {

struct level_range {
  int min;
  int max;
};

// The ranges of MySQL's X Plugin (Compression_algorithm_*::get_level_min/
// max), so a level the server would take works here too.
level_range levels_of(std::string_view algorithm) {
  if (algorithm == "deflate_stream") return {1, 9}; // Z_BEST_SPEED..Z_BEST_COMPRESSION
  if (algorithm == "lz4_message") return {0, 16};
  if (algorithm == "zstd_stream") return {ZSTD_minCLevel(), ZSTD_maxCLevel()};
  throw std::invalid_argument("unknown compression algorithm '" + std::string(algorithm) + "'");
}

} // namespace

int compression_level_min(std::string_view algorithm) {
  return levels_of(algorithm).min;
}

int compression_level_max(std::string_view algorithm) {
  return levels_of(algorithm).max;
}

bool compression_level_valid(std::string_view algorithm, int level) {
  const level_range r = levels_of(algorithm);
  // zstd reads 0 as its default level; MySQL's range excludes it
  // (compression_level_variable.h), so a client's 0 is clamped to 1.
  if (algorithm == "zstd_stream" && level == 0) return false;
  return level >= r.min && level <= r.max;
}

namespace detail {

error decompress_error(std::string_view algorithm, std::string msg) {
  return error::connection(client_errc::compression,
                           std::string(algorithm) + ": " + std::move(msg));
}

status check_decompress_call(std::string_view algorithm, bool failed, std::size_t expected_size,
                             std::size_t max_size) {
  if (failed) return decompress_error(algorithm, "the stream is unusable after an earlier error");
  if (expected_size > max_size)
    return decompress_error(algorithm, "declared uncompressed size " +
                                           std::to_string(expected_size) +
                                           " exceeds the maximum of " + std::to_string(max_size));
  return ok();
}

void check_compression_level(std::string_view algorithm, int level) {
  if (!compression_level_valid(algorithm, level))
    throw std::invalid_argument(std::string(algorithm) + ": compression level " +
                                std::to_string(level) + " is outside " +
                                std::to_string(compression_level_min(algorithm)) + ".." +
                                std::to_string(compression_level_max(algorithm)));
}

} // namespace detail

} // namespace cdk
