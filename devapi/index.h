// Collection::createIndex(): the X DevAPI index definition (JSON) as the
// arguments of the create_collection_index admin command. Private header.
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/protocol/value.h"

#include <mysqlx/detail/export.h>
#include <string>
#include <vector>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

/// {"fields": [{"field": "$.n", "type": "INT", "required": true,
///   "options": 1, "srid": 4326, "array": false}], "type": "INDEX"|"SPATIAL"}
/// -> {schema, collection, name, unique: false, type, constraint: [{member,
/// type, required, options, srid, array}]}. Unknown keys, a missing field
/// list and wrong value types are client errors naming the key.
cdk::result<std::vector<cdk::protocol::value_field>> index_arguments(const std::string& schema,
                                                                     const std::string& collection,
                                                                     const std::string& name,
                                                                     const std::string& spec);

} // namespace detail
MYSQLX_NAMESPACE_END
