#include "cdk/protocol/compression.h"

#include "cdk/protocol/message.h"
#include "cdk/protocol/wire_reader.h"

#include <cstdint>

namespace cdk::protocol {

namespace {
namespace wire = cdk::protocol::wire;
constexpr std::string_view deflate_name = "deflate_stream";
constexpr std::string_view lz4_name = "lz4_message";
constexpr std::string_view zstd_name = "zstd_stream";

using decompressor =
    std::variant<deflate_stream_decompressor, lz4_message_decompressor, zstd_stream_decompressor>;

std::optional<decompressor> make_decompressor(std::string_view algorithm) {
  if (algorithm == zstd_name) return decompressor(std::in_place_type<zstd_stream_decompressor>);
  if (algorithm == lz4_name) return decompressor(std::in_place_type<lz4_message_decompressor>);
  if (algorithm == deflate_name)
    return decompressor(std::in_place_type<deflate_stream_decompressor>);
  return std::nullopt;
}

error unknown_algorithm(std::string_view algorithm) {
  return error::client(client_errc::compression,
                       "unsupported compression algorithm '" + std::string(algorithm) + "'");
}

// The fields of a Mysqlx.Connection.Compression the reader needs, read in
// place (every row of a compressed result passes through here, and
// libprotobuf would copy the payload first). client_messages and
// server_messages are only hints; unknown fields are skipped, as protobuf
// does.
struct compression_fields {
  std::uint64_t uncompressed_size = 0;
  std::string_view payload;
};

std::optional<compression_fields> read_compression(std::string_view body) {
  compression_fields c;
  wire::reader r(body);
  std::uint32_t field = 0;
  wire::wire_type type{};
  while (!r.done()) {
    if (!r.tag(field, type)) return std::nullopt;
    bool ok = true;
    if (field == 1 && type == wire::wire_type::varint)
      ok = r.varint(c.uncompressed_size);
    else if (field == 4 && type == wire::wire_type::bytes)
      ok = r.bytes(c.payload);
    else
      ok = r.skip(type);
    if (!ok) return std::nullopt;
  }
  return c;
}

// A varint always 5 bytes long: 28 bits in four bytes with the continuation
// bit set, the rest in the fifth.
void put_padded_varint(char* at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i, v >>= 7) at[i] = static_cast<char>((v & 0x7f) | 0x80);
  at[4] = static_cast<char>(v);
}

error bad_compression(std::string what) {
  return error::connection(client_errc::compression,
                           "malformed compressed X Protocol message: " + std::move(what));
}
} // namespace

const std::vector<std::string>& supported_compression() {
  static const std::vector<std::string> algorithms{std::string(zstd_name), std::string(lz4_name),
                                                   std::string(deflate_name)};
  return algorithms;
}

result<payload_compressor> payload_compressor::make(std::string_view algorithm,
                                                    const compression_params& params) {
  // Without a level, the X Plugin's defaults (mysqlx_*_default_compression_level):
  // 3 for deflate and zstd, 2 for lz4. For deflate, zlib's own default 6
  // took 1.8 times the CPU on 800 KB of add() documents (11.3 against
  // 6.2 ms) to shrink them to 14.1% of their size instead of 16.1%.
  const bool known = algorithm == zstd_name || algorithm == lz4_name || algorithm == deflate_name;
  if (!known) return unknown_algorithm(algorithm);
  const int level = params.level.value_or(algorithm == lz4_name ? 2 : 3);
  if (!compression_level_valid(algorithm, level))
    return error::client(client_errc::bad_option,
                         "compression level " + std::to_string(level) + " is out of range for " +
                             std::string(algorithm) + " (" +
                             std::to_string(compression_level_min(algorithm)) + " to " +
                             std::to_string(compression_level_max(algorithm)) + ")");
  if (algorithm == zstd_name)
    return payload_compressor(
        any(std::in_place_type<zstd_stream_compressor>, level,
            params.frame_per_message ? zstd_form::frame_per_message : zstd_form::flush));
  if (algorithm == lz4_name)
    return payload_compressor(
        any(std::in_place_type<lz4_message_compressor>, level, params.lz4_large_blocks));
  return payload_compressor(any(std::in_place_type<deflate_stream_compressor>, level));
}

