// Mysqlx.Prepare: Prepare stores the message, Execute binds its arguments
// into the message's placeholders and runs it through the ordinary handler,
// Deallocate forgets it. Unlike MySQL, nothing is validated at Prepare time:
// an invalid statement fails at Execute.
#include "mysqlx_prepare.pb.h"
#include "test/xserver/session.h"

namespace xserver {

namespace {

using Mysqlx::Datatypes::Any;
using Prepared = Mysqlx::Prepare::Prepare::OneOfMessage;

x_error not_prepared(std::uint32_t id) {
  return make_error(errc::x_bad_statement_id,
                    "Statement with ID=" + std::to_string(id) + " was not prepared.");
}

// Execute's Any arguments as the Scalars a Crud message's args hold.
bool to_scalars(const google::protobuf::RepeatedPtrField<Any>& in,
                google::protobuf::RepeatedPtrField<Mysqlx::Datatypes::Scalar>& out) {
  out.Clear();
  for (const auto& a : in) {
    if (a.type() != Any::SCALAR) return false;
    *out.Add() = a.scalar();
  }
  return true;
}

} // namespace

stmt_result session::on_prepare(const std::string& payload) {
  Mysqlx::Prepare::Prepare msg;
  if (!msg.ParseFromString(payload) || !msg.has_stmt())
    return make_error(errc::x_bad_message, "Invalid message");
  const Prepared& p = msg.stmt();
  const bool present = (p.type() == Prepared::FIND && p.has_find()) ||
                       (p.type() == Prepared::INSERT && p.has_insert()) ||
                       (p.type() == Prepared::UPDATE && p.has_update()) ||
                       (p.type() == Prepared::DELETE && p.has_delete_()) ||
                       (p.type() == Prepared::STMT && p.has_stmt_execute());
  if (!present) return make_error(errc::x_invalid_argument, "Invalid argument");
  m_prepared[msg.stmt_id()] = p.SerializeAsString();
  m_out.ok();
  return std::nullopt;
}

stmt_result session::on_execute(const std::string& payload) {
  Mysqlx::Prepare::Execute msg;
  if (!msg.ParseFromString(payload)) return make_error(errc::x_bad_message, "Invalid message");
  auto it = m_prepared.find(msg.stmt_id());
  if (it == m_prepared.end()) return not_prepared(msg.stmt_id());
  Prepared p;
  p.ParseFromString(it->second);
  const x_error bad_args = make_error(errc::x_invalid_argument, "Invalid argument");
  switch (p.type()) {
  case Prepared::FIND:
    if (!to_scalars(msg.args(), *p.mutable_find()->mutable_args())) return bad_args;
    return on_crud_find(p.find().SerializeAsString(), msg.compact_metadata());
  case Prepared::INSERT:
    if (!to_scalars(msg.args(), *p.mutable_insert()->mutable_args())) return bad_args;
    return on_crud_insert(p.insert().SerializeAsString());
  case Prepared::UPDATE:
    if (!to_scalars(msg.args(), *p.mutable_update()->mutable_args())) return bad_args;
    return on_crud_update(p.update().SerializeAsString());
  case Prepared::DELETE:
    if (!to_scalars(msg.args(), *p.mutable_delete_()->mutable_args())) return bad_args;
    return on_crud_delete(p.delete_().SerializeAsString());
  case Prepared::STMT:
    *p.mutable_stmt_execute()->mutable_args() = msg.args();
    p.mutable_stmt_execute()->set_compact_metadata(msg.compact_metadata());
    return on_stmt_execute(p.stmt_execute().SerializeAsString());
  }
  return bad_args;
}

stmt_result session::on_deallocate(const std::string& payload) {
  Mysqlx::Prepare::Deallocate msg;
  if (!msg.ParseFromString(payload)) return make_error(errc::x_bad_message, "Invalid message");
  if (m_prepared.erase(msg.stmt_id()) == 0) return not_prepared(msg.stmt_id());
  close_cursors_of(msg.stmt_id()); // its cursor goes with it
  m_out.ok();
  return std::nullopt;
}

} // namespace xserver
