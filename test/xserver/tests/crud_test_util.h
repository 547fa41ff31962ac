// Shared by the Crud tests (crud_test.cc, prepared_crud_test.cc): expression
// and argument builders, a session with a fresh collection, and the
// Mysqlx.Prepare messages with what performance_schema shows of them.
#pragma once

#include "mysqlx_crud.pb.h"
#include "mysqlx_prepare.pb.h"
#include "test/unit/sqlgen/builders.h"
#include "test/xserver/tests/xclient.h"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace xtest {

using Mysqlx::Datatypes::Scalar;
using Mysqlx::Expr::Expr;
using sqlgen_test::placeholder;

inline Expr member(const std::string& name) {
  return sqlgen_test::field(name);
}

inline Expr binary(const std::string& op, Expr a, Expr b) {
  return sqlgen_test::op(op, {std::move(a), std::move(b)});
}

inline Expr equals(Expr a, Expr b) {
  return binary("==", std::move(a), std::move(b));
}

inline Scalar str(const std::string& s) {
  return sqlgen_test::s_str(s);
}

inline Mysqlx::Datatypes::Any any_scalar(const Scalar& s) {
  Mysqlx::Datatypes::Any a;
  a.set_type(Mysqlx::Datatypes::Any::SCALAR);
  *a.mutable_scalar() = s;
  return a;
}

inline Mysqlx::Datatypes::Any any_str(const std::string& v) {
  return any_scalar(str(v));
}

inline Mysqlx::Datatypes::Any any_uint(std::uint64_t v) {
  Scalar s;
  s.set_type(Scalar::V_UINT);
  s.set_v_unsigned_int(v);
  return any_scalar(s);
}

// Documents a (v 1) and b (v 2) in collection `c` of a schema of its own.
struct crud_session {
  xclient c{env_port("XS_PORT_80")};
  std::string schema = unique_name("crud");
  crud_session() {
    c.auth("MYSQL41", "xtest", "xtest-pw");
    c.sql("CREATE DATABASE " + schema);
    c.admin("create_collection", schema, "c");
    auto r = c.insert_json(schema, "c", {R"({"_id":"a","v":1})", R"({"_id":"b","v":2})"});
    if (!is(r.back(), server_msg::sql_stmt_execute_ok)) throw std::runtime_error(describe(r));
  }
  template <typename M> void target(M& m) {
    m.mutable_collection()->set_schema(schema);
    m.mutable_collection()->set_name("c");
    m.set_data_model(Mysqlx::Crud::DOCUMENT);
  }
  std::vector<frame> find_by_id(const std::string& id) {
    Mysqlx::Crud::Find f;
    target(f);
    *f.mutable_criteria() = equals(member("_id"), placeholder(0));
    *f.add_args() = str(id);
    c.send(client_msg::crud_find, f);
    return c.reply();
  }
};

// ---- Mysqlx.Prepare

using Prepared = Mysqlx::Prepare::Prepare::OneOfMessage;

template <typename M>
Prepared prepared_as(Prepared::Type type, M* (Prepared::*slot)(), const M& msg) {
  Prepared p;
  p.set_type(type);
  *(p.*slot)() = msg;
  return p;
}
inline Prepared prepared(const Mysqlx::Crud::Find& m) {
  return prepared_as(Prepared::FIND, &Prepared::mutable_find, m);
}
inline Prepared prepared(const Mysqlx::Crud::Insert& m) {
  return prepared_as(Prepared::INSERT, &Prepared::mutable_insert, m);
}
inline Prepared prepared(const Mysqlx::Crud::Update& m) {
  return prepared_as(Prepared::UPDATE, &Prepared::mutable_update, m);
}
inline Prepared prepared(const Mysqlx::Crud::Delete& m) {
  return prepared_as(Prepared::DELETE, &Prepared::mutable_delete_, m);
}

inline std::vector<frame> prepare(xclient& c, std::uint32_t id, const Prepared& stmt) {
  Mysqlx::Prepare::Prepare p;
  p.set_stmt_id(id);
  *p.mutable_stmt() = stmt;
  c.send(client_msg::prepare_prepare, p);
  return c.reply();
}

inline std::vector<frame> execute(xclient& c, std::uint32_t id,
                                  const std::vector<Mysqlx::Datatypes::Any>& args) {
  Mysqlx::Prepare::Execute e;
  e.set_stmt_id(id);
  for (const auto& a : args) *e.add_args() = a;
  c.send(client_msg::prepare_execute, e);
  return c.reply();
}

inline std::vector<frame> deallocate(xclient& c, std::uint32_t id) {
  Mysqlx::Prepare::Deallocate d;
  d.set_stmt_id(id);
  c.send(client_msg::prepare_deallocate, d);
  return c.reply();
}

// "SQL_TEXT=COUNT_EXECUTE" of the MariaDB statements of c's own session
// (an X session's MariaDB thread is the one of its CONNECTION_ID()).
inline std::vector<std::string> instances(xclient& c) {
  return column_strings(
      c.sql("SELECT CONCAT(p.SQL_TEXT, '=', p.COUNT_EXECUTE) FROM "
            "performance_schema.prepared_statements_instances p JOIN performance_schema.threads t "
            "ON p.OWNER_THREAD_ID = t.THREAD_ID WHERE t.PROCESSLIST_ID = CONNECTION_ID() "
            "ORDER BY p.SQL_TEXT"));
}

} // namespace xtest
