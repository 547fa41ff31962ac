// deflate_stream: one zlib stream per direction, a sync flush per message.
#include "cdk/foundation/compression.h"

#include "cdk/foundation/codec_buffer.h"
#include "cdk/foundation/decompress_loop.h"

#include <algorithm>
#include <climits>
#include <new>
#include <stdexcept>
#include <zlib.h>

namespace cdk {

namespace {

constexpr std::string_view name = "deflate_stream";

// zlib counts in uInt; larger inputs are fed in pieces.
constexpr std::size_t max_chunk = UINT_MAX / 2;

Bytef* bytes(const char* p) {
  return reinterpret_cast<Bytef*>(const_cast<char*>(p));
}

error compression_error(std::string msg) {
  return detail::decompress_error(name, std::move(msg));
}

} // namespace

struct deflate_stream_compressor::impl {
  z_stream z{};
  detail::codec_buffer scratch;
  explicit impl(int level) {
    detail::check_compression_level(name, level);
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
      const std::size_t room =
          std::min(deflateBound(&z, z.avail_in) + 16, max_chunk); // + the flush marker
      char* dst = m_impl->scratch.room(room);
      z.next_out = bytes(dst);
      z.avail_out = static_cast<uInt>(room);
      int rc = deflate(&z, flush);
      out.append(dst, room - z.avail_out);
      if (rc == Z_STREAM_ERROR) throw std::logic_error("deflate_stream: inconsistent zlib state");
      // Done when the input is consumed and the flush fit: room was left.
      if (z.avail_in == 0 && z.avail_out != 0) break;
    }
  } while (!data.empty());
  m_impl->scratch.trim();
}

struct deflate_stream_decompressor::impl {
  z_stream z{};
  bool failed = false;
  std::string out;    // decompress_view's output, reused
  bool ended = false; // the peer finished its stream (Z_STREAM_END)
  impl() {
    if (inflateInit(&z) != Z_OK) throw std::bad_alloc();
  }
  ~impl() { inflateEnd(&z); }
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;
  result<detail::decode_step> step(std::string_view& input, char* out, std::size_t room);
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
  return detail::owned(decompress_view(input, expected_size, max_size));
}

result<std::string_view> deflate_stream_decompressor::decompress_view(std::string_view input,
                                                                      std::size_t expected_size,
                                                                      std::size_t max_size) {
  auto out = detail::bounded_decompress(
      name, m_impl->failed, input.size(), expected_size, max_size, m_impl->out,
      [&](char* dst, std::size_t room) { return m_impl->step(input, dst, room); });
  m_impl->z.avail_in = 0; // the input buffer belongs to the caller; forget it
  return out;
}

result<detail::decode_step> deflate_stream_decompressor::impl::step(std::string_view& input,
                                                                    char* out, std::size_t room) {
  if (z.avail_in == 0 && !input.empty()) {
    std::size_t piece = std::min(input.size(), max_chunk);
    z.next_in = bytes(input.data());
    z.avail_in = static_cast<uInt>(piece);
    input.remove_prefix(piece);
  }
  const bool input_left = z.avail_in != 0;
  if (ended) {
    if (input_left) return compression_error("data after the end of the stream");
    return detail::decode_step{0, true};
  }
  z.next_out = bytes(out);
  z.avail_out = static_cast<uInt>(std::min(room, max_chunk));
  const std::size_t given = z.avail_out;
  const int rc = inflate(&z, Z_SYNC_FLUSH);
  const std::size_t got = given - z.avail_out;
  const bool more_input = z.avail_in != 0 || !input.empty();
  switch (rc) {
  case Z_OK:
    // All input consumed while output room was left: inflate holds nothing.
    return detail::decode_step{got, !more_input && z.avail_out != 0};
  case Z_STREAM_END:
    ended = true;
    if (more_input) return compression_error("data after the end of the stream");
    return detail::decode_step{got, true};
  case Z_BUF_ERROR:
    // No progress: with input left that would loop forever; without, the
    // output is complete (or the payload stopped mid-block: size check).
    if (more_input) return compression_error("inflate made no progress");
    return detail::decode_step{got, true};
  default:
    return compression_error("corrupt data (" +
                             std::string(z.msg != nullptr ? z.msg : "error " + std::to_string(rc)) +
                             ")");
  }
}

} // namespace cdk
