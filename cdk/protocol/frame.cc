#include "cdk/protocol/frame.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace cdk::protocol {
namespace {

constexpr std::size_t length_size = 4;
constexpr bool endian_is_big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

void put_le32(char* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

// One load on a little-endian host (every platform we build for); the byte
// loop it replaces ran on each peek, skip and header check, several times
// per reply (issue 13).
std::uint32_t get_le32(const char* p) {
  std::uint32_t v = 0;
  std::memcpy(&v, p, sizeof v);
  if constexpr (endian_is_big) v = __builtin_bswap32(v);
  return v;
}

} // namespace

namespace {
// Printable ASCII up to a NUL, for quoting a server's version or message.
std::string printable_prefix(std::string_view s, std::size_t max) {
  std::string out;
  for (char c : s.substr(0, max)) {
    if (c == '\0') break;
    out += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  return out;
}
} // namespace

std::optional<error> other_protocol(std::string_view first) {
  if (first.size() < 5) return std::nullopt;
  const auto error_of = [](std::string what) {
    return error::connection(client_errc::malformed_packet, std::move(what));
  };
  if (first.substr(0, 5) == "HTTP/")
    return error_of("the server answered in HTTP, not the X Protocol: this is a web server's "
                    "port; MySQL's X Protocol listens on mysqlx_port (33060 by default)");
  // A classic packet: 3 length bytes, sequence number 0, then protocol
  // version 10 (the greeting) or 0xff (an error). X Protocol servers send
  // neither type.
  const auto kind = static_cast<unsigned char>(first[4]);
  if (first[3] != 0 || (kind != 0x0a && kind != 0xff)) return std::nullopt;
  const std::string hint = ": connect to the X Protocol port (mysqlx_port, 33060 by default; "
                           "the X Plugin is on by default since MySQL 8.0), not the classic "
                           "port (3306)";
  if (kind == 0x0a) {
    const std::string version = printable_prefix(first.substr(5), 60);
    return error_of("the server speaks MySQL's classic protocol, not the X Protocol (it greeted "
                    "as " +
                    (version.empty() ? std::string("a MySQL server") : "version " + version) + ")" +
                    hint);
  }
  // 0xff, a 2-byte error number, then '#' and a 5-byte SQLSTATE, or the text.
  std::string_view text = first.size() > 7 ? first.substr(7) : std::string_view();
  if (!text.empty() && text[0] == '#') text.remove_prefix(std::min<std::size_t>(6, text.size()));
  return error_of("the server speaks MySQL's classic protocol, not the X Protocol, and refused "
                  "the connection (\"" +
                  printable_prefix(text, 200) + "\")" + hint);
}

error bad_frame_length(std::uint64_t length, std::uint64_t max_size) {
  if (length == 0)
    return error::connection(client_errc::malformed_packet,
                             "malformed X Protocol frame: length 0 (the length must count the "
                             "type byte)");
  return error::connection(client_errc::malformed_packet,
                           "X Protocol frame of " + std::to_string(length) +
                               " bytes exceeds the maximum message size of " +
                               std::to_string(max_size) + " bytes");
}

void append_frame(std::string& out, std::uint8_t type, std::string_view payload) {
  const std::size_t at = begin_frame(out, type);
  out.append(payload);
  // A payload over 4 GiB can't come from a caller of this function in
  // practice; end_frame's check still applies.
  (void)end_frame(out, at);
}

std::size_t begin_frame(std::string& out, std::uint8_t type) {
  const std::size_t at = out.size();
  out.append(length_size, '\0');
  out.push_back(static_cast<char>(type));
  return at;
}

status end_frame(std::string& out, std::size_t header_offset) {
  const std::size_t length = out.size() - header_offset - length_size;
  if (length > std::numeric_limits<std::uint32_t>::max()) {
    out.resize(header_offset);
    return error::client(client_errc::usage, "message of " + std::to_string(length) +
                                                 " bytes is too large for an X Protocol frame");
  }
  put_le32(&out[header_offset], static_cast<std::uint32_t>(length));
  return ok();
}

status frame_decoder::feed(std::string_view bytes) {
  if (m_failed) return *m_failed;
  m_buf.append(bytes);
  return check_header();
}

// Validates every length prefix that is complete and not yet checked, so an
// oversized frame fails as soon as its 4 length bytes arrive.
status frame_decoder::check_header() {
  while (m_buf.size() - m_checked >= length_size) {
    const std::uint32_t length = get_le32(m_buf.data() + m_checked);
    if (length == 0 || length > m_max_size) {
      m_failed = bad_frame_length(length, m_max_size);
      m_failed_length = length;
      // The complete frames before it stay; nothing of the bad one is kept.
      m_buf.resize(m_checked);
      m_buf.shrink_to_fit();
      return *m_failed;
    }
    if (m_buf.size() - m_checked < length_size + length) break;
    m_checked += length_size + length;
  }
  return ok();
}

std::optional<frame_view> frame_decoder::peek() const noexcept {
  if (m_checked == m_pos) return std::nullopt; // no complete frame
  const std::uint32_t length = get_le32(m_buf.data() + m_pos);
  return frame_view{static_cast<std::uint8_t>(m_buf[m_pos + length_size]),
                    std::string_view(m_buf).substr(m_pos + frame_header_size, length - 1)};
}

void frame_decoder::skip() noexcept {
  if (m_checked == m_pos) return;
  m_pos += length_size + get_le32(m_buf.data() + m_pos);
  // Drop consumed bytes when that is cheap (all consumed) or worth it.
  if (m_pos == m_buf.size()) {
    m_buf.clear();
    m_pos = m_checked = 0;
  } else if (m_pos >= 65536 && m_pos >= m_buf.size() / 2) {
    m_buf.erase(0, m_pos);
    m_checked -= m_pos;
    m_pos = 0;
  }
}

std::optional<frame> frame_decoder::next() {
  const auto v = peek();
  if (!v) return std::nullopt;
  frame f{v->type, std::string(v->payload)};
  skip();
  return f;
}

std::size_t frame_decoder::bytes_wanted() const noexcept {
  if (m_failed) return 0;
  if (m_checked > m_pos) return 0; // a complete frame is waiting
  const std::size_t have = m_buf.size() - m_checked;
  if (have < length_size) return frame_header_size - have;
  return length_size + get_le32(m_buf.data() + m_checked) - have;
}

} // namespace cdk::protocol
