// Collection.find / modify / remove and the single-document helpers.
#include "cdk/json/id_inject.h"
#include "cdk/json/id_scan.h"
#include "cdk/json/json_string.h"
#include "cdk/protocol/crud.h"
#include "devapi/access.h"
#include "devapi/async.h"
#include "devapi/crud_build.h"
#include "devapi/prepared.h"
#include "devapi/session_impl.h"
#include "devapi/throw_error.h"
#include "mysqlx_crud.pb.h"

#include <mysqlx/collection.h>

MYSQLX_NAMESPACE_BEGIN

using detail::access;
namespace pr = cdk::protocol;
using Op = Mysqlx::Crud::UpdateOperation;

namespace {

std::unique_ptr<detail::statement_impl> new_statement(const detail::object_ref& ref,
                                                      const std::string& condition) {
  auto st = std::make_unique<detail::statement_impl>();
  st->sess = ref.sess;
  st->schema = ref.schema;
  st->name = ref.name;
  st->condition = condition;
  return st;
}

void add_op(detail::statement_impl& st, int kind, std::string path, Value v = Value()) {
  st.ops.push_back({kind, std::move(path), std::move(v)});
}

// The text to store for replaceOne()/addOrReplaceOne(): `doc` with `_id` =
// `id`. A document whose own `_id` differs is refused before anything is sent.
std::string with_given_id(const std::string& id, const Value& doc) {
  const std::string_view text = detail::doc_text(doc, 0);
  const cdk::json::id_scan scan = cdk::json::scan_for_id(text);
  if (!scan.ok()) detail::throw_error(cdk::json::bad_document_error(1, scan));
  if (scan.status == cdk::json::id_scan_status::no_id)
    return detail::value_or_throw(cdk::json::with_id(text, id));
  std::string expected;
  cdk::json::append_json_string(expected, id);
  // Compared as JSON text: the same id written with escapes is refused too,
  // which errs on the safe side.
  if (scan.raw_id(text) != expected)
    detail::throw_error(cdk::error::client(cdk::client_errc::bad_document,
                                           "the document's _id " + std::string(scan.raw_id(text)) +
                                               " differs from the id given (" + expected +
                                               "); nothing was sent"));
  return std::string(text);
}

} // namespace

// The statements built from their collection, as Connector/C++ 8 allows.
CollectionFind::CollectionFind(const Collection& coll)
    : statement_base(new_statement(access::ref(coll), std::string())) {}
CollectionFind::CollectionFind(const Collection& coll, const string& condition)
    : statement_base(new_statement(access::ref(coll), condition)) {}
CollectionModify::CollectionModify(const Collection& coll, const string& condition)
    : statement_base(new_statement(access::ref(coll), condition)) {}
CollectionRemove::CollectionRemove(const Collection& coll, const string& condition)
    : statement_base(new_statement(access::ref(coll), condition)) {}

CollectionFind Collection::find() {
  return access::make_statement<CollectionFind>(new_statement(*m_ref, std::string()));
}
CollectionFind Collection::find(const string& condition) {
  return access::make_statement<CollectionFind>(new_statement(*m_ref, condition));
}
CollectionModify Collection::modify(const string& condition) {
  return access::make_statement<CollectionModify>(new_statement(*m_ref, condition));
}
CollectionRemove Collection::remove(const string& condition) {
  return access::make_statement<CollectionRemove>(new_statement(*m_ref, condition));
}

std::uint64_t Collection::count() {
  return detail::count_rows(*m_ref);
}

DbDoc Collection::getOne(const string& id) {
  return find("_id = :id").bind("id", id).execute().fetchOne();
}
Result Collection::removeOne(const string& id) {
  return remove("_id = :id").bind("id", id).execute();
}
Result Collection::replaceOne(const string& id, const Value& doc) {
  CollectionModify m = modify("_id = :id");
  // An expr() document is the server's to evaluate (`{"n": n + 1}` reads the
  // stored document), as in Connector/C++ 8.
  if (access::is_expression(doc)) detail::check_replacement_id(doc, id);
  const Value replacement = access::is_expression(doc) ? doc : Value(DbDoc(with_given_id(id, doc)));
  add_op(access::impl(m), Op::ITEM_SET, "$", replacement);
  return m.bind("id", id).execute();
}
Result Collection::addOrReplaceOne(const string& id, const Value& doc) {
  const std::string text = with_given_id(id, doc);
  pr::doc_insert ins;
  ins.schema = m_ref->schema;
  ins.collection = m_ref->name;
  ins.docs = {text};
  ins.upsert = true;
  auto reply = m_ref->sess->run([&](std::string& out) { return pr::encode_doc_insert(out, ins); });
  return access::make_result<Result>(detail::make_result(m_ref->sess, reply));
}

