// X Protocol compression: the three algorithms of MySQL's X Plugin, each a
// compressor (one per direction and connection, for the sender) and a
// decompressor (likewise, for the receiver) of Mysqlx.Connection.Compression
// payloads.
//
// - deflate_stream: one zlib stream (RFC 1950) per direction for the life of
//   the connection. Each payload ends with a sync flush (Z_SYNC_FLUSH), so
//   the receiver can inflate it at once while the dictionary built by
//   earlier messages keeps helping later ones. The 2-byte zlib header
//   appears once, at the start of the first payload in each direction.
// - zstd_stream (compression_zstd.cc): one zstd context per direction. Our
//   compressor either flushes one never-ending frame per message
//   (ZSTD_e_flush, the default) or, as MySQL's server does, writes each
//   message as a complete frame; the decompressor reads both.
// - lz4_message (compression_lz4.cc): each payload is one complete,
//   independent LZ4 frame (LZ4F API), as MySQL's server and Connector/C++
//   send it.
//
// Every decompressor keeps its state for the connection, bounds its output
// (see decompress() below) and fails for good after its first error.
// Wrapping these in the Compression message (uncompressed_size, payload) and
// the capability negotiation live in cdk/protocol and cdk/session.
#pragma once

#include "cdk/foundation/error.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace cdk {

// Compression levels as MySQL's X Plugin counts them: deflate_stream 1..9,
// lz4_message 0..16 (LZ4F treats 13..16 as 12), zstd_stream ZSTD_minCLevel()
// ..ZSTD_maxCLevel() without 0. Each compressor throws std::invalid_argument
// for a level outside its range; callers clamp first, as the X Plugin does
// with a client's requested level (below min: min; zstd's 0: 1).
// algorithm is "deflate_stream", "lz4_message" or "zstd_stream"; any other
// name throws std::invalid_argument.
int compression_level_min(std::string_view algorithm);
int compression_level_max(std::string_view algorithm);
bool compression_level_valid(std::string_view algorithm, int level);

class deflate_stream_compressor {
public:
  // level: 1..9; 3 is the X Plugin's default.
  explicit deflate_stream_compressor(int level = 3);
  ~deflate_stream_compressor();
  deflate_stream_compressor(deflate_stream_compressor&&) noexcept;
  deflate_stream_compressor& operator=(deflate_stream_compressor&&) noexcept;

  // The compressed form of one message's bytes, sync-flushed. Allocation
  // failure throws std::bad_alloc, like std::string itself.
  std::string compress(std::string_view data);
  // The same, appended to out.
  void compress_append(std::string_view data, std::string& out);

private:
  struct impl;
  std::unique_ptr<impl> m_impl;
};

class deflate_stream_decompressor {
public:
  deflate_stream_decompressor();
  ~deflate_stream_decompressor();
  deflate_stream_decompressor(deflate_stream_decompressor&&) noexcept;
  deflate_stream_decompressor& operator=(deflate_stream_decompressor&&) noexcept;

  // Inflates one payload. expected_size is the Compression message's
  // uncompressed_size:
  // - non-zero: the payload must produce exactly that many bytes. It comes
  //   from the network, so it is checked against max_size first;
  // - 0 (absent or zero on the wire: unknown, which MySQL's server accepts
  //   from clients): whatever the payload holds, at most max_size bytes.
  // Nothing is allocated on a declared size alone: output grows as the data
  // proves itself, and a payload that would produce more than the limit is
  // an error, not a larger buffer.
  // Errors are client_errc::compression and fatal: after one, the stream
  // state is unknown and every later call fails too.
  result<std::string> decompress(std::string_view input, std::size_t expected_size,
                                 std::size_t max_size);
  // The same without a copy: a view of the decompressor's own buffer, valid
  // until its next call.
  result<std::string_view> decompress_view(std::string_view input, std::size_t expected_size,
                                           std::size_t max_size);

private:
  struct impl;
  std::unique_ptr<impl> m_impl;
};

// How zstd_stream_compressor ends each message.
enum class zstd_form : std::uint8_t {
  // ZSTD_e_flush: one frame for the connection, flushed per message, so
  // later messages match against earlier ones (Connector/C++ does this).
  flush,
  // ZSTD_e_end after a session reset: each message one complete frame with
  // its content size in the header, nothing carried over (MySQL's server).
  frame_per_message,
};

