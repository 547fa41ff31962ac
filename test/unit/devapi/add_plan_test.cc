// add()'s decisions before anything is sent (devapi/add_plan.h), and the
// CRUD message building (devapi/crud_build.h), without a server.
#include "cdk/json/id_scan.h"
#include "devapi/add_plan.h"
#include "devapi/crud_build.h"
#include "mysqlx_crud.pb.h"

#include <functional>
#include <gtest/gtest.h>
#include <mysqlx/error.h>
#include <stdexcept>

using mysqlx::detail::plan_add;

TEST(AddPlan, ClientModeSplicesIdsIntoDocumentsWithoutOneInOrder) {
  std::vector<std::string_view> docs{R"({"n":1})", R"({"_id":"u","n":2})", R"({ "n":3 })",
                                     R"({"n":4,"x":{"_id":"nested"}})"};
  auto plan = plan_add(docs, true);
  ASSERT_TRUE(plan.ok());
  const auto& p = plan.value();
  ASSERT_EQ(p.ids.size(), 3u);
  EXPECT_EQ(p.missing_ids, 3u);
  EXPECT_LT(p.ids[0], p.ids[1]);
  EXPECT_LT(p.ids[1], p.ids[2]);
  ASSERT_EQ(p.docs.size(), 4u);
  EXPECT_EQ(p.docs[1], docs[1]); // the user's id is left alone, text unchanged
  const std::size_t with_id[] = {0, 2, 3};
  for (std::size_t k = 0; k < 3; ++k) {
    const std::string_view d = p.docs[with_id[k]];
    auto scan = cdk::json::scan_for_id(d);
    ASSERT_EQ(scan.status, cdk::json::id_scan_status::has_id) << d;
    EXPECT_EQ(scan.raw_id(d), "\"" + p.ids[k] + "\"");
    // The rest of the text is the user's, byte for byte.
    EXPECT_NE(d.find(docs[with_id[k]].substr(1)), std::string_view::npos) << d;
  }
}

TEST(AddPlan, ServerModeSendsDocumentsUntouchedAndMakesNoIds) {
  std::vector<std::string_view> docs{R"({"n":1})", R"({"_id":"u"})"};
  auto plan = plan_add(docs, false);
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan.value().ids.empty());
  EXPECT_EQ(plan.value().missing_ids, 1u);
  EXPECT_EQ(plan.value().docs, docs);
  EXPECT_TRUE(plan.value().spliced.empty());
}

TEST(AddPlan, BadDocumentsNameTheirIndexInEveryMode) {
  for (bool client : {false, true}) {
    auto invalid = plan_add({R"({"n":1})", R"({"n":})"}, client);
    ASSERT_FALSE(invalid.ok());
    EXPECT_EQ(invalid.err().code, mysqlx::errc::BAD_DOCUMENT);
    // Counted from 1, as a person reads them: the second document is 2.
    EXPECT_NE(invalid.err().message.find("Document 2 is not valid JSON"), std::string::npos)
        << invalid.err().message;
    auto array = plan_add({R"([1])"}, client);
    ASSERT_FALSE(array.ok());
    EXPECT_NE(array.err().message.find("Document 1 is not a JSON object"), std::string::npos);
    auto twice = plan_add({R"({"_id":"a","_id":"b"})"}, client);
    ASSERT_FALSE(twice.ok());
    EXPECT_NE(twice.err().message.find("more than one top-level _id"), std::string::npos);
  }
}

TEST(AddPlan, CustomGeneratorMakesTheIdsOfDocumentsWithoutOne) {
  int calls = 0;
  auto gen = [&calls] { return "app-" + std::to_string(++calls) + "\"q"; };
  std::vector<std::string_view> docs{R"({"n":1})", R"({"_id":"u"})", R"({"n":3})"};
  auto plan = plan_add(docs, true, gen);
  ASSERT_TRUE(plan.ok()) << plan.err().message;
  EXPECT_EQ(calls, 2); // only for the documents lacking _id
  ASSERT_EQ(plan.value().ids, (std::vector<std::string>{"app-1\"q", "app-2\"q"}));
  // The id is a JSON string value: its quote is escaped in the document.
  auto scan = cdk::json::scan_for_id(plan.value().docs[2]);
  ASSERT_EQ(scan.status, cdk::json::id_scan_status::has_id);
  EXPECT_EQ(scan.raw_id(plan.value().docs[2]), R"("app-2\"q")");
  EXPECT_EQ(plan.value().docs[1], docs[1]);
}

