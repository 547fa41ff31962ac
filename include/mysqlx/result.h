// Results of executed statements, and the data they carry: Warning, Column,
// Row, Result, RowResult, SqlResult, DocResult.
//
// Lifetimes: a result stays readable after the statement, the Collection and
// even the Session object it came from are gone (it keeps the connection
// state alive). Rows are streamed: execute() reads up to the first result
// set's metadata, and fetching reads rows from the connection as asked, so
// memory holds only what the application keeps. Counts and warnings come at
// the end of a reply: asking for them reads (and buffers) the rest. Running
// another statement on the session, closing it or destroying it first reads
// a pending result's rest into that result, which stays readable. Results
// are move-only; a result object is for one thread at a time, and one still
// streaming reads its session's connection, so it shares the session's
// thread too.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <mysqlx/detail/export.h>
#include <mysqlx/detail/list.h>
#include <mysqlx/value.h>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

MYSQLX_NAMESPACE_BEGIN

using col_count_t = std::uint32_t;
using row_count_t = std::uint64_t;

/// A note from the server about an executed statement.
class MYSQLX_EXPORT Warning {
public:
  enum Level { LEVEL_ERROR = 1, LEVEL_WARNING, LEVEL_INFO };

  Warning(Level level, std::uint16_t code, std::string message)
      : m_level(level), m_code(code), m_message(std::move(message)) {}
  Level getLevel() const noexcept { return m_level; }
  std::uint16_t getCode() const noexcept { return m_code; }
  const std::string& getMessage() const noexcept { return m_message; }
  /// "Warning 1265: Data truncated for column 'a' at row 1"
  void print(std::ostream& out) const;

private:
  Level m_level;
  std::uint16_t m_code;
  std::string m_message;
};

/// Column types, as reported in result metadata.
enum class Type : unsigned short {
  BIT = 1,
  TINYINT,
  SMALLINT,
  MEDIUMINT,
  INT,
  BIGINT,
  FLOAT,
  DECIMAL,
  DOUBLE,
  JSON,
  STRING,
  BYTES,
  TIME,
  DATE,
  DATETIME,
  TIMESTAMP,
  SET,
  ENUM,
  GEOMETRY
};
/// "BIT", "TINYINT", ...; "UNKNOWN" for a value outside the enum.
MYSQLX_EXPORT const char* typeName(Type t) noexcept;
/// Prints typeName(t).
MYSQLX_EXPORT std::ostream& operator<<(std::ostream& out, Type t);

namespace detail {
struct column_data; // devapi/result_data.h
struct result_impl; // defined with the session layer
} // namespace detail

/// Metadata of one result column.
class MYSQLX_EXPORT Column {
public:
  Column(const Column&);
  Column(Column&&) noexcept;
  Column& operator=(const Column&);
  Column& operator=(Column&&) noexcept;
  ~Column();

  std::string getSchemaName() const;
  std::string getTableName() const;
  std::string getTableLabel() const;
  std::string getColumnName() const;
  std::string getColumnLabel() const;
  Type getType() const;
  /// Maximum length in bytes (VARCHAR(100) in utf8mb4 reports 400).
  unsigned long getLength() const;
  unsigned short getFractionalDigits() const;
  bool isNumberSigned() const;
  std::string getCharacterSetName() const;
  std::string getCollationName() const;
  bool isPadded() const;
  void print(std::ostream& out) const; ///< the column label

private:
  explicit Column(std::unique_ptr<detail::column_data> data) noexcept;
  std::unique_ptr<detail::column_data> m_data;
  friend struct detail::access;
};

using Columns = std::vector<Column>;

/// One row: a list of Values. Plain data, filled when a row is fetched; a
/// default-constructed Row is null (fetchOne() returns one at the end).
class MYSQLX_EXPORT Row {
public:
  Row() = default;
  /// `Row r(1, "two", 3.0);` for Table::insert().rows(...)
  template <typename T, typename... R,
            std::enable_if_t<!std::is_same_v<std::decay_t<T>, Row>, int> = 0>
  explicit Row(T&& first, R&&... rest) {
    m_values.reserve(1 + sizeof...(R));
    m_values.emplace_back(std::forward<T>(first));
    (m_values.emplace_back(std::forward<R>(rest)), ...);
  }

