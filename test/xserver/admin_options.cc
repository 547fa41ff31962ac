// Admin commands modify_collection_options and get_collection_options (MySQL
// 8.0.19+). MySQL keeps the validation schema in a `_json_schema` column with
// a JSON_SCHEMA_VALID check; MariaDB 10.11 has no JSON_SCHEMA_VALID, so
// xserverd keeps the options as JSON in the table's COMMENT (they survive a
// restart and get returns them) and validates nothing: level STRICT is
// refused, as at create_collection (README.md, deviations).
#include "cdk/json/json_string.h"
#include "test/xserver/admin_args.h"
#include "test/xserver/session.h"

#include <cctype>

namespace xserver {

namespace {

using Mysqlx::Datatypes::Any;
using Mysqlx::Datatypes::Scalar;

constexpr std::uint32_t x_invalid_option = 5021; // "'<name>' is not a valid option"

x_error invalid_option(const std::string& name) {
  return make_error(x_invalid_option, "'" + name + "' is not a valid option");
}

// An Any as JSON text (the validation schema as the client sent it).
void append_json(std::string& out, const Any& a) {
  if (a.type() == Any::OBJECT) {
    out += '{';
    for (int i = 0; i < a.obj().fld_size(); ++i) {
      if (i) out += ',';
      cdk::json::append_json_string(out, a.obj().fld(i).key());
      out += ':';
      append_json(out, a.obj().fld(i).value());
    }
    out += '}';
    return;
  }
  if (a.type() == Any::ARRAY) {
    out += '[';
    for (int i = 0; i < a.array().value_size(); ++i) {
      if (i) out += ',';
      append_json(out, a.array().value(i));
    }
    out += ']';
    return;
  }
  const Scalar& s = a.scalar();
  switch (s.type()) {
  case Scalar::V_SINT:
    out += std::to_string(s.v_signed_int());
    break;
  case Scalar::V_UINT:
    out += std::to_string(s.v_unsigned_int());
    break;
  case Scalar::V_DOUBLE:
    out += std::to_string(s.v_double());
    break;
  case Scalar::V_FLOAT:
    out += std::to_string(s.v_float());
    break;
  case Scalar::V_BOOL:
    out += s.v_bool() ? "true" : "false";
    break;
  case Scalar::V_STRING:
    cdk::json::append_json_string(out, s.v_string().value());
    break;
  case Scalar::V_OCTETS:
    cdk::json::append_json_string(out, s.v_octets().value());
    break;
  default:
    out += "null";
  }
}

std::string table_of(const std::string& schema, const std::string& name) {
  return quote_identifier(schema) + "." + quote_identifier(name);
}

} // namespace

stmt_result session::collection_options(const std::string& cmd, const admin_args& args) {
  std::string schema, name;
  if (auto e = args.string("schema", schema)) return e;
  if (auto e = args.string("name", name)) return e;
  const Any* options = args.get("options");
  if (!options)
    return make_error(errc::x_cmd_num_arguments,
                      "Invalid number of arguments, expected value for 'options'");
  if (!is_collection(*m_db, schema, name)) {
    x_error err;
    if (!m_db->select("SELECT 1 FROM " + table_of(schema, name) + " LIMIT 0", &err)) return err;
    return make_error(errc::x_invalid_collection,
                      "Table '" + schema + "." + name + "' exists but is not a collection");
  }
  // The stored options, or the default MySQL gives a new collection.
  auto stored = m_db->select(
      "SELECT JSON_EXTRACT(IF(JSON_VALID(TABLE_COMMENT), TABLE_COMMENT, '{}'), '$.validation') "
      "FROM information_schema.TABLES WHERE TABLE_SCHEMA = " +
      m_db->quote(schema) + " AND TABLE_NAME = " + m_db->quote(name));
  std::string level = "off", json_schema = R"({"type":"object"})";
  if (stored && !stored->empty() && (*stored)[0][0]) {
    auto parts = m_db->select("SELECT JSON_UNQUOTE(JSON_EXTRACT(" + m_db->quote(*(*stored)[0][0]) +
                              ",'$.level')), JSON_EXTRACT(" + m_db->quote(*(*stored)[0][0]) +
                              ",'$.schema')");
    if (parts && !parts->empty()) {
      level = (*parts)[0][0].value_or(level);
      json_schema = (*parts)[0][1].value_or(json_schema);
    }
  }

  if (cmd == "get_collection_options") {
    if (options->type() != Any::ARRAY)
      return make_error(errc::x_cmd_argument_type,
                        "Invalid type of argument 'options', expected list of strings");
    std::string sql;
    for (const Any& o : options->array().value()) {
      const std::string opt = o.type() == Any::SCALAR && o.scalar().type() == Scalar::V_STRING
                                  ? o.scalar().v_string().value()
                                  : std::string();
      if (opt != "validation") return invalid_option(opt);
      sql += sql.empty() ? "SELECT " : ", ";
      sql += "JSON_OBJECT('validation', JSON_OBJECT('level', " + m_db->quote(level) +
             ", 'schema', JSON_EXTRACT(" + m_db->quote(json_schema) + ", '$'))) AS validation";
    }
    if (sql.empty()) return invalid_option("");
    return execute_sql(sql);
  }

  if (options->type() != Any::OBJECT || options->obj().fld_size() == 0)
    return make_error(errc::x_cmd_argument_type,
                      "Invalid type of argument 'options', expected object");
  for (const auto& f : options->obj().fld()) {
    if (f.key() != "validation") return invalid_option(f.key());
    if (f.value().type() != Any::OBJECT || f.value().obj().fld_size() == 0)
      return make_error(errc::x_cmd_argument_type,
                        "Invalid type of argument 'validation', expected object");
    for (const auto& v : f.value().obj().fld()) {
      if (v.key() == "level") {
        const Any& l = v.value();
        std::string value = l.type() == Any::SCALAR && l.scalar().type() == Scalar::V_STRING
                                ? l.scalar().v_string().value()
                                : std::string();
        for (auto& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (value != "off" && value != "strict")
          return make_error(errc::x_cmd_argument_value, "Invalid validation.level argument. "
                                                        "Allowed values are 'OFF' and 'STRICT'");
        if (value == "strict") // MariaDB 10.11 has no JSON_SCHEMA_VALID
          return make_error(errc::x_cmd_argument_value,
                            "xserverd does not implement JSON schema validation (level STRICT)");
        level = value;
      } else if (v.key() == "schema") {
        const Any& s = v.value();
        json_schema.clear();
        if (s.type() == Any::SCALAR && s.scalar().type() == Scalar::V_STRING)
          json_schema = s.scalar().v_string().value(); // a schema given as JSON text
        else
          append_json(json_schema, s);
        auto valid = m_db->select("SELECT JSON_VALID(" + m_db->quote(json_schema) +
                                  ") AND JSON_TYPE(" + m_db->quote(json_schema) + ") = 'OBJECT'");
        if (!valid || valid->empty() || (*valid)[0][0].value_or("0") != "1")
          return make_error(errc::x_cmd_argument_value,
                            "The provided validation schema is invalid");
      } else {
        return invalid_option(v.key());
      }
    }
  }
  std::string comment = R"({"validation":{"level":)";
  cdk::json::append_json_string(comment, level);
  comment += R"(,"schema":)" + json_schema + "}}";
  if (comment.size() > 2048) // MariaDB's limit for a table comment
    return make_error(errc::x_cmd_argument_value,
                      "xserverd keeps validation schemas of up to 2000 bytes only");
  x_error err;
  if (!m_db->exec("ALTER TABLE " + table_of(schema, name) + " COMMENT = " + m_db->quote(comment),
                  &err))
    return err;
  m_out.stmt_ok();
  return std::nullopt;
}

} // namespace xserver
