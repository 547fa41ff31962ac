// Prepared statements. The rules (as Connector/C++ and Connector/Node.js
// apply them): the first execution of a statement object is plain; a second
// one, unchanged but for its bound values, prepares it (Prepare with a
// session-unique stmt_id, placeholders unbound) and runs Prepare.Execute
// with the values; later executions only send Execute. Changing anything
// but a bound value, copying, or destroying the object deallocates.
#include "devapi/prepared.h"

#include "cdk/protocol/crud.h"
#include "cdk/protocol/message.h"
#include "cdk/protocol/msg_types.h"
#include "devapi/access.h"
#include "devapi/throw_error.h"
#include "mysqlx_crud.pb.h"
#include "mysqlx_datatypes.pb.h"
#include "mysqlx_prepare.pb.h"

MYSQLX_NAMESPACE_BEGIN
namespace detail {

namespace pr = cdk::protocol;
using OneOf = Mysqlx::Prepare::Prepare::OneOfMessage;

void prepared_handle::release() noexcept {
  if (id != 0 && sess) sess->to_deallocate.push_back(id);
  id = 0;
  executions = 0;
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

// Puts `msg` (without its bound values) into the Prepare's OneOfMessage.
void set_stmt(OneOf& one, const Mysqlx::Crud::Find& msg) {
  one.set_type(OneOf::FIND);
  *one.mutable_find() = msg;
  one.mutable_find()->clear_args();
}
void set_stmt(OneOf& one, const Mysqlx::Crud::Update& msg) {
  one.set_type(OneOf::UPDATE);
  *one.mutable_update() = msg;
  one.mutable_update()->clear_args();
}
void set_stmt(OneOf& one, const Mysqlx::Crud::Delete& msg) {
  one.set_type(OneOf::DELETE);
  *one.mutable_delete_() = msg;
  one.mutable_delete_()->clear_args();
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

// `exec` sends the statement's request (plain or Execute) and reads its
// reply, whole or streamed.
template <typename M, typename Exec> auto run_any(statement_impl& st, const M& msg, Exec exec) {
  session_impl& s = *st.sess;
  prepared_handle& p = st.prepared;
  auto plain = [&] {
    ++p.executions;
    return exec([&](std::string& out) { return encode_plain(out, msg); });
  };
  if (p.id == 0 && (p.executions == 0 || !s.prepare_supported)) return plain();
  if (p.id == 0) {
    Mysqlx::Prepare::Prepare prep;
    const std::uint32_t id = ++s.last_stmt_id;
    prep.set_stmt_id(id);
    set_stmt(*prep.mutable_stmt(), msg);
    pr::reply r = s.run(
        [&](std::string& out) {
          return pr::append_message(out, pr::client_msg::prepare_prepare, prep);
        },
        {er_unknown_com, er_max_prepared}, pr::replies::ok);
    if (r.error) {
      // The session remembers: no Prepare round trip for every statement.
      s.prepare_supported = false;
      ++s.stats.refused;
      return plain();
    }
    ++s.stats.prepared;
    p.id = id;
    p.sess = st.sess;
  }
  Mysqlx::Prepare::Execute ex;
  ex.set_stmt_id(p.id);
  for (const auto& arg : msg.args()) {
    Mysqlx::Datatypes::Any& any = *ex.add_args();
    any.set_type(Mysqlx::Datatypes::Any::SCALAR);
    *any.mutable_scalar() = arg;
  }
  ++p.executions;
  ++s.stats.executed;
  return exec([&](std::string& out) {
    return pr::append_message(out, pr::client_msg::prepare_execute, ex);
  });
}

} // namespace

std::unique_ptr<result_impl> run_statement(statement_impl& st, const Mysqlx::Crud::Find& msg) {
  return run_any(st, msg, [&](const encoder& e) { return stream_result(st.sess, e); });
}
pr::reply run_statement(statement_impl& st, const Mysqlx::Crud::Update& msg) {
  return run_any(st, msg, [&](const encoder& e) { return st.sess->run(e); });
}
pr::reply run_statement(statement_impl& st, const Mysqlx::Crud::Delete& msg) {
  return run_any(st, msg, [&](const encoder& e) { return st.sess->run(e); });
}

prepared_stats prepared_stats_of(const Session& s) {
  prepared_stats out = access::impl(s)->stats;
  out.supported = access::impl(s)->prepare_supported;
  return out;
}

} // namespace detail
MYSQLX_NAMESPACE_END
