// SqlStatement and the statement_base copy semantics.
#include "cdk/protocol/messages.h"
#include "devapi/access.h"
#include "devapi/async.h"
#include "devapi/session_impl.h"
#include "devapi/sql_trx.h"
#include "devapi/throw_error.h"

#include <mysqlx/sql.h>

MYSQLX_NAMESPACE_BEGIN

namespace detail {
statement_base::statement_base(std::unique_ptr<statement_impl> impl) noexcept
    : m_impl(std::move(impl)) {}
statement_base::statement_base(const statement_base& other)
    : m_impl(std::make_unique<statement_impl>(*other.m_impl)) {}
// A move that left the source empty would make any later call on it a null
// dereference (Connector/C++ 8 code does use statements it moved from).
// NOLINTNEXTLINE(performance-noexcept-move-constructor,performance-move-constructor-init)
statement_base::statement_base(statement_base&& other) : statement_base(other) {}
statement_base& statement_base::operator=(const statement_base& other) {
  if (this != &other) m_impl = std::make_unique<statement_impl>(*other.m_impl);
  return *this;
}
// NOLINTNEXTLINE(performance-noexcept-move-constructor): a move copies
statement_base& statement_base::operator=(statement_base&& other) {
  return *this = other;
}
statement_base::~statement_base() = default;
} // namespace detail

SqlStatement& SqlStatement::add_params(std::vector<Value>&& values) {
  auto& p = m_impl->params;
  p.insert(p.end(), std::make_move_iterator(values.begin()), std::make_move_iterator(values.end()));
  return *this;
}

namespace {
// The bound values as arguments. They are used once, as in Connector/C++ 8:
// the next execute() takes the values bound after this one (a statement run
// in a loop binds each time), whether or not this one succeeds.
std::vector<cdk::protocol::value> take_params(detail::statement_impl& st) {
  std::vector<cdk::protocol::value> args;
  args.reserve(st.params.size());
  for (const Value& v : st.params) args.push_back(detail::to_protocol(v));
  st.params.clear();
  return args;
}
} // namespace

SqlResult SqlStatement::execute() {
  auto& st = *m_impl;
  const std::vector<cdk::protocol::value> args = take_params(st);
  // The rows are streamed: execute() reads up to the first result set.
  auto result = detail::stream_result(st.sess, [&](std::string& out) {
    return cdk::protocol::encode_stmt_execute(out, st.query, args);
  });
  detail::track_transaction(*st.sess, st.query);
  return detail::access::make_result<SqlResult>(std::move(result));
}

Future<SqlResult> SqlStatement::executeAsync() {
  auto& st = *m_impl;
  const std::vector<cdk::protocol::value> args = take_params(st);
  auto op = detail::async_send(
      st.sess,
      [&](std::string& out) { return cdk::protocol::encode_stmt_execute(out, st.query, args); },
      cdk::protocol::replies::statement, detail::finish_rows);
  // As sent: the statements after it run in the transaction it opens.
  detail::track_transaction(*st.sess, st.query);
  return detail::access::make_future<SqlResult>(std::move(op));
}

MYSQLX_NAMESPACE_END
