// What xserverd sends once compression is on, laid out as MySQL's X Plugin
// lays it out (xprotocol-compression-facts.md §1, §3, §5):
// - only result-set messages (ColumnMetaData, Row, the Fetch* messages) and
//   LOCAL notices are compressed; Ok, Error, StmtExecuteOk, global notices and
//   everything else go plain, and each of them closes the open block first;
// - the style comes from the client's capability: group (mixed types in one
//   Compression message, the default), multiple (one type per message, named
//   in server_messages) or single (one frame per message);
// - a block is also closed once it holds more than five 4 KiB pages of
//   frames (where the X Plugin flushes its buffer) and at the end of every
//   flight of replies (before the server waits for the client);
// - uncompressed_size and the payload's length are varints padded to 5
//   bytes, and server_messages comes first, as the X Plugin encodes them.
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/protocol/compression.h"
#include "test/xserver/xvars.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace xserver {

enum class compression_style { group, multiple, single };

// The style the client's capability fields select, as the X Plugin picks it:
// max_messages == 1 wins, then combine_mixed.
compression_style style_of(bool combine_mixed, int max_messages);

class compressed_writer {
public:
  // max_messages: frames per block at most; <= 0: no limit.
  cdk::status enable(std::string_view algorithm, int level, compression_style style,
                     int max_messages);
  bool enabled() const { return m_c.has_value(); }

  // Rewrites `frames` (whole server frames) as they go on the wire.
  cdk::status wrap(std::string& frames);
  // What the Compression messages sent so far held.
  const compression_bytes& sent() const { return m_sent; }

private:
  void add(std::string_view frame, std::uint8_t type, std::string& out);
  void close_block(std::string& out);

  std::optional<cdk::protocol::payload_compressor> m_c;
  compression_style m_style = compression_style::group;
  int m_max_messages = 0;
  std::string m_block;           // uncompressed frames of the open block
  std::uint8_t m_block_type = 0; // the type of its frames (multiple, single)
  int m_block_count = 0;
  std::string m_scratch; // the compressed payload, reused
  compression_bytes m_sent;
};

// Follows the frames a client sends, as they arrive, and counts what its
// Compression messages carry: the payload's length and the declared
// uncompressed_size (the frames inside; the official connectors always send
// it; without it nothing is counted for those frames). The frames themselves
// are read and inflated by cdk::protocol::frame_reader; this only measures.
class compressed_input_meter {
public:
  explicit compressed_input_meter(std::uint8_t compression_type)
      : m_compression_type(compression_type) {}
  void feed(std::string_view bytes);
  const compression_bytes& received() const { return m_received; }

private:
  void frame_done();
  std::uint8_t m_compression_type;
  std::string m_header;          // the 5 bytes of length and type, as they come
  std::uint64_t m_remaining = 0; // body bytes of the current frame still to come
  bool m_keep = false;           // a Compression message: its body is kept
  std::string m_body;
  compression_bytes m_received;
};

// Is this server frame one the X Plugin compresses?
bool compressible(std::uint8_t type, std::string_view body);

} // namespace xserver
