// Table and its statements: insert, select, update, remove.
//
//   tbl.insert("id", "name").values(1, "pen").values(2, "ink").execute();
//   RowResult r = tbl.select("id", "name").where("id > :n").orderBy("id DESC")
//                    .limit(10).bind("n", 0).execute();
//   tbl.update().set("name", "quill").where("id = 1").execute();
//   tbl.remove().where("id = 2").execute();
#pragma once

#include <cstdint>
#include <memory>
#include <mysqlx/detail/args.h>
#include <mysqlx/detail/export.h>
#include <mysqlx/detail/list.h>
#include <mysqlx/detail/object.h>
#include <mysqlx/future.h>
#include <mysqlx/result.h>
#include <mysqlx/statement.h>
#include <mysqlx/value.h>
#include <string>
#include <vector>

MYSQLX_NAMESPACE_BEGIN

class Schema;
class Table;

/// Table::insert(): rows to insert; nothing is sent until execute(). Never prepared.
class MYSQLX_EXPORT TableInsert : public detail::statement_base {
public:
  /// The same as `tbl.insert()`: values for every column, in table order.
  TableInsert(const Table& tbl); // NOLINT: implicit, as in Connector/C++
  /// One row: `values(1, "pen", 2.5)`.
  template <typename... V> TableInsert& values(const V&... vals) {
    return add_row(detail::collect<Value>(vals...));
  }
  /// One row given as a Row: the same as `rows(row)`.
  TableInsert& values(const Row& row);
  /// Rows: Row objects, containers of them, or an iterator range.
  template <typename... R> TableInsert& rows(const R&... items) {
    return add_rows(detail::collect<Row>(items...));
  }
  /// Inserts all rows: one round trip, none when there are none. A row whose length
  /// differs from the column list, or a placeholder in a value, throws a ClientError.
  Result execute();
  /// Sends the insert now and returns at once (future.h).
  Future<Result> executeAsync();

private:
  using statement_base::statement_base;
  TableInsert& add_row(std::vector<Value>&& values);
  TableInsert& add_rows(std::vector<Row>&& rows);
  friend struct detail::access;
};

/// Table::select(): a query for rows. Executed again unchanged (bound
/// values aside), it runs as a statement prepared on the server.
class MYSQLX_EXPORT TableSelect : public detail::statement_base,
                                  public detail::bind_map<TableSelect> {
public:
  /// The same as `tbl.select()`: every column.
  TableSelect(const Table& tbl); // NOLINT: implicit, as in Connector/C++
  /// The same as `tbl.select(projections...)`.
  template <typename P0, typename... P>
  TableSelect(const Table& tbl, const P0& first, const P&... rest)
      : TableSelect(tbl, detail::collect<Value>(first, rest...)) {}
  /// Which rows, e.g. `"id > :n"`; none: every row.
  TableSelect& where(const string& condition);
  /// Grouping expressions, for aggregates in the projections.
  template <typename... F> TableSelect& groupBy(const F&... exprs) {
    return set_group_by(detail::collect<std::string>(exprs...));
  }
  /// A condition on the groups of groupBy().
  TableSelect& having(const string& condition);
  /// "column [ASC|DESC]", ...
  template <typename... S> TableSelect& orderBy(const S&... specs) {
    return set_order_by(detail::collect<std::string>(specs...));
  }
  /// At most `rows` rows.
  TableSelect& limit(std::uint64_t rows);
  /// Skips the first `rows` rows, with or without limit().
  TableSelect& offset(std::uint64_t rows);
  /// Value of the placeholder `:name`; the last bind() of a name wins.
  TableSelect& bind(const string& name, const Value& value);
  using bind_map::bind;
  /// Locks the rows read, shared, until the transaction ends; the last lock call wins.
  TableSelect& lockShared(LockContention contention = LockContention::DEFAULT);
  /// Locks the rows read, exclusively, until the transaction ends.
  TableSelect& lockExclusive(LockContention contention = LockContention::DEFAULT);
  /// Runs the query: one round trip (two on the execution that prepares it).
  RowResult execute();
  /// Sends the query now and returns at once (future.h); the result holds
  /// every row once it is got.
  Future<RowResult> executeAsync();

private:
  using statement_base::statement_base;
  TableSelect(const Table& tbl, std::vector<Value>&& projections);
  TableSelect& set_group_by(std::vector<std::string>&& exprs);
  TableSelect& set_order_by(std::vector<std::string>&& specs);
  friend struct detail::access;
};

