// Admin commands create_collection_index and drop_collection_index (MySQL
// 8.0's X Plugin, admin_cmd_index.cc). As in MySQL, each indexed document
// field becomes a generated column of the collection table, named after the
// field and its type so that indexes on the same field share it, and a drop
// removes the generated columns no index uses any more. MariaDB differences
// (README.md): "required" is a CHECK constraint (MariaDB refuses NOT NULL on
// a generated column); a multi-valued ("array") part is an ordinary key part
// on the field's JSON text, since MariaDB has no multi-valued indexes.
#include "test/xserver/admin_args.h"
#include "test/xserver/session.h"

#include <cctype>
#include <regex>
#include <vector>

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
  std::string geo_args; // GEOJSON: ST_GeomFromGeoJSON's path, options, srid
  bool array = false;   // a multi-valued part (kept as an ordinary one)
};

// A GEOJSON field's geometry, computed from the document `doc` (a column
// reference: doc, or NEW.doc in a trigger).
std::string geometry_of(const index_field& f, const std::string& doc) {
  const auto comma = f.geo_args.find(',');
  return "ST_GeomFromGeoJSON(JSON_EXTRACT(" + doc + "," + f.geo_args.substr(0, comma) + ")" +
         f.geo_args.substr(comma) + ")";
}

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
    // MySQL builds the column and its ALTER fails on the index.
    if (t != "GEOJSON")
      return x_error{1687, "A SPATIAL index may only contain a geometrical type column", "HY000"};
    sql_type = "GEOMETRY";
  } else if (index_type == "FULLTEXT") {
    if (t != "FULLTEXT" && t != "TEXT")
      return x_error{1283, "Column '" + type + "' cannot be part of FULLTEXT index", "HY000"};
    sql_type = "TEXT";
    text = true;
  } else if (t == "TEXT") {
    // MySQL accepts the type, then its ADD INDEX fails (no key length);
    // MariaDB would index a prefix instead.
    return x_error{1170,
                   "BLOB/TEXT column '" + type + "' used in key specification without a key length",
                   "42000"};
  } else if (std::regex_match(t, m, temporal)) {
    // MariaDB refuses an indexed generated TIME / DATETIME / TIMESTAMP
    // column converted from text unless it keeps all 6 fractional digits
    // (rounding depends on the session's mode): the column has them.
    sql_type = m[1] == "DATE" ? t : m[1].str() + "(6)";
  } else if (std::regex_match(t, integer) || std::regex_match(t, real)) {
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
  // As admin_cmd_index.cc: a field without a type gets the index type's default.
  type = index_type == "SPATIAL" ? "GEOJSON" : index_type == "FULLTEXT" ? "FULLTEXT" : "TEXT(64)";
  if (auto e = f.string("type", type, false)) return e;
  if (auto e = f.string("collation", collation, false)) return e;
  bool required = false, array = false;
  std::uint64_t options = 1, srid = 4326;
  if (auto e = f.boolean("required", required)) return e;
  if (auto e = f.boolean("array", array)) return e;
  if (auto e = f.uint("options", options)) return e;
  if (auto e = f.uint("srid", srid)) return e;
  if (path.empty()) return bad_value("Argument value for document member is invalid");
  if (path[0] != '$') return bad_value("Invalid document path '" + path + "'");
  const bool geo_args = f.get("options") || f.get("srid");
  if (array) {
    // MySQL's checks of a multi-valued index field (index_array_field.cc;
    // its Regex is case-insensitive)...
    static const std::regex array_type(
        R"(^(BINARY(\(\d+\))?|DATE|DATETIME|TIME|CHAR(\(\d+\))?|DECIMAL(\(\d+(,\d+)?\))?|)"
        R"(SIGNED( INTEGER)?|UNSIGNED( INTEGER)?)$)",
        std::regex::icase);
    if (!std::regex_match(type, array_type))
      return bad_value("Invalid or unsupported type specification for array index '" + type + "'");
    if (required || geo_args)
      return bad_value("Unsupported argument specification for '" + path + "'");
    // ...then MySQL indexes CAST(JSON_EXTRACT(doc, path) AS <type> ARRAY),
    // which MariaDB cannot. The index is kept as an ordinary one on a
    // generated column holding the field's JSON text (a prefix of it), so
    // that it exists, is listed and is dropped as MySQL's would be; it does
    // not index the array's elements, and values MySQL's cast would refuse
    // are not refused (README.md). FULLTEXT and SPATIAL indexes take no
    // multi-valued part: MariaDB's "not supported" error, as before.
    if (index_type != "INDEX")
      return x_error{errc::not_supported_yet,
                     "This version of MariaDB doesn't yet support 'multi-valued (array) indexes'",
                     "42000"};
    out.column = "$ix_" + sha1_hex(path + '\n' + upper(type) + "\nARRAY");
    out.definition = quote_identifier(out.column) + " TEXT GENERATED ALWAYS AS (JSON_EXTRACT(doc," +
                     db.quote(path) + ")) VIRTUAL";
    out.key_part = quote_identifier(out.column) + "(64)";
    out.array = true;
    return std::nullopt;
  }
  // As index_field.cc: options and srid belong to GEOJSON fields only.
  if (geo_args && upper(type) != "GEOJSON")
    return bad_value("Unsupported argument specification for '" + path + "'");
  if (index_type == "SPATIAL" && upper(type) != "GEOJSON")
    return x_error{1687, "A SPATIAL index may only contain a geometrical type column", "HY000"};
  // MySQL's ALTER fails with ER_SPATIAL_CANT_HAVE_NULL, which the X Plugin
  // reports as 5117 (admin_cmd_index.cc).
  if (index_type == "SPATIAL" && !required)
    return make_error(errc::x_doc_required_field_missing,
                      "GEOJSON index requires 'field.required: TRUE");
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
  if (index_type == "SPATIAL")
    out.geo_args = db.quote(path) + "," + std::to_string(options) + "," + std::to_string(srid);
  return std::nullopt;
}

