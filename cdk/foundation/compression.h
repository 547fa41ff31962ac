// X Protocol compression, algorithm "deflate_stream": one zlib stream per
// direction for the life of the connection. The sender compresses each
// Mysqlx.Connection.Compression payload into that stream and ends it with a
// sync flush (Z_SYNC_FLUSH), so the receiver can inflate the payload at once
// while the dictionary built by earlier messages keeps helping later ones.
// The stream uses the zlib format (RFC 1950): its 2-byte header appears once,
// at the start of the first payload in each direction.
//
// Wrapping these in the Compression message (uncompressed_size, payload) and
// the capability negotiation live in cdk/protocol and cdk/session.
//
// zstd_stream (compression_zstd.cc) works the same way with one zstd
// streaming context per direction, each message ended by ZSTD_e_flush.
//
// Not provided: lz4_message.
#pragma once

#include "cdk/foundation/error.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace cdk {

class deflate_stream_compressor {
public:
  // level: zlib's 0..9, or -1 for its default (6).
  explicit deflate_stream_compressor(int level = -1);
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

  // Inflates one payload, which must produce exactly expected_size bytes.
  // expected_size comes from the network, so it is checked against max_size
  // before anything is allocated, and output never grows past it: a payload
  // that would inflate further is an error, not a larger buffer.
  // Errors are client_errc::compression and fatal: after one, the stream
  // state is unknown and every later call fails too.
  result<std::string> decompress(std::string_view input, std::size_t expected_size,
                                 std::size_t max_size);

private:
  struct impl;
  std::unique_ptr<impl> m_impl;
};

// zstd_stream: the same contract as the deflate_stream pair above.
class zstd_stream_compressor {
public:
  // level: zstd's 1..19 (3 is the X Plugin's default).
  explicit zstd_stream_compressor(int level = 3);
  ~zstd_stream_compressor();
  zstd_stream_compressor(zstd_stream_compressor&&) noexcept;
  zstd_stream_compressor& operator=(zstd_stream_compressor&&) noexcept;

  // One message's bytes, flushed (ZSTD_e_flush), the frame left open.
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

  // As deflate_stream_decompressor::decompress: exactly expected_size bytes,
  // expected_size <= max_size, errors are fatal for the stream.
  result<std::string> decompress(std::string_view input, std::size_t expected_size,
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
} // namespace detail

} // namespace cdk