void payload_compressor::compress_append(std::string_view data, std::string& out) {
  std::visit([&](auto& c) { c.compress_append(data, out); }, m_c);
}

status append_compression_frame(std::string& out, std::uint8_t type, payload_compressor& c,
                                std::string_view frames,
                                std::optional<std::uint8_t> server_messages) {
  if (frames.size() > UINT32_MAX) return bad_compression("frames of 4 GiB or more to compress");
  const std::size_t header = begin_frame(out, type);
  if (server_messages) {
    out.push_back(0x10); // field 2, varint; every message type is below 128
    out.push_back(static_cast<char>(*server_messages));
  }
  char fields[12] = {0x08, 0, 0, 0, 0, 0, 0x22}; // field 1, varint; field 4, bytes
  put_padded_varint(fields + 1, static_cast<std::uint32_t>(frames.size()));
  out.append(fields, sizeof fields);
  const std::size_t payload_start = out.size();
  c.compress_append(frames, out);
  const std::size_t payload_size = out.size() - payload_start;
  if (payload_size > UINT32_MAX) return bad_compression("a compressed payload of 4 GiB or more");
  put_padded_varint(&out[payload_start - 5], static_cast<std::uint32_t>(payload_size));
  return end_frame(out, header);
}

std::optional<std::size_t> whole_frame_at(std::string_view frames, std::size_t pos) {
  if (frames.size() - pos < frame_header_size) return std::nullopt;
  std::uint32_t len = 0;
  for (int i = 3; i >= 0; --i) len = (len << 8) | static_cast<unsigned char>(frames[pos + i]);
  if (frames.size() - pos - 4 < len) return std::nullopt;
  return std::size_t{4} + len;
}

struct frame_reader::impl {
  impl(decompressor d, std::uint64_t max_size) : inflater(std::move(d)), inner(max_size) {}
  decompressor inflater;
  frame_decoder inner; // frames inflated from the current Compression message
};

frame_reader::frame_reader(std::uint64_t max_size, std::uint8_t compression_type)
    : m_outer(max_size), m_compression_type(compression_type) {}
frame_reader::~frame_reader() = default;
frame_reader::frame_reader(frame_reader&&) noexcept = default;
frame_reader& frame_reader::operator=(frame_reader&&) noexcept = default;

status frame_reader::enable_compression(std::string_view algorithm) {
  auto d = make_decompressor(algorithm);
  if (!d) return unknown_algorithm(algorithm);
  if (!m_impl) m_impl = std::make_unique<impl>(std::move(*d), m_outer.max_size());
  return ok();
}

void frame_reader::set_max_size(std::uint64_t max_size) noexcept {
  m_outer.set_max_size(max_size);
  if (m_impl) m_impl->inner.set_max_size(max_size);
}

bool frame_reader::compression_enabled() const noexcept {
  return m_impl != nullptr;
}

error frame_reader::fail(compression_fault f, std::string what) {
  m_fault = f;
  return bad_compression(std::move(what));
}

bool frame_reader::holds_input() const noexcept {
  return m_outer.buffered() > 0 || (m_impl && m_impl->inner.buffered() > 0);
}

std::optional<frame_view> frame_reader::peek_plain() const noexcept {
  if (m_impl) {
    if (auto v = m_impl->inner.peek()) return v;
    if (m_impl->inner.buffered() > 0) return std::nullopt; // next() reports it
  }
  auto v = m_outer.peek();
  if (v && v->type == m_compression_type) return std::nullopt;
  return v;
}

