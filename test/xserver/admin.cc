// Admin commands: Sql.StmtExecute in namespace "mysqlx" (named arguments in
// one Object) and, in 5.7 mode, "xplugin" (positional arguments). See facts
// section 6 for the collection table.
#include "test/xserver/admin_args.h"
#include "test/xserver/collection_validation.h"
#include "test/xserver/session.h"

#include <map>
#include <mutex>
#include <openssl/evp.h>

namespace xserver {

using Mysqlx::Datatypes::Any;
using Mysqlx::Datatypes::Scalar;

admin_args::admin_args(const google::protobuf::RepeatedPtrField<Any>& args, bool positional,
                       std::initializer_list<const char*> names) {
  if (positional) {
    int i = 0;
    for (const char* n : names) {
      if (i < args.size()) m_values[n] = &args[i];
      ++i;
    }
  } else if (args.size() > 0 && args[0].type() == Any::OBJECT) {
    for (const auto& f : args[0].obj().fld()) m_values[f.key()] = &f.value();
  }
}

admin_args::admin_args(const Any& object) {
  if (object.type() == Any::OBJECT)
    for (const auto& f : object.obj().fld()) m_values[f.key()] = &f.value();
}

std::optional<x_error> admin_args::string(const char* name, std::string& out, bool required) const {
  auto it = m_values.find(name);
  if (it == m_values.end()) {
    if (!required) return std::nullopt;
    return make_error(errc::x_cmd_num_arguments,
                      std::string("Invalid number of arguments, expected value for '") + name +
                          "'");
  }
  const Any& a = *it->second;
  if (a.type() == Any::SCALAR && a.scalar().type() == Scalar::V_STRING) {
    out = a.scalar().v_string().value();
  } else if (a.type() == Any::SCALAR && a.scalar().type() == Scalar::V_OCTETS) {
    out = a.scalar().v_octets().value();
  } else {
    return make_error(errc::x_cmd_argument_type,
                      std::string("Invalid type of argument '") + name + "', expected string");
  }
  return std::nullopt;
}

std::optional<x_error> admin_args::boolean(const char* name, bool& out) const {
  const Any* a = get(name);
  if (!a) return std::nullopt;
  if (a->type() != Any::SCALAR || a->scalar().type() != Scalar::V_BOOL)
    return make_error(errc::x_cmd_argument_type,
                      std::string("Invalid type of argument '") + name + "', expected bool");
  out = a->scalar().v_bool();
  return std::nullopt;
}

std::optional<x_error> admin_args::uint(const char* name, std::uint64_t& out) const {
  const Any* a = get(name);
  if (!a) return std::nullopt;
  if (a->type() == Any::SCALAR && a->scalar().type() == Scalar::V_UINT) {
    out = a->scalar().v_unsigned_int();
  } else if (a->type() == Any::SCALAR && a->scalar().type() == Scalar::V_SINT &&
             a->scalar().v_signed_int() >= 0) {
    out = static_cast<std::uint64_t>(a->scalar().v_signed_int());
  } else {
    return make_error(errc::x_cmd_argument_type, std::string("Invalid type of argument '") + name +
                                                     "', expected unsigned int");
  }
  return std::nullopt;
}

const Any* admin_args::get(const char* name) const {
  auto it = m_values.find(name);
  return it == m_values.end() ? nullptr : it->second;
}

std::string sha1_hex(const std::string& s) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(s.data(), s.size(), md, &n, EVP_sha1(), nullptr);
  std::string out;
  for (unsigned i = 0; i < n; ++i) {
    out += "0123456789abcdef"[md[i] >> 4];
    out += "0123456789abcdef"[md[i] & 15];
  }
  return out;
}

const Any* field(const Any* obj, const char* key) {
  if (!obj || obj->type() != Any::OBJECT) return nullptr;
  for (const auto& f : obj->obj().fld())
    if (f.key() == key) return &f.value();
  return nullptr;
}