// CollectionFind
CollectionFind& CollectionFind::set_fields(std::vector<Value>&& projections) {
  m_impl->changed();
  m_impl->fields = std::move(projections);
  return *this;
}
CollectionFind& CollectionFind::set_group_by(std::vector<std::string>&& exprs) {
  m_impl->changed();
  m_impl->group_by = std::move(exprs);
  return *this;
}
CollectionFind& CollectionFind::having(const string& condition) {
  m_impl->changed();
  m_impl->having = condition;
  return *this;
}
CollectionFind& CollectionFind::set_sort(std::vector<std::string>&& specs) {
  m_impl->changed();
  m_impl->sort = std::move(specs);
  return *this;
}
// limit() and offset() do not deallocate: a prepared statement takes their
// values with each Execute (prepared.cc).
CollectionFind& CollectionFind::limit(std::uint64_t rows) {
  m_impl->limit_changing();
  m_impl->limit = rows;
  return *this;
}
CollectionFind& CollectionFind::offset(std::uint64_t rows) {
  m_impl->limit_changing();
  m_impl->offset = rows;
  return *this;
}
CollectionFind& CollectionFind::bind(const string& name, const Value& value) {
  m_impl->binds.emplace_back(name, value);
  return *this;
}
CollectionFind& CollectionFind::lockShared(LockContention contention) {
  m_impl->changed();
  m_impl->lock = 1;
  m_impl->contention = contention;
  return *this;
}
CollectionFind& CollectionFind::lockExclusive(LockContention contention) {
  m_impl->changed();
  m_impl->lock = 2;
  m_impl->contention = contention;
  return *this;
}
DocResult CollectionFind::execute() {
  const Mysqlx::Crud::Find& msg = detail::rebuild_find(*m_impl);
  return access::make_result<DocResult>(detail::run_statement(*m_impl, msg));
}
Future<DocResult> CollectionFind::executeAsync() {
  const Mysqlx::Crud::Find& msg = detail::rebuild_find(*m_impl);
  return access::make_future<DocResult>(
      detail::run_statement_async(*m_impl, msg, detail::finish_rows));
}

// CollectionModify
CollectionModify& CollectionModify::set(const string& field, const Value& value) {
  detail::check_field_name(field, "set()");
  m_impl->changed();
  add_op(*m_impl, Op::ITEM_SET, field, value);
  return *this;
}
CollectionModify& CollectionModify::unset_fields(std::vector<std::string>&& fields) {
  m_impl->changed();
  for (auto& f : fields) add_op(*m_impl, Op::ITEM_REMOVE, std::move(f));
  return *this;
}
CollectionModify& CollectionModify::arrayInsert(const string& field, const Value& value) {
  detail::check_field_name(field, "arrayInsert()");
  m_impl->changed();
  add_op(*m_impl, Op::ARRAY_INSERT, field, value);
  return *this;
}
CollectionModify& CollectionModify::arrayAppend(const string& field, const Value& value) {
  detail::check_field_name(field, "arrayAppend()");
  m_impl->changed();
  add_op(*m_impl, Op::ARRAY_APPEND, field, value);
  return *this;
}
CollectionModify& CollectionModify::arrayDelete(const string& field) {
  detail::check_field_name(field, "arrayDelete()");
  m_impl->changed();
  add_op(*m_impl, Op::ITEM_REMOVE, field);
  return *this;
}
CollectionModify& CollectionModify::patch(const string& json_patch) {
  m_impl->changed();
  add_op(*m_impl, Op::MERGE_PATCH, std::string(), Value(json_patch));
  return *this;
}
CollectionModify& CollectionModify::set_sort(std::vector<std::string>&& specs) {
  m_impl->changed();
  m_impl->sort = std::move(specs);
  return *this;
}
CollectionModify& CollectionModify::limit(std::uint64_t rows) {
  m_impl->limit_changing();
  m_impl->limit = rows;
  return *this;
}
CollectionModify& CollectionModify::bind(const string& name, const Value& value) {
  m_impl->binds.emplace_back(name, value);
  return *this;
}
Result CollectionModify::execute() {
  const Mysqlx::Crud::Update& msg = detail::rebuild_update(*m_impl);
  auto reply = detail::run_statement(*m_impl, msg);
  return access::make_result<Result>(detail::make_result(m_impl->sess, reply));
}
Future<Result> CollectionModify::executeAsync() {
  const Mysqlx::Crud::Update& msg = detail::rebuild_update(*m_impl);
  return access::make_future<Result>(
      detail::run_statement_async(*m_impl, msg, detail::finish_whole));
}

// CollectionRemove
CollectionRemove& CollectionRemove::set_sort(std::vector<std::string>&& specs) {
  m_impl->changed();
  m_impl->sort = std::move(specs);
  return *this;
}
CollectionRemove& CollectionRemove::limit(std::uint64_t rows) {
  m_impl->limit_changing();
  m_impl->limit = rows;
  return *this;
}
CollectionRemove& CollectionRemove::bind(const string& name, const Value& value) {
  m_impl->binds.emplace_back(name, value);
  return *this;
}
Result CollectionRemove::execute() {
  const Mysqlx::Crud::Delete& msg = detail::rebuild_delete(*m_impl);
  auto reply = detail::run_statement(*m_impl, msg);
  return access::make_result<Result>(detail::make_result(m_impl->sess, reply));
}
Future<Result> CollectionRemove::executeAsync() {
  const Mysqlx::Crud::Delete& msg = detail::rebuild_delete(*m_impl);
  return access::make_future<Result>(
      detail::run_statement_async(*m_impl, msg, detail::finish_whole));
}

MYSQLX_NAMESPACE_END
