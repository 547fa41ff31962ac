// Admin commands modify_collection_options and get_collection_options (MySQL
// 8.0.19+, admin_cmd_collection_handler.cc), and the validation options of
// create_collection. MySQL keeps the schema in a generated `_json_schema`
// column checked by a `$val_strict_<hash>` CHECK constraint with
// JSON_SCHEMA_VALID; MariaDB 10.11 has no JSON_SCHEMA_VALID, so xserverd
// keeps the options as JSON in the table's COMMENT (they survive a restart)
// and validates documents itself (json_schema_check.h, crud_insert.cc,
// crud_modify.cc).
#include "test/xserver/admin_args.h"
#include "test/xserver/collection_validation.h"
#include "test/xserver/session.h"

#include <algorithm>
#include <cctype>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace xserver {

namespace {

using Mysqlx::Datatypes::Any;
using Mysqlx::Datatypes::Scalar;

x_error invalid_option(const std::string& name) {
  return make_error(errc::x_cmd_invalid_argument, "'" + name + "' is not a valid option");
}

std::string table_of(const std::string& schema, const std::string& name) {
  return schema.empty() ? quote_identifier(name)
                        : quote_identifier(schema) + "." + quote_identifier(name);
}

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

} // namespace

validation_options stored_validation(mariadb_conn& db, const std::string& schema,
                                     const std::string& name) {
  validation_options opts;
  auto rows =
      db.select("SELECT TABLE_COMMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = " +
                (schema.empty() ? std::string("DATABASE()") : db.quote(schema)) +
                " AND TABLE_NAME = " + db.quote(name));
  if (!rows || rows->empty() || !(*rows)[0][0]) return opts;
  rapidjson::Document d;
  const std::string& text = *(*rows)[0][0];
  if (d.Parse(text.data(), text.size()).HasParseError() || !d.IsObject()) return opts;
  auto v = d.FindMember("validation");
  if (v == d.MemberEnd() || !v->value.IsObject()) return opts;
  auto level = v->value.FindMember("level");
  opts.strict = level != v->value.MemberEnd() && level->value.IsString() &&
                std::string(level->value.GetString()) == "strict";
  auto s = v->value.FindMember("schema");
  if (s != v->value.MemberEnd() && s->value.IsObject()) {
    rapidjson::StringBuffer b;
    rapidjson::Writer<rapidjson::StringBuffer> w(b);
    s->value.Accept(w);
    opts.schema.assign(b.GetString(), b.GetSize());
  }
  return opts;
}

void session::drop_stale_cache() {
  const std::uint64_t now = m_state.sql_generation();
  if (m_cache_valid && now == m_cache_generation) return;
  m_validation_cache.clear();
  m_auto_increment.reset();
  m_cache_generation = now; // read before the SELECTs that fill the caches
  m_cache_valid = true;
}

const validation_options& session::cached_validation(const std::string& schema,
                                                     const std::string& name) {
  drop_stale_cache();
  std::string key = schema;
  key += '\0';
  key += name;
  auto it = m_validation_cache.find(key);
  if (it == m_validation_cache.end())
    it = m_validation_cache.emplace(std::move(key), stored_validation(*m_db, schema, name)).first;
  return it->second;
}

std::optional<x_error> apply_validation_argument(const Any& validation, bool creating,
                                                 validation_options& opts) {
  if (validation.type() != Any::OBJECT)
    return make_error(errc::x_cmd_argument_type,
                      "Invalid type of argument 'validation', expected object");
  if (creating) opts.strict = true; // MySQL's get_validation_info(): STRICT unless told
  for (const auto& v : validation.obj().fld()) {
    if (v.key() == "level") {
      const Any& l = v.value();
      if (l.type() != Any::SCALAR || l.scalar().type() != Scalar::V_STRING)
        return make_error(errc::x_cmd_argument_type,
                          "Invalid type of argument 'level', expected string");
      const std::string value = upper(l.scalar().v_string().value());
      if (!value.empty() && value != "OFF" && value != "STRICT")
        return make_error(errc::x_cmd_argument_value, "Invalid \"validation.level\" argument. "
                                                      "Allowed values are 'OFF' and 'STRICT'");
      opts.strict = value != "OFF";
    } else if (v.key() == "schema") {
      if (auto e = check_validation_schema(v.value(), opts.schema)) return e;
    } else {
      return invalid_option(v.key());
    }
  }
  return std::nullopt;
}

