// Enum numbers are the wire contract: check them against the numbers in
// xprotocol-docid-facts.md (§3.3, §4.1, §7.1), which were taken from MySQL.
#include "mysqlx.pb.h"
#include "mysqlx_crud.pb.h"
#include "mysqlx_datatypes.pb.h"
#include "mysqlx_expect.pb.h"
#include "mysqlx_expr.pb.h"
#include "mysqlx_notice.pb.h"
#include "mysqlx_resultset.pb.h"

#include <gtest/gtest.h>

namespace {

TEST(EnumValues, ClientMessageTypes) {
  using M = Mysqlx::ClientMessages;
  EXPECT_EQ(M::CON_CAPABILITIES_GET, 1);
  EXPECT_EQ(M::CON_CAPABILITIES_SET, 2);
  EXPECT_EQ(M::CON_CLOSE, 3);
  EXPECT_EQ(M::SESS_AUTHENTICATE_START, 4);
  EXPECT_EQ(M::SESS_AUTHENTICATE_CONTINUE, 5);
  EXPECT_EQ(M::SESS_RESET, 6);
  EXPECT_EQ(M::SESS_CLOSE, 7);
  EXPECT_EQ(M::SQL_STMT_EXECUTE, 12);
  EXPECT_EQ(M::CRUD_FIND, 17);
  EXPECT_EQ(M::CRUD_INSERT, 18);
  EXPECT_EQ(M::CRUD_UPDATE, 19);
  EXPECT_EQ(M::CRUD_DELETE, 20);
  EXPECT_EQ(M::EXPECT_OPEN, 24);
  EXPECT_EQ(M::EXPECT_CLOSE, 25);
  EXPECT_EQ(M::CRUD_CREATE_VIEW, 30);
  EXPECT_EQ(M::CRUD_MODIFY_VIEW, 31);
  EXPECT_EQ(M::CRUD_DROP_VIEW, 32);
  EXPECT_EQ(M::PREPARE_PREPARE, 40);
  EXPECT_EQ(M::PREPARE_EXECUTE, 41);
  EXPECT_EQ(M::PREPARE_DEALLOCATE, 42);
  EXPECT_EQ(M::CURSOR_OPEN, 43);
  EXPECT_EQ(M::CURSOR_CLOSE, 44);
  EXPECT_EQ(M::CURSOR_FETCH, 45);
  EXPECT_EQ(M::COMPRESSION, 46);
  EXPECT_EQ(M::Type_MAX, 46);
}

TEST(EnumValues, ServerMessageTypes) {
  using M = Mysqlx::ServerMessages;
  EXPECT_EQ(M::OK, 0);
  EXPECT_EQ(M::ERROR, 1);
  EXPECT_EQ(M::CONN_CAPABILITIES, 2);
  EXPECT_EQ(M::SESS_AUTHENTICATE_CONTINUE, 3);
  EXPECT_EQ(M::SESS_AUTHENTICATE_OK, 4);
  EXPECT_EQ(M::NOTICE, 11);
  EXPECT_EQ(M::RESULTSET_COLUMN_META_DATA, 12);
  EXPECT_EQ(M::RESULTSET_ROW, 13);
  EXPECT_EQ(M::RESULTSET_FETCH_DONE, 14);
  EXPECT_EQ(M::RESULTSET_FETCH_SUSPENDED, 15);
  EXPECT_EQ(M::RESULTSET_FETCH_DONE_MORE_RESULTSETS, 16);
  EXPECT_EQ(M::SQL_STMT_EXECUTE_OK, 17);
  EXPECT_EQ(M::RESULTSET_FETCH_DONE_MORE_OUT_PARAMS, 18);
  EXPECT_EQ(M::COMPRESSION, 19);
  EXPECT_EQ(M::Type_MAX, 19);
}

TEST(EnumValues, NoticeFrameAndSessionStateParameters) {
  using F = Mysqlx::Notice::Frame;
  EXPECT_EQ(F::WARNING, 1);
  EXPECT_EQ(F::SESSION_VARIABLE_CHANGED, 2);
  EXPECT_EQ(F::SESSION_STATE_CHANGED, 3);
  EXPECT_EQ(F::GROUP_REPLICATION_STATE_CHANGED, 4);
  EXPECT_EQ(F::SERVER_HELLO, 5);
  EXPECT_EQ(F::GLOBAL, 1);
  EXPECT_EQ(F::LOCAL, 2);

  using P = Mysqlx::Notice::SessionStateChanged;
  EXPECT_EQ(P::CURRENT_SCHEMA, 1);
  EXPECT_EQ(P::ACCOUNT_EXPIRED, 2);
  EXPECT_EQ(P::GENERATED_INSERT_ID, 3);
  EXPECT_EQ(P::ROWS_AFFECTED, 4);
  EXPECT_EQ(P::ROWS_FOUND, 5);
  EXPECT_EQ(P::ROWS_MATCHED, 6);
  EXPECT_EQ(P::TRX_COMMITTED, 7);
  EXPECT_FALSE(P::Parameter_IsValid(8));
  EXPECT_EQ(P::TRX_ROLLEDBACK, 9);
  EXPECT_EQ(P::PRODUCED_MESSAGE, 10);
  EXPECT_EQ(P::CLIENT_ID_ASSIGNED, 11);
  EXPECT_EQ(P::GENERATED_DOCUMENT_IDS, 12);

  using W = Mysqlx::Notice::Warning;
  EXPECT_EQ(W::NOTE, 1);
  EXPECT_EQ(W::WARNING, 2);
  EXPECT_EQ(W::ERROR, 3);
  EXPECT_EQ(W().level(), W::WARNING);
}

TEST(EnumValues, ExpectConditions) {
  using C = Mysqlx::Expect::Open::Condition;
  EXPECT_EQ(C::EXPECT_NO_ERROR, 1);
  EXPECT_EQ(C::EXPECT_FIELD_EXIST, 2);
  EXPECT_EQ(C::EXPECT_DOCID_GENERATED, 3);
  EXPECT_EQ(C::EXPECT_OP_SET, 0);
  EXPECT_EQ(C::EXPECT_OP_UNSET, 1);
  EXPECT_EQ(Mysqlx::Expect::Open::EXPECT_CTX_COPY_PREV, 0);
  EXPECT_EQ(Mysqlx::Expect::Open::EXPECT_CTX_EMPTY, 1);
  EXPECT_EQ(Mysqlx::Expect::Open().op(), Mysqlx::Expect::Open::EXPECT_CTX_COPY_PREV);
}

TEST(EnumValues, DatatypesAndExpr) {
  using S = Mysqlx::Datatypes::Scalar;
  EXPECT_EQ(S::V_SINT, 1);
  EXPECT_EQ(S::V_UINT, 2);
  EXPECT_EQ(S::V_NULL, 3);
  EXPECT_EQ(S::V_OCTETS, 4);
  EXPECT_EQ(S::V_DOUBLE, 5);
  EXPECT_EQ(S::V_FLOAT, 6);
  EXPECT_EQ(S::V_BOOL, 7);
  EXPECT_EQ(S::V_STRING, 8);
  EXPECT_EQ(Mysqlx::Datatypes::Any::SCALAR, 1);
  EXPECT_EQ(Mysqlx::Datatypes::Any::OBJECT, 2);
  EXPECT_EQ(Mysqlx::Datatypes::Any::ARRAY, 3);

  using E = Mysqlx::Expr::Expr;
  EXPECT_EQ(E::IDENT, 1);
  EXPECT_EQ(E::LITERAL, 2);
  EXPECT_EQ(E::VARIABLE, 3);
  EXPECT_EQ(E::FUNC_CALL, 4);
  EXPECT_EQ(E::OPERATOR, 5);
  EXPECT_EQ(E::PLACEHOLDER, 6);
  EXPECT_EQ(E::OBJECT, 7);
  EXPECT_EQ(E::ARRAY, 8);

  EXPECT_EQ(Mysqlx::Crud::DOCUMENT, 1);
  EXPECT_EQ(Mysqlx::Crud::TABLE, 2);
  EXPECT_EQ(Mysqlx::Resultset::JSON, 2);
  EXPECT_EQ(Mysqlx::Resultset::ColumnMetaData::DECIMAL, 18);
  EXPECT_EQ(Mysqlx::Error().severity(), Mysqlx::Error::ERROR);
  EXPECT_EQ(Mysqlx::Error::FATAL, 1);
}

} // namespace
