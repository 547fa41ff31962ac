// Compile-only: code in the style of the X DevAPI user guide and of
// Connector/C++ 8's samples must compile unchanged against our headers. This
// file is built as an object library and never linked, because the session
// layer (Session, Collection, ... execute()) is not implemented yet; the
// linked unit tests cover what is.
#include <chrono>
#include <iostream>
#include <list>
#include <map>
#include <mysqlx/xdevapi.h>
#include <string>
#include <vector>

// The samples copy loop variables on purpose: that is how users write them.
// NOLINTBEGIN(performance-for-range-copy)

using std::cout;
using std::endl;
using namespace mysqlx;

int devapi_sample(unsigned short port, const char* user, const char* pwd) try {
  Session sess("localhost", port, user, pwd);
  Schema sch = sess.getSchema("test");
  Collection coll = sch.createCollection("c1", true);
  coll.remove("true").execute();
  {
    Result add;
    add = coll.add(R"({ "name": "foo", "age": 1 })").execute();
    for (const std::string& id : add.getGeneratedIds()) cout << id << endl;
  }
  DocResult docs = coll.find("age > 1 and name like 'ba%'").execute();
  DbDoc doc = docs.fetchOne();
  for (int i = 0; doc; ++i, doc = docs.fetchOne()) {
    cout << "doc#" << i << ": " << doc << endl;
    for (Field fld : doc) cout << " field `" << fld << "`: " << doc[fld] << endl;
    string name = doc["name"];
    cout << " name: " << name << endl;
    if (doc.hasField("date") && Value::DOCUMENT == doc.fieldType("date")) {
      DbDoc date = doc["date"];
      for (Field fld : date) cout << "  date `" << fld << "`: " << date[fld] << endl;
      string month = doc["date"]["month"];
      int day = date["day"];
      cout << month << day << endl;
    }
    if (doc.hasField("toys") && Value::ARRAY == doc.fieldType("toys")) {
      for (auto toy : doc["toys"]) cout << "  " << toy << endl;
    }
  }
  return 0;
} catch (const mysqlx::Error& err) {
  cout << "ERROR: " << err << endl;
  return 1;
}

