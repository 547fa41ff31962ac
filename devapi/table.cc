// Table and its statements: insert, select, update, remove (data model
// TABLE: names are columns, expressions are parsed in table mode).
#include "cdk/protocol/crud.h"
#include "devapi/access.h"
#include "devapi/async.h"
#include "devapi/crud_build.h"
#include "devapi/prepared.h"
#include "devapi/session_impl.h"
#include "devapi/throw_error.h"
#include "mysqlx_crud.pb.h"

#include <mysqlx/table.h>

MYSQLX_NAMESPACE_BEGIN

using detail::access;
namespace pr = cdk::protocol;

namespace {

std::unique_ptr<detail::statement_impl> new_statement(const detail::object_ref& ref) {
  auto st = std::make_unique<detail::statement_impl>();
  st->sess = ref.sess;
  st->schema = ref.schema;
  st->name = ref.name;
  st->table = true;
  return st;
}

// Prepared on a second execution, like the collection statements.
template <typename M> Result run(detail::statement_impl& st, const M& msg) {
  auto reply = detail::run_statement(st, msg);
  return access::make_result<Result>(detail::make_result(st.sess, reply));
}

} // namespace

std::uint64_t Table::count() {
  return detail::count_rows(*m_ref);
}

TableInsert Table::make_insert(std::vector<std::string>&& columns) {
  auto st = new_statement(*m_ref);
  st->columns = std::move(columns);
  return access::make_statement<TableInsert>(std::move(st));
}
TableSelect Table::make_select(std::vector<Value>&& projections) {
  auto st = new_statement(*m_ref);
  st->fields = std::move(projections);
  return access::make_statement<TableSelect>(std::move(st));
}
// The statements built from their table, as Connector/C++ 8 allows.
TableInsert::TableInsert(const Table& tbl) : statement_base(new_statement(access::ref(tbl))) {}
TableSelect::TableSelect(const Table& tbl) : statement_base(new_statement(access::ref(tbl))) {}
TableSelect::TableSelect(const Table& tbl, std::vector<Value>&& projections)
    : statement_base(new_statement(access::ref(tbl))) {
  m_impl->fields = std::move(projections);
}
TableUpdate::TableUpdate(const Table& tbl, const string& condition)
    : statement_base(new_statement(access::ref(tbl))) {
  where(condition);
}
TableRemove::TableRemove(const Table& tbl, const string& condition)
    : statement_base(new_statement(access::ref(tbl))) {
  where(condition);
}

TableUpdate Table::update() {
  return access::make_statement<TableUpdate>(new_statement(*m_ref));
}
TableRemove Table::remove() {
  return access::make_statement<TableRemove>(new_statement(*m_ref));
}

TableInsert& TableInsert::add_row(std::vector<Value>&& values) {
  // Row::set() copies (Values share documents and arrays, so this is cheap).
  Row row;
  for (std::size_t i = 0; i < values.size(); ++i) row.set(static_cast<col_count_t>(i), values[i]);
  m_impl->rows.push_back(std::move(row));
  return *this;
}
TableInsert& TableInsert::values(const Row& row) {
  return add_rows(std::vector<Row>{row});
}
TableInsert& TableInsert::add_rows(std::vector<Row>&& rows) {
  auto& r = m_impl->rows;
  r.insert(r.end(), std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));
  return *this;
}
Result TableInsert::execute() {
  if (m_impl->rows.empty()) {
    auto impl = std::make_unique<detail::result_impl>();
    impl->sess = m_impl->sess;
    return access::make_result<Result>(std::move(impl));
  }
  Mysqlx::Crud::Insert msg;
  detail::build_table_insert(*m_impl, msg);
  // Inserts are not prepared: their rows are values, not placeholders.
  auto reply = m_impl->sess->run([&](std::string& out) { return pr::encode_insert(out, msg); });
  return access::make_result<Result>(detail::make_result(m_impl->sess, reply));
}
Future<Result> TableInsert::executeAsync() {
  if (m_impl->rows.empty()) {
    auto impl = std::make_unique<detail::result_impl>();
    impl->sess = m_impl->sess;
    return access::make_future<Result>(detail::async_ready(std::move(impl)));
  }
  Mysqlx::Crud::Insert msg;
  detail::build_table_insert(*m_impl, msg);
  return access::make_future<Result>(detail::async_send(
      m_impl->sess, [&](std::string& out) { return pr::encode_insert(out, msg); },
      pr::replies::statement, detail::finish_whole));
}

