// find / modify / remove and the single-document helpers, in the three
// configurations.
#include "it_common.h"

using namespace mysqlx;
using devapi_it::config;

class CrudTest : public ::testing::TestWithParam<config> {
protected:
  void SetUp() override {
    m_schema = devapi_it::test_schema("dv_crud");
    m_sess = std::make_unique<Session>(devapi_it::uri_of(GetParam()));
    m_sess->createSchema(m_schema, true);
    Schema db = m_sess->getSchema(m_schema);
    db.dropCollection("c");
    m_coll = std::make_unique<Collection>(db.createCollection("c"));
    m_coll
        ->add(R"({"_id": "a", "name": "pen", "price": 2, "tags": ["blue"]})",
              R"({"_id": "b", "name": "ink", "price": 5, "tags": []})",
              R"({"_id": "c", "name": "pad", "price": 9, "tags": ["red"]})")
        .execute();
  }
  bool is57() const { return std::string(GetParam().name) == "emulated57"; }
  std::string m_schema;
  std::unique_ptr<Session> m_sess;
  std::unique_ptr<Collection> m_coll;
};

TEST_P(CrudTest, FindWithConditionSortLimitOffsetAndBind) {
  DocResult r = m_coll->find("price > :min").sort("price DESC").bind("min", 1).execute();
  EXPECT_EQ(r.count(), 3u);
  std::vector<std::string> names;
  for (DbDoc d : r) names.push_back(d["name"].get<std::string>());
  EXPECT_EQ(names, (std::vector<std::string>{"pad", "ink", "pen"}));
  DocList page = m_coll->find().sort("price").limit(1).offset(1).execute().fetchAll();
  ASSERT_EQ(page.size(), 1u);
  EXPECT_EQ(page[0]["_id"].get<std::string>(), "b");
  EXPECT_TRUE(m_coll->find("price > 100").execute().fetchOne().isNull());
}

TEST_P(CrudTest, FindFieldsAndGroupBy) {
  DbDoc d = m_coll->find("_id = 'a'").fields("name", "price").execute().fetchOne();
  EXPECT_EQ(d["name"].get<std::string>(), "pen");
  EXPECT_FALSE(d.hasField("tags"));
  DocList groups = m_coll->find()
                       .fields("price > 3 AS big", "count(*) AS n")
                       .groupBy("price > 3")
                       .having("count(*) > 1")
                       .execute()
                       .fetchAll();
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0]["n"].get<int>(), 2);
}

TEST_P(CrudTest, UnboundPlaceholderIsAClientError) {
  EXPECT_THROW(m_coll->find("price > :min").execute(), Error);
  EXPECT_THROW(m_coll->find("price >").execute(), Error); // parse error
}

TEST_P(CrudTest, ModifySetUnsetArrayAppendAndPatch) {
  Result r = m_coll->modify("_id = :id")
                 .set("price", 3)
                 .unset("name")
                 .arrayAppend("tags", "green")
                 .bind("id", "a")
                 .execute();
  EXPECT_EQ(r.getAffectedItemsCount(), 1u);
  EXPECT_TRUE(r.getGeneratedIds().empty());
  DbDoc a = m_coll->getOne("a");
  EXPECT_EQ(a["price"].get<int>(), 3);
  EXPECT_FALSE(a.hasField("name"));
  ASSERT_EQ(a["tags"].elementCount(), 2u);
  EXPECT_EQ(a["tags"][1].get<std::string>(), "green");
  auto patch = m_coll->modify("_id = 'b'").patch(R"({"price": null, "stock": 7})");
  if (is57()) {
    // MySQL 5.7 has no JSON_MERGE_PATCH: the server refuses, nothing changes.
    EXPECT_THROW(patch.execute(), ServerError);
    EXPECT_EQ(m_coll->getOne("b")["price"].get<int>(), 5);
    return;
  }
  patch.execute();
  DbDoc b = m_coll->getOne("b");
  EXPECT_FALSE(b.hasField("price"));
  EXPECT_EQ(b["stock"].get<int>(), 7);
  // A patch whose values are expressions, as Connector/C++ 8 code writes them.
  m_coll->modify("_id = 'b'")
      .patch(R"({"stock": stock * 2, "label": concat(name, '!')})")
      .execute();
  b = m_coll->getOne("b");
  EXPECT_EQ(b["stock"].get<int>(), 14);
  EXPECT_EQ(b["label"].get<std::string>(), "ink!");
}

