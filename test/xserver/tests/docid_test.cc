// WL#10955 on the wire (8.0 mode): ids for documents without `_id`, their
// format and order, the one GENERATED_DOCUMENT_IDS notice and its position,
// auto_increment offset/increment, duplicates (5116, nothing inserted).
#include "mysqlx_notice.pb.h"
#include "test/xserver/tests/crud_test_util.h"
#include "test/xserver/tests/xclient.h"

#include <gtest/gtest.h>
#include <thread>

namespace xtest {
namespace {

using Mysqlx::Datatypes::Scalar;

bool is_id_format(const std::string& id) {
  if (id.size() != 28) return false;
  for (char c : id)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

std::uint64_t serial_of(const std::string& id) {
  return std::stoull(id.substr(12), nullptr, 16);
}

// A session on the 8.0 fixture with a fresh schema and collection.
struct doc_session {
  xclient c{env_port("XS_PORT_80")};
  std::string schema = unique_name("docid");
  std::string coll = "c";
  doc_session() {
    auto r = c.auth("MYSQL41", "xtest", "xtest-pw");
    if (!is(r.back(), server_msg::sess_authenticate_ok)) throw std::runtime_error(describe(r));
    c.sql("CREATE DATABASE " + schema);
    r = c.admin("create_collection", schema, coll);
    if (!is(r.back(), server_msg::sql_stmt_execute_ok)) throw std::runtime_error(describe(r));
  }
  std::vector<std::string> stored_ids() {
    return column_strings(c.sql("SELECT _id FROM " + schema + "." + coll + " ORDER BY _id"));
  }
};

TEST(Docid, IdsForDocumentsWithoutIdOnlyInRowOrder) {
  doc_session s;
  auto r = s.c.insert_json(s.schema, s.coll, {R"({"a":1})", R"({"_id":"mine","a":2})", "{}"});
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  auto ids = generated_ids(r);
  ASSERT_EQ(ids.size(), 2u);
  for (const auto& id : ids) EXPECT_TRUE(is_id_format(id)) << id;
  EXPECT_LT(ids[0], ids[1]);
  EXPECT_EQ(ids[0].substr(0, 4), "0000"); // default unique prefix
  // What was stored: the generated ids plus the client's own, unchanged.
  auto stored = s.stored_ids();
  std::vector<std::string> expected = {ids[0], ids[1], "mine"};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(stored, expected);
  // The id is part of the document, not only of the key column.
  auto docs = column_strings(s.c.sql("SELECT JSON_VALUE(doc,'$._id') FROM " + s.schema + "." +
                                     s.coll + " WHERE _id = '" + ids[0] + "'"));
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0], ids[0]);
}

TEST(Docid, OneNoticeAfterRowsAffectedBeforeStmtExecuteOk) {
  doc_session s;
  auto r = s.c.insert_json(s.schema, s.coll, {"{}", "{}", "{}"});
  ASSERT_GE(r.size(), 3u);
  EXPECT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok));
  const auto ids_notice = notice_of(r[r.size() - 2]);
  EXPECT_EQ(ids_notice.frame_type, 3u); // SESSION_STATE_CHANGED
  EXPECT_EQ(ids_notice.scope, 2);       // LOCAL
  EXPECT_EQ(ids_notice.param, 12);      // GENERATED_DOCUMENT_IDS
  ASSERT_EQ(ids_notice.values.size(), 3u);
  for (const auto& v : ids_notice.values) {
    EXPECT_EQ(v.type(), Scalar::V_OCTETS);
    EXPECT_FALSE(v.v_octets().has_content_type());
  }
  const auto rows = notice_of(r[r.size() - 3]);
  EXPECT_EQ(rows.param, 4); // ROWS_AFFECTED
  ASSERT_EQ(rows.values.size(), 1u);
  EXPECT_EQ(rows.values[0].v_unsigned_int(), 3u);
  int id_notices = 0;
  for (const auto& f : r) id_notices += notice_of(f).param == 12;
  EXPECT_EQ(id_notices, 1);
}

