// Wire values and column metadata to DevAPI Values and Columns. Private
// header: result.cc builds rows with these; tests may call them directly.
#pragma once

#include "cdk/protocol/resultset.h"

#include <mysqlx/result.h>
#include <mysqlx/value.h>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

/// A Column from Mysqlx.Resultset.ColumnMetaData.
Column make_column(const cdk::protocol::column_meta& c);
/// One field of a row as a Value, typed by its column; `wire` is the field's
/// X Protocol bytes, which a date or time keeps as its raw bytes.
Value to_value(const cdk::protocol::value& v, const cdk::protocol::column_meta& c,
               std::string_view wire = {});
/// The same from the field's X Protocol bytes; a BYTES field (text, JSON,
/// BLOB) goes straight to its Value, without a cdk::protocol::value copy.
cdk::result<Value> to_value(std::string_view field, const cdk::protocol::column_meta& c);

} // namespace detail
MYSQLX_NAMESPACE_END
