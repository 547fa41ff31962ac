// The SQL for one document row of a DOCUMENT-model Crud.Insert, with the
// server's `_id` rule (facts section 2.3): JSON text (V_STRING, V_OCTETS
// plain/JSON), an Object, or a placeholder bound to one of those is checked
// for a top-level `_id`; anything else is inserted as it is, without an id.
#pragma once

#include "cdk/foundation/error.h"
#include "mysqlx_crud.pb.h"
#include "test/xserver/json_text.h"

#include <functional>
#include <optional>
#include <string>

namespace xserver {

struct rendered_doc {
  std::string sql;       // SQL expression for the doc column
  bool id_added = false; // the generated id was used
};

// make_id is called only for a document that lacks `_id` (and only when it is
// set: 5.7 emulation passes none). quote makes an SQL string literal.
// JSON text with escapes is stored as MySQL would print it back (`dialect`):
// MariaDB matches '$._id' against a key as written, so a key written
// "\u005fid" was not found, where MySQL, which stores parsed JSON, finds it.
cdk::result<rendered_doc>
render_document(const Mysqlx::Expr::Expr& expr,
                const google::protobuf::RepeatedPtrField<Mysqlx::Datatypes::Scalar>& args,
                const std::function<std::string(std::string_view)>& quote,
                const std::function<std::string()>* make_id,
                json_dialect dialect = json_dialect::mysql80);

// An Object/Array/literal tree as JSON text; nullopt if it holds anything
// that only SQL can evaluate (functions, operators, identifiers...).
std::optional<std::string>
expr_to_json(const Mysqlx::Expr::Expr& expr,
             const google::protobuf::RepeatedPtrField<Mysqlx::Datatypes::Scalar>& args);

} // namespace xserver