TEST(Docid, NoNoticeWhenEveryDocumentHasAnId) {
  doc_session s;
  auto r = s.c.insert_json(s.schema, s.coll, {R"({"_id":"a"})", R"({"_id":"b"})"});
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  for (const auto& f : r) EXPECT_NE(notice_of(f).param, 12) << describe(r);
  EXPECT_EQ(s.stored_ids(), (std::vector<std::string>{"a", "b"}));
}

TEST(Docid, IdsIncreaseAcrossStatementsAndSessions) {
  doc_session s;
  auto first = generated_ids(s.c.insert_json(s.schema, s.coll, {"{}"}));
  xclient other(env_port("XS_PORT_80"));
  other.auth("MYSQL41", "xtest", "xtest-pw");
  auto second = generated_ids(other.insert_json(s.schema, s.coll, {"{}"}));
  auto third = generated_ids(s.c.insert_json(s.schema, s.coll, {"{}"}));
  ASSERT_EQ(first.size() + second.size() + third.size(), 3u);
  EXPECT_LT(first[0], second[0]);
  EXPECT_LT(second[0], third[0]);
  EXPECT_EQ(first[0].substr(4, 8), third[0].substr(4, 8)); // one start timestamp
}

TEST(Docid, SerialFollowsTheSessionsAutoIncrementOffsetAndIncrement) {
  doc_session s;
  s.c.sql("SET SESSION auto_increment_increment = 5");
  s.c.sql("SET SESSION auto_increment_offset = 3");
  auto ids = generated_ids(s.c.insert_json(s.schema, s.coll, {"{}", "{}", "{}"}));
  ASSERT_EQ(ids.size(), 3u);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    EXPECT_EQ(serial_of(ids[i]) % 5, 3u) << ids[i];
    if (i > 0) {
      EXPECT_GT(serial_of(ids[i]), serial_of(ids[i - 1]));
    }
  }
}

TEST(Docid, SerialFollowsAnAutoIncrementPairSetAfterEarlierInserts) {
  // xserverd reads the pair once and keeps it until SQL of the client's
  // own runs: a SET between two inserts must reach the second.
  doc_session s;
  ASSERT_EQ(generated_ids(s.c.insert_json(s.schema, s.coll, {"{}"})).size(), 1u);
  s.c.sql("SET SESSION auto_increment_increment = 7");
  s.c.sql("SET SESSION auto_increment_offset = 4");
  auto ids = generated_ids(s.c.insert_json(s.schema, s.coll, {"{}", "{}"}));
  ASSERT_EQ(ids.size(), 2u);
  for (const auto& id : ids) EXPECT_EQ(serial_of(id) % 7, 4u) << id;
}

TEST(Docid, SerialFollowsAPairSetByAPreparedStatement) {
  // The Execute of a prepared SQL statement runs SQL of the client's own
  // too: the pair read by the first insert must be read again.
  doc_session s;
  ASSERT_EQ(generated_ids(s.c.insert_json(s.schema, s.coll, {"{}"})).size(), 1u);
  Prepared set;
  set.set_type(Prepared::STMT);
  set.mutable_stmt_execute()->set_stmt("SET SESSION auto_increment_increment = 7");
  ASSERT_TRUE(is(prepare(s.c, 1, set).back(), server_msg::ok));
  ASSERT_TRUE(is(execute(s.c, 1, {}).back(), server_msg::sql_stmt_execute_ok));
  auto ids = generated_ids(s.c.insert_json(s.schema, s.coll, {"{}", "{}"}));
  ASSERT_EQ(ids.size(), 2u);
  for (const auto& id : ids) EXPECT_EQ(serial_of(id) % 7, 1u) << id;
}

TEST(Docid, DuplicateIdGives5116AndInsertsNothing) {
  doc_session s;
  ASSERT_TRUE(is(s.c.insert_json(s.schema, s.coll, {R"({"_id":"dup"})"}).back(),
                 server_msg::sql_stmt_execute_ok));
  auto r = s.c.insert_json(s.schema, s.coll, {R"({"_id":"new1"})", "{}", R"({"_id":"dup"})"});
  ASSERT_EQ(r.size(), 1u) << describe(r); // just the error: no notices
  auto e = error_of(r.back());
  EXPECT_EQ(e.code(), 5116u);
  EXPECT_EQ(e.msg(), "Document contains a field value that is not unique but required to be");
  EXPECT_EQ(e.sql_state(), "HY000");
  EXPECT_EQ(s.stored_ids(), (std::vector<std::string>{"dup"}));
}