TableSelect& TableSelect::where(const string& condition) {
  m_impl->changed();
  m_impl->condition = condition;
  return *this;
}
TableSelect& TableSelect::set_group_by(std::vector<std::string>&& exprs) {
  m_impl->changed();
  m_impl->group_by = std::move(exprs);
  return *this;
}
TableSelect& TableSelect::having(const string& condition) {
  m_impl->changed();
  m_impl->having = condition;
  return *this;
}
TableSelect& TableSelect::set_order_by(std::vector<std::string>&& specs) {
  m_impl->changed();
  m_impl->sort = std::move(specs);
  return *this;
}
// limit() and offset() do not deallocate: a prepared statement takes their
// values with each Execute (prepared.cc).
TableSelect& TableSelect::limit(std::uint64_t rows) {
  m_impl->limit_changing();
  m_impl->limit = rows;
  return *this;
}
TableSelect& TableSelect::offset(std::uint64_t rows) {
  m_impl->limit_changing();
  m_impl->offset = rows;
  return *this;
}
TableSelect& TableSelect::bind(const string& name, const Value& value) {
  m_impl->binds.emplace_back(name, value);
  return *this;
}
TableSelect& TableSelect::lockShared(LockContention contention) {
  m_impl->changed();
  m_impl->lock = 1;
  m_impl->contention = contention;
  return *this;
}
TableSelect& TableSelect::lockExclusive(LockContention contention) {
  m_impl->changed();
  m_impl->lock = 2;
  m_impl->contention = contention;
  return *this;
}
RowResult TableSelect::execute() {
  const Mysqlx::Crud::Find& msg = detail::rebuild_find(*m_impl);
  // Prepared on a second execution too; the rows are streamed.
  return access::make_result<RowResult>(detail::run_statement(*m_impl, msg));
}
Future<RowResult> TableSelect::executeAsync() {
  const Mysqlx::Crud::Find& msg = detail::rebuild_find(*m_impl);
  return access::make_future<RowResult>(
      detail::run_statement_async(*m_impl, msg, detail::finish_rows));
}

TableUpdate& TableUpdate::set(const string& column, const Value& value) {
  detail::check_field_name(column, "set()");
  m_impl->changed();
  m_impl->ops.push_back({Mysqlx::Crud::UpdateOperation::SET, column, value});
  return *this;
}
TableUpdate& TableUpdate::where(const string& condition) {
  m_impl->changed();
  m_impl->condition = condition;
  return *this;
}
TableUpdate& TableUpdate::set_order_by(std::vector<std::string>&& specs) {
  m_impl->changed();
  m_impl->sort = std::move(specs);
  return *this;
}
TableUpdate& TableUpdate::limit(std::uint64_t rows) {
  m_impl->limit_changing();
  m_impl->limit = rows;
  return *this;
}
TableUpdate& TableUpdate::bind(const string& name, const Value& value) {
  m_impl->binds.emplace_back(name, value);
  return *this;
}
Result TableUpdate::execute() {
  const Mysqlx::Crud::Update& msg = detail::rebuild_update(*m_impl);
  return run(*m_impl, msg);
}
Future<Result> TableUpdate::executeAsync() {
  const Mysqlx::Crud::Update& msg = detail::rebuild_update(*m_impl);
  return access::make_future<Result>(
      detail::run_statement_async(*m_impl, msg, detail::finish_whole));
}

TableRemove& TableRemove::where(const string& condition) {
  m_impl->changed();
  m_impl->condition = condition;
  return *this;
}
TableRemove& TableRemove::set_order_by(std::vector<std::string>&& specs) {
  m_impl->changed();
  m_impl->sort = std::move(specs);
  return *this;
}
TableRemove& TableRemove::limit(std::uint64_t rows) {
  m_impl->limit_changing();
  m_impl->limit = rows;
  return *this;
}
TableRemove& TableRemove::bind(const string& name, const Value& value) {
  m_impl->binds.emplace_back(name, value);
  return *this;
}
Result TableRemove::execute() {
  const Mysqlx::Crud::Delete& msg = detail::rebuild_delete(*m_impl);
  return run(*m_impl, msg);
}
Future<Result> TableRemove::executeAsync() {
  const Mysqlx::Crud::Delete& msg = detail::rebuild_delete(*m_impl);
  return access::make_future<Result>(
      detail::run_statement_async(*m_impl, msg, detail::finish_whole));
}

MYSQLX_NAMESPACE_END
