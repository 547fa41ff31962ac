// xserverd's compression as MySQL's X Plugin does it
// (xprotocol-compression-facts.md): the capability and its errors, the
// three styles and what is never compressed, the encoding of each
// Compression message, each algorithm's stream form, what it accepts from a
// client and the fatal errors for what it cannot read.
#include "cdk/protocol/compression.h"
#include "cdk/protocol/message.h"
#include "mysqlx_connection.pb.h"
#include "mysqlx_sql.pb.h"
#include "test/xserver/tests/xclient.h"

#include <cctype>
#include <gtest/gtest.h>
#include <lz4frame.h>
#include <memory>
#include <zstd.h>

namespace xtest {
namespace {

using Mysqlx::Datatypes::Any;
using Mysqlx::Datatypes::Scalar;
using field_list = std::vector<std::pair<std::string, Any>>;

std::uint16_t port80() {
  return env_port("XS_PORT_80");
}

Any scalar_any(Scalar::Type type) {
  Any a;
  a.set_type(Any::SCALAR);
  a.mutable_scalar()->set_type(type);
  return a;
}
Any any_of(const std::string& s) {
  Any a = scalar_any(Scalar::V_STRING);
  a.mutable_scalar()->mutable_v_string()->set_value(s);
  return a;
}
Any any_of(std::int64_t v) {
  Any a = scalar_any(Scalar::V_SINT);
  a.mutable_scalar()->set_v_signed_int(v);
  return a;
}
Any any_of(bool v) {
  Any a = scalar_any(Scalar::V_BOOL);
  a.mutable_scalar()->set_v_bool(v);
  return a;
}

std::vector<frame> set_compression(xclient& c, const field_list& fields) {
  return cap_set(c, {{"compression", any_object(fields)}});
}

// A logged-in client that asked for `fields` and reads compressed frames.
std::unique_ptr<xclient> compressed_client(const std::string& algorithm, const field_list& fields) {
  auto c = std::make_unique<xclient>(port80());
  auto r = set_compression(*c, fields);
  if (!is(r.back(), server_msg::ok)) throw std::runtime_error("refused: " + describe(r));
  c->enable_compression(/*outgoing=*/false, algorithm);
  auto a = c->auth("MYSQL41", "xtest", "xtest-pw");
  if (!is(a.back(), server_msg::sess_authenticate_ok)) throw std::runtime_error(describe(a));
  c->clear_wire_frames();
  return c;
}

// One Compression message off the wire, decoded by hand.
struct wire_compression {
  bool has_server_messages = false;
  std::uint64_t server_messages = 0;
  std::uint64_t uncompressed_size = 0;
  std::string payload;
  bool padded = false; // uncompressed_size and the payload length are 5-byte varints
  std::vector<frame> inner;
};

bool read_varint(const std::string& s, std::size_t& pos, std::uint64_t& v, std::size_t& len) {
  v = 0;
  const std::size_t start = pos;
  for (unsigned shift = 0; pos < s.size() && shift < 64; shift += 7) {
    const auto b = static_cast<unsigned char>(s[pos++]);
    v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) {
      len = pos - start;
      return true;
    }
  }
  return false;
}

wire_compression parse_wire(const frame& f) {
  wire_compression w;
  const std::string& s = f.payload;
  std::size_t pos = 0, len = 0;
  bool size_padded = false, payload_padded = false;
  std::uint64_t v = 0;
  while (pos < s.size()) {
    const auto tag = static_cast<unsigned char>(s[pos++]);
    if (!read_varint(s, pos, v, len)) throw std::runtime_error("bad varint");
    if (tag == 0x10) {
      EXPECT_EQ(pos, 1 + len) << "server_messages comes first";
      w.has_server_messages = true;
      w.server_messages = v;
    } else if (tag == 0x08) {
      w.uncompressed_size = v;
      size_padded = len == 5;
    } else if (tag == 0x22) {
      payload_padded = len == 5;
      w.payload = s.substr(pos, v);
      pos += v;
      EXPECT_EQ(pos, s.size()) << "payload is the last field";
    } else {
      ADD_FAILURE() << "unexpected tag " << int(tag);
    }
  }
  w.padded = size_padded && payload_padded;
  return w;
}

// The Compression messages of everything read since the last clear, each
// with its inner frames (decoded with one reader for the connection).
std::vector<wire_compression> compressed_messages(const xclient& c, const std::string& algorithm,
                                                  std::vector<frame>* plain = nullptr) {
  std::vector<wire_compression> out;
  cdk::protocol::frame_reader r;
  EXPECT_TRUE(r.enable_compression(algorithm).ok());
  for (const frame& f : c.wire_frames()) {
    if (f.type != 19) {
      if (plain) plain->push_back(f);
      continue;
    }
    wire_compression w = parse_wire(f);
    std::string bytes;
    cdk::protocol::append_frame(bytes, f.type, f.payload);
    EXPECT_TRUE(r.feed(bytes).ok());
    for (;;) {
      auto inner = r.next();
      if (!inner.ok() || !inner.value()) break;
      w.inner.push_back(std::move(*inner.value()));
    }
    out.push_back(std::move(w));
  }
  return out;
}

// A result large enough for many blocks: 3000 rows of ~110 bytes (a
// recursive CTE stops at 1000 rows by default in MariaDB).
const char* const k_big_select =
    "WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 1000) "
    "SELECT REPEAT(CHAR(65 + n % 26), 100) AS t, n FROM s, (SELECT 1 UNION ALL SELECT 2 "
    "UNION ALL SELECT 3) AS three";

TEST(XserverdCompression, OffersTheAlgorithmsInMysqlsOrder) {
  xclient c(port80());
  auto caps = get_caps(c);
  const Any* comp = find_cap(caps, "compression");
  ASSERT_NE(comp, nullptr);
  ASSERT_EQ(comp->obj().fld_size(), 1);
  ASSERT_EQ(comp->obj().fld(0).key(), "algorithm");
  std::vector<std::string> offered;
  for (const auto& v : comp->obj().fld(0).value().array().value())
    offered.push_back(v.scalar().v_string().value());
  EXPECT_EQ(offered, (std::vector<std::string>{"deflate_stream", "lz4_message", "zstd_stream"}));
}

TEST(XserverdCompression, CapabilityErrorsAreMysqlsAndKeepTheConnection) {
  struct bad_case {
    Any value;
    std::uint32_t code;
    std::string text;
  };
  const std::vector<bad_case> cases{
      {any_of(std::string("zstd_stream")), 5001, "Capability prepare failed for 'compression'"},
      {any_object({{"algorithm", any_of(std::string("zstd_stream"))}, {"Colour", any_of(true)}}),
       5178, "Invalid or unsupported option 'compression.colour'"},
      {any_object({{"level", any_of(std::int64_t{3})}}), 5179,
       "The algorithm is required for 'compression'"},
      {any_object({{"algorithm", any_of(std::string("snappy"))}}), 5175,
       "Invalid or unsupported value for 'compression.algorithm'"},
      {any_object({{"algorithm", any_of(std::int64_t{1})}}), 5001,
       "Capability prepare failed for 'compression'"},
      {any_object({{"algorithm", any_of(std::string("zstd_stream"))},
                   {"level", any_of(std::string("high"))}}),
       5001, "Capability prepare failed for 'compression'"},
  };
  xclient c(port80());
  for (const auto& bc : cases) {
    auto r = cap_set(c, {{"compression", bc.value}});
    ASSERT_TRUE(is(r.back(), server_msg::error)) << describe(r);
    auto e = error_of(r.back());
    EXPECT_EQ(e.code(), bc.code) << e.msg();
    EXPECT_EQ(e.msg(), bc.text);
    EXPECT_EQ(e.severity(), Mysqlx::Error::ERROR);
    EXPECT_EQ(e.sql_state(), "HY000");
  }
  EXPECT_NE(find_cap(get_caps(c), "compression"), nullptr); // still connected
}

TEST(XserverdCompression, NamesAreCaseInsensitiveAndNumbersMayBeAnyNumericType) {
  xclient c(port80());
  Any as_double = scalar_any(Scalar::V_DOUBLE);
  as_double.mutable_scalar()->set_v_double(0.0);
  auto r = set_compression(c, {{"ALGORITHM", any_of(std::string("Deflate_Stream"))},
                               {"Server_Combine_Mixed_Messages", as_double},
                               {"server_max_combine_messages", any_of(true)},
                               {"LEVEL", any_of(std::int64_t{2})}});
  EXPECT_TRUE(is(r.back(), server_msg::ok)) << describe(r);
}

TEST(XserverdCompression, CompressedInputBeforeAuthenticationIsFatal5170) {
  xclient c(port80());
  auto r = set_compression(c, {{"algorithm", any_of(std::string("deflate_stream"))}});
  ASSERT_TRUE(is(r.back(), server_msg::ok)) << describe(r);
  c.enable_compression(/*outgoing=*/true, "deflate_stream");
  c.send(client_msg::con_capabilities_get, Mysqlx::Connection::CapabilitiesGet());
  auto f = c.read();
  ASSERT_TRUE(f && is(*f, server_msg::error));
  auto e = error_of(*f);
  EXPECT_EQ(e.code(), 5170u);
  EXPECT_EQ(e.msg(), "Client didn't enable the compression.");
  EXPECT_EQ(e.severity(), Mysqlx::Error::FATAL);
  EXPECT_FALSE(c.read()); // disconnected
}

struct style_case {
  const char* name;
  field_list extra;
};

class XserverdCompressionStyle
    : public ::testing::TestWithParam<std::tuple<std::string, style_case>> {};

// What every style shares: result-set messages and LOCAL notices inside
// Compression messages, everything else plain; whole frames; exact sizes
// in 5-byte varints; blocks closed near the X Plugin's 20 KB flush bound.
TEST_P(XserverdCompressionStyle, CompressesWhatMysqlCompresses) {
  const auto& [algorithm, style] = GetParam();
  field_list fields{{"algorithm", any_of(algorithm)}};
  fields.insert(fields.end(), style.extra.begin(), style.extra.end());
  auto c = compressed_client(algorithm, fields);

  auto rows = column_strings(c->sql(k_big_select));
  ASSERT_EQ(rows.size(), 3000u);
  auto err = c->sql("SELECT * FROM no_such_table_anywhere");
  ASSERT_TRUE(is(err.back(), server_msg::error));
  auto ins = c->sql("DO 1");
  ASSERT_TRUE(is(ins.back(), server_msg::sql_stmt_execute_ok));

  std::vector<frame> plain;
  const auto messages = compressed_messages(*c, algorithm, &plain);
  ASSERT_GE(messages.size(), 10u); // ~330 KB of rows in blocks of ~20 KB
  for (const frame& f : plain) {
    // Ok, Error, StmtExecuteOk (and global notices) are never compressed.
    EXPECT_TRUE(is(f, server_msg::error) || is(f, server_msg::sql_stmt_execute_ok) ||
                is(f, server_msg::ok) || (is(f, server_msg::notice) && notice_of(f).scope != 2))
        << "plain frame of type " << int(f.type);
  }
  EXPECT_EQ(plain.size(), 3u) << "StmtExecuteOk, Error, StmtExecuteOk";
  std::size_t largest_frame = 0;
  for (const auto& m : messages)
    for (const auto& f : m.inner) largest_frame = std::max(largest_frame, f.payload.size() + 5);
  for (const auto& m : messages) {
    EXPECT_TRUE(m.padded);
    ASSERT_FALSE(m.inner.empty());
    std::size_t total = 0;
    for (const auto& f : m.inner) {
      total += f.payload.size() + 5;
      EXPECT_FALSE(is(f, server_msg::ok) || is(f, server_msg::error) ||
                   is(f, server_msg::sql_stmt_execute_ok))
          << "type " << int(f.type) << " compressed";
      if (is(f, server_msg::notice)) {
        EXPECT_EQ(notice_of(f).scope, 2); // LOCAL
      }
    }
    EXPECT_EQ(m.uncompressed_size, total);
    EXPECT_LE(total, std::size_t{5} * 4096 + largest_frame);
  }

  const std::string s = std::get<1>(GetParam()).name;
  bool mixed = false;
  for (const auto& m : messages) {
    for (const auto& f : m.inner) mixed |= f.type != m.inner.front().type;
    if (s == "group") {
      EXPECT_FALSE(m.has_server_messages);
    } else {
      ASSERT_TRUE(m.has_server_messages);
      for (const auto& f : m.inner) EXPECT_EQ(f.type, m.server_messages);
    }
    if (s == "single") {
      EXPECT_EQ(m.inner.size(), 1u);
    }
  }
  EXPECT_EQ(mixed, s == "group"); // group mixes ColumnMetaData, Row, FetchDone, notices
}

std::vector<style_case> styles() {
  return {{"group", {}},
          {"multiple", {{"server_combine_mixed_messages", any_of(false)}}},
          {"single", {{"server_max_combine_messages", any_of(std::int64_t{1})}}}};
}

INSTANTIATE_TEST_SUITE_P(All, XserverdCompressionStyle,
                         ::testing::Combine(::testing::Values("deflate_stream", "lz4_message",
                                                              "zstd_stream"),
                                            ::testing::ValuesIn(styles())),
                         [](const auto& info) {
                           return std::get<0>(info.param).substr(0, 4) + "_" +
                                  std::get<1>(info.param).name;
                         });

// Each algorithm in the X Plugin's stream form.
TEST(XserverdCompression, ZstdSendsOneCompleteFramePerMessage) {
  auto c = compressed_client("zstd_stream", {{"algorithm", any_of(std::string("zstd_stream"))}});
  ASSERT_EQ(column_strings(c->sql(k_big_select)).size(), 3000u);
  for (const auto& m : compressed_messages(*c, "zstd_stream")) {
    EXPECT_EQ(ZSTD_getFrameContentSize(m.payload.data(), m.payload.size()), m.uncompressed_size);
    EXPECT_EQ(ZSTD_findFrameCompressedSize(m.payload.data(), m.payload.size()), m.payload.size());
  }
}

TEST(XserverdCompression, Lz4SendsOneIndependentFramePerMessage) {
  auto c = compressed_client("lz4_message", {{"algorithm", any_of(std::string("lz4_message"))}});
  ASSERT_EQ(column_strings(c->sql(k_big_select)).size(), 3000u);
  for (const auto& m : compressed_messages(*c, "lz4_message")) {
    // Decodable alone, by a fresh context.
    LZ4F_dctx* d = nullptr;
    ASSERT_FALSE(LZ4F_isError(LZ4F_createDecompressionContext(&d, LZ4F_VERSION)));
    std::string out(m.uncompressed_size, '\0');
    std::size_t out_len = out.size(), in_len = m.payload.size();
    const std::size_t rc =
        LZ4F_decompress(d, out.data(), &out_len, m.payload.data(), &in_len, nullptr);
    LZ4F_freeDecompressionContext(d);
    EXPECT_EQ(rc, 0u) << "a complete frame";
    EXPECT_EQ(in_len, m.payload.size());
    EXPECT_EQ(out_len, m.uncompressed_size);
  }
}

TEST(XserverdCompression, DeflateIsOneStreamSyncFlushedPerMessage) {
  auto c =
      compressed_client("deflate_stream", {{"algorithm", any_of(std::string("deflate_stream"))}});
  ASSERT_EQ(column_strings(c->sql(k_big_select)).size(), 3000u);
  const auto messages = compressed_messages(*c, "deflate_stream");
  ASSERT_GE(messages.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(messages[0].payload[0]), 0x78); // zlib header, once
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const std::string& p = messages[i].payload;
    if (i > 0) {
      EXPECT_NE(static_cast<unsigned char>(p[0]), 0x78) << i;
    }
    EXPECT_EQ(p.substr(p.size() - 4), std::string("\0\0\xff\xff", 4)) << i;
  }
}