  col_count_t colCount() const noexcept { return static_cast<col_count_t>(m_values.size()); }
  /// The value at `pos`; throws mysqlx::Error when `pos` is out of range.
  const Value& get(col_count_t pos) const;
  Value& get(col_count_t pos);
  const Value& operator[](col_count_t pos) const { return get(pos); }
  Value& operator[](col_count_t pos) { return get(pos); }
  /// Raw bytes of a RAW or STRING value; valid while the Row lives.
  bytes getBytes(col_count_t pos) const;
  /// Sets the value at `pos`, growing the row with nulls if needed.
  Value& set(col_count_t pos, const Value& value);
  void clear() noexcept { m_values.clear(); }
  bool isNull() const noexcept { return m_values.empty(); }
  explicit operator bool() const noexcept { return !isNull(); }

private:
  // Held directly, not behind a pimpl: rows are created one per fetched row,
  // and std::vector's layout is as stable as a pointer's.
  std::vector<Value> m_values;
};

using RowList = detail::item_list<Row>;
using DocList = detail::item_list<DbDoc>;
using DocIdList = std::vector<std::string>;
using WarningList = std::vector<Warning>;

namespace detail {
/// What every result has: warnings and the affected-items count.
class MYSQLX_EXPORT result_base {
public:
  unsigned getWarningsCount() const;
  WarningList getWarnings() const;
  Warning getWarning(unsigned pos) const;
  /// Rows or documents added, changed or removed by the statement. Known at
  /// the end of the reply: asking reads the rows not fetched yet into the
  /// result (none is dropped), as the warning calls do.
  std::uint64_t getAffectedItemsCount() const;

protected:
  result_base() noexcept;
  explicit result_base(std::unique_ptr<result_impl> impl) noexcept;
  result_base(result_base&&) noexcept;
  result_base& operator=(result_base&&) noexcept;
  ~result_base();
  // unique_ptr: the result owns its state alone. That state holds a shared
  // reference to the session's connection state, which is what lets a result
  // outlive the Session object it came from.
  std::unique_ptr<result_impl> m_impl;
  friend struct access;
};
} // namespace detail

/// The result of a statement that returns no rows or documents.
class MYSQLX_EXPORT Result : public detail::result_base {
public:
  Result() noexcept;
  Result(Result&&) noexcept;
  Result& operator=(Result&&) noexcept;
  ~Result();
  /// The AUTO_INCREMENT value generated by a table insert, or 0.
  std::uint64_t getAutoIncrementValue() const;
  /// The `_id`s generated for documents added without one, in document
  /// order, whoever generated them (server or connector). Never includes an
  /// id the user supplied; empty for anything but Collection::add().
  DocIdList getGeneratedIds() const;
};

/// Rows: from Table::select() and, via SqlResult, from SQL.
class MYSQLX_EXPORT RowResult : public detail::result_base {
public:
  using iterator = detail::fetch_iterator<RowResult, Row>;

  RowResult() noexcept;
  RowResult(RowResult&&) noexcept;
  RowResult& operator=(RowResult&&) noexcept;
  ~RowResult();

  col_count_t getColumnCount() const;
  const Column& getColumn(col_count_t pos) const;
  const Columns& getColumns() const;
  /// The next row, or a null Row when there is none.
  Row fetchOne();
  /// All rows not fetched yet.
  RowList fetchAll();
  /// The number of rows not fetched yet (buffers them).
  row_count_t count();
  /// Range-for over the rows not fetched yet.
  iterator begin() { return iterator(*this); }
  iterator end() const noexcept { return iterator(); }
};

/// The result of an SQL statement: any number of result sets, each with or
/// without rows; the RowResult methods read the current one.
class MYSQLX_EXPORT SqlResult : public RowResult {
public:
  SqlResult() noexcept;
  SqlResult(SqlResult&&) noexcept;
  SqlResult& operator=(SqlResult&&) noexcept;
  ~SqlResult();
  /// Whether the current result set has rows (or at least columns).
  bool hasData() const;
  /// Moves to the next result set; false when there is none.
  bool nextResult();
  std::uint64_t getAutoIncrementValue() const;
};

/// Documents: from Collection::find().
class MYSQLX_EXPORT DocResult : public detail::result_base {
public:
  using iterator = detail::fetch_iterator<DocResult, DbDoc>;

  DocResult() noexcept;
  DocResult(DocResult&&) noexcept;
  DocResult& operator=(DocResult&&) noexcept;
  ~DocResult();

  /// The next document, or a null DbDoc when there is none.
  DbDoc fetchOne();
  DocList fetchAll();
  row_count_t count();
  iterator begin() { return iterator(*this); }
  iterator end() const noexcept { return iterator(); }
};

inline std::ostream& operator<<(std::ostream& out, const Warning& w) {
  w.print(out);
  return out;
}
inline std::ostream& operator<<(std::ostream& out, const Column& c) {
  c.print(out);
  return out;
}

MYSQLX_NAMESPACE_END
