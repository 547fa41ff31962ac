// JSON Schema validation of collection documents, which MySQL 8.0 does with
// JSON_SCHEMA_VALID in a CHECK constraint and MariaDB 10.11 cannot do. Both
// sides use RapidJSON's draft-4 validator, so the failure reports (keyword,
// schema and document locations) are the ones MySQL's sql/json_schema.cc
// builds from the same calls.
#pragma once

#include "mysqlx_datatypes.pb.h"
#include "test/xserver/errors.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace xserver {

// A collection's validation options (modify_collection_options).
struct validation_options {
  bool strict = false;
  std::string schema = R"({"type":"object"})"; // compact JSON text
};

// A validation schema as the client sent it (an Object, or JSON text in a
// string), checked as the X Plugin's meta_schema_validator.cc checks it:
// a JSON object that the draft-4 meta-schema accepts with no unknown
// keyword, whose `$ref`s point into the schema. On success json is the
// schema as compact JSON text; otherwise 5182.
std::optional<x_error> check_validation_schema(const Mysqlx::Datatypes::Any& schema,
                                               std::string& json);
// The same for schema text read back from storage.
std::optional<x_error> check_validation_schema_text(std::string_view text);

// Checks documents against one (already checked) schema.
class document_validator {
public:
  explicit document_validator(const std::string& schema_json);
  ~document_validator();
  document_validator(const document_validator&) = delete;
  document_validator& operator=(const document_validator&) = delete;

  // nullopt if doc (JSON text) is valid; otherwise MySQL's reason, e.g.
  // "The JSON document location '#/i' failed requirement 'type' at JSON
  // Schema location '#/properties/i'".
  std::optional<std::string> check(std::string_view doc) const;

private:
  struct impl;
  std::unique_ptr<impl> m_impl;
};

// 5180, as the X Plugin reports a document its CHECK constraint refused.
x_error schema_mismatch(const std::string& reason);

} // namespace xserver
