// Result sets without protobuf: Mysqlx.Resultset.ColumnMetaData as a plain
// struct, Row fields decoded per the X Protocol row encoding into
// cdk::protocol::value, and a statement reply split into its result sets.
//
// Field encodings (mysqlx_resultset.proto): SINT zigzag varint, UINT and BIT
// varint, DOUBLE/FLOAT little-endian IEEE, BYTES and ENUM text + '\0',
// DECIMAL scale byte + packed BCD + sign nibble, TIME sign byte + varints,
// DATETIME varints (date only when the time part is absent), SET
// length-prefixed elements (0x01 alone: the empty set). An empty field is
// SQL NULL.
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/protocol/pipeline.h"
#include "cdk/protocol/value.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cdk::protocol {

enum class field_type : std::uint32_t {
  sint = 1,
  uint = 2,
  dbl = 5,
  flt = 6,
  bytes = 7,
  time = 10,
  datetime = 12,
  set = 15,
  enumeration = 16,
  bit = 17,
  decimal = 18,
};

struct column_meta {
  field_type type = field_type::bytes;
  std::string name, original_name, table, original_table, schema, catalog;
  std::uint64_t collation = 0;
  std::uint32_t fractional_digits = 0;
  std::uint32_t length = 0;
  std::uint32_t flags = 0;
  std::uint32_t content_type = 0; // BYTES: 1 geometry, 2 JSON, 3 XML; DATETIME: 1 date, 2 datetime
};

result<column_meta> decode_column_meta(const frame& f);

// The fields of a Row payload (field 1, repeated bytes) as views into it,
// decoded by hand: libprotobuf's parse of each Row allocated the message and
// each field (a sixth of the client's instructions per fetched document,
// issue 13). Unknown fields are skipped, as libprotobuf skips them; field 1
// of another wire type and lengths beyond the payload are malformed_packet.
status split_row(std::string_view payload, std::vector<std::string_view>& fields);

// One field: null when empty. DATETIME, TIME and DECIMAL become their SQL
// text ("2024-01-02 03:04:05.000006", "-01:02:03", "-12.50"), SET an array
// of strings, ENUM a string, BIT an unsigned integer, BYTES octets with the
// column's content_type.
result<value> decode_field(const column_meta& col, std::string_view bytes);

struct result_set {
  std::vector<column_meta> columns;
  std::vector<std::vector<value>> rows;
};

// A statement reply decoded one message at a time, for rows read as the
// application fetches them (pipeline::stream_front()). Metadata is collected;
// each Row is decoded against it; each FetchDone* ends a result set. The
// first row or end of a set tells that its metadata is complete
// (starts_set()). Protocol errors are fatal malformed_packet errors.
class result_decoder {
public:
  // `decode_values` false: rows are only split into raw_row(), for a caller
  // that converts the fields itself (devapi, straight to its Values).
  explicit result_decoder(bool decode_values = true) noexcept : m_decode(decode_values) {}
  enum class event {
    none,    // metadata collected, or a message that is not about result sets
    row,     // row() holds the values of a Row
    set_end, // the result set with columns() ended (FetchDone*)
  };
  result<event> on_frame(const frame& f);
  // The columns of the current (or just ended) result set.
  const std::vector<column_meta>& columns() const noexcept { return m_columns; }
  // The values of the Row of the last row event (the caller may move them).
  std::vector<value>& row() noexcept { return m_row; }
  // The raw fields of the Row of the last row event: views into the payload
  // of the frame given to on_frame(), valid while it lives.
  const std::vector<std::string_view>& raw_row() const noexcept { return m_raw; }
  // The last event is the first of its result set: columns() is complete.
  bool starts_set() const noexcept { return m_starts_set; }
  // Metadata was received, but no row or end of its set yet.
  bool unstarted_set() const noexcept { return m_open && !m_started; }

private:
  std::vector<column_meta> m_columns;
  std::vector<value> m_row;
  std::vector<std::string_view> m_raw;
  bool m_decode = true;
  bool m_open = false;    // metadata seen and the set not ended
  bool m_started = false; // the open set has had a row or its end
  bool m_starts_set = false;
};

// The result sets of a complete statement reply (replies::statement): each
// FetchDone / FetchDoneMoreResultsets ends one. A reply without metadata
// has none. Protocol errors are fatal malformed_packet errors.
result<std::vector<result_set>> decode_result_sets(const reply& r);

} // namespace cdk::protocol
