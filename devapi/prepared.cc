// Prepared statements, as Connector/C++ 8 runs them, so that a program sees
// the same prepared statements on the server with either connector (Oracle's
// Crud.PS tests count them in performance_schema.prepared_statements_instances):
// - The first execution of a statement object is plain; a second one,
//   unchanged but for its bound values, prepares it (Prepare with a stmt_id,
//   placeholders unbound) and runs Prepare.Execute with the values; later
//   executions only send Execute.
// - Changing anything but a bound value, limit() or offset() makes the next
//   execution plain again, which lets go of the id; the one after prepares.
// - Copies share the id and the step until one changes; a copy that must
//   prepare while the id is shared takes a new one.
// - An id let go by its last statement stays prepared on the server until a
//   new id is needed: the smallest freed id is then reused (its Prepare
//   replaces the old statement) and the other freed ones are deallocated.
// - A Prepare the server refuses for its max_prepared_stmt_count (1461)
//   caps the ids in use at their number; the statement runs plainly. One
//   refused for want of Mysqlx.Prepare (1047, e.g. 5.7) ends preparing.
//
// limit() / offset() values are not part of the prepared statement: its
// Crud message carries limit_expr placeholders numbered after the
// statement's own, and each Execute appends the current values, so paging
// with one statement object prepares once. A statement prepared without a
// limit is prepared again when it gains one. Plain executions keep the
// plain `limit` field, which servers before 8.0.14 understand.
#include "devapi/prepared.h"

#include "cdk/protocol/crud.h"
#include "cdk/protocol/message.h"
#include "cdk/protocol/msg_types.h"
#include "devapi/access.h"
#include "devapi/async.h"
#include "devapi/throw_error.h"
#include "mysqlx_crud.pb.h"
#include "mysqlx_datatypes.pb.h"
#include "mysqlx_expr.pb.h"
#include "mysqlx_prepare.pb.h"

