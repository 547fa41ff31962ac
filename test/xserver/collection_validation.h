// A collection's validation options as xserverd keeps them: JSON in the
// table's COMMENT (MariaDB 10.11 has no JSON_SCHEMA_VALID for MySQL's
// `_json_schema` column and `$val_strict_` CHECK constraint), read by every
// document insert and update, which xserverd then validates itself.
#pragma once

#include "mysqlx_datatypes.pb.h"
#include "test/xserver/errors.h"
#include "test/xserver/json_schema_check.h"

#include <optional>
#include <string>

namespace xserver {

class mariadb_conn;

// The stored options of schema.name (schema empty: the session's default
// schema); the defaults of a new collection when none are stored.
validation_options stored_validation(mariadb_conn& db, const std::string& schema,
                                     const std::string& name);

// Applies a `validation` argument {schema, level} to opts, with the X
// Plugin's errors (5016, 5017, 5021, 5182). creating: create_collection,
// where an absent level means STRICT; otherwise an absent member keeps
// its value in opts.
std::optional<x_error> apply_validation_argument(const Mysqlx::Datatypes::Any& validation,
                                                 bool creating, validation_options& opts);

// Stores opts; with level STRICT, every document already in the collection
// must pass first (5180 and nothing changed otherwise), as MySQL's ALTER
// TABLE checks them.
std::optional<x_error> store_validation(mariadb_conn& db, const std::string& schema,
                                        const std::string& name, const validation_options& opts);

// 5180 for the first of the table's documents the schema refuses.
std::optional<x_error> check_all_documents(mariadb_conn& db, const std::string& table,
                                           const document_validator& v);

} // namespace xserver
