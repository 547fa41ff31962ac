// What the statement builders of collections and tables share.
#pragma once

#include <mysqlx/detail/export.h>
#include <mysqlx/detail/statement.h>

MYSQLX_NAMESPACE_BEGIN

/// What lockShared() / lockExclusive() do when a row is locked by another
/// transaction (MySQL 8.0 NOWAIT / SKIP LOCKED).
enum class LockContention {
  DEFAULT = 0, ///< wait until the lock is released
  NOWAIT,      ///< fail at once with an error
  SKIP_LOCKED, ///< leave locked rows out of the result
};

MYSQLX_NAMESPACE_END
