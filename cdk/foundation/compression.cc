#include "cdk/foundation/compression.h"

#include <algorithm>
#include <climits>
#include <new>
#include <stdexcept>
#include <zlib.h>

namespace cdk {

namespace {

// zlib counts in uInt; larger inputs are fed in pieces.
constexpr std::size_t max_chunk = UINT_MAX / 2;

// Deflate expands at most ~1032:1 (a 258-byte match per 2 bits); used to
// size the first output buffer by what the input can produce, rather than
// by the size the peer declared.
constexpr std::size_t max_inflate_ratio = 1032;

Bytef* bytes(const char* p) {
  return reinterpret_cast<Bytef*>(const_cast<char*>(p));
}

error compression_error(std::string msg) {
  return detail::decompress_error("deflate_stream", std::move(msg));
}

} // namespace

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
} // namespace detail

struct deflate_stream_compressor::impl {
  z_stream z{};
  explicit impl(int level) {
    if (deflateInit(&z, level) != Z_OK) throw std::bad_alloc();
  }
  ~impl() { deflateEnd(&z); }
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;
};

deflate_stream_compressor::deflate_stream_compressor(int level)
    : m_impl(std::make_unique<impl>(level)) {}
deflate_stream_compressor::~deflate_stream_compressor() = default;
deflate_stream_compressor::deflate_stream_compressor(deflate_stream_compressor&&) noexcept =
    default;
deflate_stream_compressor&
deflate_stream_compressor::operator=(deflate_stream_compressor&&) noexcept = default;

std::string deflate_stream_compressor::compress(std::string_view data) {
  std::string out;
  compress_append(data, out);
  return out;
}

void deflate_stream_compressor::compress_append(std::string_view data, std::string& out) {
  z_stream& z = m_impl->z;
  do {
    std::size_t piece = std::min(data.size(), max_chunk);
    z.next_in = bytes(data.data());
    z.avail_in = static_cast<uInt>(piece);
    data.remove_prefix(piece);
    // Only the last piece is flushed, so one message is one sync point.
    int flush = data.empty() ? Z_SYNC_FLUSH : Z_NO_FLUSH;
    for (;;) {
      std::size_t room = deflateBound(&z, z.avail_in) + 16; // + the flush marker
      std::size_t used = out.size();
      out.resize(used + room);
      z.next_out = bytes(out.data() + used);
      z.avail_out = static_cast<uInt>(std::min(room, max_chunk));
      int rc = deflate(&z, flush);
      out.resize(used + (room - z.avail_out));
      if (rc == Z_STREAM_ERROR) throw std::logic_error("deflate_stream: inconsistent zlib state");
      // Done when the input is consumed and the flush fit: room was left.
      if (z.avail_in == 0 && z.avail_out != 0) break;
    }
  } while (!data.empty());
}

struct deflate_stream_decompressor::impl {
  z_stream z{};
  bool failed = false;
  bool ended = false; // the peer finished its stream (Z_STREAM_END)
  impl() {
    if (inflateInit(&z) != Z_OK) throw std::bad_alloc();
  }
  ~impl() { inflateEnd(&z); }
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;
  result<std::string> run(std::string_view input, std::size_t expected);
};

deflate_stream_decompressor::deflate_stream_decompressor() : m_impl(std::make_unique<impl>()) {}
deflate_stream_decompressor::~deflate_stream_decompressor() = default;
deflate_stream_decompressor::deflate_stream_decompressor(deflate_stream_decompressor&&) noexcept =
    default;
deflate_stream_decompressor&
deflate_stream_decompressor::operator=(deflate_stream_decompressor&&) noexcept = default;

result<std::string> deflate_stream_decompressor::decompress(std::string_view input,
                                                            std::size_t expected_size,
                                                            std::size_t max_size) {
  auto st =
      detail::check_decompress_call("deflate_stream", m_impl->failed, expected_size, max_size);
  if (!st) {
    m_impl->failed = true;
    return st.err();
  }
  auto out = m_impl->run(input, expected_size);
  if (!out) m_impl->failed = true;
  return out;
}

result<std::string> deflate_stream_decompressor::impl::run(std::string_view input,
                                                           std::size_t expected) {
  if (ended && !input.empty()) return compression_error("data after the end of the stream");
  std::string out;
  std::size_t bound = input.size() > (SIZE_MAX - 258) / max_inflate_ratio
                          ? expected
                          : input.size() * max_inflate_ratio + 258;
  out.resize(std::min(expected, bound));
  std::size_t produced = 0;
  char probe = 0; // 1 byte to learn whether the input holds more than expected
  for (;;) {
    if (z.avail_in == 0 && !input.empty()) {
      std::size_t piece = std::min(input.size(), max_chunk);
      z.next_in = bytes(input.data());
      z.avail_in = static_cast<uInt>(piece);
      input.remove_prefix(piece);
    }
    if (produced == out.size() && out.size() < expected) {
      out.resize(std::min(expected, std::max<std::size_t>(out.size() * 2, 4096)));
    }
    // All input consumed while output room was left: inflate holds nothing.
    if (ended || (z.avail_in == 0 && produced < out.size())) break;
    bool probing = produced == out.size();
    std::size_t room = probing ? 1 : std::min(out.size() - produced, max_chunk);
    z.next_out = probing ? bytes(&probe) : bytes(out.data() + produced);
    z.avail_out = static_cast<uInt>(room);
    int rc = inflate(&z, Z_SYNC_FLUSH);
    std::size_t got = room - z.avail_out;
    if (probing && got != 0) {
      z.avail_in = 0;
      return compression_error("payload inflates to more than the declared " +
                               std::to_string(expected) + " bytes");
    }
    produced += got;
    if (rc == Z_STREAM_END) {
      ended = true;
    } else if (rc == Z_BUF_ERROR) {
      // No progress: with input left that would loop forever; without, the
      // output is complete (or the payload stopped mid-block: size check).
      if (z.avail_in != 0) {
        z.avail_in = 0;
        return compression_error("inflate made no progress");
      }
      break;
    } else if (rc != Z_OK) {
      std::string why = z.msg != nullptr ? z.msg : "error " + std::to_string(rc);
      z.avail_in = 0;
      return compression_error("corrupt data (" + why + ")");
    } else if (probing && z.avail_in == 0 && input.empty()) {
      break; // the probe produced nothing and nothing is left
    }
  }
  if (ended && (z.avail_in != 0 || !input.empty())) {
    z.avail_in = 0;
    return compression_error("data after the end of the stream");
  }
  z.avail_in = 0; // the input buffer belongs to the caller; forget it
  if (produced != expected) {
    return compression_error("payload inflates to " + std::to_string(produced) +
                             " bytes, declared " + std::to_string(expected));
  }
  out.resize(produced);
  return out;
}

} // namespace cdk