TEST(Docid, ObjectRowsAreCheckedForIdToo) {
  doc_session s;
  Mysqlx::Crud::Insert m;
  m.mutable_collection()->set_schema(s.schema);
  m.mutable_collection()->set_name(s.coll);
  for (const char* key : {"_id", "x"}) {
    auto* e = m.add_row()->add_field();
    e->set_type(Mysqlx::Expr::Expr::OBJECT);
    auto* f = e->mutable_object()->add_fld();
    f->set_key(key);
    f->mutable_value()->set_type(Mysqlx::Expr::Expr::LITERAL);
    f->mutable_value()->mutable_literal()->set_type(Scalar::V_STRING);
    f->mutable_value()->mutable_literal()->mutable_v_string()->set_value("obj-id");
  }
  auto r = s.c.insert(m);
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  auto ids = generated_ids(r);
  ASSERT_EQ(ids.size(), 1u);
  std::vector<std::string> expected = {ids[0], "obj-id"};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(s.stored_ids(), expected);
}

TEST(Docid, UpsertReplacesTheDocumentWithTheSameId) {
  doc_session s;
  s.c.insert_json(s.schema, s.coll, {R"({"_id":"u","v":1})"});
  auto r = s.c.insert_json(s.schema, s.coll, {R"({"_id":"u","v":2})", R"({"v":3})"}, true);
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  EXPECT_EQ(generated_ids(r).size(), 1u);
  auto v = column_strings(
      s.c.sql("SELECT JSON_VALUE(doc,'$.v') FROM " + s.schema + "." + s.coll + " WHERE _id = 'u'"));
  EXPECT_EQ(v, (std::vector<std::string>{"2"}));
}

TEST(Docid, NonObjectDocumentGets5115) {
  doc_session s;
  auto r = s.c.insert_json(s.schema, s.coll, {"[1,2]"});
  EXPECT_EQ(error_of(r.back()).code(), 5115u) << describe(r);
  EXPECT_TRUE(s.stored_ids().empty());
}

// Sessions that create one collection at once (ensure_collection) and add
// a document without _id straight away: each add gets its id. xserverd makes
// a collection as a table and then its _id triggers; a session that found
// the table before the triggers failed with "Field '_id' doesn't have a
// default value" (seen with Oracle's Sess.pool_ttl). The race is not certain
// to show in one round, so there are several.
TEST(Docid, SessionsCreatingOneCollectionAtOnceCanAllAddAtOnce) {
  xclient admin{env_port("XS_PORT_80")};
  ASSERT_TRUE(
      is(admin.auth("MYSQL41", "xtest", "xtest-pw").back(), server_msg::sess_authenticate_ok));
  const std::string schema = unique_name("docid_race");
  admin.sql("CREATE DATABASE " + schema);
  for (int round = 0; round < 10; ++round) {
    const std::string coll = "c" + std::to_string(round);
    std::vector<std::string> failures(16);
    std::vector<std::thread> sessions;
    for (std::size_t k = 0; k < failures.size(); ++k)
      sessions.emplace_back([&, k] {
        xclient c{env_port("XS_PORT_80")};
        if (!is(c.auth("MYSQL41", "xtest", "xtest-pw").back(), server_msg::sess_authenticate_ok)) {
          failures[k] = "auth";
          return;
        }
        auto r = c.admin("ensure_collection", schema, coll);
        if (!is(r.back(), server_msg::sql_stmt_execute_ok)) {
          failures[k] = describe(r);
          return;
        }
        r = c.insert_json(schema, coll, {R"({"k": 1})"});
        if (!is(r.back(), server_msg::sql_stmt_execute_ok)) failures[k] = describe(r);
      });
    for (auto& t : sessions) t.join();
    for (const auto& f : failures) EXPECT_EQ(f, "") << "round " << round;
    EXPECT_EQ(
        column_strings(admin.sql("SELECT CAST(COUNT(*) AS CHAR) FROM " + schema + "." + coll)),
        (std::vector<std::string>{"16"}));
  }
}

} // namespace
} // namespace xtest
