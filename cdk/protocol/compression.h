// Mysqlx.Connection.Compression, both directions (client sends type 46, the
// server type 19). Once inflated, the payload is a run of complete X
// Protocol frames (4-byte length, type byte, body), never a frame cut across
// two Compression messages. MySQL's X Plugin may mix types in one message
// (its default "group" style) or keep one type per message, with
// server_messages naming it ("multiple" / "single" styles); the reader
// accepts all of them and ignores the type hints
// (../shared/reference/xprotocol-compression-facts.md §1, §4).
//
// frame_reader is what a connection reads through: it decodes frames, and
// when compression is on it expands each Compression frame into the frames
// inside, transparently. Every size from the network is bounded by the same
// limit as a frame (max_size): the declared uncompressed size, the inflated
// bytes, and each inner frame's length.
#pragma once

#include "cdk/foundation/compression.h"
#include "cdk/foundation/error.h"
#include "cdk/protocol/frame.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace cdk::protocol {

// The algorithms this build can run, in the connector's order of
// preference (the official connectors' order): zstd_stream, lz4_message,
// deflate_stream.
const std::vector<std::string>& supported_compression();

// How a sender compresses. level: the algorithm's level (nullopt: the X
// Plugin's default, 3 for deflate and zstd, 2 for lz4); it must be in the
// algorithm's range (compression_level_range). frame_per_message: zstd only:
// each Compression message is one complete zstd frame, as MySQL's server
// writes them and the connector sends them, instead of one endless frame
// flushed per message (later messages keep matching against earlier ones,
// but zstd then copies all input into its window first). MySQL's reader
// takes either (a ZSTD_DStream per connection). lz4_large_blocks: lz4 only:
// messages over 64 KiB go in larger blocks (lz4_message_compressor).
struct compression_params {
  std::optional<int> level;
  bool frame_per_message = false;
  bool lz4_large_blocks = false;
};

// The compressor of one algorithm, for the payloads of one direction of one
// connection: deflate_stream keeps one zlib stream (sync-flushed per
// payload), lz4_message makes a complete frame per payload, zstd_stream
// see compression_params.
class payload_compressor {
public:
  static result<payload_compressor> make(std::string_view algorithm,
                                         const compression_params& params = {});
  void compress_append(std::string_view data, std::string& out);

private:
  using any =
      std::variant<deflate_stream_compressor, lz4_message_compressor, zstd_stream_compressor>;
  explicit payload_compressor(any c) : m_c(std::move(c)) {}
  any m_c;
};

// Why a frame_reader failed, for a server that answers each case with its
// own error (MySQL: 5170, 5174, 5171, or a silent disconnect).
enum class compression_fault {
  none,
  not_enabled,     // a Compression frame before compression was switched on
  bad_frame,       // no payload, an empty one, or an unparsable message
  decompression,   // the payload does not decompress (or not to its size)
  too_large,       // a declared size or an inner frame above the limit
  bad_inner_frames // inflated bytes that are not whole frames
};

class frame_reader {
public:
  // compression_type: the Compression message's type in the incoming
  // direction (19 on a client, 46 on a server).
  explicit frame_reader(std::uint64_t max_size = default_max_frame_size,
                        std::uint8_t compression_type = 19);
  ~frame_reader();
  frame_reader(frame_reader&&) noexcept;
  frame_reader& operator=(frame_reader&&) noexcept;

  // Turns on decompression; unknown algorithms are a client error.
  status enable_compression(std::string_view algorithm);
  bool compression_enabled() const noexcept;

  status feed(std::string_view bytes) { return m_outer.feed(bytes); }
  // The next frame, inner frames of a Compression message first. A
  // Compression message without uncompressed_size (or with 0) is inflated
  // up to max_size, as MySQL's server takes it; a declared size must match.
  result<std::optional<frame>> next();
  // The frame next() would return, left in its buffer (frame_decoder::
  // peek()), and dropping it: a plain frame, or one already inflated from a
  // Compression message. A Compression message still to inflate shows
  // nothing: next() inflates it (and returns its first frame).
  std::optional<frame_view> peek_plain() const noexcept;
  void skip_plain() noexcept;
  std::size_t bytes_wanted() const noexcept { return m_outer.bytes_wanted(); }
  // Bytes of the message being received (what next() has not returned).
  std::size_t buffered() const noexcept { return m_outer.buffered(); }
  // Whether next() may return a frame without more input: bytes received
  // and not returned, including frames already inflated from a Compression
  // message (one message may hold several replies), which buffered() does
  // not count.
  bool holds_input() const noexcept;
  // The limit for messages whose length has not been read yet, and for
  // what a Compression message inflates to from now on.
  void set_max_size(std::uint64_t max_size) noexcept;
  std::uint64_t max_size() const noexcept { return m_outer.max_size(); }
  // After next() failed on a bad length: that length (0, or above max_size).
  std::uint32_t failed_length() const noexcept { return m_outer.failed_length(); }
  // What went wrong, after next() failed on compressed input.
  compression_fault fault() const noexcept { return m_fault; }

private:
  struct impl;
  error fail(compression_fault f, std::string what);
  frame_decoder m_outer;
  std::uint8_t m_compression_type;
  compression_fault m_fault = compression_fault::none;
  std::unique_ptr<impl> m_impl;
};

// The connector's sender: each flight of requests becomes one Compression
// message of mixed frames (MySQL reads any number of frames of any types
// from one message), or plain frames when that is cheaper.
class frame_compressor {
public:
  // compression_type: the outgoing Compression message type (46 on a client).
  explicit frame_compressor(std::uint8_t compression_type = 46);
  ~frame_compressor();
  frame_compressor(frame_compressor&&) noexcept;
  frame_compressor& operator=(frame_compressor&&) noexcept;

  // max_uncompressed: the peer's limit on a message, which MySQL also applies
  // to the frames a Compression message holds once inflated.
  // min_size: flights smaller than this go out plain (MySQL accepts plain
  // frames between compressed ones): compressing a few dozen bytes costs
  // more CPU than the bytes it saves.
  status enable(std::string_view algorithm,
                std::uint64_t max_uncompressed = std::numeric_limits<std::uint64_t>::max(),
                const compression_params& params = {}, std::size_t min_size = 0);
  bool enabled() const noexcept;
  // The peer's limit changed (learned from it): flights are cut to the new one.
  void set_max_uncompressed(std::uint64_t n) noexcept { m_max_uncompressed = n; }
  // Replaces `frames` (complete frames) with Compression frames holding them:
  // one, or more where together they would exceed max_uncompressed (a frame
  // larger than that on its own goes alone). A no-op while disabled.
  status wrap(std::string& frames);

private:
  std::uint8_t m_type;
  std::uint64_t m_max_uncompressed = 0;
  std::size_t m_min_size = 0;
  std::optional<payload_compressor> m_c;
};

// Appends one Compression frame (message type `type`) holding `frames`,
// whole frames, compressed with c, encoded as MySQL's X Plugin encodes it:
// server_messages first when given, then uncompressed_size and the payload's
// length as varints padded to 5 bytes (so the payload is compressed straight
// into `out` and its length filled in after), the payload last, where
// MySQL's reader needs it. Fails only for frames of 4 GiB or more.
status append_compression_frame(std::string& out, std::uint8_t type, payload_compressor& c,
                                std::string_view frames,
                                std::optional<std::uint8_t> server_messages = std::nullopt);

// The length of the whole frame that starts at frames[pos] (header
// included), or nothing if fewer bytes than that remain.
std::optional<std::size_t> whole_frame_at(std::string_view frames, std::size_t pos);

} // namespace cdk::protocol
