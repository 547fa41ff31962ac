// Mysqlx.Connection.Compression, both directions (client sends type 46, the
// server type 19). The payload, once inflated, is a run of complete X
// Protocol frames (header included); server_messages / client_messages only
// hint at their type, so the reader does not rely on them [derived from the
// proto docs and WL#9252; verified against xserverd, not against MySQL].
//
// frame_reader is what a connection reads through: it decodes frames, and
// when compression is on it expands each Compression frame into the frames
// inside, transparently. Every size from the network is bounded by the same
// limit as a frame (max_size): the declared uncompressed size, the inflated
// bytes, and each inner frame's length.
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/protocol/frame.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cdk::protocol {

// The algorithms this build can run, most preferred first: zstd_stream,
// deflate_stream (foundation provides both).
const std::vector<std::string>& supported_compression();

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
  // The next frame, inner frames of a Compression message first.
  result<std::optional<frame>> next();
  std::size_t bytes_wanted() const noexcept { return m_outer.bytes_wanted(); }

private:
  struct impl;
  frame_decoder m_outer;
  std::uint8_t m_compression_type;
  std::unique_ptr<impl> m_impl;
};

class frame_compressor {
public:
  // compression_type: the outgoing Compression message type (46 on a client).
  explicit frame_compressor(std::uint8_t compression_type = 46);
  ~frame_compressor();
  frame_compressor(frame_compressor&&) noexcept;
  frame_compressor& operator=(frame_compressor&&) noexcept;

  // max_uncompressed: the peer's limit on a message, which MySQL also applies
  // to the frames a Compression message holds once inflated.
  status enable(std::string_view algorithm,
                std::uint64_t max_uncompressed = std::numeric_limits<std::uint64_t>::max());
  bool enabled() const noexcept;
  // Replaces `frames` (complete frames) with Compression frames holding them:
  // one, or more where together they would exceed max_uncompressed (a frame
  // larger than that on its own goes alone). A no-op while disabled.
  status wrap(std::string& frames);

private:
  struct impl;
  std::uint8_t m_type;
  std::uint64_t m_max_uncompressed = 0;
  std::unique_ptr<impl> m_impl;
};

} // namespace cdk::protocol