// zstd_stream: the same contract as the deflate_stream pair above.
class zstd_stream_compressor {
public:
  // level: see compression_level_min(); 3 is the X Plugin's default.
  explicit zstd_stream_compressor(int level = 3, zstd_form form = zstd_form::flush);
  ~zstd_stream_compressor();
  zstd_stream_compressor(zstd_stream_compressor&&) noexcept;
  zstd_stream_compressor& operator=(zstd_stream_compressor&&) noexcept;

  // One message's bytes, flushed or as a whole frame (see zstd_form).
  std::string compress(std::string_view data);
  void compress_append(std::string_view data, std::string& out);

private:
  struct impl;
  std::unique_ptr<impl> m_impl;
};

class zstd_stream_decompressor {
public:
  zstd_stream_decompressor();
  ~zstd_stream_decompressor();
  zstd_stream_decompressor(zstd_stream_decompressor&&) noexcept;
  zstd_stream_decompressor& operator=(zstd_stream_decompressor&&) noexcept;

  // As deflate_stream_decompressor::decompress. Reads both zstd_forms, and
  // any mix of them: a frame may end and the next start anywhere.
  result<std::string> decompress(std::string_view input, std::size_t expected_size,
                                 std::size_t max_size);
  // The same without a copy: a view of the decompressor's own buffer, valid
  // until its next call.
  result<std::string_view> decompress_view(std::string_view input, std::size_t expected_size,
                                           std::size_t max_size);

private:
  struct impl;
  std::unique_ptr<impl> m_impl;
};

// lz4_message: each call of compress() makes one complete, independent LZ4
// frame (independent blocks, no checksums, no content size), so the
// compressor carries nothing from one message to the next but its buffers.
//
// Blocks are 64 KiB, as MySQL's server writes them. With large_blocks, a
// message over 64 KiB goes in blocks of the largest size LZ4 has (256 KiB,
// 1 MiB, 4 MiB) that is not above the message's own size: each block start
// resets LZ4's match table, and a receiver's LZ4F context holds two buffers
// of the block size, so at most twice the message it already holds. Any
// LZ4F reader takes any block size; the connector uses this for what it sends.
class lz4_message_compressor {
public:
  // level: 0..16; 2 is the X Plugin's default (0..2 are LZ4's fast mode,
  // 3 and up its high-compression mode).
  explicit lz4_message_compressor(int level = 2, bool large_blocks = false);
  ~lz4_message_compressor();
  lz4_message_compressor(lz4_message_compressor&&) noexcept;
  lz4_message_compressor& operator=(lz4_message_compressor&&) noexcept;

  std::string compress(std::string_view data);
  void compress_append(std::string_view data, std::string& out);

private:
  struct impl;
  std::unique_ptr<impl> m_impl;
};

class lz4_message_decompressor {
public:
  lz4_message_decompressor();
  ~lz4_message_decompressor();
  lz4_message_decompressor(lz4_message_decompressor&&) noexcept;
  lz4_message_decompressor& operator=(lz4_message_decompressor&&) noexcept;

  // As deflate_stream_decompressor::decompress. The payload must hold whole
  // LZ4 frames (any number, usually one): one that ends inside a frame is
  // an error. The frame header may declare blocks of up to 4 MiB, LZ4's
  // maximum, so the context's buffers stay under 9 MiB.
  result<std::string> decompress(std::string_view input, std::size_t expected_size,
                                 std::size_t max_size);
  // The same without a copy: a view of the decompressor's own buffer, valid
  // until its next call.
  result<std::string_view> decompress_view(std::string_view input, std::size_t expected_size,
                                           std::size_t max_size);

private:
  struct impl;
  std::unique_ptr<impl> m_impl;
};

namespace detail {
// The checks every decompressor makes before touching its input: the
// stream's earlier failure, and the declared size against the limit.
status check_decompress_call(std::string_view algorithm, bool failed, std::size_t expected_size,
                             std::size_t max_size);
error decompress_error(std::string_view algorithm, std::string msg);
// Throws std::invalid_argument unless compression_level_valid().
void check_compression_level(std::string_view algorithm, int level);
} // namespace detail

} // namespace cdk
