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
#include <mysqlx/collations.h>
#include <mysqlx/detail/export.h>
#include <mysqlx/detail/impl_ptr.h>
#include <mysqlx/detail/list.h>
#include <mysqlx/value.h>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

MYSQLX_NAMESPACE_BEGIN

using col_count_t = std::uint32_t; ///< a column position or count
using row_count_t = std::uint64_t; ///< a row count

/// A note from the server about an executed statement.
class MYSQLX_EXPORT Warning {
public:
  /// How serious the note is, as the server reports it.
  enum Level {
    LEVEL_ERROR,   ///< an error (0, as in Connector/C++ 8)
    LEVEL_WARNING, ///< a warning
    LEVEL_INFO     ///< a note (SQL's NOTE level)
  };

  /// A warning; the connector makes them from the server's reply.
  Warning(Level level, std::uint16_t code, std::string message)
      : m_level(level), m_code(code), m_message(std::move(message)) {}
  /// The level: error, warning or note.
  Level getLevel() const noexcept { return m_level; }
  /// The server's error code, e.g. 1265 (see SHOW WARNINGS).
  std::uint16_t getCode() const noexcept { return m_code; }
  /// The server's message text.
  const std::string& getMessage() const noexcept { return m_message; }
  /// "Warning 1265: Data truncated for column 'a' at row 1"; "Error" or
  /// "Info" first for the other levels.
  void print(std::ostream& out) const;

private:
  Level m_level;
  std::uint16_t m_code;
  std::string m_message;
};

/// Column types, as reported in result metadata. Integer columns are told
/// apart by their display width, as Connector/C++ does.
enum class Type : unsigned short {
  BIT = 1,   ///< BIT
  TINYINT,   ///< an integer of display width up to 4
  SMALLINT,  ///< an integer of display width 5 or 6
  MEDIUMINT, ///< an integer of display width 7 to 9
  INT,       ///< an integer of display width 10 or 11
  BIGINT,    ///< an integer of display width 12 or more
  FLOAT,     ///< FLOAT
  DECIMAL,   ///< DECIMAL (its Values are DOUBLE with the exact text)
  DOUBLE,    ///< DOUBLE
  JSON,      ///< JSON
  STRING,    ///< text: CHAR, VARCHAR, TEXT
  BYTES,     ///< binary strings (collation "binary"): BINARY, VARBINARY, BLOB
  TIME,      ///< TIME
  DATE,      ///< DATE
  DATETIME,  ///< DATETIME
  TIMESTAMP, ///< TIMESTAMP
  SET,       ///< SET
  ENUM,      ///< ENUM
  GEOMETRY   ///< a spatial type
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
  /// Copies the metadata.
  Column(const Column&);
  /// Moves; assign to or destroy the moved-from Column, nothing else.
  Column(Column&&) noexcept;
  /// Copies the metadata.
  Column& operator=(const Column&);
  /// Moves; assign to or destroy the moved-from Column, nothing else.
  Column& operator=(Column&&) noexcept;
  ~Column();

  /// The schema of the column's table, as the server reports it.
  std::string getSchemaName() const;
  /// The table's real name (not its alias).
  std::string getTableName() const;
  /// The table's name as the query calls it (its alias, if any).
  std::string getTableLabel() const;
  /// The column's real name (not its alias).
  std::string getColumnName() const;
  /// The column's name in the result (its alias, if any).
  std::string getColumnLabel() const;
  /// The column's type.
  Type getType() const;
  /// Maximum length in bytes (VARCHAR(100) in utf8mb4 reports 400).
  unsigned long getLength() const;
  /// Digits after the decimal point (DECIMAL, FLOAT, DOUBLE; fractional
  /// seconds of temporal types), as the server reports them.
  unsigned short getFractionalDigits() const;
  /// True for signed integers and for FLOAT, DOUBLE and DECIMAL without
  /// UNSIGNED; false for everything else.
  bool isNumberSigned() const;
  /// The character set of a text, binary, ENUM or SET column (getCollation()'s);
  /// throws mysqlx::Error (errc::USAGE) for other columns.
  CharacterSet getCharacterSet() const;
  /// The character set, the collation name up to its first '_' ("utf8mb4",
  /// "binary"); empty but for text, binary, ENUM and SET columns.
  std::string getCharacterSetName() const;
  /// The collation of a text, binary, ENUM or SET column, one of the
  /// Collation<> constants; throws mysqlx::Error (errc::USAGE) for other
  /// columns and for a collation id MySQL 8.0.30 does not have.
  const CollationInfo& getCollation() const;
  /// The collation ("utf8mb4_0900_ai_ci"; a collation the connector does
  /// not know by name: its number); empty but for text, binary, ENUM and SET.
  std::string getCollationName() const;
  /// Whether a text or binary column is right-padded (CHAR, BINARY).
  bool isPadded() const;
  void print(std::ostream& out) const; ///< the column label

private:
  explicit Column(std::unique_ptr<detail::column_data> data) noexcept;
  detail::impl_ptr<detail::column_data> m_data;
  friend struct detail::access;
};

