// Row value encodings and the expect stack, without a server.
#include "mysqlx_expect.pb.h"
#include "mysqlx_resultset.pb.h"
#include "test/xserver/expect.h"
#include "test/xserver/row_encoder.h"

#include <gtest/gtest.h>
#include <mysql.h>

namespace xserver {
namespace {

std::string enc(x_type t, std::string_view text) {
  std::string out;
  encode_value(t, text, out);
  return out;
}

TEST(RowEncoder, IntegersAreZigzagAndPlainVarints) {
  EXPECT_EQ(enc(x_type::sint, "-1"), std::string("\x01", 1));
  EXPECT_EQ(enc(x_type::sint, "1"), std::string("\x02", 1));
  EXPECT_EQ(enc(x_type::sint, "-64"), std::string("\x7f", 1));
  EXPECT_EQ(enc(x_type::sint, "64"), std::string("\x80\x01", 2));
  EXPECT_EQ(enc(x_type::uint, "300"), std::string("\xac\x02", 2));
  EXPECT_EQ(enc(x_type::uint, "18446744073709551615"),
            std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10));
}

TEST(RowEncoder, StringsCarryATrailingNul) {
  EXPECT_EQ(enc(x_type::bytes, "ab"), std::string("ab\0", 3));
  EXPECT_EQ(enc(x_type::bytes, ""), std::string("\0", 1)); // not NULL: NULL is empty
}

TEST(RowEncoder, DecimalIsScaleThenPackedBcdWithSign) {
  EXPECT_EQ(enc(x_type::decimal, "-12.34"), std::string("\x02\x12\x34\xd0", 4));
  EXPECT_EQ(enc(x_type::decimal, "1.5"), std::string("\x01\x15\xc0", 3));
  EXPECT_EQ(enc(x_type::decimal, "123"), std::string("\x00\x12\x3c", 3));
}

TEST(RowEncoder, TimeDateTimeSetBitDouble) {
  EXPECT_EQ(enc(x_type::time, "-01:02:03.5"), std::string("\x01\x01\x02\x03\xa0\xc2\x1e", 7));
  EXPECT_EQ(enc(x_type::time, "838:00:00"), std::string("\x00\xc6\x06", 3));
  EXPECT_EQ(enc(x_type::datetime, "2024-01-02"), std::string("\xe8\x0f\x01\x02", 4));
  EXPECT_EQ(enc(x_type::datetime, "2024-01-02 03:04:05"),
            std::string("\xe8\x0f\x01\x02\x03\x04\x05", 7));
  EXPECT_EQ(enc(x_type::set, ""), std::string("\x01", 1));
  EXPECT_EQ(enc(x_type::set, "a,bc"), std::string("\x01"
                                                  "a"
                                                  "\x02"
                                                  "bc",
                                                  5));
  EXPECT_EQ(enc(x_type::bit, std::string("\x01\x02", 2)), std::string("\x82\x02", 2));
  const std::string d = enc(x_type::dbl, "1.5");
  double v = 0;
  ASSERT_EQ(d.size(), 8u);
  std::memcpy(&v, d.data(), 8);
  EXPECT_EQ(v, 1.5);
}

// MySQL's encoding_xrow.h: the time parts stop at the last non-zero one; a
// DATETIME's year is a varint of exactly two bytes, a DATE's a plain one.
TEST(RowEncoder, TemporalTrailingZeroPartsAreLeftOut) {
  EXPECT_EQ(enc(x_type::datetime, "2024-01-02 00:00:00"), std::string("\xe8\x0f\x01\x02", 4));
  EXPECT_EQ(enc(x_type::datetime, "2024-01-02 10:00:00"), std::string("\xe8\x0f\x01\x02\x0a", 5));
  EXPECT_EQ(enc(x_type::datetime, "2024-01-02 10:20:00"),
            std::string("\xe8\x0f\x01\x02\x0a\x14", 6));
  EXPECT_EQ(enc(x_type::datetime, "2024-01-02 00:00:00.500000"),
            std::string("\xe8\x0f\x01\x02\x00\x00\x00\xa0\xc2\x1e", 10));
  EXPECT_EQ(enc(x_type::datetime, "0099-01-02 00:00:00"), std::string("\xe3\x00\x01\x02", 4));
  EXPECT_EQ(enc(x_type::datetime, "0000-00-00 00:00:00"), std::string("\x80\x00\x00\x00", 4));
  EXPECT_EQ(enc(x_type::datetime, "0099-01-02"), std::string("\x63\x01\x02", 3));
  EXPECT_EQ(enc(x_type::time, "00:00:00"), std::string("\x00", 1));
  EXPECT_EQ(enc(x_type::time, "-00:00:01"), std::string("\x01\x00\x00\x01", 4));
  EXPECT_EQ(enc(x_type::time, "10:00:00.000000"), std::string("\x00\x0a", 2));
  EXPECT_EQ(enc(x_type::time, "00:00:00.250000"), std::string("\x00\x00\x00\x00\x90\xa1\x0f", 7));
}

MYSQL_FIELD field(enum_field_types type, unsigned long length, unsigned flags = 0,
                  unsigned charsetnr = 45, unsigned decimals = 0) {
  MYSQL_FIELD f{};
  f.name = f.org_name = f.table = f.org_table = f.db = const_cast<char*>("");
  f.type = type;
  f.length = length;
  f.flags = flags;
  f.charsetnr = charsetnr;
  f.decimals = decimals;
  return f;
}

Mysqlx::Resultset::ColumnMetaData meta(const MYSQL_FIELD& f) {
  Mysqlx::Resultset::ColumnMetaData m;
  fill_column_metadata(f, false, m);
  return m;
}

// Streaming_command_delegate::field_metadata(): what each type carries.
TEST(ColumnMetadata, AsTheXPluginSendsIt) {
  // Lengths in bytes, as the classic protocol: VARCHAR(10) utf8mb4 is 40.
  const auto v = meta(field(MYSQL_TYPE_VAR_STRING, 40));
  EXPECT_EQ(v.length(), 40u);
  EXPECT_EQ(v.collation(), 45u);
  EXPECT_FALSE(v.has_flags()); // a zero flags field is left out
  EXPECT_FALSE(v.has_fractional_digits());
  const auto c = meta(field(MYSQL_TYPE_STRING, 20));
  EXPECT_EQ(c.flags(), 0x0001u); // BYTES_RIGHTPAD
  // MariaDB's "not fixed" decimals (39) is MySQL's 31.
  EXPECT_EQ(meta(field(MYSQL_TYPE_DOUBLE, 22, 0, 63, 39)).fractional_digits(), 31u);
  EXPECT_EQ(meta(field(MYSQL_TYPE_NEWDECIMAL, 12, 0, 63, 2)).fractional_digits(), 2u);
  EXPECT_EQ(meta(field(MYSQL_TYPE_NEWDECIMAL, 12, UNSIGNED_FLAG, 63, 2)).flags(), 0x0001u);
  // Numbers and temporal types carry no collation.
  EXPECT_FALSE(meta(field(MYSQL_TYPE_LONG, 11, 0, 63)).has_collation());
  EXPECT_FALSE(meta(field(MYSQL_TYPE_DATETIME, 19, 0, 63)).has_collation());
  // YEAR: UINT, no UINT_ZEROFILL although the field is ZEROFILL.
  const auto y = meta(field(MYSQL_TYPE_YEAR, 4, UNSIGNED_FLAG | ZEROFILL_FLAG, 63));
  EXPECT_EQ(y.type(), Mysqlx::Resultset::ColumnMetaData::UINT);
  EXPECT_FALSE(y.has_flags());
  EXPECT_EQ(meta(field(MYSQL_TYPE_LONG, 10, UNSIGNED_FLAG | ZEROFILL_FLAG, 63)).flags(), 0x0001u);
  // TIMESTAMP: DATETIME_TIMESTAMP; DATE: content type DATE.
  const auto ts = meta(field(MYSQL_TYPE_TIMESTAMP, 26, 0, 63, 6));
  EXPECT_EQ(ts.flags(), 0x0001u);
  EXPECT_EQ(ts.content_type(), static_cast<unsigned>(Mysqlx::Resultset::DATETIME));
  EXPECT_FALSE(ts.has_fractional_digits()); // MySQL sends no fsp for temporal types
  EXPECT_EQ(meta(field(MYSQL_TYPE_DATE, 10, 0, 63)).content_type(),
            static_cast<unsigned>(Mysqlx::Resultset::DATE));
  // ENUM and SET: a collation, no length; GEOMETRY: neither.
  const auto e = meta(field(MYSQL_TYPE_STRING, 4, ENUM_FLAG));
  EXPECT_EQ(e.type(), Mysqlx::Resultset::ColumnMetaData::ENUM);
  EXPECT_TRUE(e.has_collation());
  EXPECT_FALSE(e.has_length());
  const auto g = meta(field(MYSQL_TYPE_GEOMETRY, 4294967295u, 0, 63));
  EXPECT_FALSE(g.has_collation());
  EXPECT_FALSE(g.has_length());
  EXPECT_EQ(g.content_type(), static_cast<unsigned>(Mysqlx::Resultset::GEOMETRY));
  // SELECT NULL: BYTES without collation or length.
  const auto n = meta(field(MYSQL_TYPE_NULL, 0, 0, 63));
  EXPECT_EQ(n.type(), Mysqlx::Resultset::ColumnMetaData::BYTES);
  EXPECT_FALSE(n.has_collation());
}

// The X Plugin's get_valid_charset_collation(): a text column not in
// utf8mb4 (nor binary) is named by the results collation, keeps its length.
TEST(ColumnMetadata, OtherCharsetsAreSentAsUtf8mb4) {
  constexpr unsigned latin2_general_ci = 9, utf8mb3_general_ci = 33, utf8mb4_bin = 46;
  const auto l = meta(field(MYSQL_TYPE_VAR_STRING, 10, 0, latin2_general_ci));
  EXPECT_EQ(l.length(), 10u);
  EXPECT_EQ(l.collation(), results_collation);
  EXPECT_EQ(meta(field(MYSQL_TYPE_VAR_STRING, 12, 0, utf8mb3_general_ci)).collation(),
            results_collation);
  EXPECT_EQ(meta(field(MYSQL_TYPE_VAR_STRING, 16, 0, utf8mb4_bin)).collation(), utf8mb4_bin);
  EXPECT_EQ(charset_to_convert(field(MYSQL_TYPE_VAR_STRING, 16, 0, utf8mb4_bin)), nullptr);
  EXPECT_EQ(charset_to_convert(field(MYSQL_TYPE_BLOB, 16, 0, 63)), nullptr);
  EXPECT_EQ(charset_to_convert(field(MYSQL_TYPE_LONG, 11, 0, latin2_general_ci)), nullptr);
  const MARIADB_CHARSET_INFO* latin2 =
      charset_to_convert(field(MYSQL_TYPE_VAR_STRING, 10, 0, latin2_general_ci));
  ASSERT_NE(latin2, nullptr);
  EXPECT_EQ(to_utf8mb4("Mog\xea", latin2), "Mog\xc4\x99"); // ę
  const MARIADB_CHARSET_INFO* utf8mb3 =
      charset_to_convert(field(MYSQL_TYPE_STRING, 3, 0, utf8mb3_general_ci));
  ASSERT_NE(utf8mb3, nullptr);
  EXPECT_EQ(to_utf8mb4("\xc4\x99", utf8mb3), "\xc4\x99");
  // Bytes that are not text of the charset go unchanged, as the X Plugin's
  // Convert_if_necessary sends them on a conversion error.
  const MARIADB_CHARSET_INFO* sjis = charset_to_convert(field(MYSQL_TYPE_STRING, 3, 0, 13));
  ASSERT_NE(sjis, nullptr);
  EXPECT_EQ(to_utf8mb4("\x81", sjis), "\x81");
}

// MySQL's utf16 and utf32 are big-endian, as MariaDB sends them; iconv's
// "UTF16" read them in the host's order ('café' became four CJK characters).
TEST(ColumnMetadata, Utf16AndUtf32AreBigEndian) {
  using namespace std::string_literals;
  constexpr unsigned utf16_general_ci = 54, utf16le_general_ci = 56, utf32_general_ci = 60,
                     ucs2_general_ci = 35;
  const auto* utf16 = charset_to_convert(field(MYSQL_TYPE_VAR_STRING, 20, 0, utf16_general_ci));
  ASSERT_NE(utf16, nullptr);
  EXPECT_EQ(to_utf8mb4("\0c\0a\0f\0\xe9\xd8\x3d\xde\x00"s, utf16), "caf\xc3\xa9\xf0\x9f\x98\x80");
  const auto* utf16le = charset_to_convert(field(MYSQL_TYPE_VAR_STRING, 20, 0, utf16le_general_ci));
  ASSERT_NE(utf16le, nullptr);
  EXPECT_EQ(to_utf8mb4("c\0a\0f\0\xe9\0"s, utf16le), "caf\xc3\xa9");
  const auto* utf32 = charset_to_convert(field(MYSQL_TYPE_VAR_STRING, 40, 0, utf32_general_ci));
  ASSERT_NE(utf32, nullptr);
  EXPECT_EQ(to_utf8mb4("\0\0\0c\0\0\0\xe9"s, utf32), "c\xc3\xa9");
  const auto* ucs2 = charset_to_convert(field(MYSQL_TYPE_VAR_STRING, 20, 0, ucs2_general_ci));
  ASSERT_NE(ucs2, nullptr);
  EXPECT_EQ(to_utf8mb4("\0c\0\xe9"s, ucs2), "c\xc3\xa9");
}

Mysqlx::Expect::Open open_with(std::vector<std::pair<unsigned, std::string>> conds) {
  Mysqlx::Expect::Open o;
  for (const auto& [k, v] : conds) {
    auto* c = o.add_cond();
    c->set_condition_key(k);
    c->set_condition_value(v);
  }
  return o;
}

TEST(ExpectStack, FiftySevenKnowsOnlyNoError) {
  expect_stack s(/*emulate_57=*/true);
  auto e = s.open(open_with({{3, ""}}));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, 5160u);
  EXPECT_EQ(e->message, "Unknown condition key");
  EXPECT_EQ(s.depth(), 0u);
  EXPECT_EQ(s.close()->code, 5158u);
  EXPECT_FALSE(s.open(open_with({{1, "1"}})));
  EXPECT_FALSE(s.close());
}

TEST(ExpectStack, NestedNoErrorFailurePropagates) {
  expect_stack s(false);
  EXPECT_FALSE(s.open(open_with({{1, ""}})));
  EXPECT_FALSE(s.open(open_with({}))); // copies no_error from the outer block
  s.statement_failed();
  EXPECT_EQ(s.blocked()->code, 5159u);
  EXPECT_EQ(s.close()->code, 5159u);
  EXPECT_EQ(s.blocked()->code, 5159u); // the outer no_error block failed too
  EXPECT_EQ(s.close()->code, 5159u);
  EXPECT_FALSE(s.blocked());
}

TEST(ExpectStack, PlainInnerBlockCatchesErrors) {
  expect_stack s(false);
  EXPECT_FALSE(s.open(open_with({{1, ""}})));
  Mysqlx::Expect::Open empty;
  empty.set_op(Mysqlx::Expect::Open::EXPECT_CTX_EMPTY);
  EXPECT_FALSE(s.open(empty));
  s.statement_failed();
  EXPECT_FALSE(s.blocked());
  EXPECT_FALSE(s.close());
  EXPECT_FALSE(s.blocked());
}

} // namespace
} // namespace xserver
