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
#include <mysqlx/future.h>
#include <mysqlx/result.h>
#include <mysqlx/statement.h>
#include <mysqlx/value.h>
#include <string>
#include <vector>

MYSQLX_NAMESPACE_BEGIN

class Schema;
class Collection;

/// Collection::add(): documents to insert; nothing is sent until execute().
class MYSQLX_EXPORT CollectionAdd : public detail::statement_base {
public:
  /// The same as `coll.add()`.
  CollectionAdd(const Collection& coll); // NOLINT: implicit, as in Connector/C++
  /// Documents: JSON strings, DbDocs, containers of them, or an iterator range.
  template <typename... D> CollectionAdd& add(const D&... docs) {
    return add_documents(detail::collect<Value>(docs...));
  }
  /// Adds all documents atomically; see Result::getGeneratedIds().
  Result execute();
  /// Sends the add now and returns at once (future.h); its ids are its
  /// own, as with execute(). An add too large to travel in one message is
  /// run now, as execute() does, and its future is ready.
  Future<Result> executeAsync();

private:
  using statement_base::statement_base;
  CollectionAdd& add_documents(std::vector<Value>&& docs);
  friend struct detail::access;
};

/// Collection::find(): a query for documents. Executed again unchanged (bound
/// values aside), it runs as a statement prepared on the server.
class MYSQLX_EXPORT CollectionFind : public detail::statement_base,
                                     public detail::bind_map<CollectionFind> {
public:
  /// The same as `coll.find()`.
  CollectionFind(const Collection& coll); // NOLINT: implicit, as in Connector/C++
  /// The same as `coll.find(condition)`.
  CollectionFind(const Collection& coll, const string& condition);
  /// Projections: field names or expressions, e.g. `expr("{'n': name}")`.
  template <typename... F> CollectionFind& fields(const F&... projections) {
    return set_fields(detail::collect<Value>(projections...));
  }
  /// Grouping expressions, for aggregates in fields().
  template <typename... F> CollectionFind& groupBy(const F&... exprs) {
    return set_group_by(detail::collect<std::string>(exprs...));
  }
  /// A condition on the groups of groupBy().
  CollectionFind& having(const string& condition);
  /// "field [ASC|DESC]", ...
  template <typename... S> CollectionFind& sort(const S&... specs) {
    return set_sort(detail::collect<std::string>(specs...));
  }
  /// At most `rows` documents.
  CollectionFind& limit(std::uint64_t rows);
  /// Skips the first `rows` documents, with or without limit().
  CollectionFind& offset(std::uint64_t rows);
  /// Value of the placeholder `:name` in the condition.
  CollectionFind& bind(const string& name, const Value& value);
  using bind_map::bind;
  /// Locks the documents read, shared, until the transaction ends; the last lock call wins.
  CollectionFind& lockShared(LockContention contention = LockContention::DEFAULT);
  /// Locks the documents read, exclusively, until the transaction ends.
  CollectionFind& lockExclusive(LockContention contention = LockContention::DEFAULT);
  /// Runs the query: one round trip (two on the execution that prepares it).
  DocResult execute();
  /// Sends the query now and returns at once (future.h); the result holds
  /// every row once it is got.
  Future<DocResult> executeAsync();

private:
  using statement_base::statement_base;
  CollectionFind& set_fields(std::vector<Value>&& projections);
  CollectionFind& set_group_by(std::vector<std::string>&& exprs);
  CollectionFind& set_sort(std::vector<std::string>&& specs);
  friend struct detail::access;
};

