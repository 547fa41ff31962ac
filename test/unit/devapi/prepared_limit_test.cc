// The messages of a prepared find / modify / remove (devapi/prepared.h):
// the Prepare carries limit() / offset() as limit_expr placeholders after
// the statement's own, and each Execute appends their current values, so
// paging with one statement object needs one Prepare. Also: execute()'s
// rebuild of the statement's kept message equals a fresh build.
#include "devapi/crud_build.h"
#include "devapi/prepared.h"
#include "mysqlx_crud.pb.h"
#include "mysqlx_prepare.pb.h"

#include <gtest/gtest.h>

using namespace mysqlx;
using Mysqlx::Datatypes::Scalar;
using Mysqlx::Expr::Expr;

namespace {

detail::statement_impl statement(const std::string& condition) {
  detail::statement_impl st;
  st.schema = "s";
  st.name = "c";
  st.condition = condition;
  return st;
}

void expect_placeholder(const Expr& e, std::uint32_t position) {
  EXPECT_EQ(e.type(), Expr::PLACEHOLDER);
  EXPECT_EQ(e.position(), position);
}

// An Execute's args as text: "s:x" for a string, "u:5" for an unsigned.
std::vector<std::string> args_of(const Mysqlx::Prepare::Execute& ex) {
  std::vector<std::string> out;
  for (const auto& a : ex.args()) {
    const Scalar& s = a.scalar();
    if (s.type() == Scalar::V_STRING)
      out.push_back("s:" + s.v_string().value());
    else if (s.type() == Scalar::V_UINT)
      out.push_back("u:" + std::to_string(s.v_unsigned_int()));
    else if (s.type() == Scalar::V_SINT)
      out.push_back("i:" + std::to_string(s.v_signed_int()));
    else
      out.push_back("?");
  }
  return out;
}

} // namespace

TEST(PreparedLimit, FindLimitAndOffsetArePlaceholdersAfterTheStatementsOwn) {
  auto st = statement("a = :a AND b = :b");
  st.binds = {{"a", Value("x")}, {"b", Value("y")}};
  st.limit = 10;
  st.offset = 30;
  Mysqlx::Crud::Find msg;
  detail::build_find(st, msg);
  // The plain message (first execution, servers without Prepare) keeps the
  // plain limit, which every server understands.
  ASSERT_TRUE(msg.has_limit());
  EXPECT_FALSE(msg.has_limit_expr());
  EXPECT_EQ(msg.limit().row_count(), 10u);
  EXPECT_EQ(msg.limit().offset(), 30u);

  Mysqlx::Prepare::Prepare prep;
  detail::prepare_message(5, msg, prep);
  EXPECT_EQ(prep.stmt_id(), 5u);
  ASSERT_EQ(prep.stmt().type(), Mysqlx::Prepare::Prepare::OneOfMessage::FIND);
  const Mysqlx::Crud::Find& f = prep.stmt().find();
  EXPECT_EQ(f.args_size(), 0);
  EXPECT_FALSE(f.has_limit()); // MySQL refuses limit and limit_expr together
  ASSERT_TRUE(f.has_limit_expr());
  expect_placeholder(f.limit_expr().row_count(), 2);
  expect_placeholder(f.limit_expr().offset(), 3);

  Mysqlx::Prepare::Execute ex;
  detail::execute_message(5, msg, ex);
  EXPECT_EQ(ex.stmt_id(), 5u);
  EXPECT_EQ(args_of(ex), (std::vector<std::string>{"s:x", "s:y", "u:10", "u:30"}));
}

TEST(PreparedLimit, AFindWithALimitAlwaysGetsAnOffsetPlaceholder) {
  // offset() added later then keeps the prepared statement's shape.
  auto st = statement("a = :a");
  st.binds = {{"a", Value(1)}};
  st.limit = 2;
  Mysqlx::Crud::Find msg;
  detail::build_find(st, msg);
  Mysqlx::Prepare::Prepare prep;
  detail::prepare_message(1, msg, prep);
  expect_placeholder(prep.stmt().find().limit_expr().row_count(), 1);
  expect_placeholder(prep.stmt().find().limit_expr().offset(), 2);
  Mysqlx::Prepare::Execute ex;
  detail::execute_message(1, msg, ex);
  EXPECT_EQ(args_of(ex), (std::vector<std::string>{"i:1", "u:2", "u:0"}));
}

TEST(PreparedLimit, AnOffsetWithoutALimitSendsTheLargestRowCount) {
  auto st = statement("");
  st.offset = 4;
  Mysqlx::Crud::Find msg;
  detail::build_find(st, msg);
  Mysqlx::Prepare::Prepare prep;
  detail::prepare_message(1, msg, prep);
  expect_placeholder(prep.stmt().find().limit_expr().row_count(), 0);
  expect_placeholder(prep.stmt().find().limit_expr().offset(), 1);
  Mysqlx::Prepare::Execute ex;
  detail::execute_message(1, msg, ex);
  EXPECT_EQ(args_of(ex), (std::vector<std::string>{"u:" + std::to_string(UINT64_MAX), "u:4"}));
}

