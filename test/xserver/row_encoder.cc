#include "test/xserver/row_encoder.h"

#include "mysqlx_resultset.pb.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iconv.h>
#include <mysql.h>

namespace xserver {

void append_varint(std::uint64_t v, std::string& out) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

x_type x_type_of(const MYSQL_FIELD& f) {
  const bool is_unsigned = f.flags & UNSIGNED_FLAG;
  switch (f.type) {
  case MYSQL_TYPE_TINY:
  case MYSQL_TYPE_SHORT:
  case MYSQL_TYPE_INT24:
  case MYSQL_TYPE_LONG:
  case MYSQL_TYPE_LONGLONG:
    return is_unsigned ? x_type::uint : x_type::sint;
  case MYSQL_TYPE_YEAR:
    return x_type::uint;
  case MYSQL_TYPE_DOUBLE:
    return x_type::dbl;
  case MYSQL_TYPE_FLOAT:
    return x_type::flt;
  case MYSQL_TYPE_DECIMAL:
  case MYSQL_TYPE_NEWDECIMAL:
    return x_type::decimal;
  case MYSQL_TYPE_TIME:
  case MYSQL_TYPE_TIME2:
    return x_type::time;
  case MYSQL_TYPE_DATE:
  case MYSQL_TYPE_NEWDATE:
  case MYSQL_TYPE_DATETIME:
  case MYSQL_TYPE_DATETIME2:
  case MYSQL_TYPE_TIMESTAMP:
  case MYSQL_TYPE_TIMESTAMP2:
    return x_type::datetime;
  case MYSQL_TYPE_BIT:
    return x_type::bit;
  default:
    break;
  }
  // With the text protocol MariaDB reports ENUM/SET as strings with flags.
  if (f.flags & SET_FLAG || f.type == MYSQL_TYPE_SET) return x_type::set;
  if (f.flags & ENUM_FLAG || f.type == MYSQL_TYPE_ENUM) return x_type::enumeration;
  return x_type::bytes;
}

bool is_json_column(const MYSQL_FIELD& f) {
  MARIADB_CONST_STRING fmt{};
  return x_type_of(f) == x_type::bytes &&
         mariadb_field_attr(&fmt, &f, MARIADB_FIELD_ATTR_FORMAT_NAME) == 0 && fmt.length == 4 &&
         std::memcmp(fmt.str, "json", 4) == 0;
}

const MARIADB_CHARSET_INFO* charset_to_convert(const MYSQL_FIELD& f) {
  constexpr unsigned binary = 63;
  const x_type t = x_type_of(f);
  const bool text = (t == x_type::bytes && f.type != MYSQL_TYPE_GEOMETRY &&
                     f.type != MYSQL_TYPE_NULL && !is_json_column(f)) ||
                    t == x_type::set || t == x_type::enumeration;
  if (!text || f.charsetnr == binary) return nullptr;
  const MARIADB_CHARSET_INFO* cs = mariadb_get_charset_by_nr(f.charsetnr);
  if (!cs || !cs->csname || std::strcmp(cs->csname, "utf8mb4") == 0) return nullptr;
  return cs;
}

std::string to_utf8mb4(std::string_view text, const MARIADB_CHARSET_INFO* from) {
  // utf8mb3 bytes are utf8mb4 bytes already.
  if (!from->encoding || std::strcmp(from->encoding, "UTF-8") == 0) return std::string(text);
  // libmariadb names each charset's iconv encoding; its own
  // mariadb_convert_string() is a stub (EOPNOTSUPP) in some builds.
  // MySQL's utf16 and utf32 are big-endian; iconv reads "UTF16"/"UTF32"
  // without a byte order mark in the host's order ('café' came out as four
  // CJK characters), so name the order.
  const char* encoding = from->encoding;
  if (std::strcmp(encoding, "UTF16") == 0) encoding = "UTF-16BE";
  if (std::strcmp(encoding, "UTF32") == 0) encoding = "UTF-32BE";
  iconv_t cd = iconv_open("UTF-8", encoding);
  if (cd == reinterpret_cast<iconv_t>(-1)) return std::string(text);
  // A character of any charset takes at most 4 bytes in utf8mb4, and none
  // takes fewer than 1 byte in its own.
  std::string out(text.size() * 4, '\0');
  char* in = const_cast<char*>(text.data());
  char* to = out.data();
  std::size_t in_left = text.size(), out_left = out.size();
  const bool ok =
      iconv(cd, &in, &in_left, &to, &out_left) != static_cast<std::size_t>(-1) && in_left == 0;
  iconv_close(cd);
  if (!ok) return std::string(text);
  out.resize(out.size() - out_left);
  return out;
}

// Mirrors the X Plugin's Streaming_command_delegate::field_metadata(): which
// of length, collation and fractional digits each type carries, and the flags.
void fill_column_metadata(const MYSQL_FIELD& f, bool compact,
                          Mysqlx::Resultset::ColumnMetaData& m) {
  const x_type t = x_type_of(f);
  m.set_type(static_cast<Mysqlx::Resultset::ColumnMetaData::FieldType>(t));
  if (compact) return;
  m.set_name(std::string(f.name, f.name_length));
  m.set_original_name(std::string(f.org_name, f.org_name_length));
  m.set_table(std::string(f.table, f.table_length));
  m.set_original_table(std::string(f.org_table, f.org_table_length));
  m.set_schema(std::string(f.db, f.db_length));
  m.set_catalog("def");
  const bool json = is_json_column(f);
  const bool geometry = f.type == MYSQL_TYPE_GEOMETRY;
  // MySQL sends no collation for GEOMETRY and for the NULL type; JSON's
  // field charset is binary there, utf8mb4_bin in MariaDB.
  if (json)
    m.set_collation(63);
  else if ((t == x_type::bytes && !geometry && f.type != MYSQL_TYPE_NULL) || t == x_type::set ||
           t == x_type::enumeration)
    m.set_collation(charset_to_convert(f) ? results_collation : f.charsetnr);
  if (t == x_type::dbl || t == x_type::flt || t == x_type::decimal) {
    // "Not a fixed number of decimals" is 31 in MySQL, 39 in MariaDB.
    constexpr unsigned mariadb_not_fixed_dec = 39, mysql_not_fixed_dec = 31;
    m.set_fractional_digits(f.decimals == mariadb_not_fixed_dec ? mysql_not_fixed_dec : f.decimals);
  }
  // The length is the field's display length in bytes in its own charset
  // (VARCHAR(10) utf8mb4: 40, latin2: 10, even when sent as utf8mb4); ENUM,
  // SET and GEOMETRY have none.
  if (!geometry && t != x_type::set && t != x_type::enumeration &&
      !(t == x_type::bytes && f.type == MYSQL_TYPE_NULL))
    m.set_length(static_cast<std::uint32_t>(std::min<std::uint64_t>(f.length, 0xffffffffu)));
  const bool integer = f.type == MYSQL_TYPE_TINY || f.type == MYSQL_TYPE_SHORT ||
                       f.type == MYSQL_TYPE_INT24 || f.type == MYSQL_TYPE_LONG ||
                       f.type == MYSQL_TYPE_LONGLONG;
  std::uint32_t flags = 0;
  // Flag 0x0001 means per type: UINT_ZEROFILL (not for YEAR), *_UNSIGNED for
  // the floating and decimal types, BYTES_RIGHTPAD (CHAR/BINARY),
  // DATETIME_TIMESTAMP.
  if ((integer && f.flags & ZEROFILL_FLAG) ||
      ((t == x_type::dbl || t == x_type::flt || t == x_type::decimal) && f.flags & UNSIGNED_FLAG) ||
      (t == x_type::bytes && f.type == MYSQL_TYPE_STRING) ||
      (t == x_type::datetime &&
       (f.type == MYSQL_TYPE_TIMESTAMP || f.type == MYSQL_TYPE_TIMESTAMP2)))
    flags |= 0x0001;
  if (f.flags & NOT_NULL_FLAG) flags |= 0x0010;
  if (f.flags & PRI_KEY_FLAG) flags |= 0x0020;
  if (f.flags & UNIQUE_KEY_FLAG) flags |= 0x0040;
  if (f.flags & MULTIPLE_KEY_FLAG) flags |= 0x0080;
  if (f.flags & AUTO_INCREMENT_FLAG) flags |= 0x0100;
  if (flags) m.set_flags(flags); // MySQL leaves the field out when it is 0
  if (json)
    m.set_content_type(Mysqlx::Resultset::JSON);
  else if (geometry)
    m.set_content_type(Mysqlx::Resultset::GEOMETRY);
  else if (t == x_type::datetime) {
    const bool date_only = f.type == MYSQL_TYPE_DATE || f.type == MYSQL_TYPE_NEWDATE;
    m.set_content_type(date_only ? Mysqlx::Resultset::DATE : Mysqlx::Resultset::DATETIME);
  }
}

namespace {

// Parses the unsigned decimal digits at text[pos], advancing pos.
std::uint64_t digits(std::string_view text, std::size_t& pos) {
  std::uint64_t v = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
    v = v * 10 + (text[pos++] - '0');
  return v;
}

// ".123" -> microseconds (123000); pos at the dot.
std::uint64_t micros(std::string_view text, std::size_t& pos) {
  if (pos >= text.size() || text[pos] != '.') return 0;
  ++pos;
  std::uint64_t v = 0;
  int n = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
    if (n < 6) v = v * 10 + (text[pos] - '0');
    ++n;
    ++pos;
  }
  for (; n < 6; ++n) v *= 10;
  return v;
}

// A varint of exactly two bytes (MySQL's encode_fixedvar16_uint32): how the
// X Plugin writes a DATETIME's year, so year 99 takes two bytes as 2024 does.
void append_varint16(std::uint64_t v, std::string& out) {
  out += static_cast<char>((v & 0x7f) | 0x80);
  out += static_cast<char>((v >> 7) & 0x7f);
}

// The X Plugin writes hour, minute, second and microseconds only up to the
// last one that is not zero (encoding_xrow.h): 10:00:00 is the hour alone.
void append_time_parts(std::uint64_t h, std::uint64_t m, std::uint64_t s, std::uint64_t us,
                       std::string& out) {
  if (!(h || m || s || us)) return;
  append_varint(h, out);
  if (!(m || s || us)) return;
  append_varint(m, out);
  if (!(s || us)) return;
  append_varint(s, out);
  if (us) append_varint(us, out);
}

void encode_time(std::string_view text, std::string& out) {
  std::size_t pos = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) ++pos;
  out += static_cast<char>(negative ? 1 : 0);
  std::uint64_t h = digits(text, pos), m = 0, s = 0;
  if (pos < text.size() && text[pos] == ':') m = digits(text, ++pos);
  if (pos < text.size() && text[pos] == ':') s = digits(text, ++pos);
  const std::uint64_t us = micros(text, pos);
  append_time_parts(h, m, s, us, out);
}

