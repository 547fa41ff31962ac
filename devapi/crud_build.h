// Building Crud.Find / Update / Delete messages from a statement's state with
// the expression parser. Private header; the protobuf classes are only
// declared here. Parse errors and unbound placeholders throw mysqlx::Error.
#pragma once

#include "devapi/session_impl.h"

namespace Mysqlx::Crud {
class Find;
class Update;
class Delete;
class Insert;
} // namespace Mysqlx::Crud

MYSQLX_NAMESPACE_BEGIN
namespace detail {

/// Build into `msg`, which may hold an earlier build (it is cleared first).
void build_find(const statement_impl& st, Mysqlx::Crud::Find& msg);
void build_update(const statement_impl& st, Mysqlx::Crud::Update& msg);
void build_delete(const statement_impl& st, Mysqlx::Crud::Delete& msg);
/// The statement's kept message (statement_impl::kept), rebuilt: what
/// execute() sends; valid until the statement's next rebuild.
const Mysqlx::Crud::Find& rebuild_find(statement_impl& st);
const Mysqlx::Crud::Update& rebuild_update(statement_impl& st);
const Mysqlx::Crud::Delete& rebuild_delete(statement_impl& st);
/// Throws a ClientError naming `what` when a field or column name is empty
/// (a null `const char*` arrives as one).
void check_field_name(const std::string& name, const char* what);
/// replaceOne(id, expr("{...}")): a client error, before anything is sent,
/// if the object gives `_id` as a string other than `id` (the server would
/// otherwise replace the document's id); Connector/C++ 8 checks the same.
void check_replacement_id(const Value& expression, const std::string& id);
/// TableInsert: columns and rows of values (an expr() is parsed).
void build_table_insert(const statement_impl& st, Mysqlx::Crud::Insert& msg);

} // namespace detail
MYSQLX_NAMESPACE_END