TEST(XserverdCompression, TheLastAcceptedCapabilitiesSetWins) {
  xclient c(port80());
  for (const char* a : {"deflate_stream", "zstd_stream"}) {
    auto r = set_compression(c, {{"algorithm", any_of(std::string(a))}});
    ASSERT_TRUE(is(r.back(), server_msg::ok)) << describe(r);
  }
  auto refused = set_compression(c, {{"algorithm", any_of(std::string("snappy"))}});
  ASSERT_TRUE(is(refused.back(), server_msg::error));
  c.enable_compression(false, "zstd_stream");
  ASSERT_TRUE(is(c.auth("MYSQL41", "xtest", "xtest-pw").back(), server_msg::sess_authenticate_ok));
  c.clear_wire_frames();
  ASSERT_EQ(column_strings(c.sql("SELECT REPEAT('z', 5000)")).size(), 1u);
  const auto messages = compressed_messages(c, "zstd_stream");
  ASSERT_FALSE(messages.empty());
  EXPECT_EQ(messages[0].payload.substr(0, 4), "\x28\xb5\x2f\xfd"); // zstd's magic number
}

// Client to server: what MySQL accepts and what it refuses.
std::unique_ptr<xclient> authed_compressed(const std::string& algorithm) {
  return compressed_client(algorithm, {{"algorithm", any_of(algorithm)}});
}