// DATE values ("YYYY-MM-DD", MySQL's field_date) have a plain varint year;
// DATETIME and TIMESTAMP values (field_datetime) a two-byte one.
void encode_datetime(std::string_view text, std::string& out) {
  std::size_t pos = 0;
  std::uint64_t parts[6] = {};
  parts[0] = digits(text, pos);
  for (int i = 1; i < 6 && pos < text.size(); ++i) parts[i] = digits(text, ++pos);
  const std::uint64_t us = micros(text, pos);
  constexpr std::size_t date_length = 10;
  if (text.size() <= date_length)
    append_varint(parts[0], out);
  else
    append_varint16(parts[0], out);
  append_varint(parts[1], out);
  append_varint(parts[2], out);
  if (text.size() > date_length) append_time_parts(parts[3], parts[4], parts[5], us, out);
}

void encode_decimal(std::string_view text, std::string& out) {
  const bool negative = !text.empty() && text[0] == '-';
  if (negative || (!text.empty() && text[0] == '+')) text.remove_prefix(1);
  const auto dot = text.find('.');
  const std::size_t scale = dot == std::string_view::npos ? 0 : text.size() - dot - 1;
  std::string nibbles;
  for (char c : text)
    if (c >= '0' && c <= '9') nibbles += static_cast<char>(c - '0');
  nibbles += static_cast<char>(negative ? 0xd : 0xc);
  if (nibbles.size() % 2) nibbles += '\0';
  out += static_cast<char>(scale);
  for (std::size_t i = 0; i < nibbles.size(); i += 2)
    out += static_cast<char>(nibbles[i] << 4 | nibbles[i + 1]);
}

