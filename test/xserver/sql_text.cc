#include "test/xserver/sql_text.h"

#include "test/xserver/mariadb.h"

#include <cstdio>

namespace xserver {

using Mysqlx::Datatypes::Scalar;

std::string scalar_to_sql(const Scalar& s, const mariadb_conn& db) {
  char buf[64];
  switch (s.type()) {
  case Scalar::V_SINT:
    return std::to_string(s.v_signed_int());
  case Scalar::V_UINT:
    return std::to_string(s.v_unsigned_int());
  case Scalar::V_DOUBLE:
    std::snprintf(buf, sizeof buf, "%.17g", s.v_double());
    return buf;
  case Scalar::V_FLOAT:
    std::snprintf(buf, sizeof buf, "%.9g", double(s.v_float()));
    return buf;
  case Scalar::V_BOOL:
    return s.v_bool() ? "TRUE" : "FALSE";
  case Scalar::V_OCTETS:
    return db.quote(s.v_octets().value());
  case Scalar::V_STRING:
    return db.quote(s.v_string().value());
  case Scalar::V_NULL:
  default:
    return "NULL";
  }
}

std::optional<std::string>
bind_sql_placeholders(std::string_view sql,
                      const google::protobuf::RepeatedPtrField<Mysqlx::Datatypes::Any>& args,
                      const mariadb_conn& db) {
  std::string out;
  int next = 0;
  char quote = 0;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    const char c = sql[i];
    if (quote) {
      out += c;
      if (c == '\\' && quote != '`' && i + 1 < sql.size())
        out += sql[++i];
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '\'' || c == '"' || c == '`') quote = c;
    if (c == '?') {
      if (next >= args.size() || args[next].type() != Mysqlx::Datatypes::Any::SCALAR)
        return std::nullopt;
      out += scalar_to_sql(args[next++].scalar(), db);
      continue;
    }
    out += c;
  }
  if (next != args.size()) return std::nullopt;
  return out;
}

} // namespace xserver