using Columns = std::vector<Column>; ///< the columns of a result set, in order

/// One row: a list of Values. Plain data, filled when a row is fetched; a
/// default-constructed Row is null (fetchOne() returns one at the end).
class MYSQLX_EXPORT Row {
public:
  /// A null Row (no values).
  Row() = default;
  /// `Row r(1, "two", 3.0);` for Table::insert().rows(...)
  template <typename T, typename... R,
            std::enable_if_t<!std::is_same_v<std::decay_t<T>, Row>, int> = 0>
  explicit Row(T&& first, R&&... rest) {
    m_values.reserve(1 + sizeof...(R));
    m_values.emplace_back(std::forward<T>(first));
    (m_values.emplace_back(std::forward<R>(rest)), ...);
  }

  /// The number of values (0 for a null Row).
  col_count_t colCount() const noexcept { return static_cast<col_count_t>(m_values.size()); }
  /// The value at `pos`; throws mysqlx::Error (errc::USAGE) when `pos` is out of range.
  const Value& get(col_count_t pos) const;
  /// The value at `pos`, to change; throws when `pos` is out of range (see set()).
  Value& get(col_count_t pos);
  /// get(pos): throws when `pos` is out of range.
  const Value& operator[](col_count_t pos) const { return get(pos); }
  /// The value at `pos`, to change, growing the row with nulls up to it as
  /// Connector/C++ 8 does (`Row r; r[0] = 1; r[1] = "a";`); throws as set().
  Value& operator[](col_count_t pos);
  /// Raw bytes of a RAW or STRING value (Value::getRawBytes()); valid while
  /// the Row lives. Throws for other values and when `pos` is out of range.
  bytes getBytes(col_count_t pos) const;
  /// Sets the value at `pos`, growing the row with nulls if needed; throws
  /// mysqlx::Error (errc::USAGE) for a `pos` of 65536 or more.
  Value& set(col_count_t pos, const Value& value);
  /// Removes all values: the Row becomes null.
  void clear() noexcept { m_values.clear(); }
  /// Whether the Row has no values (fetchOne() past the last row returns one).
  bool isNull() const noexcept { return m_values.empty(); }
  /// Whether the Row has values.
  explicit operator bool() const noexcept { return !isNull(); }
  /// Whether the Row is null (`x == 0`, `x == nullptr`, as Connector/C++ 8 code writes it).
  friend bool operator==(const Row& r, std::nullptr_t) noexcept { return r.isNull(); }
  /// Whether the Row is null (`x == 0`, `x == nullptr`, as Connector/C++ 8 code writes it).
  friend bool operator==(std::nullptr_t, const Row& r) noexcept { return r.isNull(); }
  /// Whether not the Row is null (`x == 0`, `x == nullptr`, as Connector/C++ 8 code writes it).
  friend bool operator!=(const Row& r, std::nullptr_t) noexcept { return !r.isNull(); }
  /// Whether not the Row is null (`x == 0`, `x == nullptr`, as Connector/C++ 8 code writes it).
  friend bool operator!=(std::nullptr_t, const Row& r) noexcept { return !r.isNull(); }
  /// Prints the values in brackets, each as `operator<<` prints it: `[1, pen, null]`.
  void print(std::ostream& out) const;

private:
  // Held directly, not behind a pimpl: rows are created one per fetched row,
  // and std::vector's layout is as stable as a pointer's.
  std::vector<Value> m_values;
  friend struct detail::access; // fills a fetched row's values in place
};

