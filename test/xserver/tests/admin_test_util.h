// Shared by the admin command tests (admin_index_test.cc,
// validation_test.cc): Any values and a session with one fresh collection
// `c` in its own schema on the 8.0 fixture.
#pragma once

#include "mysqlx_sql.pb.h"
#include "test/xserver/tests/xclient.h"

#include <initializer_list>
#include <string>
#include <vector>

namespace xtest {

inline Mysqlx::Datatypes::Any s(const std::string& v) {
  Mysqlx::Datatypes::Any a;
  a.set_type(Mysqlx::Datatypes::Any::SCALAR);
  a.mutable_scalar()->set_type(Mysqlx::Datatypes::Scalar::V_STRING);
  a.mutable_scalar()->mutable_v_string()->set_value(v);
  return a;
}

inline Mysqlx::Datatypes::Any b(bool v) {
  Mysqlx::Datatypes::Any a;
  a.set_type(Mysqlx::Datatypes::Any::SCALAR);
  a.mutable_scalar()->set_type(Mysqlx::Datatypes::Scalar::V_BOOL);
  a.mutable_scalar()->set_v_bool(v);
  return a;
}

inline Mysqlx::Datatypes::Any u(std::uint64_t v) {
  Mysqlx::Datatypes::Any a;
  a.set_type(Mysqlx::Datatypes::Any::SCALAR);
  a.mutable_scalar()->set_type(Mysqlx::Datatypes::Scalar::V_UINT);
  a.mutable_scalar()->set_v_unsigned_int(v);
  return a;
}

inline Mysqlx::Datatypes::Any arr(std::initializer_list<Mysqlx::Datatypes::Any> values) {
  Mysqlx::Datatypes::Any a;
  a.set_type(Mysqlx::Datatypes::Any::ARRAY);
  for (const auto& v : values) *a.mutable_array()->add_value() = v;
  return a;
}

inline bool ok(const std::vector<frame>& r) {
  return !r.empty() && is(r.back(), server_msg::sql_stmt_execute_ok);
}

inline std::uint32_t code_of(const std::vector<frame>& r) {
  return !r.empty() && is(r.back(), server_msg::error) ? error_of(r.back()).code() : 0;
}

struct coll_session {
  xclient c{env_port("XS_PORT_80")};
  std::string schema = unique_name("idx");
  explicit coll_session(bool create = true) {
    c.auth("MYSQL41", "xtest", "xtest-pw");
    c.sql("CREATE DATABASE " + schema);
    if (create) c.admin("create_collection", schema, "c");
  }
  std::vector<frame> admin(const std::string& cmd, const Mysqlx::Datatypes::Any& args) {
    Mysqlx::Sql::StmtExecute m;
    m.set_stmt(cmd);
    m.set_namespace_("mysqlx");
    *m.add_args() = args;
    c.send(client_msg::sql_stmt_execute, m);
    return c.reply();
  }
};

} // namespace xtest
