// Transaction state seen through sql(): a split add() must not open its own
// transaction inside the application's (START TRANSACTION would commit it),
// and must not skip one when there is none. The X Protocol does not report
// transaction state, so the session follows the statements it sends.
// Private header.
#pragma once

#include <mysqlx/detail/export.h>
#include <string_view>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

struct session_impl;

/// What a statement does to the session's transaction state.
enum class trx_effect {
  none,           // anything else, ROLLBACK TO SAVEPOINT, CREATE TEMPORARY TABLE...
  begin,          // START TRANSACTION, BEGIN [WORK], COMMIT/ROLLBACK AND CHAIN
  end,            // COMMIT, ROLLBACK, and statements that commit implicitly (DDL...)
  autocommit_on,  // SET autocommit = 1 (also commits an open transaction)
  autocommit_off, // SET autocommit = 0
};

/// Classifies one SQL statement by its leading keywords (comments skipped,
/// case-insensitive). Only the statement's start is read.
trx_effect classify_sql_transaction(std::string_view sql) noexcept;

/// Applies classify_sql_transaction() to the session's state; call after the
/// statement succeeded.
void track_transaction(session_impl& sess, std::string_view sql) noexcept;

} // namespace detail
MYSQLX_NAMESPACE_END