std::string stmt_frame(const std::string& sql) {
  Mysqlx::Sql::StmtExecute m;
  m.set_stmt(sql);
  std::string out;
  cdk::protocol::append_message(out, client_msg::sql_stmt_execute, m);
  return out;
}

std::string client_compression(const Mysqlx::Connection::Compression& m) {
  std::string out;
  cdk::protocol::append_message(out, client_msg::compression, m);
  return out;
}

class XserverdCompressedInput : public ::testing::TestWithParam<std::string> {};

TEST_P(XserverdCompressedInput, SeveralFramesWithoutUncompressedSizeAreAccepted) {
  auto c = authed_compressed(GetParam());
  auto comp = cdk::protocol::payload_compressor::make(GetParam());
  ASSERT_TRUE(comp.ok());
  Mysqlx::Connection::Compression m;
  comp.value().compress_append(stmt_frame("SELECT 'one'") + stmt_frame("SELECT 'two'"),
                               *m.mutable_payload());
  c->send_raw(client_compression(m)); // no uncompressed_size, no client_messages
  EXPECT_EQ(column_strings(c->reply()), std::vector<std::string>{"one"});
  EXPECT_EQ(column_strings(c->reply()), std::vector<std::string>{"two"});
}

TEST_P(XserverdCompressedInput, UndecompressablePayloadIsFatal5171) {
  auto c = authed_compressed(GetParam());
  Mysqlx::Connection::Compression m;
  m.set_uncompressed_size(100);
  m.set_payload(std::string(64, '\x5a'));
  c->send_raw(client_compression(m));
  auto f = c->read();
  ASSERT_TRUE(f && is(*f, server_msg::error));
  EXPECT_EQ(error_of(*f).code(), 5171u);
  EXPECT_EQ(error_of(*f).msg(), "Payload decompression failed");
  EXPECT_EQ(error_of(*f).severity(), Mysqlx::Error::FATAL);
  EXPECT_FALSE(c->read());
}