std::string table_of(const std::string& schema, const std::string& collection) {
  return quote_identifier(schema) + "." + quote_identifier(collection);
}

// The required-field constraint of a generated column.
std::string required_constraint(const std::string& column) {
  return "$req" + column.substr(3);
}

// The triggers that keep a SPATIAL index's column filled, one per event.
std::string geometry_trigger(const std::string& schema, const std::string& column, char event) {
  return quote_identifier(schema) + "." +
         quote_identifier("$ixg" + std::string(1, event) + column.substr(3));
}

// Undoes add_geometry_column(); whatever exists of it goes.
void drop_geometry_column(mariadb_conn& db, const std::string& schema,
                          const std::string& collection, const std::string& column) {
  for (char event : {'I', 'U'})
    db.exec("DROP TRIGGER IF EXISTS " + geometry_trigger(schema, column, event));
  db.exec("ALTER TABLE " + table_of(schema, collection) + " DROP COLUMN IF EXISTS " +
          quote_identifier(column));
}

// Drops the index columns no remaining index uses, with their required
// constraints and geometry triggers.
std::optional<x_error> drop_unused_index_columns(mariadb_conn& db, const std::string& schema,
                                                 const std::string& collection) {
  const std::string table = table_of(schema, collection);
  auto unused = db.select(
      "SELECT C.COLUMN_NAME FROM information_schema.COLUMNS C WHERE C.TABLE_SCHEMA = " +
      db.quote(schema) + " AND C.TABLE_NAME = " + db.quote(collection) +
      " AND C.COLUMN_NAME LIKE '$ix\\_%' AND NOT EXISTS (SELECT 1 FROM "
      "information_schema.STATISTICS S WHERE S.TABLE_SCHEMA = C.TABLE_SCHEMA AND S.TABLE_NAME = "
      "C.TABLE_NAME AND S.COLUMN_NAME = C.COLUMN_NAME)");
  if (!unused) return db.last_error();
  x_error err;
  for (const auto& row : *unused) {
    const std::string column = row[0].value_or("");
    for (char event : {'I', 'U'})
      db.exec("DROP TRIGGER IF EXISTS " + geometry_trigger(schema, column, event));
    db.exec("ALTER TABLE " + table + " DROP CONSTRAINT IF EXISTS " +
            quote_identifier(required_constraint(column)));
    if (!db.exec("ALTER TABLE " + table + " DROP COLUMN " + quote_identifier(column), &err))
      return err;
  }
  return std::nullopt;
}

