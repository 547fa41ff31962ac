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
#include <mysqlx/result.h>
#include <mysqlx/statement.h>
#include <mysqlx/value.h>
#include <string>
#include <vector>

MYSQLX_NAMESPACE_BEGIN

class Schema;

class MYSQLX_EXPORT TableInsert : public detail::statement_base {
public:
  /// One row: `values(1, "pen", 2.5)`.
  template <typename... V> TableInsert& values(const V&... vals) {
    return add_row(detail::collect<Value>(vals...));
  }
  /// Rows: Row objects, containers of them, or an iterator range.
  template <typename... R> TableInsert& rows(const R&... items) {
    return add_rows(detail::collect<Row>(items...));
  }
  Result execute();

private:
  using statement_base::statement_base;
  TableInsert& add_row(std::vector<Value>&& values);
  TableInsert& add_rows(std::vector<Row>&& rows);
  friend struct detail::access;
};

class MYSQLX_EXPORT TableSelect : public detail::statement_base,
                                  public detail::bind_map<TableSelect> {
public:
  TableSelect& where(const std::string& condition);
  template <typename... F> TableSelect& groupBy(const F&... exprs) {
    return set_group_by(detail::collect<std::string>(exprs...));
  }
  TableSelect& having(const std::string& condition);
  template <typename... S> TableSelect& orderBy(const S&... specs) {
    return set_order_by(detail::collect<std::string>(specs...));
  }
  TableSelect& limit(std::uint64_t rows);
  TableSelect& offset(std::uint64_t rows);
  TableSelect& bind(const std::string& name, const Value& value);
  using bind_map::bind;
  TableSelect& lockShared(LockContention contention = LockContention::DEFAULT);
  TableSelect& lockExclusive(LockContention contention = LockContention::DEFAULT);
  RowResult execute();

private:
  using statement_base::statement_base;
  TableSelect& set_group_by(std::vector<std::string>&& exprs);
  TableSelect& set_order_by(std::vector<std::string>&& specs);
  friend struct detail::access;
};

class MYSQLX_EXPORT TableUpdate : public detail::statement_base,
                                  public detail::bind_map<TableUpdate> {
public:
  /// A value or an expression (`expr("price * 2")`).
  TableUpdate& set(const std::string& column, const Value& value);
  TableUpdate& where(const std::string& condition);
  template <typename... S> TableUpdate& orderBy(const S&... specs) {
    return set_order_by(detail::collect<std::string>(specs...));
  }
  TableUpdate& limit(std::uint64_t rows);
  TableUpdate& bind(const std::string& name, const Value& value);
  using bind_map::bind;
  Result execute();

private:
  using statement_base::statement_base;
  TableUpdate& set_order_by(std::vector<std::string>&& specs);
  friend struct detail::access;
};

class MYSQLX_EXPORT TableRemove : public detail::statement_base,
                                  public detail::bind_map<TableRemove> {
public:
  TableRemove& where(const std::string& condition);
  template <typename... S> TableRemove& orderBy(const S&... specs) {
    return set_order_by(detail::collect<std::string>(specs...));
  }
  TableRemove& limit(std::uint64_t rows);
  TableRemove& bind(const std::string& name, const Value& value);
  using bind_map::bind;
  Result execute();

private:
  using statement_base::statement_base;
  TableRemove& set_order_by(std::vector<std::string>&& specs);
  friend struct detail::access;
};

/// A table or view (see detail::object_base for copies and lifetime).
class MYSQLX_EXPORT Table : public detail::object_base {
public:
  Schema getSchema() const;
  bool existsInDatabase() const;
  bool isView();
  std::uint64_t count();

  /// Column names (none: all columns, in table order).
  template <typename... C> TableInsert insert(const C&... columns) {
    return make_insert(detail::collect<std::string>(columns...));
  }
  /// Projections: column names or expressions (none: all columns).
  template <typename... P> TableSelect select(const P&... projections) {
    return make_select(detail::collect<Value>(projections...));
  }
  TableUpdate update();
  TableRemove remove();

private:
  using object_base::object_base;
  TableInsert make_insert(std::vector<std::string>&& columns);
  TableSelect make_select(std::vector<Value>&& projections);
  friend struct detail::access;
};

using TableList = detail::item_list<Table>;

MYSQLX_NAMESPACE_END
