// Round trips and field numbers of the client messages a document insert
// (plain, upsert, prepared) and its expectation block use.
#include "mysqlx_crud.pb.h"
#include "mysqlx_expect.pb.h"
#include "mysqlx_prepare.pb.h"
#include "mysqlx_sql.pb.h"
#include "wire_bytes.h"

#include <gtest/gtest.h>
#include <string>

namespace {

using Mysqlx::Crud::Insert;
using Mysqlx::Datatypes::Scalar;
using Mysqlx::Expr::Expr;
using proto_test::from_hex;
using proto_test::to_hex;

constexpr char k_doc[] = R"({"item":"pen"})";
constexpr char k_arg_doc[] = R"({"item":"ink"})";

// Two rows: a JSON string literal, and a placeholder bound to args[0].
Insert make_upsert() {
  Insert ins;
  ins.mutable_collection()->set_name("orders");
  ins.mutable_collection()->set_schema("shop");
  ins.set_data_model(Mysqlx::Crud::DOCUMENT);

  Expr* lit = ins.add_row()->add_field();
  lit->set_type(Expr::LITERAL);
  lit->mutable_literal()->set_type(Scalar::V_STRING);
  lit->mutable_literal()->mutable_v_string()->set_value(k_doc);

  Expr* ph = ins.add_row()->add_field();
  ph->set_type(Expr::PLACEHOLDER);
  ph->set_position(0);

  Scalar* arg = ins.add_args();
  arg->set_type(Scalar::V_STRING);
  arg->mutable_v_string()->set_value(k_arg_doc);

  ins.set_upsert(true);
  return ins;
}

TEST(CrudWire, InsertWithUpsertAndArgsRoundTrips) {
  const std::string bytes = make_upsert().SerializeAsString();

  Insert back;
  ASSERT_TRUE(back.ParseFromString(bytes));
  EXPECT_EQ(back.collection().name(), "orders");
  EXPECT_EQ(back.collection().schema(), "shop");
  EXPECT_EQ(back.data_model(), Mysqlx::Crud::DOCUMENT);
  ASSERT_EQ(back.row_size(), 2);
  ASSERT_EQ(back.row(0).field_size(), 1);
  EXPECT_EQ(back.row(0).field(0).type(), Expr::LITERAL);
  EXPECT_EQ(back.row(0).field(0).literal().v_string().value(), k_doc);
  EXPECT_EQ(back.row(1).field(0).type(), Expr::PLACEHOLDER);
  ASSERT_TRUE(back.row(1).field(0).has_position());
  EXPECT_EQ(back.row(1).field(0).position(), 0u);
  ASSERT_EQ(back.args_size(), 1);
  EXPECT_EQ(back.args(0).type(), Scalar::V_STRING);
  EXPECT_EQ(back.args(0).v_string().value(), k_arg_doc);
  EXPECT_TRUE(back.has_upsert());
  EXPECT_TRUE(back.upsert());
  EXPECT_EQ(back.SerializeAsString(), bytes);
}

TEST(CrudWire, InsertFieldNumbers) {
  const std::string bytes = make_upsert().SerializeAsString();
  // collection=1 comes first: "0a" len, then name=1 "orders".
  EXPECT_EQ(to_hex(bytes.substr(0, 4)), "0a 0e 0a 06");
  // upsert=6 (varint) is the last field: tag 0x30, value 1.
  EXPECT_EQ(to_hex(bytes.substr(bytes.size() - 2)), "30 01");
  // args=5 (length-delimited, tag 0x2a) holds Scalar{type=V_STRING(8), v_string=9}.
  const std::string arg = make_upsert().args(0).SerializeAsString();
  const std::string args_field = from_hex("2a") + static_cast<char>(arg.size()) + arg;
  EXPECT_NE(bytes.find(args_field), std::string::npos);
  EXPECT_EQ(to_hex(arg.substr(0, 3)), "08 08 4a");
}

TEST(CrudWire, UpsertDefaultsToFalseAndIsNotSent) {
  Insert ins = make_upsert();
  ins.clear_upsert();
  EXPECT_FALSE(ins.upsert());
  const std::string bytes = ins.SerializeAsString();
  Insert back;
  ASSERT_TRUE(back.ParseFromString(bytes));
  EXPECT_FALSE(back.has_upsert());
  EXPECT_NE(to_hex(bytes.substr(bytes.size() - 2)), "30 01");
}

TEST(CrudWire, PreparedInsertRoundTrips) {
  Mysqlx::Prepare::Prepare prep;
  prep.set_stmt_id(7);
  prep.mutable_stmt()->set_type(Mysqlx::Prepare::Prepare::OneOfMessage::INSERT);
  *prep.mutable_stmt()->mutable_insert() = make_upsert();

  Mysqlx::Prepare::Prepare back;
  ASSERT_TRUE(back.ParseFromString(prep.SerializeAsString()));
  EXPECT_EQ(back.stmt_id(), 7u);
  EXPECT_EQ(back.stmt().type(), Mysqlx::Prepare::Prepare::OneOfMessage::INSERT);
  ASSERT_TRUE(back.stmt().has_insert());
  EXPECT_EQ(back.stmt().insert().SerializeAsString(), make_upsert().SerializeAsString());
  // stmt_id=1 varint, then stmt=2 whose first field is type=1 (INSERT=1), insert=3.
  EXPECT_EQ(to_hex(prep.SerializeAsString().substr(0, 2)), "08 07");
  const std::string stmt = prep.stmt().SerializeAsString();
  EXPECT_EQ(to_hex(stmt.substr(0, 3)), "08 01 1a");
}

TEST(CrudWire, FindLockingAndLimitExprFieldNumbers) {
  Mysqlx::Crud::Find find;
  find.mutable_collection()->set_name("c");
  find.set_locking(Mysqlx::Crud::Find::SHARED_LOCK);
  find.set_locking_options(Mysqlx::Crud::Find::SKIP_LOCKED);
  Expr* rc = find.mutable_limit_expr()->mutable_row_count();
  rc->set_type(Expr::PLACEHOLDER);
  rc->set_position(1);
  // collection=2, locking=12 (tag 0x60), locking_options=13 (0x68),
  // limit_expr=14 (0x72) holding row_count=1 {type=6, position=7}.
  EXPECT_EQ(to_hex(find.SerializeAsString()), "12 03 0a 01 63 60 01 68 02 72 06 0a 04 08 06 38 01");
}

TEST(CrudWire, ExpectDocidGeneratedCondition) {
  Mysqlx::Expect::Open open;
  auto* cond = open.add_cond();
  cond->set_condition_key(Mysqlx::Expect::Open::Condition::EXPECT_DOCID_GENERATED);
  // op left at EXPECT_CTX_COPY_PREV and cond op at EXPECT_OP_SET: not written.
  EXPECT_EQ(to_hex(open.SerializeAsString()), "12 02 08 03");

  Mysqlx::Expect::Open probe;
  auto* field = probe.add_cond();
  field->set_condition_key(Mysqlx::Expect::Open::Condition::EXPECT_FIELD_EXIST);
  field->set_condition_value("18.6");
  EXPECT_EQ(to_hex(probe.SerializeAsString()), "12 08 08 02 12 04 31 38 2e 36");
}

TEST(CrudWire, StmtExecuteNamespaceDefaultsToSql) {
  Mysqlx::Sql::StmtExecute exec;
  exec.set_stmt("SELECT 1");
  EXPECT_EQ(exec.namespace_(), "sql");
  EXPECT_FALSE(exec.has_namespace_());
  exec.set_namespace_("mysqlx");
  exec.set_compact_metadata(true);
  EXPECT_EQ(to_hex(exec.SerializeAsString()),
            "0a 08 53 45 4c 45 43 54 20 31 1a 06 6d 79 73 71 6c 78 20 01");
}

} // namespace