TEST_P(XserverdCompressedInput, MissingPayloadIsFatal5174) {
  auto c = authed_compressed(GetParam());
  Mysqlx::Connection::Compression m;
  m.set_uncompressed_size(10);
  c->send_raw(client_compression(m));
  auto f = c->read();
  ASSERT_TRUE(f && is(*f, server_msg::error));
  EXPECT_EQ(error_of(*f).code(), 5174u);
  EXPECT_EQ(error_of(*f).msg(), "Invalid compressed frame.");
  EXPECT_FALSE(c->read());
}

TEST_P(XserverdCompressedInput, DeclaredSizeAboveTheMaximumClosesSilently) {
  auto c = authed_compressed(GetParam());
  auto comp = cdk::protocol::payload_compressor::make(GetParam());
  ASSERT_TRUE(comp.ok());
  Mysqlx::Connection::Compression m;
  m.set_uncompressed_size(std::uint64_t{1} << 32);
  comp.value().compress_append(stmt_frame("SELECT 1"), *m.mutable_payload());
  c->send_raw(client_compression(m));
  EXPECT_FALSE(c->read()); // no Error first: MySQL drops the connection
}

INSTANTIATE_TEST_SUITE_P(Algorithms, XserverdCompressedInput,
                         ::testing::Values("deflate_stream", "lz4_message", "zstd_stream"));

