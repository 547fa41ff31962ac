// lz4_message: every message is one complete, independent LZ4 frame
// (LZ4F_compressBegin, _compressUpdate, _compressEnd), with the preferences
// of MySQL's X Plugin. Nothing carries from one message to the next on the
// wire; each side still keeps one LZ4F context for the connection so that
// its buffers are allocated once.
#include "cdk/foundation/codec_buffer.h"
#include "cdk/foundation/compression.h"
#include "cdk/foundation/decompress_loop.h"

#include <lz4frame.h>
#include <new>
#include <stdexcept>

namespace cdk {

namespace {

constexpr std::string_view name = "lz4_message";

error lz4_error(std::string msg) {
  return detail::decompress_error(name, std::move(msg));
}

LZ4F_preferences_t preferences(int level) {
  LZ4F_preferences_t p{}; // zero: 64 KiB blocks, no checksums, no dictionary
  p.frameInfo.blockMode = LZ4F_blockIndependent;
  p.frameInfo.contentSize = 0; // the Compression message carries the size
  p.autoFlush = 1;             // each update leaves nothing buffered
  p.compressionLevel = level;
  return p;
}

struct free_cctx {
  void operator()(LZ4F_cctx* c) const { LZ4F_freeCompressionContext(c); }
};
struct free_dctx {
  void operator()(LZ4F_dctx* d) const { LZ4F_freeDecompressionContext(d); }
};

// The largest block size not above n bytes (64 KiB at least).
LZ4F_blockSizeID_t block_size_for(std::size_t n) {
  constexpr std::size_t kib = 1024;
  if (n >= 4096 * kib) return LZ4F_max4MB;
  if (n >= 1024 * kib) return LZ4F_max1MB;
  if (n >= 256 * kib) return LZ4F_max256KB;
  return LZ4F_max64KB;
}

} // namespace

struct lz4_message_compressor::impl {
  std::unique_ptr<LZ4F_cctx, free_cctx> ctx;
  LZ4F_preferences_t prefs;
  bool large_blocks;
  detail::codec_buffer scratch;
  impl(int level, bool large) : prefs(preferences(level)), large_blocks(large) {
    detail::check_compression_level(name, level);
    LZ4F_cctx* c = nullptr;
    if (LZ4F_isError(LZ4F_createCompressionContext(&c, LZ4F_VERSION))) throw std::bad_alloc();
    ctx.reset(c);
  }
};

lz4_message_compressor::lz4_message_compressor(int level, bool large_blocks)
    : m_impl(std::make_unique<impl>(level, large_blocks)) {}
lz4_message_compressor::~lz4_message_compressor() = default;
lz4_message_compressor::lz4_message_compressor(lz4_message_compressor&&) noexcept = default;
lz4_message_compressor&
lz4_message_compressor::operator=(lz4_message_compressor&&) noexcept = default;

std::string lz4_message_compressor::compress(std::string_view data) {
  std::string out;
  compress_append(data, out);
  return out;
}

void lz4_message_compressor::compress_append(std::string_view data, std::string& out) {
  LZ4F_cctx* ctx = m_impl->ctx.get();
  LZ4F_preferences_t& prefs = m_impl->prefs;
  if (m_impl->large_blocks) prefs.frameInfo.blockSizeID = block_size_for(data.size());
  // The worst case of the whole frame: header, every block, end mark (the
  // bound for 0 bytes is that of the end alone).
  const std::size_t room = LZ4F_HEADER_SIZE_MAX + LZ4F_compressBound(data.size(), &prefs) +
                           LZ4F_compressBound(0, &prefs);
  char* dst = m_impl->scratch.room(room);
  std::size_t pos = 0;
  auto add = [&](std::size_t rc) {
    if (LZ4F_isError(rc))
      throw std::logic_error(std::string("lz4_message: ") + LZ4F_getErrorName(rc));
    pos += rc;
  };
  // compressBegin starts a new frame whatever the context did before.
  add(LZ4F_compressBegin(ctx, dst, room, &prefs));
  add(LZ4F_compressUpdate(ctx, dst + pos, room - pos, data.data(), data.size(), nullptr));
  add(LZ4F_compressEnd(ctx, dst + pos, room - pos, nullptr));
  out.append(dst, pos);
  m_impl->scratch.trim();
}

// The frame header says how large its blocks may be, and LZ4F_decompress
// allocates two buffers of that size when it reads the header. The format
// caps it at 4 MiB (block size ids 4..7; others are refused), so a peer can
// make this context hold at most about 8.2 MiB, once: the buffers are kept
// and reused by later frames.
struct lz4_message_decompressor::impl {
  std::unique_ptr<LZ4F_dctx, free_dctx> ctx;
  bool failed = false;
  std::string out; // decompress_view's output, reused
  impl() {
    LZ4F_dctx* d = nullptr;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&d, LZ4F_VERSION))) throw std::bad_alloc();
    ctx.reset(d);
  }
};

lz4_message_decompressor::lz4_message_decompressor() : m_impl(std::make_unique<impl>()) {}
lz4_message_decompressor::~lz4_message_decompressor() = default;
lz4_message_decompressor::lz4_message_decompressor(lz4_message_decompressor&&) noexcept = default;
lz4_message_decompressor&
lz4_message_decompressor::operator=(lz4_message_decompressor&&) noexcept = default;

result<std::string> lz4_message_decompressor::decompress(std::string_view input,
                                                         std::size_t expected_size,
                                                         std::size_t max_size) {
  return detail::owned(decompress_view(input, expected_size, max_size));
}

result<std::string_view> lz4_message_decompressor::decompress_view(std::string_view input,
                                                                   std::size_t expected_size,
                                                                   std::size_t max_size) {
  // LZ4F_decompress's hint: 0 between frames, else what the current frame
  // still needs. Every call starts between frames (an earlier call that
  // ended inside one failed the stream).
  std::size_t hint = 0;
  return detail::bounded_decompress(
      name, m_impl->failed, input.size(), expected_size, max_size, m_impl->out,
      [&](char* out, std::size_t room) -> result<detail::decode_step> {
        std::size_t src = input.size();
        std::size_t dst = room;
        const std::size_t rc =
            LZ4F_decompress(m_impl->ctx.get(), out, &dst, input.data(), &src, nullptr);
        if (LZ4F_isError(rc))
          return lz4_error(std::string("corrupt data (") + LZ4F_getErrorName(rc) + ")");
        input.remove_prefix(src);
        // A call that neither read nor wrote reports the header size it
        // wants next even between frames; only real progress moves the hint.
        if (src != 0 || dst != 0) hint = rc;
        // All input read and output room left: LZ4F holds nothing decoded.
        const bool drained = input.empty() && dst < room;
        if (drained && hint != 0) return lz4_error("payload ends inside a frame");
        return detail::decode_step{dst, drained};
      });
}

} // namespace cdk
