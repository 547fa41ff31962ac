// Schema: a database, and the collections and tables in it.
#pragma once

#include <memory>
#include <mysqlx/collection.h>
#include <mysqlx/collection_options.h>
#include <mysqlx/detail/export.h>
#include <mysqlx/detail/list.h>
#include <mysqlx/detail/object.h>
#include <mysqlx/table.h>
#include <string>
#include <utility>

MYSQLX_NAMESPACE_BEGIN

/// A schema of a session (see detail::object_base for copies and lifetime).
/// Getting one costs no round trip unless `check` is true.
class MYSQLX_EXPORT Schema : public detail::object_base {
public:
  /// The same as `sess.getSchema(name)`: no round trip.
  Schema(Session& sess, const string& name);
  /// The same as `sess.getDefaultSchema()`: throws if the settings named none.
  explicit Schema(Session& sess);

  /// Asks the server; one round trip.
  bool existsInDatabase() const;

  /// With `reuse`, an existing collection is returned instead of an error.
  Collection createCollection(const string& name, bool reuse = false);
  /// With options (see CollectionOptions): reuse and a validation schema
  /// (MySQL 8.0.19+). Throws mysqlx::Error for bad options, before any round
  /// trip, and for the server's refusal (an invalid schema: 5182).
  Collection createCollection(const string& name, const CollectionOptions& options);
  /// The options as JSON text (see CollectionOptions).
  Collection createCollection(const string& name, const char* options) {
    return createCollection(name, CollectionOptions(options));
  }
  /// The options as pairs, as CollectionOptions' constructor takes them.
  template <typename O, typename V, typename... R>
  Collection createCollection(const string& name, O opt, V&& value, R&&... rest) {
    return createCollection(
        name, CollectionOptions(opt, std::forward<V>(value), std::forward<R>(rest)...));
  }
  /// Changes an existing collection's validation (level, schema or both; what
  /// is not given is kept); REUSE is refused. One round trip; a STRICT level
  /// fails (5180) if a stored document does not match the schema.
  void modifyCollection(const string& name, const CollectionOptions& options);
  /// The options as pairs, as CollectionOptions' constructor takes them.
  template <typename O, typename V, typename... R>
  void modifyCollection(const string& name, O opt, V&& value, R&&... rest) {
    modifyCollection(name,
                     CollectionOptions(opt, std::forward<V>(value), std::forward<R>(rest)...));
  }
  /// With `check`, throws if the collection does not exist.
  Collection getCollection(const string& name, bool check = false);
  /// A missing collection is no error; one round trip.
  void dropCollection(const string& name);
  /// The schema's collections; one round trip.
  CollectionList getCollections();
  /// The names of its collections; one round trip.
  detail::item_list<std::string> getCollectionNames();

  /// No round trip unless `check` is true (then throws unless a table or view
  /// of that name exists).
  Table getTable(const string& name, bool check = false);
  /// The schema's tables and views (not its collections); one round trip.
  TableList getTables();
  /// The names of its tables and views; one round trip.
  detail::item_list<std::string> getTableNames();
  /// A collection seen as a table with columns `doc` and `_id`.
  Table getCollectionAsTable(const string& name, bool check = true);

private:
  using object_base::object_base;
  friend struct detail::access;
};

using SchemaList = detail::item_list<Schema>;

MYSQLX_NAMESPACE_END