// Both directions at once, each algorithm, statements of every size.
class XserverdCompressionBothWays : public ::testing::TestWithParam<std::string> {};

TEST_P(XserverdCompressionBothWays, StayInStep) {
  xclient c(port80());
  std::string upper = GetParam();
  for (auto& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  auto r = set_compression(c, {{"algorithm", any_of(upper)}});
  ASSERT_TRUE(is(r.back(), server_msg::ok)) << describe(r);
  c.enable_compression(/*outgoing=*/false, GetParam());
  auto a = c.auth("MYSQL41", "xtest", "xtest-pw");
  ASSERT_TRUE(is(a.back(), server_msg::sess_authenticate_ok)) << describe(a);
  EXPECT_EQ(c.compressed_frames_read(), 0); // AuthenticateOk and before go plain
  c.enable_compression(/*outgoing=*/true, GetParam());
  for (int n : {1000, 300000, 7}) {
    auto rows = column_strings(c.sql("SELECT REPEAT('x', " + std::to_string(n) + ")"));
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0], std::string(n, 'x'));
  }
  EXPECT_GE(c.compressed_frames_read(), 3);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, XserverdCompressionBothWays,
                         ::testing::Values("zstd_stream", "lz4_message", "deflate_stream"));

} // namespace
} // namespace xtest
