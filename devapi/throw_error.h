// The one place where a cdk::error becomes a mysqlx exception. Private header.
#pragma once

#include "cdk/foundation/error.h"

#include <mysqlx/detail/export.h>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

/// Throws the exception for `err`, chosen by its origin (never by its text):
/// server -> ServerError, connection -> ConnectionError, client -> ClientError,
/// each carrying the code, SQLSTATE and fatal flag. The message is taken as
/// is: cdk never puts a password in one.
[[noreturn]] void throw_error(const cdk::error& err);

/// Unwraps a cdk::result, throwing its error.
template <typename T> T value_or_throw(cdk::result<T>&& r) {
  if (!r) throw_error(r.err());
  return std::move(r).value();
}
inline void check(const cdk::status& st) {
  if (!st) throw_error(st.err());
}

} // namespace detail
MYSQLX_NAMESPACE_END