/// Collection::modify(): changes to the documents matching a condition. Executed
/// again unchanged (bound values aside), it runs as a statement prepared on the server.
class MYSQLX_EXPORT CollectionModify : public detail::statement_base,
                                       public detail::bind_map<CollectionModify> {
public:
  /// The same as `coll.modify(condition)`.
  CollectionModify(const Collection& coll, const string& condition);
  /// A value, a DbDoc, or an expression (`expr("n + 1")`). An empty (or
  /// null) field name throws a ClientError.
  CollectionModify& set(const string& field, const Value& value);
  /// Removes these fields.
  template <typename... F> CollectionModify& unset(const F&... fields) {
    return unset_fields(detail::collect<std::string>(fields...));
  }
  /// Inserts `value` into an array at the position `field` names, e.g. `tags[0]`.
  CollectionModify& arrayInsert(const string& field, const Value& value);
  /// Appends `value` to the array `field`.
  CollectionModify& arrayAppend(const string& field, const Value& value);
  /// Removes the element `field` names, e.g. `tags[1]` (the same operation as unset()).
  CollectionModify& arrayDelete(const string& field);
  /// A JSON merge patch (RFC 7396): `null` removes a field.
  CollectionModify& patch(const string& json_patch);
  /// "field [ASC|DESC]", ...: which documents limit() keeps to.
  template <typename... S> CollectionModify& sort(const S&... specs) {
    return set_sort(detail::collect<std::string>(specs...));
  }
  /// Changes at most `rows` documents.
  CollectionModify& limit(std::uint64_t rows);
  /// Value of the placeholder `:name` in the condition; the last bind() of a name wins.
  CollectionModify& bind(const string& name, const Value& value);
  using bind_map::bind;
  /// Applies the changes: one round trip (two on the execution that prepares it).
  /// An empty condition or no change at all throws a ClientError, sending nothing.
  Result execute();
  /// Sends the changes now and returns at once (future.h).
  Future<Result> executeAsync();

private:
  using statement_base::statement_base;
  CollectionModify& unset_fields(std::vector<std::string>&& fields);
  CollectionModify& set_sort(std::vector<std::string>&& specs);
  friend struct detail::access;
};

/// Collection::remove(): deletes the documents matching a condition. Executed
/// again unchanged (bound values aside), it runs as a statement prepared on the server.
class MYSQLX_EXPORT CollectionRemove : public detail::statement_base,
                                       public detail::bind_map<CollectionRemove> {
public:
  /// The same as `coll.remove(condition)`.
  CollectionRemove(const Collection& coll, const string& condition);
  /// "field [ASC|DESC]", ...: which documents limit() keeps to.
  template <typename... S> CollectionRemove& sort(const S&... specs) {
    return set_sort(detail::collect<std::string>(specs...));
  }
  /// Deletes at most `rows` documents.
  CollectionRemove& limit(std::uint64_t rows);
  /// Value of the placeholder `:name` in the condition; the last bind() of a name wins.
  CollectionRemove& bind(const string& name, const Value& value);
  using bind_map::bind;
  /// Deletes: one round trip (two on the execution that prepares it). An empty
  /// condition throws a ClientError, sending nothing.
  Result execute();
  /// Sends the delete now and returns at once (future.h).
  Future<Result> executeAsync();

private:
  using statement_base::statement_base;
  CollectionRemove& set_sort(std::vector<std::string>&& specs);
  friend struct detail::access;
};

/// A document collection (see detail::object_base for copies and lifetime).
class MYSQLX_EXPORT Collection : public detail::object_base {
public:
  /// The same as `sch.getCollection(name)`: no round trip.
  Collection(const Schema& sch, const string& name);
  /// The schema it belongs to; no round trip.
  Schema getSchema() const;
  /// Whether a collection of this name exists (a table does not count); one round trip.
  bool existsInDatabase() const;
  /// The number of documents; one round trip.
  std::uint64_t count();

  /// Documents as for CollectionAdd::add(); nothing is sent until execute().
  template <typename... D> CollectionAdd add(const D&... docs) {
    return add_documents(detail::collect<Value>(docs...));
  }
  /// A query for every document.
  CollectionFind find();
  /// A query for the documents matching `condition`, e.g. `"price < :max"`.
  CollectionFind find(const string& condition);
  /// Changes to the documents matching `condition` (required: "true" for all).
  CollectionModify modify(const string& condition);
  /// Deletes the documents matching `condition` (required: "true" for all).
  CollectionRemove remove(const string& condition);

  /// The document with this `_id`, or a null DbDoc.
  DbDoc getOne(const string& id);
  /// Removes the document with this `_id` (affected count 0 if none); one round trip.
  Result removeOne(const string& id);
  /// Replaces the document with this `_id`; `doc` (a DbDoc, JSON text, or
  /// an expr() object the server evaluates against the stored document)
  /// must have no `_id` or the same one, else a client error before anything
  /// is sent.
  Result replaceOne(const string& id, const Value& doc);
  /// Replaces the document with this `_id`, or adds `doc` with it when there is
  /// none (one round trip); `doc` as for replaceOne().
  Result addOrReplaceOne(const string& id, const Value& doc);

  /// `spec` is a JSON index definition: `{"fields": [{"field": "$.n", "type": "INT"}]}`.
  void createIndex(const string& name, const string& spec);
  /// One round trip; dropping an index that does not exist does nothing.
  void dropIndex(const string& name);

private:
  using object_base::object_base;
  CollectionAdd add_documents(std::vector<Value>&& docs);
  friend struct detail::access;
};

using CollectionList = detail::item_list<Collection>;

MYSQLX_NAMESPACE_END
