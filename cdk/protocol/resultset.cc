#include "cdk/protocol/resultset.h"

#include "cdk/protocol/message.h"
#include "cdk/protocol/wire_reader.h"
#include "mysqlx_resultset.pb.h"

#include <cstring>

namespace cdk::protocol {

namespace {

error bad_field(std::string_view what) {
  return error::connection(client_errc::malformed_packet,
                           "malformed X Protocol row: bad " + std::string(what) + " field");
}

using wire::read_varint;

error bad_row(std::string_view what) {
  return error::connection(client_errc::malformed_packet,
                           "malformed X Protocol Row: " + std::string(what));
}

std::string two(std::uint64_t v) {
  std::string s = std::to_string(v);
  return s.size() < 2 ? "0" + s : s;
}

std::string micros(std::uint64_t us) {
  std::string s = std::to_string(us);
  return "." + std::string(s.size() < 6 ? 6 - s.size() : 0, '0') + s;
}

result<value> decode_datetime(std::string_view in) {
  std::size_t pos = 0;
  std::uint64_t p[7] = {};
  int n = 0;
  while (pos < in.size() && n < 7)
    if (!read_varint(in, pos, p[n++])) return bad_field("DATETIME");
  if (n < 3 || pos != in.size()) return bad_field("DATETIME");
  std::string year = std::to_string(p[0]);
  std::string s = std::string(year.size() < 4 ? 4 - year.size() : 0, '0') + year + "-" + two(p[1]) +
                  "-" + two(p[2]);
  if (n > 3) s += " " + two(p[3]) + ":" + two(p[4]) + ":" + two(p[5]);
  if (n > 6) s += micros(p[6]);
  return value::of_string(std::move(s));
}

result<value> decode_time(std::string_view in) {
  if (in.empty() || static_cast<unsigned char>(in[0]) > 1) return bad_field("TIME");
  std::size_t pos = 1;
  std::uint64_t p[4] = {};
  int n = 0;
  while (pos < in.size() && n < 4)
    if (!read_varint(in, pos, p[n++])) return bad_field("TIME");
  if (pos != in.size()) return bad_field("TIME");
  std::string s = in[0] == 1 ? "-" : "";
  s += two(p[0]) + ":" + two(p[1]) + ":" + two(p[2]);
  if (n > 3) s += micros(p[3]);
  return value::of_string(std::move(s));
}

result<value> decode_decimal(std::string_view in) {
  if (in.size() < 2) return bad_field("DECIMAL");
  const unsigned scale = static_cast<unsigned char>(in[0]);
  std::string digits;
  bool negative = false, signed_end = false;
  for (std::size_t i = 1; i < in.size() && !signed_end; ++i) {
    const unsigned b = static_cast<unsigned char>(in[i]);
    for (unsigned nib : {b >> 4u, b & 0xfu}) {
      if (nib <= 9) {
        digits += static_cast<char>('0' + nib);
      } else if (nib == 0xc || nib == 0xa || nib == 0xd || nib == 0xb) {
        negative = nib == 0xd || nib == 0xb;
        signed_end = true;
        break;
      } else {
        return bad_field("DECIMAL");
      }
    }
  }
  if (!signed_end || digits.empty()) return bad_field("DECIMAL");
  if (scale >= digits.size()) digits.insert(0, scale - digits.size() + 1, '0');
  if (scale > 0) digits.insert(digits.size() - scale, ".");
  return value::of_string((negative ? "-" : "") + digits);
}

result<value> decode_set(std::string_view in) {
  value v = value::of_array({});
  if (in.size() == 1 && in[0] == 1) return v; // the empty set
  std::size_t pos = 0;
  while (pos < in.size()) {
    std::uint64_t len = 0;
    if (!read_varint(in, pos, len) || len > in.size() - pos) return bad_field("SET");
    v.items.push_back(value::of_string(std::string(in.substr(pos, len))));
    pos += len;
  }
  return v;
}

template <typename F> result<value> decode_ieee(std::string_view in) {
  if (in.size() != sizeof(F)) return bad_field(sizeof(F) == 4 ? "FLOAT" : "DOUBLE");
  // Little-endian on the wire; this library targets little-endian hosts.
  F f;
  std::memcpy(&f, in.data(), sizeof f);
  value v;
  v.type = value::kind::dbl;
  v.dbl = f;
  return v;
}

std::string text_of(std::string_view in) {
  return std::string(in.substr(0, in.size() - 1)); // drop the trailing '\0'
}

} // namespace

result<column_meta> decode_column_meta(const frame& f) {
  auto m = expect_server_message<Mysqlx::Resultset::ColumnMetaData>(
      f, server_msg::resultset_column_meta_data);
  if (!m) return std::move(m).err();
  const auto& p = m.value();
  column_meta c;
  c.type = static_cast<field_type>(p.type());
  c.name = p.name();
  c.original_name = p.original_name();
  c.table = p.table();
  c.original_table = p.original_table();
  c.schema = p.schema();
  c.catalog = p.catalog();
  c.collation = p.collation();
  c.fractional_digits = p.fractional_digits();
  c.length = p.length();
  c.flags = p.flags();
  c.content_type = p.content_type();
  return c;
}

status split_row(std::string_view payload, std::vector<std::string_view>& fields) {
  fields.clear();
  wire::reader in(payload);
  while (!in.done()) {
    std::uint32_t field = 0;
    wire::wire_type type{};
    if (!in.tag(field, type)) return bad_row("a bad field tag");
    if (field != 1) {
      if (!in.skip(type)) return bad_row("a field that overruns it");
      continue;
    }
    std::string_view bytes;
    if (type != wire::wire_type::bytes) return bad_row("field 1 that is not bytes");
    if (!in.bytes(bytes)) return bad_row("a field that overruns it");
    fields.push_back(bytes);
  }
  return ok();
}

result<value> decode_field(const column_meta& col, std::string_view in) {
  if (in.empty()) return value{};
  std::size_t pos = 0;
  std::uint64_t u = 0;
  switch (col.type) {
  case field_type::sint: {
    if (!read_varint(in, pos, u) || pos != in.size()) return bad_field("SINT");
    value v;
    v.type = value::kind::sint;
    v.sint = static_cast<std::int64_t>(u >> 1) ^ -static_cast<std::int64_t>(u & 1);
    return v;
  }
  case field_type::uint:
  case field_type::bit:
    if (!read_varint(in, pos, u) || pos != in.size()) return bad_field("UINT");
    return value::of_uint(u);
  case field_type::dbl:
    return decode_ieee<double>(in);
  case field_type::flt:
    return decode_ieee<float>(in);
  case field_type::bytes: {
    value v;
    v.type = value::kind::octets;
    v.bytes = text_of(in);
    v.content_type = col.content_type;
    return v;
  }
  case field_type::enumeration:
    return value::of_string(text_of(in));
  case field_type::datetime:
    return decode_datetime(in);
  case field_type::time:
    return decode_time(in);
  case field_type::decimal:
    return decode_decimal(in);
  case field_type::set:
    return decode_set(in);
  }
  return error::connection(client_errc::malformed_packet,
                           "unknown X Protocol column type " +
                               std::to_string(static_cast<std::uint32_t>(col.type)));
}

result<result_decoder::event> result_decoder::on_frame(const frame& f) {
  m_starts_set = false;
  switch (static_cast<server_msg>(f.type)) {
  case server_msg::resultset_column_meta_data: {
    if (m_open && m_started) return unexpected_message(f.type, "Row or FetchDone");
    if (!m_open) m_columns.clear();
    auto c = decode_column_meta(f);
    if (!c) return std::move(c).err();
    m_columns.push_back(std::move(c.value()));
    m_open = true;
    return event::none;
  }
  case server_msg::resultset_row: {
    if (!m_open) return unexpected_message(f.type, "ColumnMetaData");
    if (auto st = split_row(f.payload, m_raw); !st) return st.err();
    if (m_raw.size() != m_columns.size())
      return error::connection(client_errc::malformed_packet,
                               "malformed X Protocol row: " + std::to_string(m_raw.size()) +
                                   " fields for " + std::to_string(m_columns.size()) + " columns");
    m_row.clear();
    if (m_decode) {
      m_row.reserve(m_columns.size());
      for (std::size_t i = 0; i < m_columns.size(); ++i) {
        auto v = decode_field(m_columns[i], m_raw[i]);
        if (!v) return std::move(v).err();
        m_row.push_back(std::move(v.value()));
      }
    }
    m_starts_set = !m_started;
    m_started = true;
    return event::row;
  }
  case server_msg::resultset_fetch_done:
  case server_msg::resultset_fetch_done_more_resultsets:
  case server_msg::resultset_fetch_done_more_out_params:
    if (!m_open) return event::none;
    m_starts_set = !m_started;
    m_open = m_started = false;
    return event::set_end;
  default:
    return event::none; // StmtExecuteOk, Error: the reply's own business
  }
}

result<std::vector<result_set>> decode_result_sets(const reply& r) {
  std::vector<result_set> sets;
  result_decoder dec;
  for (const frame& f : r.frames) {
    auto e = dec.on_frame(f);
    if (!e) return std::move(e).err();
    if (e.value() == result_decoder::event::none) continue;
    if (dec.starts_set()) sets.push_back(result_set{dec.columns(), {}});
    if (e.value() == result_decoder::event::row) sets.back().rows.push_back(std::move(dec.row()));
  }
  // Metadata the reply ended right after (no row, no FetchDone) is a set too.
  if (dec.unstarted_set()) sets.push_back(result_set{dec.columns(), {}});
  return sets;
}

} // namespace cdk::protocol
