#include "test/xserver/compressed_writer.h"

#include "cdk/protocol/frame.h"
#include "cdk/protocol/msg_types.h"
#include "cdk/protocol/wire_reader.h"

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

} // namespace

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
  (void)cdk::protocol::append_compression_frame(out, type_byte(server_msg::compression), *m_c,
                                                m_block, server_messages);
  m_block.clear();
  m_block_count = 0;
}

} // namespace xserver
