// SqlStatement: plain SQL with `?` placeholders.
//
//   SqlResult r = sess.sql("SELECT name FROM t WHERE id > ? AND kind = ?").bind(10, "a").execute();
#pragma once

#include <mysqlx/detail/args.h>
#include <mysqlx/detail/export.h>
#include <mysqlx/detail/statement.h>
#include <mysqlx/future.h>
#include <mysqlx/result.h>
#include <mysqlx/value.h>
#include <vector>

MYSQLX_NAMESPACE_BEGIN

/// Session::sql(): one SQL statement and its bound values (never prepared on the server).
class MYSQLX_EXPORT SqlStatement : public detail::statement_base {
public:
  /// Values for the next placeholders, in order: values, containers of
  /// values, or an iterator range. bind() may be called several times; the
  /// values go with the next execute() only, which starts the list afresh.
  template <typename... V> SqlStatement& bind(const V&... values) {
    return add_params(detail::collect<Value>(values...));
  }
  /// Runs the statement: one round trip; a statement the server refuses throws here.
  SqlResult execute();
  /// Sends the statement now and returns at once (future.h); the result
  /// holds every row once it is got. Its bound values are used, as by
  /// execute().
  Future<SqlResult> executeAsync();

private:
  using statement_base::statement_base;
  SqlStatement& add_params(std::vector<Value>&& values);
  friend struct detail::access;
};

MYSQLX_NAMESPACE_END