MYSQLX_NAMESPACE_BEGIN
namespace detail {

namespace pr = cdk::protocol;
using OneOf = Mysqlx::Prepare::Prepare::OneOfMessage;

std::uint32_t session_impl::new_stmt_id() {
  if (!prepare_supported || stmt_ids.size() >= max_prepared) return 0;
  std::uint32_t id = 0;
  if (!freed_stmt_ids.empty()) {
    id = *freed_stmt_ids.begin();
    freed_stmt_ids.erase(freed_stmt_ids.begin());
    to_deallocate.insert(to_deallocate.end(), freed_stmt_ids.begin(), freed_stmt_ids.end());
    freed_stmt_ids.clear();
  } else {
    id = stmt_ids.empty() ? 1 : *stmt_ids.rbegin() + 1;
  }
  stmt_ids.insert(id);
  return id;
}

void session_impl::free_stmt_id(std::uint32_t id) noexcept {
  stmt_ids.erase(id);
  try {
    freed_stmt_ids.insert(id);
  } catch (...) { // no memory: the statement stays prepared until the session ends
  }
}

cdk::status encode_deallocate(std::string& out, std::uint32_t stmt_id) {
  Mysqlx::Prepare::Deallocate msg;
  msg.set_stmt_id(stmt_id);
  return pr::append_message(out, pr::client_msg::prepare_deallocate, msg);
}

namespace {

// What MySQL answers a Prepare it cannot take: 1047 "Unexpected message
// received" (a server without Mysqlx.Prepare, e.g. 5.7) and 1461 (the
// server's prepared statement limit, max_prepared_stmt_count); both are the
// codes Connector/Node.js falls back on.
constexpr std::uint32_t er_unknown_com = 1047;
constexpr std::uint32_t er_max_prepared = 1461;
// An Execute for an id the server does not hold ("Statement with ID=n was
// not prepared").
constexpr std::uint32_t er_unknown_stmt = 5110;

// Which limit_expr fields a prepared statement gets: a find (select) has
// an offset, an update or delete only a row count (MySQL refuses an offset
// there).
constexpr bool with_offset(const Mysqlx::Crud::Find&) {
  return true;
}
constexpr bool with_offset(const Mysqlx::Crud::Update&) {
  return false;
}
constexpr bool with_offset(const Mysqlx::Crud::Delete&) {
  return false;
}

void placeholder(Mysqlx::Expr::Expr& e, std::uint32_t position) {
  e.set_type(Mysqlx::Expr::Expr::PLACEHOLDER);
  e.set_position(position);
}

// `stmt` (a copy of the plain message) as the Prepare takes it: no bound
// values, and a plain limit turned into placeholders after the statement's
// own. A find always gets the offset placeholder, so offset() added later
// keeps the shape.
template <typename M> void to_prepared_form(M& stmt) {
  const auto first = static_cast<std::uint32_t>(stmt.args_size());
  stmt.clear_args();
  if (!stmt.has_limit()) return;
  placeholder(*stmt.mutable_limit_expr()->mutable_row_count(), first);
  if (with_offset(stmt)) placeholder(*stmt.mutable_limit_expr()->mutable_offset(), first + 1);
  stmt.clear_limit();
}

Mysqlx::Datatypes::Scalar& add_arg(Mysqlx::Prepare::Execute& ex) {
  Mysqlx::Datatypes::Any& any = *ex.add_args();
  any.set_type(Mysqlx::Datatypes::Any::SCALAR);
  return *any.mutable_scalar();
}
void add_uint_arg(Mysqlx::Prepare::Execute& ex, std::uint64_t v) {
  Mysqlx::Datatypes::Scalar& s = add_arg(ex);
  s.set_type(Mysqlx::Datatypes::Scalar::V_UINT);
  s.set_v_unsigned_int(v);
}

template <typename M>
void make_execute(std::uint32_t stmt_id, const M& msg, Mysqlx::Prepare::Execute& out) {
  out.set_stmt_id(stmt_id);
  for (const auto& arg : msg.args()) add_arg(out) = arg;
  if (!msg.has_limit()) return;
  add_uint_arg(out, msg.limit().row_count());
  if (with_offset(msg)) add_uint_arg(out, msg.limit().offset());
}

cdk::status encode_plain(std::string& out, const Mysqlx::Crud::Find& m) {
  return pr::encode_find(out, m);
}
cdk::status encode_plain(std::string& out, const Mysqlx::Crud::Update& m) {
  return pr::encode_update(out, m);
}
cdk::status encode_plain(std::string& out, const Mysqlx::Crud::Delete& m) {
  return pr::encode_delete(out, m);
}

// The statement's slot in the Prepare's OneOfMessage, its type set.
Mysqlx::Crud::Find& slot(OneOf& one, const Mysqlx::Crud::Find&) {
  one.set_type(OneOf::FIND);
  return *one.mutable_find();
}
Mysqlx::Crud::Update& slot(OneOf& one, const Mysqlx::Crud::Update&) {
  one.set_type(OneOf::UPDATE);
  return *one.mutable_update();
}
Mysqlx::Crud::Delete& slot(OneOf& one, const Mysqlx::Crud::Delete&) {
  one.set_type(OneOf::DELETE);
  return *one.mutable_delete_();
}

template <typename M>
void make_prepare(std::uint32_t stmt_id, const M& msg, Mysqlx::Prepare::Prepare& out) {
  out.set_stmt_id(stmt_id);
  auto& stmt = slot(*out.mutable_stmt(), msg);
  stmt = msg;
  to_prepared_form(stmt);
}

// `exec` sends the statement's request (plain or Execute) and reads its
// reply, whole or streamed; `refused(error)` is what a run whose Prepare
// failed (other than 1047 / 1461) returns: execute() throws the error,
// executeAsync() returns a future that holds it (async.h).
template <typename M, typename Exec, typename Refused>
auto run_any(statement_impl& st, const M& msg, Exec exec, Refused refused) {
  session_impl& s = *st.sess;
  std::shared_ptr<prepared_id>& p = st.prepared;
  prepare_step step = st.step;
  // The server does not hold the statement (an Execute failed with 5110):
  // prepare it again under its id.
  if (step == prepare_step::execute && p && p->unprepared) step = prepare_step::prepare;
  if (step == prepare_step::plain) {
    p.reset(); // a changed statement lets go of its id
  } else if (step == prepare_step::prepare && !(p && p.use_count() == 1)) {
    const std::uint32_t id = s.new_stmt_id(); // a copy's shared id stays with the others
    p = id != 0 ? std::make_shared<prepared_id>(st.sess, id) : nullptr;
  }
  st.step = step == prepare_step::plain ? prepare_step::prepare : prepare_step::execute;
  auto plain = [&] { return exec([&](std::string& out) { return encode_plain(out, msg); }); };
  if (!p || step == prepare_step::plain) return plain();
  if (step == prepare_step::prepare) {
    Mysqlx::Prepare::Prepare prep;
    make_prepare(p->id, msg, prep);
    pr::reply r;
    try {
      r = s.run(
          [&](std::string& out) {
            return pr::append_message(out, pr::client_msg::prepare_prepare, prep);
          },
          {er_unknown_com, er_max_prepared}, pr::replies::ok);
    } catch (const Error& e) {
      // Refused for what the statement does (1146: its collection does not
      // exist yet), or the connection broke: the id holds nothing. It goes
      // back to the session (a Deallocate of it, should it ever be sent, is
      // harmless) and the next run prepares again, which works once the
      // cause is gone. Sending Execute next failed with 5110 for good.
      p.reset();
      st.step = prepare_step::prepare;
      if (e.isClientError()) throw; // nothing was sent (a closed session)
      return refused(std::current_exception());
    }
    if (r.error) {
      ++s.stats.refused;
      if (r.error->code == er_unknown_com) {
        s.prepare_supported = false; // no Prepare round trip for every statement
      } else {
        s.max_prepared = s.stmt_ids.size() - 1; // the server holds no more than it has now
      }
      s.stmt_ids.erase(p->id);
      p->id = 0; // never prepared: nothing to free
      p.reset();
      st.step = prepare_step::prepare; // may prepare when run again, if ids allow
      return plain();
    }
    p->unprepared = false;
    ++s.stats.prepared;
  }
  Mysqlx::Prepare::Execute ex;
  make_execute(p->id, msg, ex);
  ++s.stats.executed;
  const std::shared_ptr<prepared_id> held = p;
  try {
    return exec([&](std::string& out) {
      return pr::append_message(out, pr::client_msg::prepare_execute, ex);
    });
  } catch (const ServerError& e) {
    note_execute_error(held, e.code());
    throw;
  }
}

} // namespace

template <typename M>
void prepare_message(std::uint32_t stmt_id, const M& msg, Mysqlx::Prepare::Prepare& out) {
  make_prepare(stmt_id, msg, out);
}
template <typename M>
void execute_message(std::uint32_t stmt_id, const M& msg, Mysqlx::Prepare::Execute& out) {
  make_execute(stmt_id, msg, out);
}
using Mysqlx::Crud::Delete, Mysqlx::Crud::Find, Mysqlx::Crud::Update;
template void prepare_message(std::uint32_t, const Find&, Mysqlx::Prepare::Prepare&);
template void prepare_message(std::uint32_t, const Update&, Mysqlx::Prepare::Prepare&);
template void prepare_message(std::uint32_t, const Delete&, Mysqlx::Prepare::Prepare&);
template void execute_message(std::uint32_t, const Find&, Mysqlx::Prepare::Execute&);
template void execute_message(std::uint32_t, const Update&, Mysqlx::Prepare::Execute&);
template void execute_message(std::uint32_t, const Delete&, Mysqlx::Prepare::Execute&);

void note_execute_error(const std::shared_ptr<prepared_id>& p, std::uint32_t code) noexcept {
  if (p && code == er_unknown_stmt) p->unprepared = true;
}

namespace {
// execute(): a refused Prepare is thrown.
template <typename R> R rethrow(std::exception_ptr e) {
  std::rethrow_exception(std::move(e));
}
} // namespace

std::unique_ptr<result_impl> run_statement(statement_impl& st, const Mysqlx::Crud::Find& msg) {
  return run_any(
      st, msg, [&](const encoder& e) { return stream_result(st.sess, e); },
      rethrow<std::unique_ptr<result_impl>>);
}
pr::reply run_statement(statement_impl& st, const Mysqlx::Crud::Update& msg) {
  return run_any(
      st, msg, [&](const encoder& e) { return st.sess->run(e); }, rethrow<pr::reply>);
}
pr::reply run_statement(statement_impl& st, const Mysqlx::Crud::Delete& msg) {
  return run_any(
      st, msg, [&](const encoder& e) { return st.sess->run(e); }, rethrow<pr::reply>);
}

namespace {
template <typename M>
std::shared_ptr<async_op> run_async(statement_impl& st, const M& msg, async_finish finish) {
  // The statement's prepared id goes with an Execute's op: a 5110 read into
  // its future marks the id unprepared (note_execute_error()).
  return run_any(
      st, msg,
      [&](const encoder& e) {
        return async_send(st.sess, e, pr::replies::statement, finish, st.prepared);
      },
      [&](std::exception_ptr e) { return async_failed(st.sess, std::move(e)); });
}
} // namespace

std::shared_ptr<async_op> run_statement_async(statement_impl& st, const Mysqlx::Crud::Find& msg,
                                              async_finish finish) {
  return run_async(st, msg, finish);
}
std::shared_ptr<async_op> run_statement_async(statement_impl& st, const Mysqlx::Crud::Update& msg,
                                              async_finish finish) {
  return run_async(st, msg, finish);
}
std::shared_ptr<async_op> run_statement_async(statement_impl& st, const Mysqlx::Crud::Delete& msg,
                                              async_finish finish) {
  return run_async(st, msg, finish);
}

prepared_stats prepared_stats_of(const Session& s) {
  prepared_stats out = access::impl(s)->stats;
  out.supported = access::impl(s)->prepare_supported;
  return out;
}

} // namespace detail
MYSQLX_NAMESPACE_END
