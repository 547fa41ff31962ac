#include "test/xserver/compressed_writer.h"

#include "cdk/protocol/frame.h"
#include "cdk/protocol/msg_types.h"
#include "cdk/protocol/wire_reader.h"

#include <algorithm>

namespace xserver {

namespace {

using cdk::protocol::server_msg;
using cdk::protocol::type_byte;
namespace wire = cdk::protocol::wire;

// Where the X Plugin flushes its encoding buffer (more than 5 chained pages
// of 4096 bytes), closing the open block.
constexpr std::size_t block_flush_bytes = std::size_t{5} * 4096;

// Mysqlx.Notice.Frame fields and values.
constexpr std::uint32_t notice_type = 1, notice_scope = 2, notice_payload = 3;
constexpr std::uint64_t scope_local = 2, session_state_changed = 3;
// SessionStateChanged.param values the X Plugin sends uncompressed.
constexpr std::uint64_t account_expired = 2, client_id_assigned = 11;

// The SessionStateChanged parameter in a notice's payload (0 if none).
std::uint64_t state_param_of(std::string_view payload) {
  wire::reader r(payload);
  std::uint32_t field = 0;
  wire::wire_type wt{};
  std::uint64_t v = 0;
  while (!r.done() && r.tag(field, wt)) {
    if (field == 1 && wt == wire::wire_type::varint) return r.varint(v) ? v : 0;
    if (!r.skip(wt)) break;
  }
  return 0;
}

bool compressible_notice(std::string_view body) {
  wire::reader r(body);
  std::uint64_t type = 0, scope = 1; // GLOBAL unless the frame says otherwise
  std::string_view payload;
  std::uint32_t field = 0;
  wire::wire_type wt{};
  while (!r.done()) {
    if (!r.tag(field, wt)) return false;
    bool ok = true;
    if (field == notice_type && wt == wire::wire_type::varint)
      ok = r.varint(type);
    else if (field == notice_scope && wt == wire::wire_type::varint)
      ok = r.varint(scope);
    else if (field == notice_payload && wt == wire::wire_type::bytes)
      ok = r.bytes(payload);
    else
      ok = r.skip(wt);
    if (!ok) return false;
  }
  if (scope != scope_local) return false;
  if (type != session_state_changed) return true;
  const std::uint64_t param = state_param_of(payload);
  return param != client_id_assigned && param != account_expired;
}

// Mysqlx.Connection.Compression fields.
constexpr std::uint32_t compression_uncompressed_size = 1, compression_payload = 4;

// The length of a Compression message's payload field (0 if none).
std::size_t payload_size(std::string_view body) {
  wire::reader r(body);
  std::uint32_t field = 0;
  wire::wire_type wt{};
  while (!r.done() && r.tag(field, wt)) {
    std::string_view payload;
    if (field == compression_payload && wt == wire::wire_type::bytes)
      return r.bytes(payload) ? payload.size() : 0;
    if (!r.skip(wt)) break;
  }
  return 0;
}

} // namespace

void compressed_input_meter::feed(std::string_view bytes) {
  constexpr std::size_t header = cdk::protocol::frame_header_size;
  while (!bytes.empty()) {
    if (m_header.size() < header) {
      const std::size_t n = std::min(header - m_header.size(), bytes.size());
      m_header.append(bytes.substr(0, n));
      bytes.remove_prefix(n);
      if (m_header.size() < header) return;
      std::uint32_t len = 0; // little-endian, the type byte included
      for (int i = 3; i >= 0; --i)
        len = (len << 8) | static_cast<unsigned char>(m_header[static_cast<std::size_t>(i)]);
      m_remaining = len > 0 ? len - 1 : 0;
      m_keep = static_cast<std::uint8_t>(m_header[4]) == m_compression_type;
      m_body.clear();
      if (m_remaining == 0) frame_done();
      continue;
    }
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(m_remaining, bytes.size()));
    if (m_keep) m_body.append(bytes.substr(0, n));
    bytes.remove_prefix(n);
    m_remaining -= n;
    if (m_remaining == 0) frame_done();
  }
}

