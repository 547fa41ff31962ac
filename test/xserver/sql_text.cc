#include "test/xserver/sql_text.h"

#include "test/xserver/mariadb.h"

#include <cstdio>
#include <regex>

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

std::optional<set_prefix_stmt> parse_set_unique_prefix(std::string_view sql) {
  static const std::regex re(
      R"(^\s*SET\s+(?:(GLOBAL|PERSIST|PERSIST_ONLY|SESSION|LOCAL)\s+|@@(GLOBAL|PERSIST|PERSIST_ONLY|SESSION|LOCAL)\.|@@)?mysqlx_document_id_unique_prefix\s*:?=\s*(.*?)\s*;?\s*$)",
      std::regex::icase | std::regex::optimize);
  std::cmatch m;
  if (!std::regex_match(sql.data(), sql.data() + sql.size(), m, re)) return std::nullopt;
  std::string scope = m[1].matched ? m[1].str() : m[2].str();
  for (auto& ch : scope) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  set_prefix_stmt st;
  st.scope = scope == "GLOBAL"         ? prefix_scope::global
             : scope == "PERSIST"      ? prefix_scope::persist
             : scope == "PERSIST_ONLY" ? prefix_scope::persist_only
                                       : prefix_scope::session;
  st.text = m[3].str();
  static const std::regex integer(R"(^[-+]?[0-9]{1,18}$)");
  if (std::regex_match(st.text, integer)) st.value = std::stoll(st.text);
  return st;
}

std::string rewrite_prefix_reads(std::string_view sql, std::uint16_t prefix) {
  static const std::regex whole(
      R"(^\s*SELECT\s+@@(GLOBAL\.)?mysqlx_document_id_unique_prefix\s*;?\s*$)", std::regex::icase);
  static const std::regex any(R"(@@(GLOBAL\.)?mysqlx_document_id_unique_prefix)",
                              std::regex::icase);
  std::string s(sql);
  if (s.find("unique_prefix") == std::string::npos) return s; // the fast path
  const std::string value = std::to_string(prefix);
  std::smatch m;
  if (std::regex_match(s, m, whole))
    return "SELECT CAST(" + value + " AS UNSIGNED) AS `@@" + (m[1].matched ? "GLOBAL." : "") +
           "mysqlx_document_id_unique_prefix`";
  return std::regex_replace(s, any, "CAST(" + value + " AS UNSIGNED)");
}

} // namespace xserver