// A value nested deeper than an expression can carry goes as JSON text and
// is stored whole; one deeper than MySQL's 100 levels is refused before
// sending (it used to be the server's "Invalid message", or a crash near
// 50,000 levels), and the session goes on.
TEST_P(CrudTest, DeepValuesAreStoredOrRefusedBeforeSending) {
  Value deep = 1;
  for (int i = 0; i < 25; ++i) deep = Value{deep};
  m_coll->modify("_id = 'a'").set("deep", deep).execute();
  DbDoc a = m_coll->getOne("a");
  const Value* at = &a["deep"];
  for (int i = 0; i < 25; ++i) {
    ASSERT_EQ(at->getType(), Value::ARRAY) << "level " << i;
    at = &(*at)[0];
  }
  EXPECT_EQ(at->get<int>(), 1);
  for (int levels : {101, 50'000}) {
    Value v = 1;
    for (int i = 0; i < levels; ++i) v = Value{v};
    try {
      m_coll->modify("true").set("w", v).execute();
      ADD_FAILURE() << levels << " levels were sent";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::BAD_DOCUMENT) << e.what();
      EXPECT_NE(std::string(e.what()).find("JSON nesting deeper than 100 levels"),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_FALSE(m_coll->getOne("b").hasField("w")); // nothing was changed
  EXPECT_EQ(m_coll->find().execute().count(), 3u); // and the session goes on
}

TEST_P(CrudTest, RemoveWithSortAndLimit) {
  Result r = m_coll->remove("price > 0").sort("price DESC").limit(1).execute();
  EXPECT_EQ(r.getAffectedItemsCount(), 1u);
  EXPECT_TRUE(m_coll->getOne("c").isNull());
  EXPECT_EQ(m_coll->count(), 2u);
  EXPECT_EQ(m_coll->removeOne("a").getAffectedItemsCount(), 1u);
  EXPECT_EQ(m_coll->count(), 1u);
}

TEST_P(CrudTest, AddOrReplaceOneTheGivenIdWins) {
  if (is57()) {
    // 5.7's Insert has no upsert: an existing id is a duplicate there.
    EXPECT_THROW(m_coll->addOrReplaceOne("b", DbDoc(R"({"name": "quill"})")), ServerError);
    EXPECT_EQ(m_coll->getOne("b")["name"].get<std::string>(), "ink");
    return;
  }
  m_coll->addOrReplaceOne("b", DbDoc(R"({"name": "quill"})"));
  EXPECT_EQ(m_coll->getOne("b")["name"].get<std::string>(), "quill");
  m_coll->addOrReplaceOne("z", R"({"_id": "z", "name": "new"})");
  EXPECT_EQ(m_coll->getOne("z")["name"].get<std::string>(), "new");
  try {
    m_coll->addOrReplaceOne("b", R"({"_id": "other", "name": "x"})");
    FAIL() << "a differing _id was accepted";
  } catch (const Error& e) {
    EXPECT_TRUE(e.isClientError());
  }
  EXPECT_TRUE(m_coll->getOne("other").isNull());
  EXPECT_EQ(m_coll->count(), 4u);
}

TEST_P(CrudTest, ReplaceOneKeepsTheIdAndRefusesADifferentOne) {
  if (is57()) {
    // 5.7 refuses ITEM_SET on the whole document: a server error, no change.
    EXPECT_THROW(m_coll->replaceOne("c", R"({"name": "notebook"})"), ServerError);
    EXPECT_EQ(m_coll->getOne("c")["name"].get<std::string>(), "pad");
    return;
  }
  Result r = m_coll->replaceOne("c", R"({"name": "notebook"})");
  EXPECT_EQ(r.getAffectedItemsCount(), 1u);
  DbDoc c = m_coll->getOne("c");
  EXPECT_EQ(c["name"].get<std::string>(), "notebook");
  EXPECT_FALSE(c.hasField("price"));
  EXPECT_THROW(m_coll->replaceOne("c", R"({"_id": "a"})"), Error);
  EXPECT_EQ(m_coll->getOne("a")["name"].get<std::string>(), "pen");
}

TEST_P(CrudTest, LockSharedAndExclusiveInsideATransaction) {
  m_sess->startTransaction();
  EXPECT_EQ(m_coll->find("_id = 'a'").lockShared().execute().count(), 1u);
  EXPECT_EQ(m_coll->find("_id = 'b'").lockExclusive(LockContention::NOWAIT).execute().count(), 1u);
  m_sess->rollback();
}

// Connector/C++ 8 code builds statements from their collection, and uses a
// statement or a collection after moving from it: both must work as the
// statement built by coll.find() and friends does.
// A placeholder stands for a scalar: a document or an array is refused
// before anything is sent, as Connector/C++ 8 refuses it.
TEST_P(CrudTest, BindingADocumentOrAnArrayIsRefused) {
  EXPECT_THROW(m_coll->find("name = :n").bind("n", DbDoc(R"({"a": 1})")).execute(), Error);
  EXPECT_THROW(m_coll->remove("name = :n").bind("n", Value{1, 2}).execute(), Error);
  EXPECT_EQ(m_coll->find().execute().count(), 3u);
}

TEST_P(CrudTest, StatementsBuiltFromTheCollection) {
  CollectionFind all(*m_coll);
  EXPECT_EQ(all.execute().count(), 3u);
  CollectionFind cheap(*m_coll, "price < :max");
  EXPECT_EQ(cheap.bind("max", 6).execute().count(), 2u);
  CollectionModify mod(*m_coll, "_id = 'a'");
  EXPECT_EQ(mod.set("price", 3).execute().getAffectedItemsCount(), 1u);
  CollectionRemove rm(*m_coll, "_id = :id");
  EXPECT_EQ(rm.bind("id", "b").execute().getAffectedItemsCount(), 1u);
  CollectionAdd add(*m_coll);
  EXPECT_EQ(add.add(R"({"_id": "d", "price": 1})").execute().getAffectedItemsCount(), 1u);
  EXPECT_EQ(m_coll->find().execute().count(), 3u);
  EXPECT_EQ(m_coll->getOne("a")["price"].get<int>(), 3);
}

TEST_P(CrudTest, MovedFromStatementsAndCollectionsStillWork) {
  CollectionFind find = m_coll->find("price > :min").bind("min", 4);
  CollectionFind moved = std::move(find);
  EXPECT_EQ(moved.execute().count(), 2u);
  EXPECT_EQ(find.execute().count(), 2u); // NOLINT(bugprone-use-after-move): the point
  CollectionFind assigned = m_coll->find();
  assigned = std::move(moved);
  EXPECT_EQ(moved.execute().count(), 2u); // NOLINT(bugprone-use-after-move)
  Collection other = std::move(*m_coll);
  EXPECT_EQ(m_coll->getName(), "c"); // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(m_coll->count(), 3u);
  EXPECT_EQ(other.count(), 3u);
}

// Collection::getSession() and Schema::getSession() give the session the
// object came from: a transaction begun through one is the other's, and
// dropping the object closes nothing.
TEST_P(CrudTest, GetSessionIsTheObjectsOwnSession) {
  m_coll->getSession().startTransaction();
  m_coll->add(R"({"_id": "z"})").execute();
  EXPECT_EQ(m_coll->find().execute().count(), 4u);
  m_sess->rollback();
  EXPECT_EQ(m_coll->find().execute().count(), 3u);
  {
    Schema db = m_sess->getSchema(m_schema);
    EXPECT_EQ(db.getSession().getSchema(m_schema).getName(), m_schema);
    Collection copy = db.getCollection("c");
    EXPECT_EQ(copy.getSession().sql("SELECT 1").execute().fetchOne()[0].get<int>(), 1);
  }
  EXPECT_EQ(m_sess->sql("SELECT 2").execute().fetchOne()[0].get<int>(), 2);
  EXPECT_EQ(m_coll->count(), 3u);
}

INSTANTIATE_TEST_SUITE_P(Modes, CrudTest, ::testing::ValuesIn(devapi_it::configs),
                         [](const auto& info) { return std::string(info.param.name); });
