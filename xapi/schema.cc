// Listings of schemas, tables and collections; collection options (create
// and modify a collection with them); collection indexes.
#include "xapi/handles.h"

#include <cstdarg>
#include <optional>
#include <string>
#include <vector>

using mysqlx::xapi::c_error;
using mysqlx::xapi::guarded;
using mysqlx::xapi::require_name;
using mysqlx::xapi::run_plain;

namespace {

// A listing is an SQL query on information_schema, so that its result is an
// ordinary row set every result function reads. LIKE matches as the X
// Plugin's list_objects does; NULL is every name.
mysqlx_result_t* listing(mysqlx_session_struct& sess, const std::string& query,
                         const std::vector<mysqlx::Value>& params) {
  auto r = std::make_unique<mysqlx_result_struct>(sess);
  r->m_sql.emplace(sess.m_sess.sql(query).bind(params).execute());
  return sess.adopt(std::move(r));
}

// " AND TABLE_NAME [NOT] IN (?, ...)" for the schema's collections, their
// names appended to `params`; without collections, what the condition is
// then ("" for NOT IN, " AND FALSE" for IN).
std::string collections_clause(mysqlx_schema_t& schema, bool in,
                               std::vector<mysqlx::Value>& params) {
  std::string marks;
  for (const std::string& name : schema.m_schema.getCollectionNames()) {
    marks += marks.empty() ? "?" : ", ?";
    params.emplace_back(name);
  }
  if (marks.empty()) return in ? " AND FALSE" : "";
  return std::string(" AND TABLE_NAME ") + (in ? "IN (" : "NOT IN (") + marks + ")";
}

const char* pattern_or_all(const char* pattern) {
  return pattern == nullptr ? "%" : pattern;
}

// Reads collection option pairs into `opts`; never throws (see read_params()).
std::exception_ptr read_collection_options(va_list& args,
                                           mysqlx::CollectionOptions& opts) noexcept {
  using CO = mysqlx::CollectionOptions;
  using CV = mysqlx::CollectionValidation;
  try {
    for (int opt = va_arg(args, int); opt != 0; opt = va_arg(args, int)) {
      switch (opt) {
      case MYSQLX_OPT_COLLECTION_REUSE:
        opts.set(CO::REUSE, va_arg(args, unsigned) != 0);
        break;
      case MYSQLX_OPT_COLLECTION_VALIDATION: {
        const char* json = va_arg(args, const char*);
        if (json == nullptr) throw c_error(0, MYSQLX_ERROR_MISSING_COLLECTION_OPT_MSG);
        opts.set(CO::VALIDATION, json);
        break;
      }
      case MYSQLX_OPT_COLLECTION_VALIDATION_SCHEMA: {
        const char* json = va_arg(args, const char*);
        if (json == nullptr) throw c_error(0, "A validation schema cannot be NULL");
        opts.set(CV::SCHEMA, json);
        break;
      }
      case MYSQLX_OPT_COLLECTION_VALIDATION_LEVEL: {
        const unsigned level = va_arg(args, unsigned);
        if (level == VALIDATION_OFF)
          opts.set(CV::LEVEL, CV::OFF);
        else if (level == VALIDATION_STRICT)
          opts.set(CV::LEVEL, CV::STRICT);
        else
          throw c_error(0, "A validation level is VALIDATION_OFF or VALIDATION_STRICT");
        break;
      }
      default:
        // Past an unknown option the rest of the list cannot be read.
        throw c_error(0, ("Unrecognized collection option " + std::to_string(opt)).c_str());
      }
    }
    return nullptr;
  } catch (...) {
    return std::current_exception();
  }
}

} // namespace