/// Table::update(): changes to the rows matching where().
/// Executed again unchanged (bound values aside), it runs as a statement
/// prepared on the server.
class MYSQLX_EXPORT TableUpdate : public detail::statement_base,
                                  public detail::bind_map<TableUpdate> {
public:
  /// The same as `tbl.update().where(condition)`.
  TableUpdate(const Table& tbl, const string& condition);
  /// A value or an expression (`expr("price * 2")`). An empty (or null)
  /// column name throws a ClientError.
  TableUpdate& set(const string& column, const Value& value);
  /// Which rows to change; without it, every row (limit() and orderBy() still apply).
  TableUpdate& where(const string& condition);
  /// "column [ASC|DESC]", ...: which rows limit() keeps to.
  template <typename... S> TableUpdate& orderBy(const S&... specs) {
    return set_order_by(detail::collect<std::string>(specs...));
  }
  /// Changes at most `rows` rows.
  TableUpdate& limit(std::uint64_t rows);
  /// Value of the placeholder `:name`; the last bind() of a name wins.
  TableUpdate& bind(const string& name, const Value& value);
  using bind_map::bind;
  /// Applies the changes: one round trip (two on the execution that prepares it).
  /// No set() throws a ClientError, sending nothing.
  Result execute();
  /// Sends the changes now and returns at once (future.h).
  Future<Result> executeAsync();

private:
  using statement_base::statement_base;
  TableUpdate& set_order_by(std::vector<std::string>&& specs);
  friend struct detail::access;
};

/// Table::remove(): deletes the rows matching where().
/// Executed again unchanged (bound values aside), it runs as a statement
/// prepared on the server.
class MYSQLX_EXPORT TableRemove : public detail::statement_base,
                                  public detail::bind_map<TableRemove> {
public:
  /// The same as `tbl.remove().where(condition)`.
  TableRemove(const Table& tbl, const string& condition);
  /// Which rows to delete; without it, every row (limit() and orderBy() still apply).
  TableRemove& where(const string& condition);
  /// "column [ASC|DESC]", ...: which rows limit() keeps to.
  template <typename... S> TableRemove& orderBy(const S&... specs) {
    return set_order_by(detail::collect<std::string>(specs...));
  }
  /// Deletes at most `rows` rows.
  TableRemove& limit(std::uint64_t rows);
  /// Value of the placeholder `:name`; the last bind() of a name wins.
  TableRemove& bind(const string& name, const Value& value);
  using bind_map::bind;
  /// Deletes: one round trip (two on the execution that prepares it).
  Result execute();
  /// Sends the delete now and returns at once (future.h).
  Future<Result> executeAsync();

private:
  using statement_base::statement_base;
  TableRemove& set_order_by(std::vector<std::string>&& specs);
  friend struct detail::access;
};

/// A table or view (see detail::object_base for copies and lifetime).
class MYSQLX_EXPORT Table : public detail::object_base {
public:
  /// The same as `sch.getTable(name)`: no round trip.
  Table(const Schema& sch, const string& name);
  /// The same, saying whether it is a view: isView() then answers that
  /// without asking the server, as in Connector/C++ 8.
  Table(const Schema& sch, const string& name, bool is_view);
  /// The schema it belongs to; no round trip.
  Schema getSchema() const;
  /// Whether a table or view of this name exists (a collection does not count); one round trip.
  bool existsInDatabase() const;
  /// Whether it is a view (false if it does not exist); one round trip,
  /// none when the constructor was told.
  bool isView();
  /// The number of rows; one round trip.
  std::uint64_t count();

  /// Column names (none: all columns, in table order).
  template <typename... C> TableInsert insert(const C&... columns) {
    return make_insert(detail::collect<std::string>(columns...));
  }
  /// Projections: column names or expressions (none: all columns).
  template <typename... P> TableSelect select(const P&... projections) {
    return make_select(detail::collect<Value>(projections...));
  }
  /// An update: give set() and where(), then execute().
  TableUpdate update();
  /// A delete: give where(), then execute().
  TableRemove remove();

private:
  using object_base::object_base;
  TableInsert make_insert(std::vector<std::string>&& columns);
  TableSelect make_select(std::vector<Value>&& projections);
  friend struct detail::access;
};

using TableList = detail::item_list<Table>;

MYSQLX_NAMESPACE_END
