// CollectionOptions / CollectionValidation: their state, and the arguments of
// the admin commands create_collection and modify_collection_options built
// from it (MySQL 8.0.19+ X Plugin names). Private header.
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/protocol/value.h"

#include <mysqlx/collection_options.h>
#include <optional>
#include <string>
#include <vector>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

struct collection_options_impl {
  std::optional<bool> reuse;
  bool validation = false;          // VALIDATION given (maybe empty)
  std::optional<std::string> level; // "STRICT" or "OFF"
  std::optional<DbDoc> schema;      // a JSON object
};

/// {schema, name, options: {reuse_existing?, validation?: {schema?, level?}}};
/// without any option, just {schema, name}.
std::vector<cdk::protocol::value_field> create_collection_arguments(const std::string& schema,
                                                                    const std::string& name,
                                                                    const CollectionOptions& o);

/// {schema, name, options: {validation: {schema?, level?}}}; a client error
/// for REUSE or when no validation is given.
cdk::result<std::vector<cdk::protocol::value_field>>
modify_collection_arguments(const std::string& schema, const std::string& name,
                            const CollectionOptions& o);

} // namespace detail
MYSQLX_NAMESPACE_END