extern "C" {

MYSQLX_C_API mysqlx_result_t* mysqlx_get_schemas(mysqlx_session_t* sess,
                                                 const char* schema_pattern) {
  return guarded(sess, static_cast<mysqlx_result_t*>(nullptr), [&] {
    return listing(*sess,
                   "SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA"
                   " WHERE SCHEMA_NAME LIKE ? ORDER BY SCHEMA_NAME",
                   {mysqlx::Value(pattern_or_all(schema_pattern))});
  });
}

MYSQLX_C_API mysqlx_result_t* mysqlx_get_tables(mysqlx_schema_t* schema, const char* table_pattern,
                                                int get_views) {
  return guarded(schema, static_cast<mysqlx_result_t*>(nullptr), [&] {
    std::vector<mysqlx::Value> params{mysqlx::Value(schema->m_schema.getName()),
                                      mysqlx::Value(pattern_or_all(table_pattern))};
    std::string query = "SELECT TABLE_NAME AS name,"
                        " IF(TABLE_TYPE = 'VIEW', 'VIEW', 'TABLE') AS type"
                        " FROM information_schema.TABLES"
                        " WHERE TABLE_SCHEMA = ? AND TABLE_NAME LIKE ?";
    query += get_views != 0 ? " AND TABLE_TYPE IN ('BASE TABLE', 'VIEW')"
                            : " AND TABLE_TYPE = 'BASE TABLE'";
    query += collections_clause(*schema, false, params);
    query += " ORDER BY TABLE_NAME";
    return listing(schema->m_owner, query, params);
  });
}

MYSQLX_C_API mysqlx_result_t* mysqlx_get_collections(mysqlx_schema_t* schema,
                                                     const char* col_pattern) {
  return guarded(schema, static_cast<mysqlx_result_t*>(nullptr), [&] {
    std::vector<mysqlx::Value> params{mysqlx::Value(schema->m_schema.getName()),
                                      mysqlx::Value(pattern_or_all(col_pattern))};
    std::string query = "SELECT TABLE_NAME AS name, 'COLLECTION' AS type"
                        " FROM information_schema.TABLES"
                        " WHERE TABLE_SCHEMA = ? AND TABLE_NAME LIKE ?";
    query += collections_clause(*schema, true, params);
    query += " ORDER BY TABLE_NAME";
    return listing(schema->m_owner, query, params);
  });
}

MYSQLX_C_API mysqlx_collection_options_t* mysqlx_collection_options_new(void) {
  try {
    // The C caller owns it: mysqlx_free() deletes it.
    return new mysqlx_collection_options_struct(); // NOLINT(cppcoreguidelines-owning-memory)
  } catch (...) {
    return nullptr;
  }
}

MYSQLX_C_API int mysqlx_collection_options_set(mysqlx_collection_options_t* options, ...) {
  if (options == nullptr) return RESULT_ERROR;
  std::exception_ptr failed;
  // All or nothing: the pairs go to a copy, which replaces the options.
  std::optional<mysqlx::CollectionOptions> next;
  try {
    next.emplace(options->m_opts);
  } catch (...) {
    failed = std::current_exception();
  }
  if (!failed) {
    va_list args;
    va_start(args, options);
    failed = read_collection_options(args, *next);
    va_end(args);
  }
  return run_plain(options, [&] {
    if (failed) std::rethrow_exception(failed);
    options->m_opts = std::move(*next);
  });
}

MYSQLX_C_API int mysqlx_collection_create_with_options(mysqlx_schema_t* schema,
                                                       const char* collection,
                                                       mysqlx_collection_options_t* options) {
  return run_plain(schema, [&] {
    require_name(collection, MYSQLX_ERROR_MISSING_COLLECTION_NAME_MSG);
    if (options == nullptr) throw c_error(0, MYSQLX_ERROR_MISSING_COLLECTION_OPT_MSG);
    schema->m_schema.createCollection(collection, options->m_opts);
  });
}

MYSQLX_C_API int mysqlx_collection_create_with_json_options(mysqlx_schema_t* schema,
                                                            const char* collection,
                                                            const char* json_options) {
  return run_plain(schema, [&] {
    require_name(collection, MYSQLX_ERROR_MISSING_COLLECTION_NAME_MSG);
    require_name(json_options, MYSQLX_ERROR_MISSING_COLLECTION_OPT_MSG);
    schema->m_schema.createCollection(collection, mysqlx::CollectionOptions(json_options));
  });
}

MYSQLX_C_API int mysqlx_collection_modify_with_options(mysqlx_schema_t* schema,
                                                       const char* collection,
                                                       mysqlx_collection_options_t* options) {
  return run_plain(schema, [&] {
    require_name(collection, MYSQLX_ERROR_MISSING_COLLECTION_NAME_MSG);
    if (options == nullptr) throw c_error(0, MYSQLX_ERROR_MISSING_COLLECTION_OPT_MSG);
    schema->m_schema.modifyCollection(collection, options->m_opts);
  });
}

MYSQLX_C_API int mysqlx_collection_modify_with_json_options(mysqlx_schema_t* schema,
                                                            const char* collection,
                                                            const char* json_options) {
  return run_plain(schema, [&] {
    require_name(collection, MYSQLX_ERROR_MISSING_COLLECTION_NAME_MSG);
    require_name(json_options, MYSQLX_ERROR_MISSING_COLLECTION_OPT_MSG);
    schema->m_schema.modifyCollection(collection, mysqlx::CollectionOptions(json_options));
  });
}

MYSQLX_C_API int mysqlx_collection_create_index(mysqlx_collection_t* coll, const char* name,
                                                const char* idx_spec) {
  return run_plain(coll, [&] {
    require_name(name, MYSQLX_ERROR_MISSING_KEY_NAME_MSG);
    require_name(idx_spec, MYSQLX_ERROR_EMPTY_JSON);
    coll->m_coll.createIndex(name, idx_spec);
  });
}

MYSQLX_C_API int mysqlx_collection_drop_index(mysqlx_collection_t* coll, const char* name) {
  return run_plain(coll, [&] {
    require_name(name, MYSQLX_ERROR_MISSING_KEY_NAME_MSG);
    coll->m_coll.dropIndex(name);
  });
}

} // extern "C"
