// Encoders for the CRUD messages (Mysqlx.Crud.Insert/Find/Update/Delete).
//
// Insert of documents takes the JSON texts as they are: each becomes one
// row with one field, an Expr LITERAL of Scalar V_STRING holding the text
// byte for byte (what MySQL's X Plugin and Connector/C++ expect, facts §2.3).
// Find/Update/Delete are built by the caller from the expression parser's
// output (cdk/parser/expr_parser.h); the protobuf classes are only declared
// here, so callers include mysqlx_crud.pb.h in their .cc files.
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/protocol/value.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace Mysqlx::Crud {
class Find;
class Update;
class Delete;
class Insert;
} // namespace Mysqlx::Crud
namespace Mysqlx::Datatypes {
class Scalar;
} // namespace Mysqlx::Datatypes

namespace cdk::protocol {

struct doc_insert {
  std::string_view schema;
  std::string_view collection;
  std::vector<std::string_view> docs; // JSON texts, sent unchanged
  bool upsert = false;                // addOrReplaceOne(): replace on a duplicate _id
  std::vector<value> args;
};

// Appends one Crud.Insert frame (data_model DOCUMENT). Its reply ends with
// StmtExecuteOk (replies::statement).
status encode_doc_insert(std::string& out, const doc_insert& ins);

// The size of the frame encode_doc_insert() would append for the documents
// docs[first, last) (same schema, upsert flag and args), computed without
// encoding: for splitting an add() whose Insert would exceed the server's
// maximum message size. doc_insert_row_size() is one document's share.
std::size_t doc_insert_size(const doc_insert& ins, std::size_t first, std::size_t last);
std::size_t doc_insert_row_size(std::size_t doc_size);

// A scalar value (not an array or object) as a Mysqlx.Datatypes.Scalar:
// for the args of Find/Update/Delete and literals in expressions.
void to_scalar_message(const value& v, Mysqlx::Datatypes::Scalar& out);

status encode_find(std::string& out, const Mysqlx::Crud::Find& msg);
status encode_update(std::string& out, const Mysqlx::Crud::Update& msg);
status encode_delete(std::string& out, const Mysqlx::Crud::Delete& msg);
// Any Insert (table rows) built by the caller.
status encode_insert(std::string& out, const Mysqlx::Crud::Insert& msg);

} // namespace cdk::protocol
