// X Protocol framing, with no I/O and no protobuf: a 4-byte little-endian
// length that counts the type byte, 1 type byte, then the payload.
//
// Both ends use this file (the connector and xserverd), so nothing here
// assumes a direction: the decoder hands back {type, payload} and the caller
// knows whether type 1 means Mysqlx.Error (server) or CapabilitiesGet (client).
//
// Every length read from the network is checked against a limit before the
// decoder keeps a single byte of that frame's payload, so a hostile length
// prefix is an error, never an allocation.
#pragma once

#include "cdk/foundation/error.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cdk::protocol {

inline constexpr std::size_t frame_header_size = 5;                  // length (4) + type (1)
inline constexpr std::uint64_t default_max_frame_size = 64ull << 20; // the length field's limit

// One complete message: its type byte and its (protobuf) payload.
struct frame {
  std::uint8_t type = 0;
  std::string payload;
};

// A complete message still in a decoder's buffer (frame_decoder::peek()).
struct frame_view {
  std::uint8_t type = 0;
  std::string_view payload;
};

// Appends header and payload to out.
void append_frame(std::string& out, std::uint8_t type, std::string_view payload);

// For encoders that write the payload in place (no intermediate copy):
// begin_frame() appends a header with a placeholder length and returns its
// offset; the caller appends the payload to out; end_frame() fills the length
// in. Fails (client error) if the payload does not fit the 32-bit length.
std::size_t begin_frame(std::string& out, std::uint8_t type);
status end_frame(std::string& out, std::size_t header_offset);

// Incremental decoder: feed() bytes split anywhere, take complete frames with
// next(). A length of 0 (the length counts the type byte) or above max_size
// is a fatal malformed_packet error; after it the decoder stays failed and
// drops further input, because the byte stream has lost its frame boundaries.
// The complete frames that arrived before the bad length are still handed
// out by next(), so a server can answer them first, as MySQL, which reads
// one message at a time, does.
class frame_decoder {
public:
  explicit frame_decoder(std::uint64_t max_size = default_max_frame_size) noexcept
      : m_max_size(max_size) {}

  // Buffers bytes. Errors as soon as a bad length prefix is complete.
  status feed(std::string_view bytes);
  // The next complete frame, or nothing until more bytes are fed.
  std::optional<frame> next();
  // The same frame without taking it or copying its payload: the view lasts
  // until the decoder changes (feed, next, skip). skip() drops that frame.
  std::optional<frame_view> peek() const noexcept;
  void skip() noexcept;

  // How many more bytes would complete the frame being received (at least 1):
  // a hint for the size of the next read.
  std::size_t bytes_wanted() const noexcept;
  // Bytes buffered but not yet returned as frames.
  std::size_t buffered() const noexcept { return m_buf.size() - m_pos; }
  bool failed() const noexcept { return m_failed.has_value(); }
  const std::optional<error>& failure() const noexcept { return m_failed; }
  // The length that failed (0, or one above max_size); 0 while not failed.
  std::uint32_t failed_length() const noexcept { return m_failed_length; }
  std::uint64_t max_size() const noexcept { return m_max_size; }
  // Applies to length prefixes not checked yet: frames already complete
  // were checked against the limit of their time.
  void set_max_size(std::uint64_t max_size) noexcept { m_max_size = max_size; }

private:
  status check_header();

  std::uint64_t m_max_size;
  std::string m_buf;         // undecoded bytes live in [m_pos, size())
  std::size_t m_pos = 0;     // start of the first frame not yet returned
  std::size_t m_checked = 0; // end of the complete frames whose lengths were checked
  std::optional<error> m_failed;
  std::uint32_t m_failed_length = 0;
};

// The first bytes a server sent, when they are not the X Protocol's but
// those of a protocol met on a wrong port: MySQL's classic protocol (its
// greeting, protocol version 10, or an error packet; port 3306) or HTTP.
// An error that says so, or nothing. Needs at least 5 bytes to tell.
std::optional<error> other_protocol(std::string_view first_bytes);

// The error for a bad length prefix; exposed so other decoders (compression)
// report the same thing the same way.
error bad_frame_length(std::uint64_t length, std::uint64_t max_size);

} // namespace cdk::protocol