void compressed_input_meter::frame_done() {
  if (m_keep) {
    wire::reader r(m_body);
    std::uint32_t field = 0;
    wire::wire_type wt{};
    while (!r.done() && r.tag(field, wt)) {
      bool ok = true;
      std::string_view payload;
      std::uint64_t size = 0;
      if (field == compression_uncompressed_size && wt == wire::wire_type::varint) {
        ok = r.varint(size);
        if (ok) m_received.uncompressed += size;
      } else if (field == compression_payload && wt == wire::wire_type::bytes) {
        ok = r.bytes(payload);
        if (ok) m_received.compressed += payload.size();
      } else {
        ok = r.skip(wt);
      }
      if (!ok) break;
    }
  }
  m_header.clear();
  m_body.clear();
  m_keep = false;
}

compression_style style_of(bool combine_mixed, int max_messages) {
  if (max_messages == 1) return compression_style::single;
  return combine_mixed ? compression_style::group : compression_style::multiple;
}

bool compressible(std::uint8_t type, std::string_view body) {
  switch (static_cast<server_msg>(type)) {
  case server_msg::resultset_column_meta_data:
  case server_msg::resultset_row:
  case server_msg::resultset_fetch_done:
  case server_msg::resultset_fetch_suspended:
  case server_msg::resultset_fetch_done_more_resultsets:
  case server_msg::resultset_fetch_done_more_out_params:
    return true;
  case server_msg::notice:
    return compressible_notice(body);
  default:
    return false;
  }
}

cdk::status compressed_writer::enable(std::string_view algorithm, int level,
                                      compression_style style, int max_messages) {
  // zstd: one complete frame per Compression message, as the X Plugin
  // writes it (with zstd >= 1.4), not one flushed endless frame.
  auto c = cdk::protocol::payload_compressor::make(algorithm, {level, true});
  if (!c) return c.err();
  m_c.emplace(std::move(c.value()));
  m_style = style;
  m_max_messages = style == compression_style::single ? 1 : max_messages;
  return cdk::ok();
}

cdk::status compressed_writer::wrap(std::string& frames) {
  if (!m_c || frames.empty()) return cdk::ok();
  std::string out;
  const std::string_view all(frames);
  for (std::size_t pos = 0; pos < all.size();) {
    auto len = cdk::protocol::whole_frame_at(all, pos);
    if (!len) return cdk::error::client(cdk::client_errc::compression, "a partial frame to send");
    const std::string_view frame = all.substr(pos, *len);
    add(frame, static_cast<std::uint8_t>(frame[4]), out);
    pos += *len;
  }
  close_block(out); // the flight ends: the X Plugin flushes before it reads again
  frames.swap(out);
  return cdk::ok();
}

void compressed_writer::add(std::string_view frame, std::uint8_t type, std::string& out) {
  if (!compressible(type, frame.substr(cdk::protocol::frame_header_size))) {
    close_block(out);
    out.append(frame);
    return;
  }
  if (m_block_count > 0 && ((m_style != compression_style::group && type != m_block_type) ||
                            (m_max_messages > 0 && m_block_count >= m_max_messages)))
    close_block(out);
  if (m_block_count == 0) m_block_type = type;
  m_block.append(frame);
  ++m_block_count;
  if (m_block.size() > block_flush_bytes) close_block(out);
}

void compressed_writer::close_block(std::string& out) {
  if (m_block_count == 0) return;
  std::optional<std::uint8_t> server_messages;
  if (m_style != compression_style::group) server_messages = m_block_type;
  // Blocks hold whole frames of at most the maximum message size: < 4 GiB.
  const std::size_t start = out.size();
  (void)cdk::protocol::append_compression_frame(out, type_byte(server_msg::compression), *m_c,
                                                m_block, server_messages);
  m_sent.uncompressed += m_block.size();
  m_sent.compressed +=
      payload_size(std::string_view(out).substr(start + cdk::protocol::frame_header_size));
  m_block.clear();
  m_block_count = 0;
}

} // namespace xserver