std::optional<x_error> check_all_documents(mariadb_conn& db, const std::string& table,
                                           const document_validator& v) {
  x_error err;
  auto rows = db.select("SELECT doc FROM " + table, &err);
  if (!rows) return err;
  for (const auto& row : *rows)
    if (row[0])
      if (auto reason = v.check(*row[0])) return schema_mismatch(*reason);
  return std::nullopt;
}

std::optional<x_error> store_validation(mariadb_conn& db, const std::string& schema,
                                        const std::string& name, const validation_options& opts) {
  const std::string table = table_of(schema, name);
  if (opts.strict)
    if (auto e = check_all_documents(db, table, document_validator(opts.schema))) return e;
  std::string comment = R"({"validation":{"level":)";
  comment += opts.strict ? R"("strict")" : R"("off")";
  comment += R"(,"schema":)" + opts.schema + "}}";
  if (comment.size() > 2048) // MariaDB's limit for a table comment
    return make_error(errc::x_cmd_argument_value,
                      "xserverd keeps validation schemas of up to 2000 bytes only");
  x_error err;
  if (!db.exec("ALTER TABLE " + table + " COMMENT = " + db.quote(comment), &err)) return err;
  return std::nullopt;
}

stmt_result session::collection_options(const std::string& cmd, const admin_args& args) {
  std::string schema, name;
  if (auto e = args.string("schema", schema)) return e;
  if (auto e = args.string("name", name)) return e;
  const Any* options = args.get("options");
  if (!options)
    return make_error(errc::x_cmd_num_arguments,
                      "Invalid number of arguments, expected value for 'options'");
  if (schema.empty()) return make_error(errc::x_bad_schema, "Invalid schema");
  if (name.empty()) return make_error(errc::x_bad_table, "Invalid collection name");

  if (cmd == "get_collection_options") {
    if (options->type() != Any::ARRAY)
      return make_error(errc::x_cmd_argument_type,
                        "Invalid type of argument 'options', expected list of strings");
    // As MySQL: every option name is checked before the collection.
    for (const Any& o : options->array().value()) {
      const std::string opt = o.type() == Any::SCALAR && o.scalar().type() == Scalar::V_STRING
                                  ? o.scalar().v_string().value()
                                  : std::string();
      if (opt != "validation")
        return make_error(errc::x_collection_option_doesnt_exist,
                          "Requested collection option '" + opt + "' doesn't exist.");
    }
    x_error err;
    if (!m_db->select("SELECT 1 FROM " + table_of(schema, name) + " LIMIT 1", &err)) return err;
    if (options->array().value_size() == 0) {
      m_out.stmt_ok();
      return std::nullopt;
    }
    // One BYTES column "Result" holding the text MySQL's
    // create_validation_json() builds (level in lower case).
    const validation_options opts = stored_validation(*m_db, schema, name);
    const std::string json = std::string(R"({ "validation": { "level": ")") +
                             (opts.strict ? "strict" : "off") + R"(", "schema": )" + opts.schema +
                             " } }";
    return execute_sql("SELECT " + m_db->quote(json) + " AS Result");
  }

  if (options->type() != Any::OBJECT)
    return make_error(errc::x_cmd_argument_type,
                      "Invalid type of argument 'options', expected object");
  const Any* validation = nullptr;
  for (const auto& f : options->obj().fld()) {
    if (f.key() != "validation") return invalid_option(f.key());
    validation = &f.value();
  }
  if (!validation || (validation->type() == Any::OBJECT && validation->obj().fld_size() == 0))
    return make_error(errc::x_argument_object_empty,
                      "Arguments value used under \"validation\" must be an object with at least "
                      "one field");
  if (!is_collection(*m_db, schema, name)) {
    x_error err;
    if (!m_db->select("SELECT 1 FROM " + table_of(schema, name) + " LIMIT 0", &err)) return err;
    return make_error(errc::x_invalid_collection,
                      "Table '" + schema + "." + name + "' exists but is not a collection");
  }
  validation_options opts = stored_validation(*m_db, schema, name);
  if (auto e = apply_validation_argument(*validation, false, opts)) return e;
  if (auto e = store_validation(*m_db, schema, name, opts)) return e;
  m_out.stmt_ok();
  return std::nullopt;
}

} // namespace xserver