namespace {
// SQL true for a collection table: doc and _id, every other column
// generated, or a SPATIAL index's geometry column ($ix_..., admin_index.cc).
std::string is_collection_sql(const std::string& schema_expr, const std::string& name_expr) {
  return "(SELECT SUM(C.COLUMN_NAME IN ('doc','_id')) = 2 AND SUM(C.COLUMN_NAME NOT IN "
         "('doc','_id') AND C.IS_GENERATED = 'NEVER' AND C.COLUMN_NAME NOT LIKE '$ix\\_%') = 0 "
         "FROM information_schema.COLUMNS C WHERE C.TABLE_SCHEMA = " +
         schema_expr + " AND C.TABLE_NAME = " + name_expr + ")";
}
} // namespace

// Is schema.name a collection?
bool is_collection(mariadb_conn& db, const std::string& schema, const std::string& name) {
  auto rows = db.select("SELECT " + is_collection_sql(db.quote(schema), db.quote(name)));
  return rows && !rows->empty() && (*rows)[0][0].value_or("0") == "1";
}

namespace {
// The trigger that sets a collection's _id from its document before every
// `when` ("INSERT" or "UPDATE"): `$xid_I_<sha1 of the name>`, `$xid_U_...`.
std::string id_trigger_sql(const std::string& schema, const std::string& name, const char* when) {
  const std::string trigger =
      quote_identifier(schema) + "." +
      quote_identifier(std::string("$xid_") + when[0] + "_" + sha1_hex(name));
  return "CREATE TRIGGER " + trigger + " BEFORE " + when + " ON " + quote_identifier(schema) + "." +
         quote_identifier(name) +
         " FOR EACH ROW SET NEW._id = JSON_UNQUOTE(JSON_EXTRACT(NEW.doc,'$._id'))";
}

// A collection here is three statements (a table, then its two _id
// triggers); xserverd or MariaDB killed between them leaves a table without
// one or both triggers, which refuses every document without _id from then
// on ("Field '_id' doesn't have a default value", 1364). Found again by
// create_collection (reuse), such a collection gets the triggers it lacks.
// Any BEFORE trigger of the event whose name starts with $xid_ counts (a
// renamed collection keeps its old name's). Like creating a collection,
// making a trigger commits the session's open transaction; a whole
// collection found again is only read.
std::optional<x_error> add_missing_id_triggers(mariadb_conn& db, const std::string& schema,
                                               const std::string& name) {
  const std::string sql =
      "SELECT DISTINCT EVENT_MANIPULATION FROM information_schema.TRIGGERS WHERE "
      "EVENT_OBJECT_SCHEMA = " +
      db.quote(schema) + " AND EVENT_OBJECT_TABLE = " + db.quote(name) +
      " AND ACTION_TIMING = 'BEFORE' AND LEFT(TRIGGER_NAME, 5) = '$xid_'";
  x_error err;
  auto have = db.select(sql, &err);
  if (!have) return err;
  for (const char* when : {"INSERT", "UPDATE"}) {
    bool found = false;
    for (const auto& row : *have) found = found || row[0].value_or("") == when;
    if (!found && !db.exec(id_trigger_sql(schema, name, when), &err)) return err;
  }
  return std::nullopt;
}
} // namespace

