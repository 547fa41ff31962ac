// Collection and its statements: add, find, modify, remove.
//
//   coll.add(R"({"item":"pen"})", doc, docs_vector).add(more.begin(), more.end()).execute();
//   coll.find("price < :max").fields("item", "price").sort("price DESC").limit(10)
//       .bind("max", 100).lockShared(LockContention::NOWAIT).execute();
//   coll.modify("item = 'pen'").set("price", 2).unset("tmp").arrayAppend("tags", "blue")
//       .patch(R"({"stock": null})").execute();
//   coll.remove("price > 100").sort("price").limit(1).execute();
//
// Each builder keeps its arguments and does nothing until execute(); a
// statement can be changed and executed again. Conditions and sort
// specifications are X DevAPI expressions, parsed when executed.
#pragma once

#include <cstdint>
#include <memory>
#include <mysqlx/detail/args.h>
#include <mysqlx/detail/export.h>
#include <mysqlx/detail/list.h>
#include <mysqlx/detail/object.h>
#include <mysqlx/result.h>
#include <mysqlx/statement.h>
#include <mysqlx/value.h>
#include <string>
#include <vector>

MYSQLX_NAMESPACE_BEGIN

class Schema;

class MYSQLX_EXPORT CollectionAdd : public detail::statement_base {
public:
  /// Documents: JSON strings, DbDocs, containers of them, or an iterator range.
  template <typename... D> CollectionAdd& add(const D&... docs) {
    return add_documents(detail::collect<Value>(docs...));
  }
  /// Adds all documents atomically; see Result::getGeneratedIds().
  Result execute();

private:
  using statement_base::statement_base;
  CollectionAdd& add_documents(std::vector<Value>&& docs);
  friend struct detail::access;
};

class MYSQLX_EXPORT CollectionFind : public detail::statement_base,
                                     public detail::bind_map<CollectionFind> {
public:
  /// Projections: field names or expressions, e.g. `expr("{'n': name}")`.
  template <typename... F> CollectionFind& fields(const F&... projections) {
    return set_fields(detail::collect<Value>(projections...));
  }
  template <typename... F> CollectionFind& groupBy(const F&... exprs) {
    return set_group_by(detail::collect<std::string>(exprs...));
  }
  CollectionFind& having(const std::string& condition);
  /// "field [ASC|DESC]", ...
  template <typename... S> CollectionFind& sort(const S&... specs) {
    return set_sort(detail::collect<std::string>(specs...));
  }
  CollectionFind& limit(std::uint64_t rows);
  CollectionFind& offset(std::uint64_t rows);
  /// Value of the placeholder `:name` in the condition.
  CollectionFind& bind(const std::string& name, const Value& value);
  using bind_map::bind;
  CollectionFind& lockShared(LockContention contention = LockContention::DEFAULT);
  CollectionFind& lockExclusive(LockContention contention = LockContention::DEFAULT);
  DocResult execute();

private:
  using statement_base::statement_base;
  CollectionFind& set_fields(std::vector<Value>&& projections);
  CollectionFind& set_group_by(std::vector<std::string>&& exprs);
  CollectionFind& set_sort(std::vector<std::string>&& specs);
  friend struct detail::access;
};

class MYSQLX_EXPORT CollectionModify : public detail::statement_base,
                                       public detail::bind_map<CollectionModify> {
public:
  /// A value, a DbDoc, or an expression (`expr("n + 1")`).
  CollectionModify& set(const Field& field, const Value& value);
  template <typename... F> CollectionModify& unset(const F&... fields) {
    return unset_fields(detail::collect<std::string>(fields...));
  }
  CollectionModify& arrayInsert(const Field& field, const Value& value);
  CollectionModify& arrayAppend(const Field& field, const Value& value);
  CollectionModify& arrayDelete(const Field& field);
  /// A JSON merge patch (RFC 7396): `null` removes a field.
  CollectionModify& patch(const std::string& json_patch);
  template <typename... S> CollectionModify& sort(const S&... specs) {
    return set_sort(detail::collect<std::string>(specs...));
  }
  CollectionModify& limit(std::uint64_t rows);
  CollectionModify& bind(const std::string& name, const Value& value);
  using bind_map::bind;
  Result execute();

private:
  using statement_base::statement_base;
  CollectionModify& unset_fields(std::vector<std::string>&& fields);
  CollectionModify& set_sort(std::vector<std::string>&& specs);
  friend struct detail::access;
};

class MYSQLX_EXPORT CollectionRemove : public detail::statement_base,
                                       public detail::bind_map<CollectionRemove> {
public:
  template <typename... S> CollectionRemove& sort(const S&... specs) {
    return set_sort(detail::collect<std::string>(specs...));
  }
  CollectionRemove& limit(std::uint64_t rows);
  CollectionRemove& bind(const std::string& name, const Value& value);
  using bind_map::bind;
  Result execute();

private:
  using statement_base::statement_base;
  CollectionRemove& set_sort(std::vector<std::string>&& specs);
  friend struct detail::access;
};

/// A document collection (see detail::object_base for copies and lifetime).
class MYSQLX_EXPORT Collection : public detail::object_base {
public:
  Schema getSchema() const;
  bool existsInDatabase() const;
  std::uint64_t count();

  template <typename... D> CollectionAdd add(const D&... docs) {
    return add_documents(detail::collect<Value>(docs...));
  }
  CollectionFind find();
  CollectionFind find(const std::string& condition);
  CollectionModify modify(const std::string& condition);
  CollectionRemove remove(const std::string& condition);

  /// The document with this `_id`, or a null DbDoc.
  DbDoc getOne(const std::string& id);
  Result removeOne(const std::string& id);
  /// Replaces the document with this `_id`; `doc` (a DbDoc or JSON text)
  /// must have no `_id` or the same one, else a client error before anything
  /// is sent.
  Result replaceOne(const std::string& id, const Value& doc);
  Result addOrReplaceOne(const std::string& id, const Value& doc);

  /// `spec` is a JSON index definition: `{"fields": [{"field": "$.n", "type": "INT"}]}`.
  void createIndex(const std::string& name, const std::string& spec);
  void dropIndex(const std::string& name);

private:
  using object_base::object_base;
  CollectionAdd add_documents(std::vector<Value>&& docs);
  friend struct detail::access;
};

using CollectionList = detail::item_list<Collection>;

MYSQLX_NAMESPACE_END