void encode_set(std::string_view text, std::string& out) {
  if (text.empty()) {
    out += '\x01'; // the empty set; 0x00 would be a set holding ""
    return;
  }
  std::size_t start = 0;
  for (;;) {
    const auto comma = text.find(',', start);
    const auto elem =
        text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    append_varint(elem.size(), out);
    out.append(elem);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
}

} // namespace

void encode_value(x_type type, std::string_view text, std::string& out) {
  const std::string s(text);
  switch (type) {
  case x_type::sint: {
    const long long v = std::strtoll(s.c_str(), nullptr, 10);
    append_varint((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63), out);
    return;
  }
  case x_type::uint:
    append_varint(std::strtoull(s.c_str(), nullptr, 10), out);
    return;
  case x_type::dbl: {
    const double d = std::strtod(s.c_str(), nullptr);
    char b[8];
    std::memcpy(b, &d, 8); // x86-64 is little-endian, as the wire format
    out.append(b, 8);
    return;
  }
  case x_type::flt: {
    const float f = std::strtof(s.c_str(), nullptr);
    char b[4];
    std::memcpy(b, &f, 4);
    out.append(b, 4);
    return;
  }
  case x_type::bit: {
    std::uint64_t v = 0; // big-endian bytes in the text protocol
    for (unsigned char c : text) v = v << 8 | c;
    append_varint(v, out);
    return;
  }
  case x_type::decimal:
    encode_decimal(text, out);
    return;
  case x_type::time:
    encode_time(text, out);
    return;
  case x_type::datetime:
    encode_datetime(text, out);
    return;
  case x_type::set:
    encode_set(text, out);
    return;
  case x_type::bytes:
  case x_type::enumeration:
    out.append(text);
    out += '\0';
    return;
  }
}

} // namespace xserver