stmt_result session::create_collection(const std::string& schema, const std::string& name,
                                       bool reuse, bool* created) {
  if (schema.empty()) return make_error(errc::x_bad_schema, "Invalid schema");
  if (name.empty()) return make_error(errc::x_bad_table, "Invalid collection name");
  const std::string table = quote_identifier(schema) + "." + quote_identifier(name);
  // MySQL creates a collection in one statement; here it is a table, then
  // two triggers. Another session that found the table before its triggers
  // (reuse) and added a document failed: "Field '_id' doesn't have a default
  // value" (Oracle's Sess.pool_ttl, 40 threads creating one collection). So
  // the check and the three statements run as one against every other
  // session of this xserverd. (A server killed in the middle still leaves
  // a table without triggers: reuse repairs it, add_missing_id_triggers.)
  static std::mutex creating;
  std::lock_guard<std::mutex> one_at_a_time(creating);
  if (reuse) {
    auto exists = m_db->select("SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = " +
                               m_db->quote(schema) + " AND TABLE_NAME = " + m_db->quote(name));
    if (exists && !exists->empty()) {
      if (is_collection(*m_db, schema, name)) return add_missing_id_triggers(*m_db, schema, name);
      return make_error(errc::x_invalid_collection,
                        "Table '" + schema + "." + name + "' exists but is not a collection");
    }
  }
  // MariaDB refuses a primary key on a generated column, so _id is a real
  // column: triggers fill it from doc->$._id on every insert and update, and
  // a CHECK constraint keeps the two equal. VARBINARY compares byte-wise as
  // in MySQL 8.0; 5.7 used VARCHAR(32).
  const char* id_type = emulate_57() ? "VARCHAR(32)" : "VARBINARY(32)";
  x_error err;
  if (!m_db->exec("CREATE TABLE " + table + " (doc JSON, _id " + id_type +
                      " NOT NULL, PRIMARY KEY (_id), CONSTRAINT `$id_is_doc_id` CHECK (_id = "
                      "JSON_UNQUOTE(JSON_EXTRACT(doc,'$._id')))) ENGINE=InnoDB "
                      "DEFAULT CHARSET=utf8mb4",
                  &err))
    return err;
  for (const char* when : {"INSERT", "UPDATE"}) {
    if (!m_db->exec(id_trigger_sql(schema, name, when), &err)) {
      m_db->exec("DROP TABLE " + table);
      return err;
    }
  }
  if (created) *created = true;
  return std::nullopt;
}

stmt_result session::admin_command(const std::string& ns, const std::string& cmd,
                                   const google::protobuf::RepeatedPtrField<Any>& raw) {
  const bool positional = ns == "xplugin";
  if (cmd == "ping") {
    m_out.stmt_ok();
    return std::nullopt;
  }
  if (cmd == "create_collection" || cmd == "ensure_collection" || cmd == "drop_collection") {
    admin_args args(raw, positional, {"schema", "name"});
    std::string schema, name;
    if (auto e = args.string("schema", schema)) return e;
    if (auto e = args.string("name", name)) return e;
    stmt_result r;
    if (cmd == "drop_collection") {
      x_error err;
      if (!m_db->exec("DROP TABLE " + quote_identifier(schema) + "." + quote_identifier(name),
                      &err))
        return err;
    } else {
      // options {validation, reuse_existing} as MySQL 8.0.19+ takes them.
      const Any* options = args.get("options");
      bool reuse = cmd == "ensure_collection";
      validation_options validation;
      bool validated = false;
      if (options) {
        if (options->type() != Any::OBJECT)
          return make_error(errc::x_cmd_argument_type,
                            "Invalid type of argument 'options', expected object");
        for (const auto& f : options->obj().fld()) {
          if (f.key() == "reuse_existing") {
            const Any& r = f.value();
            if (r.type() != Any::SCALAR || r.scalar().type() != Scalar::V_BOOL)
              return make_error(errc::x_cmd_argument_type,
                                "Invalid type of argument 'reuse_existing', expected bool");
            reuse = reuse || r.scalar().v_bool();
          } else if (f.key() == "validation") {
            // An empty object means the defaults (level OFF), as in MySQL.
            if (f.value().type() == Any::OBJECT && f.value().obj().fld_size() == 0) continue;
            if (auto e = apply_validation_argument(f.value(), true, validation)) return e;
            validated = true;
          } else {
            return make_error(errc::x_cmd_invalid_argument,
                              "'" + f.key() + "' is not a valid option");
          }
        }
      }
      bool created = false;
      if (auto e = create_collection(schema, name, reuse, &created)) return e;
      if (created && validated) {
        if (auto e = store_validation(*m_db, schema, name, validation)) {
          m_db->exec("DROP TABLE " + quote_identifier(schema) + "." + quote_identifier(name));
          return e;
        }
      }
    }
    m_out.stmt_ok();
    return std::nullopt;
  }
  if (cmd == "create_collection_index") return create_collection_index(admin_args(raw, false, {}));
  if (cmd == "drop_collection_index") return drop_collection_index(admin_args(raw, false, {}));
  if (cmd == "modify_collection_options" || cmd == "get_collection_options")
    return collection_options(cmd, admin_args(raw, false, {}));
  if (cmd == "list_clients") return list_clients();
  if (cmd == "kill_client") return kill_client(admin_args(raw, positional, {"id"}).get("id"));
  if (cmd == "list_objects") {
    admin_args args(raw, positional, {"schema", "pattern"});
    return list_objects(args.get("schema"), args.get("pattern"));
  }
  return make_error(errc::x_invalid_admin_command, "Invalid " + ns + " command " + cmd);
}

