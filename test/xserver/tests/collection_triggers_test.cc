// A collection left half made (8.0 fixture). xserverd makes a collection in
// three statements: a table, then its two _id triggers ($xid_I_..., before
// INSERT, and $xid_U_..., before UPDATE). xserverd or MariaDB killed between
// them leaves a table without one or both triggers, which refuses every
// document without _id ("Field '_id' doesn't have a default value"). Found
// again by ensure_collection or create_collection with reuse_existing, the
// collection gets the triggers it lacks. The half-made collection is made
// here by dropping triggers by SQL.
#include "test/xserver/tests/admin_test_util.h"

#include <gtest/gtest.h>

namespace xtest {
namespace {

struct half_made : coll_session {
  // The events of the collection's _id triggers, sorted.
  std::vector<std::string> id_trigger_events() {
    return column_strings(
        c.sql("SELECT CAST(EVENT_MANIPULATION AS CHAR) FROM information_schema.TRIGGERS WHERE "
              "EVENT_OBJECT_SCHEMA = '" +
              schema + "' AND EVENT_OBJECT_TABLE = 'c' AND TRIGGER_NAME LIKE '$xid%' ORDER BY 1"));
  }
  // Drops the collection's _id trigger before `event` (INSERT or UPDATE).
  void drop_id_trigger(const std::string& event) {
    const auto names = column_strings(
        c.sql("SELECT CAST(TRIGGER_NAME AS CHAR) FROM information_schema.TRIGGERS WHERE "
              "EVENT_OBJECT_SCHEMA = '" +
              schema + "' AND EVENT_OBJECT_TABLE = 'c' AND EVENT_MANIPULATION = '" + event +
              "' AND TRIGGER_NAME LIKE '$xid%'"));
    ASSERT_EQ(names.size(), 1u) << event;
    auto r = c.sql("DROP TRIGGER " + schema + ".`" + names[0] + "`");
    ASSERT_TRUE(ok(r)) << describe(r);
  }
  std::vector<frame> add_without_id() { return c.insert_json(schema, "c", {R"({"k": 1})"}); }
  std::vector<std::string> stored_ids() {
    return column_strings(c.sql("SELECT _id FROM " + schema + ".c ORDER BY _id"));
  }
};

// Killed right after the table: no trigger. ensure_collection (what a
// client's createCollection(name, true) may send) makes both.
TEST(CollectionTriggers, EnsureCollectionMakesBothMissingIdTriggers) {
  half_made t;
  ASSERT_EQ(t.id_trigger_events(), (std::vector<std::string>{"INSERT", "UPDATE"}));
  t.drop_id_trigger("INSERT");
  t.drop_id_trigger("UPDATE");
  // The state a half-made collection is in: documents without _id refused.
  auto r = t.add_without_id();
  ASSERT_TRUE(is(r.back(), server_msg::error)) << describe(r);
  EXPECT_NE(error_of(r.back()).msg().find("_id"), std::string::npos) << describe(r);

  r = t.c.admin("ensure_collection", t.schema, "c");
  ASSERT_TRUE(ok(r)) << describe(r);
  EXPECT_EQ(t.id_trigger_events(), (std::vector<std::string>{"INSERT", "UPDATE"}));
  r = t.add_without_id();
  ASSERT_TRUE(ok(r)) << describe(r);
  const auto ids = generated_ids(r);
  ASSERT_EQ(ids.size(), 1u) << describe(r);
  EXPECT_EQ(t.stored_ids(), ids);
  // The UPDATE trigger keeps _id and the document's _id one: changing the
  // document's _id moves the row's key with it.
  r = t.c.sql("UPDATE " + t.schema + ".c SET doc = JSON_SET(doc, '$._id', 'moved')");
  ASSERT_TRUE(ok(r)) << describe(r);
  EXPECT_EQ(t.stored_ids(), (std::vector<std::string>{"moved"}));
}

// Killed between the two triggers: create_collection with reuse_existing
// makes the UPDATE one and leaves the INSERT one alone (not made twice).
TEST(CollectionTriggers, CreateCollectionReuseMakesOnlyTheMissingOne) {
  half_made t;
  t.drop_id_trigger("UPDATE");
  auto r = t.admin("create_collection",
                   any_object({{"schema", s(t.schema)},
                               {"name", s("c")},
                               {"options", any_object({{"reuse_existing", b(true)}})}}));
  ASSERT_TRUE(ok(r)) << describe(r);
  EXPECT_EQ(t.id_trigger_events(), (std::vector<std::string>{"INSERT", "UPDATE"}));
  r = t.add_without_id();
  ASSERT_TRUE(ok(r)) << describe(r);
  EXPECT_EQ(generated_ids(r).size(), 1u) << describe(r);
  // A whole collection found again is left as it is.
  r = t.c.admin("ensure_collection", t.schema, "c");
  ASSERT_TRUE(ok(r)) << describe(r);
  EXPECT_EQ(t.id_trigger_events(), (std::vector<std::string>{"INSERT", "UPDATE"}));
  // Without reuse, an existing collection is still an error (1050).
  r = t.c.admin("create_collection", t.schema, "c");
  EXPECT_EQ(code_of(r), 1050u) << describe(r);
}

} // namespace
} // namespace xtest