using RowList = detail::item_list<Row>;           ///< rows; converts to any container of Row
using DocList = detail::item_list<DbDoc>;         ///< documents; converts to any container of DbDoc
using DocIdList = detail::item_list<std::string>; ///< document ids; converts to any container
using WarningList = detail::item_list<Warning>;   ///< warnings, in order; converts as DocIdList

namespace detail {
/// What every result has: warnings and the affected-items count.
class MYSQLX_EXPORT result_base {
public:
  /// The number of warnings. Warnings come at the end of the reply: this
  /// reads the rest of it, keeping the rows not fetched yet, and throws the
  /// error that ended it, if any.
  unsigned getWarningsCount() const;
  /// All warnings; reads and throws as getWarningsCount().
  WarningList getWarnings() const;
  /// The warning at `pos`; reads and throws as getWarningsCount(), and throws
  /// mysqlx::Error (errc::USAGE) when `pos` is out of range.
  Warning getWarning(unsigned pos) const;
  /// Rows or documents added, changed or removed by the statement. Known at
  /// the end of the reply: asking reads the rows not fetched yet into the
  /// result (none is dropped), as the warning calls do, and throws the error
  /// that ended the reply, if any.
  std::uint64_t getAffectedItemsCount() const;

protected:
  result_base() noexcept;
  explicit result_base(std::unique_ptr<result_impl> impl) noexcept;
  result_base(result_base&&) noexcept;
  result_base& operator=(result_base&&) noexcept;
  ~result_base();
  // A unique pointer: the result owns its state alone. That state holds a shared
  // reference to the session's connection state, which is what lets a result
  // outlive the Session object it came from.
  impl_ptr<result_impl> m_impl;
  friend struct access;
};
} // namespace detail

/// The result of a statement that returns no rows or documents. Every result
/// also has getWarningsCount(), getWarnings(), getWarning(pos) and
/// getAffectedItemsCount(), which read the rest of the reply.
///
/// Every call on a default-constructed or moved-from result throws
/// mysqlx::Error (errc::USAGE).
class MYSQLX_EXPORT Result : public detail::result_base {
public:
  /// An empty result, to move a real one into.
  Result() noexcept;
  /// Takes over the result; the moved-from one becomes empty.
  Result(Result&&) noexcept;
  /// Takes over the result; the moved-from one becomes empty.
  Result& operator=(Result&&) noexcept;
  /// Does no I/O: the session skips any unread rest of the reply before its next request.
  ~Result();
  /// The AUTO_INCREMENT value generated by a table insert, or 0. Reads the
  /// rest of the reply, if any, and throws the error that ended it.
  std::uint64_t getAutoIncrementValue() const;
  /// The `_id`s generated for documents added without one, in document
  /// order, whoever generated them (server or connector). Never includes an
  /// id the user supplied; empty for anything but Collection::add(). Reads
  /// and throws as getAutoIncrementValue().
  DocIdList getGeneratedIds() const;
};

/// Rows: from Table::select() and, via SqlResult, from SQL. The rows are
/// read from the connection as they are fetched. Also has the warning and
/// count calls of Result, and like it throws on every call when empty.
class MYSQLX_EXPORT RowResult : public detail::result_base {
public:
  /// An input iterator: each step calls fetchOne(); it ends at the null Row.
  using iterator = detail::fetch_iterator<RowResult, Row>;
  /// The type of getColumns(), as Connector/C++ 8 names it here.
  using Columns = mysqlx::Columns;

  /// An empty result, to move a real one into.
  RowResult() noexcept;
  /// Takes over the result, unread rows included; the moved-from one becomes empty.
  RowResult(RowResult&&) noexcept;
  /// Takes over the result, unread rows included; the moved-from one becomes empty.
  RowResult& operator=(RowResult&&) noexcept;
  /// Does no I/O: the session skips any unread rest of the reply before its next request.
  ~RowResult();

