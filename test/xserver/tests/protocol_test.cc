// Expect blocks, SQL results and their encodings, pipelining and the frame
// size limit, on the 8.0 fixture.
#include "mysqlx_expect.pb.h"
#include "mysqlx_resultset.pb.h"
#include "mysqlx_session.pb.h"
#include "mysqlx_sql.pb.h"
#include "test/xserver/tests/xclient.h"

#include <gtest/gtest.h>

namespace xtest {
namespace {

using Mysqlx::Expect::Open;

std::vector<frame> expect_open(xclient& c, std::vector<std::pair<unsigned, std::string>> conds) {
  Open o;
  for (const auto& [key, value] : conds) {
    auto* cond = o.add_cond();
    cond->set_condition_key(key);
    if (!value.empty()) cond->set_condition_value(value);
  }
  c.send(client_msg::expect_open, o);
  return c.reply();
}

std::vector<frame> expect_close(xclient& c) {
  c.send(client_msg::expect_close, Mysqlx::Expect::Close());
  return c.reply();
}

TEST(Expect80, DocidGeneratedAndEmptyOpenAreOk) {
  xclient c = authed(env_port("XS_PORT_80"));
  EXPECT_TRUE(is(expect_open(c, {{3, ""}}).back(), server_msg::ok));
  EXPECT_TRUE(is(expect_close(c).back(), server_msg::ok));
  EXPECT_TRUE(is(expect_open(c, {}).back(), server_msg::ok)); // Node's "Close"
  EXPECT_TRUE(is(c.sql("SELECT 1").back(), server_msg::sql_stmt_execute_ok));
}

TEST(Expect80, CloseWithoutOpenIs5158) {
  xclient c = authed(env_port("XS_PORT_80"));
  auto e = error_of(expect_close(c).back());
  EXPECT_EQ(e.code(), 5158u);
  EXPECT_EQ(e.msg(), "Expect block currently not open");
}

TEST(Expect80, KnownFieldIsOkUnknownFieldFailsTheBlock) {
  xclient c = authed(env_port("XS_PORT_80"));
  EXPECT_TRUE(is(expect_open(c, {{2, "18.6"}}).back(), server_msg::ok));
  EXPECT_TRUE(is(expect_close(c).back(), server_msg::ok));
  auto e = error_of(expect_open(c, {{2, "18.99"}}).back());
  EXPECT_EQ(e.code(), 5168u);
  EXPECT_EQ(e.msg(), "Expectation failed: field_exists = '18.99'");
  // The failed block answers statements with its error without running them.
  EXPECT_EQ(error_of(c.sql("SELECT 1").back()).code(), 5168u);
  EXPECT_EQ(error_of(expect_close(c).back()).code(), 5168u);
  EXPECT_TRUE(is(c.sql("SELECT 1").back(), server_msg::sql_stmt_execute_ok));
}

TEST(Expect80, NoErrorBlockFailsAfterAnError) {
  xclient c = authed(env_port("XS_PORT_80"));
  EXPECT_TRUE(is(expect_open(c, {{1, ""}}).back(), server_msg::ok));
  EXPECT_EQ(error_of(c.sql("SELECT * FROM no_such_db.t").back()).code(), 1146u);
  auto e = error_of(c.sql("SELECT 1").back());
  EXPECT_EQ(e.code(), 5159u);
  EXPECT_EQ(e.msg(), "Expectation failed: no_error");
  EXPECT_EQ(error_of(expect_close(c).back()).code(), 5159u);
  EXPECT_EQ(error_of(expect_open(c, {{1, "yes"}}).back()).code(), 5161u);
  EXPECT_EQ(error_of(expect_open(c, {{9, ""}}).back()).msg(), "Unknown condition key: 9");
}

TEST(Sql80, ResultSetMetadataRowsAndNotices) {
  xclient c = authed(env_port("XS_PORT_80"));
  auto r = c.sql("SELECT -5 AS i, CAST(7 AS UNSIGNED) AS u, 'hi' AS s, NULL AS n, "
                 "CAST(-12.34 AS DECIMAL(5,2)) AS d, DATE'2024-01-02' AS dt");
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  std::vector<Mysqlx::Resultset::ColumnMetaData> meta;
  const frame* row = nullptr;
  for (const auto& f : r) {
    if (is(f, server_msg::resultset_column_meta_data))
      meta.emplace_back().ParseFromString(f.payload);
    if (is(f, server_msg::resultset_row)) row = &f;
  }
  ASSERT_EQ(meta.size(), 6u);
  EXPECT_EQ(meta[0].type(), Mysqlx::Resultset::ColumnMetaData::SINT);
  EXPECT_EQ(meta[0].name(), "i");
  EXPECT_EQ(meta[1].type(), Mysqlx::Resultset::ColumnMetaData::UINT);
  EXPECT_EQ(meta[2].type(), Mysqlx::Resultset::ColumnMetaData::BYTES);
  EXPECT_EQ(meta[4].type(), Mysqlx::Resultset::ColumnMetaData::DECIMAL);
  EXPECT_EQ(meta[5].type(), Mysqlx::Resultset::ColumnMetaData::DATETIME);
  ASSERT_NE(row, nullptr);
  Mysqlx::Resultset::Row values;
  values.ParseFromString(row->payload);
  ASSERT_EQ(values.field_size(), 6);
  EXPECT_EQ(values.field(0), std::string("\x09", 1)); // zigzag(-5) = 9
  EXPECT_EQ(values.field(1), std::string("\x07", 1));
  EXPECT_EQ(values.field(2), std::string("hi\0", 3));
  EXPECT_EQ(values.field(3), ""); // NULL
  EXPECT_EQ(values.field(4), std::string("\x02\x12\x34\xd0", 4));
  EXPECT_EQ(values.field(5), std::string("\xe8\x0f\x01\x02", 4));
  // FetchDone, ROWS_AFFECTED, StmtExecuteOk close the reply.
  EXPECT_TRUE(is(r[r.size() - 3], server_msg::resultset_fetch_done));
  EXPECT_EQ(notice_of(r[r.size() - 2]).param, 4);
}

// As MySQL's X Plugin: a column's length is its own (VARCHAR(10) latin2: 10,
// not 40), a charset other than utf8mb4 is sent converted to utf8mb4 under
// the utf8mb4 collation, and a utf8mb4 column keeps its own collation
// (Oracle's Types.string).
TEST(Sql80, TextColumnsKeepTheirLengthAndArriveAsUtf8mb4) {
  xclient c = authed(env_port("XS_PORT_80"));
  const std::string db = unique_name("cs");
  c.sql("CREATE DATABASE " + db);
  c.sql("CREATE TABLE " + db +
        ".t (l VARCHAR(10) COLLATE latin2_general_ci, u3 VARCHAR(4) CHARACTER SET utf8mb3,"
        " b VARCHAR(4) COLLATE utf8mb4_bin, e ENUM('\xc5\x82"
        "a') CHARACTER SET latin2,"
        " v VARBINARY(4))");
  auto ins = c.sql("INSERT INTO " + db +
                   ".t VALUES ('Mog\xc4\x99', '\xc4\x99', '\xf0\x9f\x98\x80', '\xc5\x82"
                   "a', 'x')");
  ASSERT_TRUE(is(ins.back(), server_msg::sql_stmt_execute_ok)) << describe(ins);
  auto r = c.sql("SELECT * FROM " + db + ".t");
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  std::vector<Mysqlx::Resultset::ColumnMetaData> meta;
  Mysqlx::Resultset::Row row;
  for (const auto& f : r) {
    if (is(f, server_msg::resultset_column_meta_data))
      meta.emplace_back().ParseFromString(f.payload);
    if (is(f, server_msg::resultset_row)) row.ParseFromString(f.payload);
  }
  ASSERT_EQ(meta.size(), 5u);
  EXPECT_EQ(meta[0].length(), 10u);
  EXPECT_EQ(meta[0].collation(), 45u); // utf8mb4_general_ci: converted
  EXPECT_EQ(meta[1].length(), 12u);
  EXPECT_EQ(meta[1].collation(), 45u);
  EXPECT_EQ(meta[2].length(), 16u);
  EXPECT_EQ(meta[2].collation(), 46u); // utf8mb4_bin: its own
  EXPECT_EQ(meta[3].collation(), 45u);
  EXPECT_EQ(meta[4].collation(), 63u); // binary: its own
  ASSERT_EQ(row.field_size(), 5);
  EXPECT_EQ(row.field(0), std::string("Mog\xc4\x99\0", 6));
  EXPECT_EQ(row.field(1), std::string("\xc4\x99\0", 3));
  EXPECT_EQ(row.field(2), std::string("\xf0\x9f\x98\x80\0", 5));
  EXPECT_EQ(row.field(3), std::string("\xc5\x82"
                                      "a\0",
                                      4));
  EXPECT_EQ(row.field(4), std::string("x\0", 2));
  // COM_RESET_CONNECTION (Session.Reset) keeps it so.
  Mysqlx::Session::Reset reset;
  reset.set_keep_open(true);
  c.send(client_msg::sess_reset, reset);
  ASSERT_TRUE(is(c.reply().back(), server_msg::ok));
  r = c.sql("SELECT l FROM " + db + ".t");
  for (const auto& f : r)
    if (is(f, server_msg::resultset_column_meta_data)) {
      Mysqlx::Resultset::ColumnMetaData m;
      m.ParseFromString(f.payload);
      EXPECT_EQ(m.length(), 10u);
    }
  c.sql("DROP DATABASE " + db);
}

TEST(Sql80, ErrorsKeepMariaDbCodeAndSqlState) {
  xclient c = authed(env_port("XS_PORT_80"));
  auto e = error_of(c.sql("SELEC 1").back());
  EXPECT_EQ(e.code(), 1064u);
  EXPECT_EQ(e.sql_state(), "42000");
  EXPECT_EQ(e.severity(), Mysqlx::Error::ERROR);
}

TEST(Sql80, InsertReportsRowsAffectedAndInsertId) {
  xclient c = authed(env_port("XS_PORT_80"));
  const std::string db = unique_name("sql");
  c.sql("CREATE DATABASE " + db);
  c.sql("CREATE TABLE " + db + ".t (id INT AUTO_INCREMENT PRIMARY KEY, v INT)");
  auto r = c.sql("INSERT INTO " + db + ".t (v) VALUES (1),(2)");
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  std::map<int, std::uint64_t> params;
  for (const auto& f : r) {
    auto n = notice_of(f);
    if (n.param == 4 || n.param == 3) params[n.param] = n.values.at(0).v_unsigned_int();
  }
  EXPECT_EQ(params[4], 2u);
  EXPECT_EQ(params[3], 1u); // LAST_INSERT_ID: the first row of the statement
}

TEST(Sql80, MultipleResultSetsFromAProcedure) {
  xclient c = authed(env_port("XS_PORT_80"));
  const std::string db = unique_name("proc");
  c.sql("CREATE DATABASE " + db);
  ASSERT_TRUE(is(c.sql("CREATE PROCEDURE " + db + ".p() BEGIN SELECT 1; SELECT 2; END").back(),
                 server_msg::sql_stmt_execute_ok));
  auto r = c.sql("CALL " + db + ".p()");
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  int more = 0, done = 0;
  for (const auto& f : r) {
    more += is(f, server_msg::resultset_fetch_done_more_resultsets);
    done += is(f, server_msg::resultset_fetch_done);
  }
  EXPECT_EQ(more, 1);
  EXPECT_EQ(done, 1);
}

// MySQL's X Plugin streams each result set as the procedure produces it; an
// error later in the procedure ends the reply after them:
// Streaming_command_delegate::handle_error sends the FetchDoneMoreResultsets
// it held back, then the Error (plugin/x/src/streaming_command_delegate.cc).
TEST(Sql80, ErrorInsideAProcedureComesAfterTheResultSetsBeforeIt) {
  xclient c = authed(env_port("XS_PORT_80"));
  const std::string db = unique_name("proc");
  c.sql("CREATE DATABASE " + db);
  ASSERT_TRUE(is(c.sql("CREATE PROCEDURE " + db +
                       ".p() BEGIN SELECT 1 AS a; SELECT 2 AS b, 3 AS c; "
                       "SELECT * FROM " +
                       db + ".unknowntable; SELECT 4; END")
                     .back(),
                 server_msg::sql_stmt_execute_ok));
  const auto r = c.sql("CALL " + db + ".p()");
  std::vector<server_msg> kinds;
  for (const auto& f : r) {
    for (server_msg k :
         {server_msg::resultset_column_meta_data, server_msg::resultset_row,
          server_msg::resultset_fetch_done_more_resultsets, server_msg::resultset_fetch_done,
          server_msg::error, server_msg::sql_stmt_execute_ok}) {
      if (is(f, k)) kinds.push_back(k);
    }
  }
  const std::vector<server_msg> want = {
      server_msg::resultset_column_meta_data,           // a
      server_msg::resultset_row,                        // 1
      server_msg::resultset_fetch_done_more_resultsets, // end of the first
      server_msg::resultset_column_meta_data,           // b
      server_msg::resultset_column_meta_data,           // c
      server_msg::resultset_row,                        // 2, 3
      server_msg::resultset_fetch_done_more_resultsets, // end of the second
      server_msg::error,                                // the third statement
  };
  EXPECT_EQ(kinds, want) << describe(r);
  ASSERT_TRUE(is(r.back(), server_msg::error)) << describe(r);
  EXPECT_EQ(error_of(r.back()).code(), 1146u);
  // The session goes on.
  EXPECT_EQ(column_strings(c.sql("SELECT 'after'")), (std::vector<std::string>{"after"}));
}

// A statement MySQL refuses only when it runs (a division by a POINT) is
// refused the same way by MariaDB 10.11: not at CREATE PROCEDURE, not in a
// branch not taken, and when taken after the result sets before it.
TEST(Sql80, StatementsInsideAProcedureAreRefusedWhenTheyRun) {
  xclient c = authed(env_port("XS_PORT_80"));
  const std::string db = unique_name("proc");
  c.sql("CREATE DATABASE " + db);
  ASSERT_TRUE(is(c.sql("CREATE PROCEDURE " + db +
                       ".p(x INT) BEGIN SELECT 'first'; IF x > 0 THEN SELECT 1/point(1,0); "
                       "END IF; SELECT 'last'; END")
                     .back(),
                 server_msg::sql_stmt_execute_ok));
  auto r = c.sql("CALL " + db + ".p(0)");
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  r = c.sql("CALL " + db + ".p(1)");
  ASSERT_GE(r.size(), 4u) << describe(r);
  EXPECT_EQ(column_strings(r), (std::vector<std::string>{"first"}));
  EXPECT_TRUE(is(r[r.size() - 2], server_msg::resultset_fetch_done_more_resultsets)) << describe(r);
  EXPECT_TRUE(is(r.back(), server_msg::error)) << describe(r);
}

TEST(Sql80, PipelinedRequestsAreAnsweredInOrder) {
  xclient c = authed(env_port("XS_PORT_80"));
  std::string batch;
  for (const char* stmt : {"SELECT 'one'", "SELEC broken", "SELECT 'three'"}) {
    Mysqlx::Sql::StmtExecute m;
    m.set_stmt(stmt);
    batch += c.encode(client_msg::sql_stmt_execute, m);
  }
  c.send_raw(batch); // one write: the server sees them back to back
  EXPECT_EQ(column_strings(c.reply()), (std::vector<std::string>{"one"}));
  EXPECT_EQ(error_of(c.reply().back()).code(), 1064u);
  EXPECT_EQ(column_strings(c.reply()), (std::vector<std::string>{"three"}));
}

TEST(Sql80, AnOversizedFrameLengthClosesTheConnectionNotAnAllocation) {
  xclient c = authed(env_port("XS_PORT_80"));
  c.send_raw(std::string("\xff\xff\xff\x7f\x0c", 5)); // 2 GiB announced
  // Above mysqlx_max_allowed_packet: MySQL closes without a word
  // (Protocol_decoder::read_and_decode_impl, "Force disconnect").
  EXPECT_FALSE(c.read());
}

TEST(Sql80, AnEmptyFrameIsFatal5000) {
  xclient c = authed(env_port("XS_PORT_80"));
  c.send_raw(std::string(4, '\0')); // a length of 0: not even a type byte
  auto f = c.read();
  ASSERT_TRUE(f.has_value());
  auto e = error_of(*f);
  EXPECT_EQ(e.severity(), Mysqlx::Error::FATAL);
  EXPECT_EQ(e.code(), 5000u);
  EXPECT_EQ(e.msg(), "Messages without payload are not supported");
  EXPECT_FALSE(c.read());
}

TEST(Sql80, UniquePrefixVariableRejectsSessionScopeAndNonIntegers) {
  xclient c = authed(env_port("XS_PORT_80"));
  auto e = error_of(c.sql("SET SESSION mysqlx_document_id_unique_prefix = 3").back());
  EXPECT_EQ(e.code(), 1229u);
  e = error_of(c.sql("SET GLOBAL mysqlx_document_id_unique_prefix = 'abc'").back());
  EXPECT_EQ(e.code(), 1232u);
  EXPECT_EQ(e.msg(), "Incorrect argument type to variable 'mysqlx_document_id_unique_prefix'");
}

TEST(Admin80, ListObjectsTellsCollectionsFromTables) {
  xclient c = authed(env_port("XS_PORT_80"));
  const std::string db = unique_name("objs");
  c.sql("CREATE DATABASE " + db);
  c.sql("CREATE TABLE " + db + ".plain (a INT)");
  ASSERT_TRUE(is(c.admin("create_collection", db, "coll").back(), server_msg::sql_stmt_execute_ok));
  auto again = error_of(c.admin("create_collection", db, "coll").back());
  EXPECT_EQ(again.code(), 1050u);
  EXPECT_TRUE(is(c.admin("ensure_collection", db, "coll").back(), server_msg::sql_stmt_execute_ok));
  EXPECT_EQ(error_of(c.admin("ensure_collection", db, "plain").back()).code(), 5156u);
  Mysqlx::Sql::StmtExecute m;
  m.set_stmt("list_objects");
  m.set_namespace_("mysqlx");
  auto* arg = m.add_args();
  arg->set_type(Mysqlx::Datatypes::Any::OBJECT);
  auto* f = arg->mutable_obj()->add_fld();
  f->set_key("schema");
  f->mutable_value()->set_type(Mysqlx::Datatypes::Any::SCALAR);
  f->mutable_value()->mutable_scalar()->set_type(Mysqlx::Datatypes::Scalar::V_STRING);
  f->mutable_value()->mutable_scalar()->mutable_v_string()->set_value(db);
  c.send(client_msg::sql_stmt_execute, m);
  auto r = c.reply();
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  std::vector<std::string> types;
  for (const auto& fr : r) {
    if (!is(fr, server_msg::resultset_row)) continue;
    Mysqlx::Resultset::Row row;
    row.ParseFromString(fr.payload);
    types.push_back(row.field(0).substr(0, row.field(0).size() - 1) + "=" +
                    row.field(1).substr(0, row.field(1).size() - 1));
  }
  EXPECT_EQ(types, (std::vector<std::string>{"coll=COLLECTION", "plain=TABLE"}));
  EXPECT_TRUE(is(c.admin("drop_collection", db, "coll").back(), server_msg::sql_stmt_execute_ok));
  EXPECT_EQ(error_of(c.admin("drop_collection", db, "coll").back()).code(), 1051u);
  EXPECT_EQ(error_of(c.sql("nope", "mysqlx").back()).code(), 5157u);
  EXPECT_EQ(error_of(c.sql("ping", "xplugin").back()).code(), 5162u);
}

} // namespace
} // namespace xtest