void frame_reader::skip_plain() noexcept {
  if (m_impl) {
    if (m_impl->inner.peek()) return m_impl->inner.skip();
    if (m_impl->inner.buffered() > 0) return; // peek_plain() shows nothing
  }
  // Never a Compression message unread.
  if (auto v = m_outer.peek(); v && v->type != m_compression_type) m_outer.skip();
}

result<std::optional<frame>> frame_reader::next() {
  if (m_impl) {
    if (auto f = m_impl->inner.next()) return std::optional<frame>(std::move(*f));
    if (m_impl->inner.failed()) {
      m_fault = compression_fault::too_large;
      return *m_impl->inner.failure();
    }
    if (m_impl->inner.buffered() > 0)
      return fail(compression_fault::bad_inner_frames, "payload ends inside a frame");
  }
  auto f = m_outer.next();
  if (!f && m_outer.failed()) return *m_outer.failure(); // after the frames before it
  if (!f || f->type != m_compression_type) return result<std::optional<frame>>(std::move(f));
  if (!m_impl) return fail(compression_fault::not_enabled, "compression was not negotiated");

  auto c = read_compression(f->payload);
  if (!c) return fail(compression_fault::bad_frame, "Mysqlx.Connection.Compression does not parse");
  if (c->payload.empty()) return fail(compression_fault::bad_frame, "no payload");
  const std::uint64_t max = m_outer.max_size();
  if (c->uncompressed_size > max)
    return fail(compression_fault::too_large,
                "uncompressed size " + std::to_string(c->uncompressed_size) +
                    " exceeds the maximum message size of " + std::to_string(max));
  auto data = std::visit(
      [&](auto& d) {
        return d.decompress_view(c->payload, static_cast<std::size_t>(c->uncompressed_size), max);
      },
      m_impl->inflater);
  if (!data) {
    m_fault = compression_fault::decompression;
    return std::move(data).err();
  }
  // An inner frame above the limit fails the feed; the frames before it
  // still come first.
  const status fed = m_impl->inner.feed(data.value());
  auto inner = m_impl->inner.next();
  if (!inner && !fed) {
    m_fault = compression_fault::too_large;
    return fed.err();
  }
  if (!inner) return fail(compression_fault::bad_inner_frames, "payload holds no complete frame");
  if (inner->type == m_compression_type)
    return fail(compression_fault::bad_inner_frames, "nested Compression message");
  return std::optional<frame>(std::move(*inner));
}

frame_compressor::frame_compressor(std::uint8_t compression_type) : m_type(compression_type) {}
frame_compressor::~frame_compressor() = default;
frame_compressor::frame_compressor(frame_compressor&&) noexcept = default;
frame_compressor& frame_compressor::operator=(frame_compressor&&) noexcept = default;

status frame_compressor::enable(std::string_view algorithm, std::uint64_t max_uncompressed,
                                const compression_params& params, std::size_t min_size) {
  if (!m_c) {
    auto c = payload_compressor::make(algorithm, params);
    if (!c) return c.err();
    m_c.emplace(std::move(c.value()));
  }
  m_max_uncompressed = max_uncompressed;
  m_min_size = min_size;
  return ok();
}

bool frame_compressor::enabled() const noexcept {
  return m_c.has_value();
}

status frame_compressor::wrap(std::string& frames) {
  if (!m_c || frames.empty() || frames.size() < m_min_size) return ok();
  std::string out;
  const std::string_view all(frames);
  std::size_t begin = 0;
  while (begin < all.size()) {
    // Whole frames from `begin` while they fit the limit (at least one).
    std::size_t end = begin;
    while (end < all.size()) {
      auto len = whole_frame_at(all, end);
      if (!len) return bad_compression("a partial frame to compress");
      if (end > begin && end + *len - begin > m_max_uncompressed) break;
      end += *len;
    }
    // client_messages is left out: MySQL reads it but never uses it, and
    // several types may share the message.
    auto st = append_compression_frame(out, m_type, *m_c, all.substr(begin, end - begin));
    if (!st) return st;
    begin = end;
  }
  frames.swap(out);
  return ok();
}

} // namespace cdk::protocol