  /// The number of columns of the current result set; 0 when there is none.
  /// Reads nothing: execute() has read the columns.
  col_count_t getColumnCount() const;
  /// The column at `pos` of the current result set; throws mysqlx::Error
  /// (errc::USAGE) when `pos` is out of range. Valid while the result lives.
  const Column& getColumn(col_count_t pos) const;
  /// The columns of the current result set (empty when there is none).
  /// Reads nothing; valid while the result lives.
  const Columns& getColumns() const;
  /// The next row, or a null Row when there is none. Reads from the
  /// connection when no row is buffered, and throws the error (server or
  /// connection) that cut the result set short once it reaches it.
  Row fetchOne();
  /// All rows not fetched yet: reads the rest of the result set; throws as fetchOne().
  RowList fetchAll();
  /// The number of rows not fetched yet: reads the rest of the result set and
  /// keeps its rows for fetchOne() and fetchAll(); throws as fetchOne().
  row_count_t count();
  /// Range-for over the rows not fetched yet; fetches the first one now.
  iterator begin();
  /// The end of the range; reads nothing.
  iterator end() const noexcept;
};

/// The result of an SQL statement: any number of result sets, each with or
/// without rows; the RowResult methods read the current one.
class MYSQLX_EXPORT SqlResult : public RowResult {
public:
  /// An empty result, to move a real one into.
  SqlResult() noexcept;
  /// Takes over the result, unread rows included; the moved-from one becomes empty.
  SqlResult(SqlResult&&) noexcept;
  /// Takes over the result, unread rows included; the moved-from one becomes empty.
  SqlResult& operator=(SqlResult&&) noexcept;
  /// Does no I/O: the session skips any unread rest of the reply before its next request.
  ~SqlResult();
  /// Whether there is a current result set: true for a statement that
  /// returns columns, even with no rows; false for one that returns none
  /// (INSERT, UPDATE) and after the last set. Reads nothing.
  bool hasData() const;
  /// Moves to the next result set; false when there is none. Reads from the
  /// connection, dropping the current set's rows not fetched yet, up to the
  /// next set's columns; throws the error that cut the current set short or
  /// that came after the last set.
  bool nextResult();
  /// The AUTO_INCREMENT value generated by the statement, or 0. Reads the
  /// rest of the reply, keeping the rows not fetched yet, and throws the
  /// error that ended it, if any. While a result set is current (hasData()),
  /// throws a ClientError, as Connector/C++ 8 does: move past the sets first.
  std::uint64_t getAutoIncrementValue() const;
  /// The number of rows the statement changed; throws as getAutoIncrementValue().
  std::uint64_t getAffectedItemsCount() const;
};

/// Documents: from Collection::find(), read from the connection as they are
/// fetched. Also has the warning and count calls of Result, and like it
/// throws on every call when empty.
class MYSQLX_EXPORT DocResult : public detail::result_base {
public:
  /// An input iterator: each step calls fetchOne(); it ends at the null DbDoc.
  using iterator = detail::fetch_iterator<DocResult, DbDoc>;

  /// An empty result, to move a real one into.
  DocResult() noexcept;
  /// Takes over the result, unread documents included; the moved-from one becomes empty.
  DocResult(DocResult&&) noexcept;
  /// Takes over the result, unread documents included; the moved-from one becomes empty.
  DocResult& operator=(DocResult&&) noexcept;
  /// Does no I/O: the session skips any unread rest of the reply before its next request.
  ~DocResult();

  /// The next document, or a null DbDoc when there is none. Reads from the
  /// connection when none is buffered, and throws the error (server or
  /// connection) that cut the result short once it reaches it.
  DbDoc fetchOne();
  /// All documents not fetched yet: reads the rest; throws as fetchOne().
  DocList fetchAll();
  /// The number of documents not fetched yet: reads the rest and keeps them
  /// for fetchOne() and fetchAll(); throws as fetchOne().
  row_count_t count();
  /// Range-for over the documents not fetched yet; fetches the first one now.
  iterator begin();
  /// The end of the range; reads nothing.
  iterator end() const noexcept;
};

/// Prints `w` with Warning::print().
inline std::ostream& operator<<(std::ostream& out, const Warning& w) {
  w.print(out);
  return out;
}
/// Prints `r` with Row::print().
inline std::ostream& operator<<(std::ostream& out, const Row& r) {
  r.print(out);
  return out;
}
/// Prints `c` with Column::print(): its label.
inline std::ostream& operator<<(std::ostream& out, const Column& c) {
  c.print(out);
  return out;
}

MYSQLX_NAMESPACE_END
