// Schema, and the parts of Collection and Table that are about the object
// itself (existence, counts, listing); CRUD statements live elsewhere.
#include "cdk/protocol/resultset.h"
#include "devapi/access.h"
#include "devapi/session_impl.h"
#include "devapi/throw_error.h"

#include <mysqlx/schema.h>
#include <mysqlx/session.h>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

namespace pr = cdk::protocol;

object_base::object_base(std::unique_ptr<object_ref> ref) noexcept : m_ref(std::move(ref)) {}
object_base::object_base(const object_base& other)
    : m_ref(std::make_unique<object_ref>(*other.m_ref)) {}
// A move that left the source empty would make getName() on it a null
// dereference: a move copies.
// NOLINTNEXTLINE(performance-noexcept-move-constructor,performance-move-constructor-init)
object_base::object_base(object_base&& other) : object_base(other) {}
object_base& object_base::operator=(const object_base& other) {
  if (this != &other) m_ref = std::make_unique<object_ref>(*other.m_ref);
  return *this;
}
// NOLINTNEXTLINE(performance-noexcept-move-constructor): a move copies
object_base& object_base::operator=(object_base&& other) {
  return *this = other;
}
object_base::~object_base() = default;
const string& object_base::getName() const noexcept {
  return m_ref->name;
}

borrowed_session::borrowed_session(std::shared_ptr<session_impl> sess)
    : session(access::make_session(std::move(sess))) {}
borrowed_session::~borrowed_session() {
  access::impl_of(session).reset(); // so that ~Session() closes nothing
}

Session& object_base::getSession() {
  if (!m_ref->borrowed) m_ref->borrowed = std::make_shared<borrowed_session>(m_ref->sess);
  return m_ref->borrowed->session;
}
const Session& object_base::getSession() const {
  return const_cast<object_base&>(*this).getSession();
}

namespace {

// list_objects: (name, type) rows of a schema, optionally filtered by a LIKE
// pattern. Type is COLLECTION, TABLE, VIEW or COLLECTION_VIEW.
std::vector<std::pair<std::string, std::string>>
list_objects(session_impl& s, const std::string& schema, const std::string& pattern = {}) {
  std::vector<pr::value_field> args{{"schema", pr::value::of_string(schema)}};
  if (!pattern.empty()) args.push_back({"pattern", pr::value::of_string(pattern)});
  auto reply = s.admin("list_objects", std::move(args));
  auto sets = value_or_throw(pr::decode_result_sets(reply));
  std::vector<std::pair<std::string, std::string>> out;
  if (sets.empty()) return out;
  for (const auto& row : sets[0].rows)
    if (row.size() >= 2 && row[0].is_text() && row[1].is_text())
      out.emplace_back(row[0].bytes, row[1].bytes);
  return out;
}

// LIKE pattern matching exactly `name`.
std::string like_exact(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c == '%' || c == '_' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

bool is_collection(const std::string& type) {
  return type == "COLLECTION";
}

} // namespace

std::optional<std::string> object_type(session_impl& s, const std::string& schema,
                                       const std::string& name) {
  for (auto& [n, type] : list_objects(s, schema, like_exact(name)))
    if (n == name) return type;
  return std::nullopt;
}

// getCollection/getTable with `check`: throws unless `name` exists in the
// schema `ref` names, as a table or view (`table`) or as a collection.
void require(const object_ref& ref, const std::string& name, bool table) {
  auto type = object_type(*ref.sess, ref.name, name);
  const bool ok = type && (table ? (*type == "TABLE" || *type == "VIEW") : *type == "COLLECTION");
  if (!ok)
    throw_error(cdk::error::client(cdk::client_errc::usage,
                                   std::string(table ? "table '" : "collection '") + name +
                                       "' does not exist in schema '" + ref.name + "'"));
}

} // namespace detail

using detail::access;
namespace pr = cdk::protocol;

std::uint64_t detail::count_rows(const object_ref& ref) {
  // Names quoted: a backtick in a collection name must not end the identifier.
  auto r = ref.sess->sql("SELECT COUNT(*) FROM " + quote_id(ref.schema) + "." + quote_id(ref.name));
  auto res = access::make_result<SqlResult>(make_result(ref.sess, r));
  return res.fetchOne()[0].get<std::uint64_t>();
}