stmt_result session::list_objects(const Any* schema_arg, const Any* pattern_arg) {
  auto text = [](const Any* a) {
    return a && a->type() == Any::SCALAR && a->scalar().type() == Scalar::V_STRING
               ? std::optional<std::string>(a->scalar().v_string().value())
               : std::nullopt;
  };
  std::string schema = text(schema_arg).value_or("");
  if (schema.empty()) {
    auto cur = m_db->select("SELECT DATABASE()");
    if (!cur || cur->empty() || !(*cur)[0][0])
      return x_error{1046, "No database selected", "3D000"};
    schema = *(*cur)[0][0];
  }
  auto found = m_db->select("SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = " +
                            m_db->quote(schema));
  if (!found || found->empty()) return x_error{1049, "Unknown database '" + schema + "'", "42000"};
  const std::string is_coll = is_collection_sql("T.TABLE_SCHEMA", "T.TABLE_NAME");
  std::string sql =
      "SELECT CAST(T.TABLE_NAME AS CHAR(64)) AS name, CAST(CASE WHEN T.TABLE_TYPE = 'VIEW' THEN "
      "IF(" +
      is_coll + ", 'COLLECTION_VIEW', 'VIEW') ELSE IF(" + is_coll +
      ", 'COLLECTION', 'TABLE') END AS CHAR(16)) AS type FROM information_schema.TABLES T WHERE "
      "T.TABLE_SCHEMA = " +
      m_db->quote(schema);
  if (auto p = text(pattern_arg)) sql += " AND T.TABLE_NAME LIKE " + m_db->quote(*p);
  sql += " ORDER BY T.TABLE_NAME";
  // ROWS_AFFECTED etc. as for any SELECT; the client reads name and type.
  return execute_sql(sql);
}

// list_clients: one row per authenticated session. The rows are built as a
// SELECT so that MariaDB's result path encodes them like any other result.
stmt_result session::list_clients() {
  std::string sql;
  for (const auto& c : m_state.clients()) {
    sql += sql.empty() ? "SELECT " : " UNION ALL SELECT ";
    sql += "CAST(" + std::to_string(c.id) + " AS UNSIGNED) AS client_id, " + m_db->quote(c.user) +
           " AS user, " + m_db->quote(c.host) + " AS host, CAST(" + std::to_string(c.sql_session) +
           " AS UNSIGNED) AS sql_session";
  }
  return execute_sql(sql); // never empty: this session is listed
}

stmt_result session::kill_client(const Any* id_arg) {
  if (!id_arg || id_arg->type() != Any::SCALAR ||
      (id_arg->scalar().type() != Scalar::V_UINT && id_arg->scalar().type() != Scalar::V_SINT))
    return make_error(errc::x_cmd_argument_type, "Invalid type of argument 'id', expected integer");
  const auto& s = id_arg->scalar();
  const std::uint64_t id = s.type() == Scalar::V_UINT
                               ? s.v_unsigned_int()
                               : static_cast<std::uint64_t>(s.v_signed_int());
  std::uint64_t sql_session = 0;
  if (!m_state.kill_client(id, sql_session))
    return make_error(errc::no_such_thread, "Unknown thread id: " + std::to_string(id));
  // Also stop whatever its MariaDB session is running.
  if (id != m_client_id) m_db->exec("KILL CONNECTION " + std::to_string(sql_session));
  m_out.stmt_ok();
  return std::nullopt;
}

} // namespace xserver
