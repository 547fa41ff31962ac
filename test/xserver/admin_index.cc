// Admin commands create_collection_index and drop_collection_index (MySQL
// 8.0's X Plugin, admin_cmd_index.cc). As in MySQL, each indexed document
// field becomes a generated column of the collection table, named after the
// field and its type so that indexes on the same field share it, and a drop
// removes the generated columns no index uses any more. MariaDB differences
// (README.md): "required" is a CHECK constraint (MariaDB refuses NOT NULL on
// a generated column); multi-valued ("array") and SPATIAL indexes are refused.
#include "test/xserver/admin_args.h"
#include "test/xserver/session.h"

#include <cctype>
#include <regex>

namespace xserver {

namespace {

using Mysqlx::Datatypes::Any;

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

x_error bad_value(const std::string& what) {
  return make_error(errc::x_cmd_argument_value, what);
}

// One indexed field: its generated column and how the index uses it.
struct index_field {
  std::string column;     // `$ix_<hash>`
  std::string definition; // ADD COLUMN clause body
  std::string key_part;   // the column, with a prefix length for TEXT(n)
  bool required = false;
};

// The column type for a field type, and whether the value is text (kept
// unquoted) rather than a JSON scalar. Types as the X DevAPI documents them.
std::optional<x_error> column_type(const std::string& type, const std::string& index_type,
                                   std::string& sql_type, std::string& prefix, bool& text) {
  static const std::regex integer(
      R"(^(TINYINT|SMALLINT|MEDIUMINT|INT|INTEGER|BIGINT)( UNSIGNED)?$)");
  static const std::regex real(
      R"(^(REAL|FLOAT|DOUBLE|DECIMAL|NUMERIC)(\(\d+(,\d+)?\))?( UNSIGNED)?$)");
  static const std::regex temporal(R"(^(DATE|TIME|TIMESTAMP|DATETIME)(\(\d\))?$)");
  static const std::regex text_n(R"(^TEXT\((\d+)\)$)");
  const std::string t = upper(type);
  std::smatch m;
  text = false;
  if (index_type == "SPATIAL") {
    if (t != "GEOJSON")
      return bad_value("Invalid or unsupported type specification '" + type + "'");
    sql_type = "GEOMETRY";
  } else if (index_type == "FULLTEXT") {
    if (t != "FULLTEXT" && t != "TEXT")
      return bad_value("Invalid or unsupported type specification '" + type + "'");
    sql_type = "TEXT";
    text = true;
  } else if (std::regex_match(t, integer) || std::regex_match(t, real) ||
             std::regex_match(t, temporal)) {
    sql_type = t;
  } else if (std::regex_match(t, m, text_n)) {
    sql_type = "TEXT";
    prefix = "(" + m[1].str() + ")";
    text = true;
  } else {
    return bad_value("Invalid or unsupported type specification '" + type + "'");
  }
  return std::nullopt;
}

std::optional<x_error> parse_field(const Any& spec, const std::string& index_type, mariadb_conn& db,
                                   index_field& out) {
  if (spec.type() != Any::OBJECT)
    return make_error(errc::x_cmd_argument_type,
                      "Invalid type of argument 'fields', expected list of objects");
  admin_args f(spec);
  std::string path, type, collation;
  // MySQL 8.0 names them field/fields; connectors of 8.0.11 sent member/constraint.
  if (auto e = f.string(f.get("member") ? "member" : "field", path)) return e;
  if (auto e = f.string("type", type)) return e;
  if (auto e = f.string("collation", collation, false)) return e;
  bool required = index_type == "SPATIAL", array = false;
  std::uint64_t options = 1, srid = 4326;
  if (auto e = f.boolean("required", required)) return e;
  if (auto e = f.boolean("array", array)) return e;
  if (auto e = f.uint("options", options)) return e;
  if (auto e = f.uint("srid", srid)) return e;
  if (path.empty() || path[0] != '$') return bad_value("Invalid document path '" + path + "'");
  if (array) return bad_value("xserverd does not implement multi-valued (array) indexes");
  if (index_type == "SPATIAL" && !required)
    return bad_value("GEOJSON index requires 'field.required: TRUE");
  std::string sql_type, prefix;
  bool text = false;
  if (auto e = column_type(type, index_type, sql_type, prefix, text)) return e;
  if (!collation.empty()) {
    if (!text) return bad_value("Collation not allowed for type '" + type + "'");
    sql_type += " COLLATE " + quote_identifier(collation);
  }
  const std::string extract = "JSON_EXTRACT(doc," + db.quote(path) + ")";
  std::string value;
  if (index_type == "SPATIAL")
    value = "ST_GeomFromGeoJSON(" + extract + "," + std::to_string(options) + "," +
            std::to_string(srid) + ")";
  else if (text)
    value = "JSON_UNQUOTE(" + extract + ")";
  else
    value = "JSON_VALUE(doc," + db.quote(path) + ")";
  // InnoDB keeps FULLTEXT and SPATIAL indexes on stored columns only.
  const char* storage = index_type == "INDEX" ? " VIRTUAL" : " STORED";
  out.column = "$ix_" + sha1_hex(path + '\n' + upper(type) + '\n' + collation + '\n' + index_type +
                                 '\n' + std::to_string(options) + '/' + std::to_string(srid));
  out.definition = quote_identifier(out.column) + " " + sql_type + " GENERATED ALWAYS AS (" +
                   value + ")" + storage;
  out.key_part = quote_identifier(out.column) + prefix;
  out.required = required;
  return std::nullopt;
}

std::string table_of(const std::string& schema, const std::string& collection) {
  return quote_identifier(schema) + "." + quote_identifier(collection);
}

// The required-field constraint of a generated column.
std::string required_constraint(const std::string& column) {
  return "$req" + column.substr(3);
}

} // namespace

stmt_result session::create_collection_index(const admin_args& args) {
  std::string schema, collection, name, type = "INDEX";
  bool unique = false;
  if (auto e = args.string("schema", schema)) return e;
  if (auto e = args.string("collection", collection)) return e;
  if (auto e = args.string("name", name)) return e;
  if (auto e = args.boolean("unique", unique)) return e;
  if (auto e = args.string("type", type, false)) return e;
  type = upper(type);
  if (type != "INDEX" && type != "SPATIAL" && type != "FULLTEXT")
    return bad_value("Argument value '" + type + "' for index type is invalid");
  if (unique) return bad_value("Unique indexes are currently not supported");
  // InnoDB wants SPATIAL key parts NOT NULL, which MariaDB refuses on a
  // generated column: a clear error rather than MariaDB's 1252.
  if (type == "SPATIAL")
    return bad_value("xserverd does not implement SPATIAL collection indexes (MariaDB has no "
                     "NOT NULL generated column)");
  const Any* fields = args.get(args.get("constraint") ? "constraint" : "fields");
  if (!fields)
    return make_error(errc::x_cmd_num_arguments,
                      "Invalid number of arguments, expected value for 'fields'");
  if (fields->type() != Any::ARRAY || fields->array().value_size() == 0)
    return make_error(errc::x_cmd_argument_type,
                      "Invalid type of argument 'fields', expected list of objects");
  if (type != "INDEX" && fields->array().value_size() != 1)
    return bad_value(type + " index requires one field");
  if (schema.empty()) return make_error(errc::x_bad_schema, "Invalid schema");
  if (collection.empty()) return make_error(errc::x_bad_table, "Invalid collection name");
  if (!is_collection(*m_db, schema, collection)) {
    x_error err;
    auto exists = m_db->select("SELECT 1 FROM " + table_of(schema, collection) + " LIMIT 0", &err);
    if (!exists) return err; // 1146 for a missing table, as on MySQL
    return make_error(errc::x_invalid_collection,
                      "Table '" + schema + "." + collection + "' exists but is not a collection");
  }
  std::string alter = "ALTER TABLE " + table_of(schema, collection);
  std::string keys;
  for (const Any& spec : fields->array().value()) {
    index_field f;
    if (auto e = parse_field(spec, type, *m_db, f)) return e;
    // Another index on the same field and type shares the column.
    alter += " ADD COLUMN IF NOT EXISTS " + f.definition + ",";
    if (f.required)
      alter += " ADD CONSTRAINT IF NOT EXISTS " + quote_identifier(required_constraint(f.column)) +
               " CHECK (" + quote_identifier(f.column) + " IS NOT NULL),";
    keys += (keys.empty() ? "" : ",") + f.key_part;
  }
  alter += type == "INDEX" ? " ADD INDEX " : " ADD " + type + " INDEX ";
  alter += quote_identifier(name) + " (" + keys + ")";
  x_error err;
  if (!m_db->exec(alter, &err)) return err; // e.g. 1061 for a duplicate index name
  m_out.stmt_ok();
  return std::nullopt;
}

stmt_result session::drop_collection_index(const admin_args& args) {
  std::string schema, collection, name;
  if (auto e = args.string("schema", schema)) return e;
  if (auto e = args.string("collection", collection)) return e;
  if (auto e = args.string("name", name)) return e;
  const std::string table = table_of(schema, collection);
  x_error err;
  if (!m_db->exec("ALTER TABLE " + table + " DROP INDEX " + quote_identifier(name), &err))
    return err; // 1091 for an unknown index
  // The generated index columns no remaining index uses.
  auto unused = m_db->select(
      "SELECT C.COLUMN_NAME FROM information_schema.COLUMNS C WHERE C.TABLE_SCHEMA = " +
      m_db->quote(schema) + " AND C.TABLE_NAME = " + m_db->quote(collection) +
      " AND C.COLUMN_NAME LIKE '$ix\\_%' AND NOT EXISTS (SELECT 1 FROM "
      "information_schema.STATISTICS S WHERE S.TABLE_SCHEMA = C.TABLE_SCHEMA AND S.TABLE_NAME = "
      "C.TABLE_NAME AND S.COLUMN_NAME = C.COLUMN_NAME)");
  if (!unused) return m_db->last_error();
  for (const auto& row : *unused) {
    const std::string column = row[0].value_or("");
    m_db->exec("ALTER TABLE " + table + " DROP CONSTRAINT IF EXISTS " +
               quote_identifier(required_constraint(column)));
    if (!m_db->exec("ALTER TABLE " + table + " DROP COLUMN " + quote_identifier(column), &err))
      return err;
  }
  m_out.stmt_ok();
  return std::nullopt;
}

} // namespace xserver