bool Schema::existsInDatabase() const {
  auto r = m_ref->sess->sql("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE "
                            "SCHEMA_NAME = ?",
                            {pr::value::of_string(m_ref->name)});
  auto sets = detail::value_or_throw(pr::decode_result_sets(r));
  return !sets.empty() && !sets[0].rows.empty();
}

Collection Schema::createCollection(const string& name, bool reuse) {
  // 1050 (table exists) is tolerated with `reuse`, as the official
  // connectors do: reuse_existing is unknown to MySQL 5.7.
  auto r = m_ref->sess->admin(
      "create_collection",
      {{"schema", pr::value::of_string(m_ref->name)}, {"name", pr::value::of_string(name)}},
      reuse ? std::vector<std::uint32_t>{1050} : std::vector<std::uint32_t>{});
  (void)r;
  m_ref->sess->implicit_commit();
  return getCollection(name, false);
}

Collection Schema::getCollection(const string& name, bool check) {
  if (check) detail::require(*m_ref, name, false);
  return access::make_object<Collection>(m_ref->sess, m_ref->name, name);
}

void Schema::dropCollection(const string& name) {
  // Dropping a collection that does not exist is not an error (1051 tolerated).
  m_ref->sess->admin(
      "drop_collection",
      {{"schema", pr::value::of_string(m_ref->name)}, {"name", pr::value::of_string(name)}},
      {1051});
  m_ref->sess->implicit_commit();
}

CollectionList Schema::getCollections() {
  std::vector<Collection> out;
  for (const auto& n : getCollectionNames())
    out.push_back(access::make_object<Collection>(m_ref->sess, m_ref->name, n));
  return out;
}

detail::item_list<std::string> Schema::getCollectionNames() {
  std::vector<std::string> out;
  for (auto& [n, type] : detail::list_objects(*m_ref->sess, m_ref->name))
    if (detail::is_collection(type)) out.push_back(n);
  return out;
}

Table Schema::getTable(const string& name, bool check) {
  if (check) detail::require(*m_ref, name, true);
  return access::make_object<Table>(m_ref->sess, m_ref->name, name);
}

TableList Schema::getTables() {
  std::vector<Table> out;
  for (const auto& n : getTableNames())
    out.push_back(access::make_object<Table>(m_ref->sess, m_ref->name, n));
  return out;
}

detail::item_list<std::string> Schema::getTableNames() {
  std::vector<std::string> out;
  for (auto& [n, type] : detail::list_objects(*m_ref->sess, m_ref->name))
    if (type == "TABLE" || type == "VIEW") out.push_back(n);
  return out;
}

Table Schema::getCollectionAsTable(const string& name, bool check) {
  if (check) getCollection(name, true);
  return access::make_object<Table>(m_ref->sess, m_ref->name, name);
}

Schema Collection::getSchema() const {
  return access::make_object<Schema>(m_ref->sess, std::string(), m_ref->schema);
}

bool Collection::existsInDatabase() const {
  auto type = detail::object_type(*m_ref->sess, m_ref->schema, m_ref->name);
  return type && *type == "COLLECTION";
}

Schema Table::getSchema() const {
  return access::make_object<Schema>(m_ref->sess, std::string(), m_ref->schema);
}

bool Table::existsInDatabase() const {
  // A collection's table counts: getCollectionAsTable() gives such a Table.
  auto type = detail::object_type(*m_ref->sess, m_ref->schema, m_ref->name);
  return type && (*type == "TABLE" || *type == "VIEW" || *type == "COLLECTION");
}

Schema::Schema(Session& sess, const string& name) : Schema(sess.getSchema(name)) {}
Schema::Schema(Session& sess) : Schema(sess.getDefaultSchema()) {}
// getCollection() and getTable() do not change the Schema: without `check` they
// only make the object.
Collection::Collection(const Schema& sch, const string& name)
    : Collection(const_cast<Schema&>(sch).getCollection(name)) {}
Table::Table(const Schema& sch, const string& name)
    : Table(const_cast<Schema&>(sch).getTable(name)) {}
Table::Table(const Schema& sch, const string& name, bool is_view) : Table(sch, name) {
  m_ref->is_view = is_view ? 1 : 0;
}

bool Table::isView() {
  if (m_ref->is_view >= 0) return m_ref->is_view == 1;
  auto type = detail::object_type(*m_ref->sess, m_ref->schema, m_ref->name);
  return type && *type == "VIEW";
}

MYSQLX_NAMESPACE_END
