// The plain-data classes of results: Warning, Column, Row, and type names.
#include "devapi/result_data.h"

#include "cdk/foundation/error.h"
#include "devapi/throw_error.h"

#include <mysqlx/result.h>
#include <ostream>

MYSQLX_NAMESPACE_BEGIN

void Warning::print(std::ostream& out) const {
  const char* level = m_level == LEVEL_ERROR ? "Error" : m_level == LEVEL_INFO ? "Info" : "Warning";
  out << level << ' ' << m_code << ": " << m_message;
}

const char* typeName(Type t) noexcept {
  static const char* const names[] = {"BIT",       "TINYINT", "SMALLINT", "MEDIUMINT", "INT",
                                      "BIGINT",    "FLOAT",   "DECIMAL",  "DOUBLE",    "JSON",
                                      "STRING",    "BYTES",   "TIME",     "DATE",      "DATETIME",
                                      "TIMESTAMP", "SET",     "ENUM",     "GEOMETRY"};
  const auto i = static_cast<unsigned>(t);
  return i >= 1 && i <= sizeof names / sizeof names[0] ? names[i - 1] : "UNKNOWN";
}

std::ostream& operator<<(std::ostream& out, Type t) {
  return out << typeName(t);
}

Column::Column(std::unique_ptr<detail::column_data> data) noexcept : m_data(std::move(data)) {}
namespace {
// A moved-from Column reads as an empty one instead of dereferencing null.
const detail::column_data& data_of(const detail::impl_ptr<detail::column_data>& d) {
  static const detail::column_data empty;
  return d ? *d : empty;
}
} // namespace

Column::Column(const Column& other)
    : m_data(std::make_unique<detail::column_data>(data_of(other.m_data))) {}
Column::Column(Column&&) noexcept = default;
Column& Column::operator=(const Column& other) {
  if (this != &other) m_data = std::make_unique<detail::column_data>(data_of(other.m_data));
  return *this;
}
Column& Column::operator=(Column&&) noexcept = default;
Column::~Column() = default;

std::string Column::getSchemaName() const {
  return data_of(m_data).schema;
}
std::string Column::getTableName() const {
  return data_of(m_data).table;
}
std::string Column::getTableLabel() const {
  return data_of(m_data).table_label;
}
std::string Column::getColumnName() const {
  return data_of(m_data).name;
}
std::string Column::getColumnLabel() const {
  return data_of(m_data).label;
}
Type Column::getType() const {
  return data_of(m_data).type;
}
unsigned long Column::getLength() const {
  return data_of(m_data).length;
}
unsigned short Column::getFractionalDigits() const {
  return data_of(m_data).fractional_digits;
}
bool Column::isNumberSigned() const {
  return data_of(m_data).is_signed;
}
const CollationInfo& Column::getCollation() const {
  const detail::column_data& d = data_of(m_data);
  if (const CollationInfo* info = detail::find_collation(d.collation_id)) return *info;
  detail::throw_error(cdk::error::client(
      cdk::client_errc::usage,
      d.collation_id == 0
          ? "Column '" + d.label + "' has no collation (not a text column)"
          : "Column '" + d.label + "': unknown collation " + std::to_string(d.collation_id)));
}
CharacterSet Column::getCharacterSet() const {
  return getCollation().getCharacterSet();
}
std::string Column::getCharacterSetName() const {
  return data_of(m_data).charset;
}
std::string Column::getCollationName() const {
  return data_of(m_data).collation;
}
bool Column::isPadded() const {
  return data_of(m_data).padded;
}
void Column::print(std::ostream& out) const {
  out << data_of(m_data).label;
}

namespace {
[[noreturn]] void bad_position(col_count_t pos, std::size_t count) {
  detail::throw_error(
      cdk::error::client(cdk::client_errc::usage, "Row: column " + std::to_string(pos) +
                                                      " is out of range for a row of " +
                                                      std::to_string(count) + " columns"));
}
} // namespace

const Value& Row::get(col_count_t pos) const {
  if (pos >= m_values.size()) bad_position(pos, m_values.size());
  return m_values[pos];
}

Value& Row::get(col_count_t pos) {
  if (pos >= m_values.size()) bad_position(pos, m_values.size());
  return m_values[pos];
}

bytes Row::getBytes(col_count_t pos) const {
  return get(pos).getRawBytes();
}

void Row::print(std::ostream& out) const {
  out << '[';
  for (std::size_t i = 0; i < m_values.size(); ++i) {
    if (i > 0) out << ", ";
    m_values[i].print(out);
  }
  out << ']';
}

// MySQL tables have at most 4096 columns; the bound keeps a stray position
// from allocating gigabytes.
constexpr col_count_t max_row_columns = 65536;

Value& Row::operator[](col_count_t pos) {
  if (pos >= max_row_columns) bad_position(pos, max_row_columns);
  if (pos >= m_values.size()) m_values.resize(std::size_t{pos} + 1);
  return m_values[pos];
}

Value& Row::set(col_count_t pos, const Value& value) {
  return (*this)[pos] = value;
}

MYSQLX_NAMESPACE_END
