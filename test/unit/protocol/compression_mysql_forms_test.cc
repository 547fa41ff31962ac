// The connector's reader against Compression messages laid out byte by byte
// as MySQL's X Plugin writes them (xprotocol-compression-facts.md §1, §3, §5),
// built here from zlib, liblz4 and libzstd directly and hand-encoded
// headers, not by our own compressor or by xserverd: the three styles, a
// block cut by plain frames, the 5-byte padded varints, and each algorithm's
// stream form (one deflate stream for the connection, sync-flushed per
// message; a complete LZ4 frame per message; a complete zstd frame per
// message).
#include "cdk/protocol/compression.h"

#include <gtest/gtest.h>
#include <lz4frame.h>
#include <optional>
#include <zlib.h>
#include <zstd.h>

namespace cdk::protocol {
namespace {

// Server message types (Mysqlx.ServerMessages.Type).
constexpr std::uint8_t ok_t = 0, notice_t = 11, meta_t = 12, row_t = 13, done_t = 14,
                       stmt_ok_t = 17, compression_t = 19;

std::string le32(std::uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  return s;
}

std::string raw_frame(std::uint8_t type, const std::string& body) {
  return le32(static_cast<std::uint32_t>(body.size() + 1)) + static_cast<char>(type) + body;
}

// A varint padded to exactly 5 bytes, as the X Plugin's
// Delayed_fixed_varuint32 and Field_delimiter<5> write them.
std::string padded5(std::uint32_t v) {
  std::string s;
  for (int i = 0; i < 4; ++i, v >>= 7) s.push_back(static_cast<char>((v & 0x7f) | 0x80));
  s.push_back(static_cast<char>(v));
  return s;
}

// The algorithms' stream forms as the server uses them.
class mysql_compressor {
public:
  explicit mysql_compressor(std::string algorithm) : m_alg(std::move(algorithm)) {
    if (m_alg == "deflate_stream") {
      EXPECT_EQ(deflateInit(&m_z, 3), Z_OK);
    }
  }
  ~mysql_compressor() {
    if (m_alg == "deflate_stream") deflateEnd(&m_z);
  }
  mysql_compressor(const mysql_compressor&) = delete;
  mysql_compressor& operator=(const mysql_compressor&) = delete;

  std::string compress(const std::string& in) {
    if (m_alg == "deflate_stream") return deflate_sync(in);
    if (m_alg == "lz4_message") return lz4_frame(in);
    return zstd_frame(in);
  }

private:
  std::string deflate_sync(const std::string& in) {
    std::string out(deflateBound(&m_z, in.size()) + 64, '\0');
    m_z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    m_z.avail_in = static_cast<uInt>(in.size());
    m_z.next_out = reinterpret_cast<Bytef*>(out.data());
    m_z.avail_out = static_cast<uInt>(out.size());
    EXPECT_EQ(deflate(&m_z, Z_SYNC_FLUSH), Z_OK);
    EXPECT_EQ(m_z.avail_in, 0u);
    out.resize(out.size() - m_z.avail_out);
    EXPECT_EQ(out.substr(out.size() - 4), std::string("\0\0\xff\xff", 4)); // the sync marker
    return out;
  }
  static std::string lz4_frame(const std::string& in) {
    LZ4F_preferences_t prefs{};
    prefs.frameInfo.contentSize = 0;
    prefs.frameInfo.blockMode = LZ4F_blockIndependent;
    prefs.autoFlush = 1;
    prefs.compressionLevel = 2;
    std::string out(LZ4F_compressFrameBound(in.size(), &prefs), '\0');
    const std::size_t n = LZ4F_compressFrame(out.data(), out.size(), in.data(), in.size(), &prefs);
    EXPECT_FALSE(LZ4F_isError(n));
    out.resize(n);
    return out;
  }
  static std::string zstd_frame(const std::string& in) {
    std::string out(ZSTD_compressBound(in.size()), '\0');
    const std::size_t n = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 3);
    EXPECT_FALSE(ZSTD_isError(n));
    out.resize(n);
    EXPECT_EQ(ZSTD_getFrameContentSize(out.data(), out.size()), in.size());
    return out;
  }

