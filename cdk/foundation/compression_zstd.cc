// zstd_stream: one ZSTD_CCtx / ZSTD_DCtx per direction for the life of the
// connection. By default each message is compressed with ZSTD_e_flush, which
// ends the message on a block boundary without closing the frame, so the
// receiver can decode it at once and later messages still match against
// earlier ones. zstd_form::frame_per_message instead ends every message's
// frame (ZSTD_e_end), as MySQL's X Plugin does with zstd >= 1.4.
#include "cdk/foundation/codec_buffer.h"
#include "cdk/foundation/compression.h"
#include "cdk/foundation/decompress_loop.h"

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
constexpr int max_regular_level = 19;

error zstd_error(std::string msg) {
  return detail::decompress_error(name, std::move(msg));
}

void check_zstd(std::size_t rc) {
  if (ZSTD_isError(rc))
    throw std::logic_error(std::string("zstd_stream: ") + ZSTD_getErrorName(rc));
}

struct free_cctx {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct free_dctx {
  void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

} // namespace

struct zstd_stream_compressor::impl {
  std::unique_ptr<ZSTD_CCtx, free_cctx> ctx;
  zstd_form form;
  detail::codec_buffer scratch;
  impl(int level, zstd_form f) : form(f) {
    detail::check_compression_level(name, level);
    ctx.reset(ZSTD_createCCtx());
    if (!ctx) throw std::bad_alloc();
    check_zstd(ZSTD_CCtx_setParameter(ctx.get(), ZSTD_c_compressionLevel, level));
    // zstd's "ultra" levels (20..22) use windows of 2^25..2^27 when the
    // size is unknown (every message of the flush form), which decoders
    // like ours refuse; levels up to 19 stay at 2^23 or less.
    if (level > max_regular_level)
      check_zstd(ZSTD_CCtx_setParameter(ctx.get(), ZSTD_c_windowLog, max_window_log));
  }
};

zstd_stream_compressor::zstd_stream_compressor(int level, zstd_form form)
    : m_impl(std::make_unique<impl>(level, form)) {}
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
  ZSTD_CCtx* ctx = m_impl->ctx.get();
  ZSTD_EndDirective end = ZSTD_e_flush;
  if (m_impl->form == zstd_form::frame_per_message) {
    // A new frame that knows its size: the header then carries it, and
    // the receiver needs nothing from earlier messages.
    check_zstd(ZSTD_CCtx_reset(ctx, ZSTD_reset_session_only));
    check_zstd(ZSTD_CCtx_setPledgedSrcSize(ctx, data.size()));
    end = ZSTD_e_end;
  }
  ZSTD_inBuffer in{data.data(), data.size(), 0};
  for (;;) {
    // Room for the worst case of what is left plus a frame header and the
    // flushed block; ZSTD_compressStream2 says (rc != 0) if it needs more.
    const std::size_t room = ZSTD_compressBound(in.size - in.pos) + 32;
    ZSTD_outBuffer ob{m_impl->scratch.room(room), room, 0};
    std::size_t rc = ZSTD_compressStream2(ctx, &ob, &in, end);
    check_zstd(rc);
    out.append(static_cast<const char*>(ob.dst), ob.pos);
    if (rc == 0) break; // all input consumed and flushed (or the frame ended)
  }
  m_impl->scratch.trim();
}

struct zstd_stream_decompressor::impl {
  std::unique_ptr<ZSTD_DCtx, free_dctx> ctx{ZSTD_createDCtx()};
  bool failed = false;
  std::string out; // decompress_view's output, reused
  impl() {
    if (!ctx) throw std::bad_alloc();
    check_zstd(ZSTD_DCtx_setParameter(ctx.get(), ZSTD_d_windowLogMax, max_window_log));
  }
};

zstd_stream_decompressor::zstd_stream_decompressor() : m_impl(std::make_unique<impl>()) {}
zstd_stream_decompressor::~zstd_stream_decompressor() = default;
zstd_stream_decompressor::zstd_stream_decompressor(zstd_stream_decompressor&&) noexcept = default;
zstd_stream_decompressor&
zstd_stream_decompressor::operator=(zstd_stream_decompressor&&) noexcept = default;

result<std::string> zstd_stream_decompressor::decompress(std::string_view input,
                                                         std::size_t expected_size,
                                                         std::size_t max_size) {
  return detail::owned(decompress_view(input, expected_size, max_size));
}

result<std::string_view> zstd_stream_decompressor::decompress_view(std::string_view input,
                                                                   std::size_t expected_size,
                                                                   std::size_t max_size) {
  ZSTD_inBuffer in{input.data(), input.size(), 0};
  return detail::bounded_decompress(
      name, m_impl->failed, input.size(), expected_size, max_size, m_impl->out,
      [&](char* out, std::size_t room) -> result<detail::decode_step> {
        ZSTD_outBuffer ob{out, room, 0};
        // Ends a frame (returning 0) and starts the next as the input
        // goes, so both zstd_forms and any mix of them decode.
        std::size_t rc = ZSTD_decompressStream(m_impl->ctx.get(), &ob, &in);
        if (ZSTD_isError(rc))
          return zstd_error(std::string("corrupt data (") + ZSTD_getErrorName(rc) + ")");
        // Input consumed and room left in the output: zstd has flushed all
        // it can decode from this payload.
        return detail::decode_step{ob.pos, in.pos == in.size && ob.pos < ob.size};
      });
}

} // namespace cdk