void user_guide_shapes() {
  Session s1(33060, "user", "password");
  Session s2("mysqlx://user:password@localhost:33060/test?ssl-mode=required");
  Session s3(SessionOption::USER, "root", SessionOption::PWD, "", SessionOption::HOST, "localhost",
             SessionOption::PORT, 33060, SessionOption::DB, "test", SessionOption::SSL_MODE,
             SSLMode::REQUIRED, SessionOption::DOCID_MODE, DocIdMode::AUTO,
             SessionOption::CONNECT_TIMEOUT, std::chrono::seconds(10));
  SessionSettings settings("localhost", 33060, "user", "password");
  Session s4(settings);
  Session s5 = getSession("mysqlx://root@localhost");
  Session s6 = std::move(s5);

  Schema db = s1.getSchema("test");
  std::list<Schema> schemas = s1.getSchemas();
  Collection coll = db.getCollection("my_collection");
  for (Collection c : db.getCollections()) cout << c.getName();
  std::vector<std::string> names = db.getCollectionNames();

  // Schema validation (Connector/C++ 8.0.21+ forms).
  db.createCollection("geo", R"({"reuseExisting": true, "validation": {"level": "strict",
      "schema": {"type": "object", "required": ["lat"]}}})");
  db.createCollection("geo", CollectionOptions::REUSE, true, CollectionValidation::LEVEL,
                      CollectionValidation::STRICT, CollectionValidation::SCHEMA,
                      R"({"type": "object"})");
  db.createCollection("geo", CollectionValidation(R"({"level": "off"})"));
  CollectionOptions opts(CollectionValidation::SCHEMA, R"({"type": "object"})");
  opts.set(CollectionOptions::REUSE, true);
  db.createCollection("geo", opts);
  db.modifyCollection("geo", CollectionValidation::LEVEL, CollectionValidation::OFF);
  db.modifyCollection("geo", std::string(R"({"validation": {"level": "strict"}})"));
  db.modifyCollection(
      "geo", CollectionOptions(CollectionOptions::VALIDATION,
                               CollectionValidation(CollectionValidation::LEVEL, "strict")));

  DocResult found = coll.find("name like :param").limit(1).bind("param", "L%").execute();
  cout << found.fetchOne();
  std::map<std::string, Value> args{{"a", 1}, {"b", "x"}};
  DocResult many = coll.find("a = :a and b = :b")
                       .fields("name", "age", expr("{'n': name}"))
                       .groupBy("age")
                       .having("count(*) > 1")
                       .sort("age DESC", "name")
                       .limit(10)
                       .offset(5)
                       .bind(args)
                       .lockShared(LockContention::NOWAIT)
                       .execute();
  for (DbDoc d : many) cout << d;
  std::list<DbDoc> all = many.fetchAll();
  coll.find().lockExclusive(LockContention::SKIP_LOCKED).lockExclusive().execute();

  DbDoc d1(R"({"a": 1})");
  std::vector<DbDoc> docs{d1, d1};
  std::vector<std::string> json{R"({"b": 2})"};
  Result r = coll.add(R"({"name": "pen"})", d1, R"({"name": "ink"})")
                 .add(docs)
                 .add(json.begin(), json.end())
                 .add(docs.begin(), docs.end())
                 .execute();
  CollectionAdd pending = coll.add(d1);
  pending.add(d1).execute();
  std::vector<std::string> ids = r.getGeneratedIds();
  cout << r.getAffectedItemsCount() << r.getWarningsCount() << ids.size();
  for (auto w : r.getWarnings()) cout << w.getLevel() << w.getCode() << w.getMessage();

  coll.modify("name = 'pen'")
      .set("price", 2)
      .set("n", expr("n + 1"))
      .set("sub", d1)
      .unset("tmp", "old")
      .arrayInsert("tags[0]", "red")
      .arrayAppend("tags", "blue")
      .arrayDelete("tags[1]")
      .patch(R"({"stock": null})")
      .sort("price")
      .limit(1)
      .bind("x", 1)
      .execute();
  coll.remove("price > :p").sort("price").limit(1).bind("p", 100).execute();
  DbDoc one = coll.getOne("0001");
  coll.replaceOne("0001", R"({"name": "quill"})");
  coll.addOrReplaceOne("0002", d1);
  coll.removeOne("0001");
  cout << coll.count() << coll.existsInDatabase();
  coll.createIndex("idx", R"({"fields": [{"field": "$.n", "type": "INT"}]})");
  coll.dropIndex("idx");
  db.dropCollection("c1");

  Table employees = db.getTable("employee");
  RowResult res = employees.select("name", "age")
                      .where("name like :param")
                      .orderBy("name")
                      .bind("param", "m%")
                      .execute();
  for (const Column& c : res.getColumns()) cout << c.getColumnName() << c.getType();
  cout << res.getColumnCount() << typeName(res.getColumn(0).getType());
  Row row = res.fetchOne();
  cout << row[0] << row[1];
  std::list<Row> rows = res.fetchAll();
  for (Row rr : res) cout << rr.colCount();
  employees.insert("name", "age").values("Laurie", 19).values("Nadya", 54).execute();
  employees.insert().rows(Row("x", 1), Row("y", 2)).rows(rows).execute();
  employees.update().set("age", expr("age + 1")).where("name = 'x'").limit(1).execute();
  employees.remove().where("age < :a").orderBy("age").limit(2).bind("a", 18).execute();
  cout << employees.count() << employees.isView();

  SqlResult sr = s1.sql("SELECT ? + ?").bind(1, 2).bind(std::vector<int>{3}).execute();
  if (sr.hasData()) cout << sr.fetchOne()[0];
  while (sr.nextResult()) cout << sr.getColumnCount();
  RowResult sliced = s1.sql("SELECT 1").execute();

  s1.startTransaction();
  std::string sp = s1.setSavepoint();
  s1.setSavepoint("named");
  s1.rollbackTo(sp);
  s1.releaseSavepoint("named");
  s1.commit();
  s1.rollback();
  cout << s1.getDefaultSchemaName() << optionValueName(s1.getDocIdMode());
  s1.close();

  Client cli("user:password@host_name/db_name", ClientOption::POOL_MAX_SIZE, 7);
  Session from_pool = cli.getSession();
  Client cli2 = getClient("mysqlx://root@localhost", R"({"pooling": {"enabled": true}})");
  Client cli3 = getClient("mysqlx://root@localhost", ClientOption::POOLING, true,
                          ClientOption::POOL_QUEUE_TIMEOUT, std::chrono::seconds(1));
  Session via_client(cli3);
  cli.close();
}

// NOLINTEND(performance-for-range-copy)
