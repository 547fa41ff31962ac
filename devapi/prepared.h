// Prepared statements (Mysqlx.Prepare): a find / modify / remove executed a
// second time is prepared on the server and run with Prepare.Execute from
// then on. Private header.
#pragma once

#include "devapi/session_impl.h"

namespace Mysqlx::Crud {
class Find;
class Update;
class Delete;
} // namespace Mysqlx::Crud
namespace Mysqlx::Prepare {
class Prepare;
class Execute;
} // namespace Mysqlx::Prepare

MYSQLX_NAMESPACE_BEGIN
namespace detail {

/// Runs `msg` (args bound, a plain limit) for statement `st` by
/// Connector/C++ 8's rules (prepared.cc): plainly on its first execution
/// after a change, or when no id may be prepared (1461 capped the session,
/// 1047 ended preparing); otherwise through the statement's prepared id,
/// preparing it first when needed.
/// A find's rows are streamed (stream_result()); the others' replies are
/// read whole.
std::unique_ptr<result_impl> run_statement(statement_impl& st, const Mysqlx::Crud::Find& msg);
cdk::protocol::reply run_statement(statement_impl& st, const Mysqlx::Crud::Update& msg);
cdk::protocol::reply run_statement(statement_impl& st, const Mysqlx::Crud::Delete& msg);

/// The same, sent with executeAsync() (async.h): the request, plain or an
/// Execute, goes out pipelined and `finish` reads its reply later. A
/// Prepare (the execution that prepares) is its own round trip, which
/// first completes whatever is in flight.
using async_finish = std::unique_ptr<result_impl> (*)(const std::shared_ptr<session_impl>&);
std::shared_ptr<async_op> run_statement_async(statement_impl& st, const Mysqlx::Crud::Find& msg,
                                              async_finish finish);
std::shared_ptr<async_op> run_statement_async(statement_impl& st, const Mysqlx::Crud::Update& msg,
                                              async_finish finish);
std::shared_ptr<async_op> run_statement_async(statement_impl& st, const Mysqlx::Crud::Delete& msg,
                                              async_finish finish);

/// The Prepare for `msg` (built with its bound values and a plain limit):
/// no args, and the limit as limit_expr placeholders numbered after the
/// statement's own (row count, then, for a find, the offset, 0 if none).
/// M: Mysqlx::Crud::Find, Update or Delete (instantiated in prepared.cc).
template <typename M>
void prepare_message(std::uint32_t stmt_id, const M& msg, Mysqlx::Prepare::Prepare& out);
/// The Execute for `msg`: its bound values, then the limit's current values
/// in the order of prepare_message()'s placeholders.
template <typename M>
void execute_message(std::uint32_t stmt_id, const M& msg, Mysqlx::Prepare::Execute& out);

/// An Execute through `p` failed with server error `code`: 5110 (the
/// server does not hold the statement) marks the id unprepared, so that
/// the statement's next run prepares it again.
void note_execute_error(const std::shared_ptr<prepared_id>& p, std::uint32_t code) noexcept;

/// Appends a Mysqlx.Prepare.Deallocate for `stmt_id`.
cdk::status encode_deallocate(std::string& out, std::uint32_t stmt_id);

} // namespace detail
MYSQLX_NAMESPACE_END