  std::string m_alg;
  z_stream m_z{};
};

// One Compression frame: [server_messages], uncompressed_size, payload, in
// the X Plugin's field order and encodings.
std::string compression_message(mysql_compressor& c, const std::string& frames,
                                std::optional<std::uint8_t> server_messages) {
  std::string body;
  if (server_messages) body += std::string("\x10") + static_cast<char>(*server_messages);
  const std::string payload = c.compress(frames);
  body += "\x08" + padded5(static_cast<std::uint32_t>(frames.size()));
  body += "\x22" + padded5(static_cast<std::uint32_t>(payload.size())) + payload;
  return raw_frame(compression_t, body);
}

struct expected_frame {
  std::uint8_t type;
  std::string body;
};

// A result set as the server would send it, frame by frame, with enough
// rows to matter: metadata, rows, FetchDone, a LOCAL ROWS_AFFECTED notice.
std::vector<expected_frame> result_set(int rows) {
  std::vector<expected_frame> v;
  v.push_back({meta_t, std::string("\x08\x07\x12\x01"
                                   "a",
                                   5)});
  v.push_back({meta_t, std::string("\x08\x01\x12\x01"
                                   "b",
                                   5)});
  for (int i = 0; i < rows; ++i)
    v.push_back({row_t, "\x0a\x10" + std::string(16, static_cast<char>('a' + i % 26))});
  v.push_back({done_t, ""});
  // Frame{type=3 SESSION_STATE_CHANGED, scope=LOCAL, payload=SSC{param=4, value=uint 1}}
  v.push_back({notice_t, std::string("\x08\x03\x10\x02\x1a\x06\x08\x04\x12\x02\x08\x01", 12)});
  return v;
}

std::string joined(const std::vector<expected_frame>& frames, std::size_t from, std::size_t to) {
  std::string s;
  for (std::size_t i = from; i < to; ++i) s += raw_frame(frames[i].type, frames[i].body);
  return s;
}

void expect_reads(const std::string& algorithm, const std::string& wire,
                  const std::vector<expected_frame>& want, std::size_t step) {
  for (std::size_t cut = 0; cut <= wire.size(); cut += step) {
    frame_reader r;
    ASSERT_TRUE(r.enable_compression(algorithm).ok());
    std::vector<frame> got;
    for (std::string_view part :
         {std::string_view(wire).substr(0, cut), std::string_view(wire).substr(cut)}) {
      ASSERT_TRUE(r.feed(part).ok());
      for (;;) {
        auto f = r.next();
        ASSERT_TRUE(f.ok()) << f.err().message << " (cut at " << cut << ")";
        if (!f.value()) break;
        got.push_back(std::move(*f.value()));
      }
    }
    ASSERT_EQ(got.size(), want.size()) << "cut at " << cut;
    for (std::size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(got[i].type, want[i].type) << i;
      EXPECT_EQ(got[i].payload, want[i].body) << i;
    }
  }
}

class mysql_forms : public ::testing::TestWithParam<std::string> {};

// Group (the X Plugin's default): mixed types in one message, no
// server_messages; the StmtExecuteOk after it goes plain.
TEST_P(mysql_forms, group_style) {
  mysql_compressor c(GetParam());
  auto rs = result_set(40);
  std::string wire = compression_message(c, joined(rs, 0, rs.size()), std::nullopt);
  rs.push_back({stmt_ok_t, ""});
  wire += raw_frame(stmt_ok_t, "");
  expect_reads(GetParam(), wire, rs, 3);
}

// Multiple (what Connector/C++ asks for): one type per message, named in
// server_messages; a type change starts a new message.
TEST_P(mysql_forms, multiple_style) {
  mysql_compressor c(GetParam());
  auto rs = result_set(40);
  std::string wire;
  std::size_t begin = 0;
  for (std::size_t i = 1; i <= rs.size(); ++i) {
    if (i < rs.size() && rs[i].type == rs[begin].type) continue;
    wire += compression_message(c, joined(rs, begin, i), rs[begin].type);
    begin = i;
  }
  rs.push_back({stmt_ok_t, ""});
  wire += raw_frame(stmt_ok_t, "");
  expect_reads(GetParam(), wire, rs, 5);
}

// Single (server_max_combine_messages = 1): one frame per message.
TEST_P(mysql_forms, single_style) {
  mysql_compressor c(GetParam());
  auto rs = result_set(12);
  std::string wire;
  for (std::size_t i = 0; i < rs.size(); ++i)
    wire += compression_message(c, joined(rs, i, i + 1), rs[i].type);
  expect_reads(GetParam(), wire, rs, 1);
}

// Plain frames close a block and stand between compressed ones, while the
// algorithm's state (deflate's one stream) runs on across them; the blocks
// also close at the ~20 KB flush bound, so a large result is many messages.
TEST_P(mysql_forms, blocks_cut_by_plain_frames_and_by_size) {
  mysql_compressor c(GetParam());
  std::vector<expected_frame> want;
  std::string wire;
  for (int stmt = 0; stmt < 3; ++stmt) {
    auto rs = result_set(3000); // 3000 rows of 23 bytes: several ~20 KB blocks
    std::size_t begin = 0, bytes = 0;
    for (std::size_t i = 0; i < rs.size(); ++i) {
      bytes += rs[i].body.size() + 5;
      if (bytes > std::size_t{5} * 4096 || i + 1 == rs.size()) {
        wire += compression_message(c, joined(rs, begin, i + 1), std::nullopt);
        begin = i + 1;
        bytes = 0;
      }
    }
    want.insert(want.end(), rs.begin(), rs.end());
    want.push_back({stmt_ok_t, ""});
    wire += raw_frame(stmt_ok_t, "");
    want.push_back({ok_t, ""});
    wire += raw_frame(ok_t, "");
  }
  expect_reads(GetParam(), wire, want, 4099);
}

INSTANTIATE_TEST_SUITE_P(algorithms, mysql_forms,
                         ::testing::Values("deflate_stream", "lz4_message", "zstd_stream"));

// The deflate stream's zlib header comes once, at the start of the first
// message, and every later message depends on the ones before it: the
// reader keeps one inflate stream for the connection.
TEST(mysql_forms_deflate, one_stream_for_the_connection) {
  mysql_compressor c("deflate_stream");
  const std::string frames = joined(result_set(5), 0, 8);
  const std::string first = compression_message(c, frames, std::nullopt);
  const std::string second = compression_message(c, frames, std::nullopt);
  // 0x78 is a zlib header's first byte (deflate, 32 KiB window); it follows
  // the 5-byte frame header, the 6 bytes of uncompressed_size and 6 of the
  // payload length.
  EXPECT_EQ(static_cast<unsigned char>(first[17]), 0x78);
  EXPECT_NE(static_cast<unsigned char>(second[17]), 0x78);
  EXPECT_LT(second.size(), first.size()); // the repeat matched the first message

  frame_reader alone; // the second message cannot be read without the first
  ASSERT_TRUE(alone.enable_compression("deflate_stream").ok());
  ASSERT_TRUE(alone.feed(second).ok());
  EXPECT_FALSE(alone.next().ok());
}

} // namespace
} // namespace cdk::protocol