// A SPATIAL index. InnoDB wants its key part NOT NULL, and MariaDB allows
// no NOT NULL generated column, so the geometry is a real NOT NULL column
// that BEFORE INSERT / UPDATE triggers fill from the document (as _id is):
// a document without the field fails with 1048, reported as 5115, as on
// MySQL. Created once per field; another SPATIAL index on it shares it.
std::optional<x_error> add_geometry_column(mariadb_conn& db, const std::string& schema,
                                           const std::string& collection, const index_field& f) {
  const std::string table = table_of(schema, collection);
  auto exists = db.select(
      "SELECT 1 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = " + db.quote(schema) +
      " AND TABLE_NAME = " + db.quote(collection) + " AND COLUMN_NAME = " + db.quote(f.column));
  if (!exists) return db.last_error();
  if (!exists->empty()) return std::nullopt;
  x_error err;
  auto missing = db.select(
      "SELECT 1 FROM " + table + " WHERE " + geometry_of(f, "doc") + " IS NULL LIMIT 1", &err);
  if (!missing) return err; // e.g. a field that is not GeoJSON
  if (!missing->empty())
    return make_error(errc::x_doc_required_field_missing,
                      "Collection contains document missing required field");
  const std::string column = quote_identifier(f.column);
  for (const std::string& sql :
       {"ALTER TABLE " + table + " ADD COLUMN " + column + " GEOMETRY NULL",
        "UPDATE " + table + " SET " + column + " = " + geometry_of(f, "doc"),
        "ALTER TABLE " + table + " MODIFY " + column + " GEOMETRY NOT NULL",
        "CREATE TRIGGER " + geometry_trigger(schema, f.column, 'I') + " BEFORE INSERT ON " + table +
            " FOR EACH ROW SET NEW." + column + " = " + geometry_of(f, "NEW.doc"),
        "CREATE TRIGGER " + geometry_trigger(schema, f.column, 'U') + " BEFORE UPDATE ON " + table +
            " FOR EACH ROW SET NEW." + column + " = " + geometry_of(f, "NEW.doc")}) {
    if (!db.exec(sql, &err)) {
      drop_geometry_column(db, schema, collection, f.column);
      return err;
    }
  }
  return std::nullopt;
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
  const std::string given_type = type;
  type = upper(type);
  // 5.7's X Plugin knows INDEX and SPATIAL only (FULLTEXT came with 8.0).
  if (type != "INDEX" && type != "SPATIAL" && (type != "FULLTEXT" || emulate_57()))
    return bad_value("Argument value '" + given_type + "' for index type is invalid");
  if (name.empty()) return bad_value("Argument value '' for index name is invalid");
  if (unique && type == "SPATIAL") return bad_value("Unique spatial index is not supported");
  if (unique && type == "FULLTEXT") return bad_value("Unique fulltext index is not supported");
  std::string parser;
  if (auto e = args.string("with_parser", parser, false)) return e;
  if (!parser.empty() && type != "FULLTEXT")
    return bad_value("'with_parser' argument is supported for fulltext index only");
  if (unique) return bad_value("Unique indexes are currently not supported");
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
  std::vector<index_field> parsed;
  for (const Any& spec : fields->array().value()) {
    index_field f;
    if (auto e = parse_field(spec, type, *m_db, f)) return e;
    // MySQL adds the same generated column twice and its ALTER fails.
    for (const index_field& p : parsed) {
      if (p.column == f.column)
        return x_error{1060, "Duplicate column name '" + f.column + "'", "42S21"};
      // MySQL's ALTER refuses a second multi-valued key part in one index.
      if (p.array && f.array)
        return x_error{errc::not_supported_yet,
                       "This version of MySQL doesn't yet support 'more than one multi-valued "
                       "key part per index'",
                       "42000"};
    }
    parsed.push_back(std::move(f));
  }
  x_error err;
  if (type == "SPATIAL") {
    const index_field& f = parsed.front();
    if (auto e = add_geometry_column(*m_db, schema, collection, f)) return e;
    if (!m_db->exec("ALTER TABLE " + table_of(schema, collection) + " ADD SPATIAL INDEX " +
                        quote_identifier(name) + " (" + f.key_part + ")",
                    &err)) {
      drop_unused_index_columns(*m_db, schema, collection);
      return err; // e.g. 1061 for a duplicate index name
    }
    m_out.stmt_ok();
    return std::nullopt;
  }
  bool any_required = false;
  std::string alter = "ALTER TABLE " + table_of(schema, collection);
  std::string keys;
  for (const index_field& f : parsed) {
    any_required = any_required || f.required;
    // Another index on the same field and type shares the column.
    alter += " ADD COLUMN IF NOT EXISTS " + f.definition + ",";
    if (f.required)
      alter += " ADD CONSTRAINT IF NOT EXISTS " + quote_identifier(required_constraint(f.column)) +
               " CHECK (" + quote_identifier(f.column) + " IS NOT NULL),";
    keys += (keys.empty() ? "" : ",") + f.key_part;
  }
  alter += type == "INDEX" ? " ADD INDEX " : " ADD " + type + " INDEX ";
  alter += quote_identifier(name) + " (" + keys + ")";
  if (!m_db->exec(alter, &err)) {
    // A document without a required field fails the CHECK (MariaDB 4025);
    // MySQL's NOT NULL column fails with 1048 / 1138, reported as 5117.
    if (any_required && err.code == 4025)
      return make_error(errc::x_doc_required_field_missing,
                        "Collection contains document missing required field");
    return err; // e.g. 1061 for a duplicate index name
  }
  m_out.stmt_ok();
  return std::nullopt;
}

stmt_result session::drop_collection_index(const admin_args& args) {
  std::string schema, collection, name;
  if (auto e = args.string("schema", schema)) return e;
  if (auto e = args.string("collection", collection)) return e;
  if (auto e = args.string("name", name)) return e;
  // Admin_command_index::drop refuses empty names before any SQL runs.
  if (schema.empty()) return make_error(errc::x_bad_schema, "Invalid schema");
  if (collection.empty()) return make_error(errc::x_bad_table, "Invalid collection name");
  if (name.empty()) return make_error(errc::x_missing_argument, "Invalid index name");
  x_error err;
  if (!m_db->exec("ALTER TABLE " + table_of(schema, collection) + " DROP INDEX " +
                      quote_identifier(name),
                  &err))
    return err; // 1091 for an unknown index
  if (auto e = drop_unused_index_columns(*m_db, schema, collection)) return e;
  m_out.stmt_ok();
  return std::nullopt;
}

} // namespace xserver