TEST(AddPlan, BadCustomIdsFailTheWholeAddNamingTheDocument) {
  const std::vector<std::pair<std::function<std::string()>, std::string>> bad{
      {[] { return std::string(); }, "an empty id"},
      {[] { return std::string(33, 'a'); }, "33 bytes"},
      {[] { return std::string("id\n"); }, "control character"},
      {[] { return std::string("\xff"); }, "not valid UTF-8"},
      {[]() -> std::string { throw std::runtime_error("out of ids"); }, "threw: out of ids"},
  };
  for (const auto& [gen, why] : bad) {
    auto plan = plan_add({R"({"_id":"x"})", R"({"n":1})"}, true, gen);
    ASSERT_FALSE(plan.ok()) << why;
    EXPECT_EQ(plan.err().code, mysqlx::errc::BAD_DOCUMENT);
    EXPECT_NE(plan.err().message.find("Document 2: "), std::string::npos) << plan.err().message;
    EXPECT_NE(plan.err().message.find(why), std::string::npos) << plan.err().message;
  }
}

TEST(AddPlan, CustomGeneratorIsNotCalledWhenTheServerMakesIds) {
  int calls = 0;
  auto plan = plan_add({R"({"n":1})"}, false, [&calls] { return std::to_string(++calls); });
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(calls, 0);
  EXPECT_TRUE(plan.value().ids.empty());
}

TEST(CrudBuild, FindCarriesConditionProjectionSortLimitLockAndArgsInPlaceholderOrder) {
  mysqlx::detail::statement_impl st;
  st.schema = "s";
  st.name = "c";
  st.condition = "a > :lo AND b < :hi";
  st.fields = {mysqlx::Value("a"), mysqlx::Value("b AS bee")};
  st.sort = {"a DESC"};
  st.limit = 5;
  st.offset = 2;
  st.lock = 2;
  st.contention = mysqlx::LockContention::SKIP_LOCKED;
  st.binds = {{"hi", mysqlx::Value(9)}, {"lo", mysqlx::Value("x")}};
  Mysqlx::Crud::Find msg;
  mysqlx::detail::build_find(st, msg);
  EXPECT_EQ(msg.collection().schema(), "s");
  EXPECT_EQ(msg.data_model(), Mysqlx::Crud::DOCUMENT);
  EXPECT_TRUE(msg.has_criteria());
  ASSERT_EQ(msg.projection_size(), 2);
  EXPECT_EQ(msg.projection(1).alias(), "bee");
  ASSERT_EQ(msg.order_size(), 1);
  EXPECT_EQ(msg.order(0).direction(), Mysqlx::Crud::Order::DESC);
  EXPECT_EQ(msg.limit().row_count(), 5u);
  EXPECT_EQ(msg.limit().offset(), 2u);
  EXPECT_EQ(msg.locking(), Mysqlx::Crud::Find::EXCLUSIVE_LOCK);
  EXPECT_EQ(msg.locking_options(), Mysqlx::Crud::Find::SKIP_LOCKED);
  ASSERT_EQ(msg.args_size(), 2);
  EXPECT_EQ(msg.args(0).v_string().value(), "x"); // :lo comes first in the condition
  EXPECT_EQ(msg.args(1).v_signed_int(), 9);
}

TEST(CrudBuild, UnboundAndUnknownPlaceholdersAreClientErrors) {
  mysqlx::detail::statement_impl st;
  st.name = "c";
  st.condition = "a = :x";
  Mysqlx::Crud::Find msg;
  EXPECT_THROW(mysqlx::detail::build_find(st, msg), mysqlx::ClientError);
  st.binds = {{"x", mysqlx::Value(1)}, {"y", mysqlx::Value(2)}};
  Mysqlx::Crud::Find again;
  EXPECT_THROW(mysqlx::detail::build_find(st, again), mysqlx::ClientError);
}

TEST(CrudBuild, ModifyOperationsAndRemoveNeedACondition) {
  mysqlx::detail::statement_impl st;
  st.name = "c";
  st.condition = "true";
  st.ops = {{Mysqlx::Crud::UpdateOperation::ITEM_SET, "a.b",
             mysqlx::Value(mysqlx::DbDoc(R"({"k":[1,"two"]})"))},
            {Mysqlx::Crud::UpdateOperation::ITEM_REMOVE, "c", mysqlx::Value()},
            {Mysqlx::Crud::UpdateOperation::ITEM_SET, "n", mysqlx::expr("n + 1")}};
  Mysqlx::Crud::Update up;
  mysqlx::detail::build_update(st, up);
  ASSERT_EQ(up.operation_size(), 3);
  EXPECT_EQ(up.operation(0).source().document_path_size(), 2);
  EXPECT_EQ(up.operation(0).value().type(), Mysqlx::Expr::Expr::OBJECT);
  EXPECT_EQ(up.operation(0).value().object().fld(0).value().type(), Mysqlx::Expr::Expr::ARRAY);
  EXPECT_FALSE(up.operation(1).has_value());
  EXPECT_EQ(up.operation(2).value().type(), Mysqlx::Expr::Expr::OPERATOR);
  mysqlx::detail::statement_impl del;
  del.name = "c";
  Mysqlx::Crud::Delete d;
  EXPECT_THROW(mysqlx::detail::build_delete(del, d), mysqlx::ClientError);
}
