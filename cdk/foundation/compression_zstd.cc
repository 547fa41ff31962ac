// zstd_stream: one ZSTD_CCtx / ZSTD_DCtx per direction for the life of the
// connection. Each message is compressed with ZSTD_e_flush, which ends the
// message on a block boundary without closing the frame, so the receiver can
// decode it at once and later messages still match against earlier ones.
#include "cdk/foundation/compression.h"

#include <algorithm>
#include <new>
#include <stdexcept>
#include <zstd.h>

namespace cdk {

namespace {

constexpr std::string_view name = "zstd_stream";

// zstd lets a frame ask for a window of up to 2^27 bytes by default, which
// the decoder would allocate: 2^24 (16 MiB) is ample for the X Plugin (level
// 3 uses at most 2^21) and bounds what a peer can make us allocate.
constexpr int max_window_log = 24;

error zstd_error(std::string msg) {
  return detail::decompress_error(name, std::move(msg));
}

} // namespace

struct zstd_stream_compressor::impl {
  ZSTD_CCtx* ctx = ZSTD_createCCtx();
  explicit impl(int level) {
    if (ctx == nullptr) throw std::bad_alloc();
    if (ZSTD_isError(ZSTD_CCtx_setParameter(ctx, ZSTD_c_compressionLevel, level)))
      throw std::invalid_argument("zstd_stream: bad compression level");
  }
  ~impl() { ZSTD_freeCCtx(ctx); }
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;
};

zstd_stream_compressor::zstd_stream_compressor(int level) : m_impl(std::make_unique<impl>(level)) {}
zstd_stream_compressor::~zstd_stream_compressor() = default;
zstd_stream_compressor::zstd_stream_compressor(zstd_stream_compressor&&) noexcept = default;
zstd_stream_compressor&
zstd_stream_compressor::operator=(zstd_stream_compressor&&) noexcept = default;

std::string zstd_stream_compressor::compress(std::string_view data) {
  std::string out;
  compress_append(data, out);
  return out;
}

void zstd_stream_compressor::compress_append(std::string_view data, std::string& out) {
  ZSTD_inBuffer in{data.data(), data.size(), 0};
  for (;;) {
    // Room for the worst case of what is left plus a frame header and the
    // flushed block; ZSTD_compressStream2 says (rc != 0) if it needs more.
    std::size_t room = ZSTD_compressBound(in.size - in.pos) + 32;
    std::size_t used = out.size();
    out.resize(used + room);
    ZSTD_outBuffer ob{out.data() + used, room, 0};
    std::size_t rc = ZSTD_compressStream2(m_impl->ctx, &ob, &in, ZSTD_e_flush);
    out.resize(used + ob.pos);
    if (ZSTD_isError(rc))
      throw std::logic_error(std::string("zstd_stream: ") + ZSTD_getErrorName(rc));
    if (rc == 0) break; // all input consumed and flushed
  }
}

struct zstd_stream_decompressor::impl {
  ZSTD_DCtx* ctx = ZSTD_createDCtx();
  bool failed = false;
  impl() {
    if (ctx == nullptr) throw std::bad_alloc();
    ZSTD_DCtx_setParameter(ctx, ZSTD_d_windowLogMax, max_window_log);
  }
  ~impl() { ZSTD_freeDCtx(ctx); }
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;
  result<std::string> run(std::string_view input, std::size_t expected);
};

zstd_stream_decompressor::zstd_stream_decompressor() : m_impl(std::make_unique<impl>()) {}
zstd_stream_decompressor::~zstd_stream_decompressor() = default;
zstd_stream_decompressor::zstd_stream_decompressor(zstd_stream_decompressor&&) noexcept = default;
zstd_stream_decompressor&
zstd_stream_decompressor::operator=(zstd_stream_decompressor&&) noexcept = default;

result<std::string> zstd_stream_decompressor::decompress(std::string_view input,
                                                         std::size_t expected_size,
                                                         std::size_t max_size) {
  auto st = detail::check_decompress_call(name, m_impl->failed, expected_size, max_size);
  if (st) {
    auto out = m_impl->run(input, expected_size);
    if (out) return out;
    st = out.err();
  }
  m_impl->failed = true;
  return st.err();
}

result<std::string> zstd_stream_decompressor::impl::run(std::string_view input,
                                                        std::size_t expected) {
  ZSTD_inBuffer in{input.data(), input.size(), 0};
  std::string out;
  // Grow the output as the data proves itself instead of trusting the
  // declared size: a few bytes of zstd can claim megabytes.
  out.resize(std::min(expected, std::max<std::size_t>(input.size() * 4, 4096)));
  std::size_t produced = 0;
  char probe = 0; // 1 byte to learn whether the input holds more than expected
  for (;;) {
    if (produced == out.size() && out.size() < expected)
      out.resize(std::min(expected, out.size() * 2));
    const bool probing = produced == out.size();
    ZSTD_outBuffer ob{probing ? &probe : out.data() + produced, probing ? 1 : out.size() - produced,
                      0};
    std::size_t rc = ZSTD_decompressStream(ctx, &ob, &in);
    if (ZSTD_isError(rc))
      return zstd_error(std::string("corrupt data (") + ZSTD_getErrorName(rc) + ")");
    if (probing && ob.pos != 0)
      return zstd_error("payload decompresses to more than the declared " +
                        std::to_string(expected) + " bytes");
    produced += ob.pos;
    // Input consumed and room left in the output: zstd has flushed all it
    // can decode from this payload.
    if (in.pos == in.size && ob.pos < ob.size) break;
  }
  if (produced != expected)
    return zstd_error("payload decompresses to " + std::to_string(produced) + " bytes, declared " +
                      std::to_string(expected));
  return out;
}

} // namespace cdk