TEST(PreparedLimit, WithoutALimitThereIsNoLimitExpr) {
  auto st = statement("a = :a");
  st.binds = {{"a", Value("x")}};
  Mysqlx::Crud::Find msg;
  detail::build_find(st, msg);
  Mysqlx::Prepare::Prepare prep;
  detail::prepare_message(1, msg, prep);
  EXPECT_FALSE(prep.stmt().find().has_limit());
  EXPECT_FALSE(prep.stmt().find().has_limit_expr());
  Mysqlx::Prepare::Execute ex;
  detail::execute_message(1, msg, ex);
  EXPECT_EQ(args_of(ex), (std::vector<std::string>{"s:x"}));
}

TEST(PreparedLimit, RemoveAndModifyGetARowCountPlaceholderButNoOffset) {
  // MySQL: "offset value is not allowed for this operation".
  auto rm = statement("a = :a");
  rm.binds = {{"a", Value("x")}};
  rm.limit = 3;
  Mysqlx::Crud::Delete del;
  detail::build_delete(rm, del);
  Mysqlx::Prepare::Prepare prep;
  detail::prepare_message(2, del, prep);
  ASSERT_EQ(prep.stmt().type(), Mysqlx::Prepare::Prepare::OneOfMessage::DELETE);
  const auto& d = prep.stmt().delete_();
  EXPECT_EQ(d.args_size(), 0);
  EXPECT_FALSE(d.has_limit());
  expect_placeholder(d.limit_expr().row_count(), 1);
  EXPECT_FALSE(d.limit_expr().has_offset());
  Mysqlx::Prepare::Execute ex;
  detail::execute_message(2, del, ex);
  EXPECT_EQ(args_of(ex), (std::vector<std::string>{"s:x", "u:3"}));

  auto mod = statement("a = :a");
  mod.binds = {{"a", Value("x")}};
  mod.ops.push_back({Mysqlx::Crud::UpdateOperation::ITEM_SET, "b", Value(":b")});
  mod.limit = 7;
  Mysqlx::Crud::Update upd;
  detail::build_update(mod, upd);
  Mysqlx::Prepare::Prepare prep_u;
  detail::prepare_message(3, upd, prep_u);
  ASSERT_EQ(prep_u.stmt().type(), Mysqlx::Prepare::Prepare::OneOfMessage::UPDATE);
  const auto& u = prep_u.stmt().update();
  EXPECT_FALSE(u.has_limit());
  expect_placeholder(u.limit_expr().row_count(), 1);
  EXPECT_FALSE(u.limit_expr().has_offset());
  Mysqlx::Prepare::Execute ex_u;
  detail::execute_message(3, upd, ex_u);
  EXPECT_EQ(args_of(ex_u), (std::vector<std::string>{"s:x", "u:7"}));
}

// execute() rebuilds the statement's kept message in place (fewer
// allocations than a fresh one): the result must be what a fresh build gives.
TEST(KeptMessage, ARebuildIsAFreshBuildInTheSameMessage) {
  auto st = statement("a = :a AND b IN (1, 2)");
  st.binds = {{"a", Value("x")}};
  st.sort = {"a DESC", "b"};
  st.limit = 5;
  const Mysqlx::Crud::Find& first = detail::rebuild_find(st);
  EXPECT_EQ(first.order_size(), 2);
  st.binds = {{"a", Value("y")}};
  st.sort = {"b"};
  st.condition = "a = :a";
  st.offset = 3;
  const Mysqlx::Crud::Find& second = detail::rebuild_find(st);
  EXPECT_EQ(&second, &first);
  Mysqlx::Crud::Find fresh;
  detail::build_find(st, fresh);
  EXPECT_EQ(second.SerializeAsString(), fresh.SerializeAsString());
  EXPECT_EQ(second.order_size(), 1);

  // A copy builds its own message: two objects never share one.
  detail::statement_impl copy = st;
  EXPECT_NE(&detail::rebuild_find(copy), &second);
  EXPECT_EQ(detail::rebuild_find(copy).SerializeAsString(), fresh.SerializeAsString());
}

TEST(KeptMessage, RemoveAndModifyRebuildInPlaceToo) {
  auto st = statement("a = :a");
  st.binds = {{"a", Value(1)}};
  st.limit = 2;
  const Mysqlx::Crud::Delete& d1 = detail::rebuild_delete(st);
  st.binds = {{"a", Value(2)}};
  st.limit.reset();
  const Mysqlx::Crud::Delete& d2 = detail::rebuild_delete(st);
  EXPECT_EQ(&d1, &d2);
  EXPECT_FALSE(d2.has_limit());
  Mysqlx::Crud::Delete fresh;
  detail::build_delete(st, fresh);
  EXPECT_EQ(d2.SerializeAsString(), fresh.SerializeAsString());

  auto mod = statement("a = :a");
  mod.binds = {{"a", Value(1)}};
  mod.ops.push_back({Mysqlx::Crud::UpdateOperation::ITEM_SET, "b", Value(1)});
  const Mysqlx::Crud::Update& u1 = detail::rebuild_update(mod);
  mod.ops.push_back({Mysqlx::Crud::UpdateOperation::ITEM_SET, "c", Value(2)});
  const Mysqlx::Crud::Update& u2 = detail::rebuild_update(mod);
  EXPECT_EQ(&u1, &u2);
  EXPECT_EQ(u2.operation_size(), 2);
  Mysqlx::Crud::Update fresh_u;
  detail::build_update(mod, fresh_u);
  EXPECT_EQ(u2.SerializeAsString(), fresh_u.SerializeAsString());
}
