// Reads of performance_schema's connect attribute tables, answered from
// xserverd's registry (connect_attrs_table.h), without a server: which
// references are replaced and what takes their place.
#include "test/xserver/connect_attrs_table.h"

#include <gtest/gtest.h>

namespace xserver {
namespace {

// The table expression stands in as T(all) or A(account), so the tests read
// where it went.
connect_attrs_source fake_source(bool default_db_is_ps, int* db_asked = nullptr) {
  connect_attrs_source s;
  s.table = [](bool account_only) { return std::string(account_only ? "A()" : "T()"); };
  s.default_db_is_performance_schema = [=] {
    if (db_asked) ++*db_asked;
    return default_db_is_ps;
  };
  return s;
}

std::string rewritten(std::string_view sql, bool default_db_is_ps = false) {
  return rewrite_connect_attrs_tables(sql, fake_source(default_db_is_ps)).value_or("<unchanged>");
}

TEST(ConnectAttrsTable, QualifiedReferencesInFromBecomeTheTable) {
  EXPECT_EQ(rewritten("select ATTR_NAME, ATTR_VALUE, PROCESSLIST_ID from "
                      "performance_schema.session_connect_attrs where PROCESSLIST_ID=12;"),
            "select ATTR_NAME, ATTR_VALUE, PROCESSLIST_ID from T() AS session_connect_attrs "
            "where PROCESSLIST_ID=12;");
  EXPECT_EQ(rewritten("SELECT * FROM `PERFORMANCE_SCHEMA` . `Session_Account_Connect_Attrs`"),
            "SELECT * FROM A() AS session_account_connect_attrs");
  // The statement's own alias, with or without AS.
  EXPECT_EQ(rewritten("SELECT a.ATTR_NAME FROM performance_schema.session_connect_attrs a "
                      "JOIN performance_schema.session_account_connect_attrs AS b USING "
                      "(ATTR_NAME)"),
            "SELECT a.ATTR_NAME FROM T() a JOIN A() AS b USING (ATTR_NAME)");
  EXPECT_EQ(rewritten("SELECT 1 FROM t, performance_schema.session_connect_attrs, u"),
            "SELECT 1 FROM t, T() AS session_connect_attrs, u");
  // A qualified column keeps the table's name, which is the alias.
  EXPECT_EQ(rewritten("SELECT performance_schema.session_connect_attrs.ATTR_NAME FROM "
                      "performance_schema.session_connect_attrs"),
            "SELECT session_connect_attrs.ATTR_NAME FROM T() AS session_connect_attrs");
  // In a subquery and after INSERT ... SELECT.
  EXPECT_EQ(rewritten("INSERT INTO t SELECT ATTR_NAME FROM (SELECT * FROM "
                      "performance_schema.session_connect_attrs) x"),
            "INSERT INTO t SELECT ATTR_NAME FROM (SELECT * FROM T() AS session_connect_attrs) x");
}

TEST(ConnectAttrsTable, UnqualifiedNamesOnlyInPerformanceSchema) {
  int asked = 0;
  const auto no = rewrite_connect_attrs_tables("SELECT * FROM session_connect_attrs",
                                               fake_source(false, &asked));
  EXPECT_FALSE(no);
  EXPECT_EQ(asked, 1);
  EXPECT_EQ(rewritten("SELECT * FROM session_connect_attrs WHERE 1", true),
            "SELECT * FROM T() AS session_connect_attrs WHERE 1");
  // Another schema's table of that name is that table.
  EXPECT_EQ(rewritten("SELECT * FROM test.session_connect_attrs", true), "<unchanged>");
  // Not asked for a statement without an unqualified reference.
  asked = 0;
  EXPECT_TRUE(rewrite_connect_attrs_tables("SELECT * FROM performance_schema.session_connect_attrs",
                                           fake_source(false, &asked)));
  EXPECT_EQ(asked, 0);
}

TEST(ConnectAttrsTable, LeavesOtherTextAndStatementsAlone) {
  // Strings, comments and other names.
  EXPECT_EQ(rewritten("SELECT 'performance_schema.session_connect_attrs' FROM dual"),
            "<unchanged>");
  EXPECT_EQ(rewritten("SELECT 1 /* FROM performance_schema.session_connect_attrs */"),
            "<unchanged>");
  EXPECT_EQ(rewritten("SELECT 1 -- FROM performance_schema.session_connect_attrs"), "<unchanged>");
  EXPECT_EQ(rewritten("SELECT * FROM performance_schema.session_connect_attrs_x"), "<unchanged>");
  EXPECT_EQ(rewritten("SELECT * FROM performance_schema.threads"), "<unchanged>");
  // MariaDB's own table for the statements that describe it or keep rows.
  EXPECT_EQ(rewritten("SHOW COLUMNS FROM performance_schema.session_connect_attrs"), "<unchanged>");
  EXPECT_EQ(rewritten("DESCRIBE performance_schema.session_connect_attrs"), "<unchanged>");
  EXPECT_EQ(rewritten("CREATE VIEW v AS SELECT * FROM performance_schema.session_connect_attrs"),
            "<unchanged>");
  EXPECT_FALSE(names_connect_attrs_table("SELECT 1"));
  EXPECT_TRUE(names_connect_attrs_table("select * from SESSION_CONNECT_ATTRS"));
}

TEST(ConnectAttrsTable, RowsInTheClientsOrderWithEmptyValuesNull) {
  std::vector<attrs_session> sessions = {
      {7, "u", "localhost", {{"_client_name", "c\"x"}, {"qux", ""}, {"foo", "bar"}}},
      {9, "u", "localhost", {}}, // no attributes, no rows
      {8, "v", "localhost", {{"k", "a\\b"}}}};
  const std::string sql = connect_attrs_table_sql(
      sessions, [](std::string_view s) { return "'" + std::string(s) + "'"; });
  EXPECT_EQ(sql, "JSON_TABLE('[[7,\"_client_name\",\"c\\\"x\",0],[7,\"qux\",null,1],"
                 "[7,\"foo\",\"bar\",2],[8,\"k\",\"a\\\\b\",0]]', '$[*]' COLUMNS("
                 "PROCESSLIST_ID BIGINT UNSIGNED PATH '$[0]', ATTR_NAME VARCHAR(32) CHARACTER "
                 "SET utf8mb4 COLLATE utf8mb4_bin PATH '$[1]', ATTR_VALUE VARCHAR(1024) "
                 "CHARACTER SET utf8mb4 COLLATE utf8mb4_bin PATH '$[2]', ORDINAL_POSITION INT "
                 "PATH '$[3]'))");
  EXPECT_EQ(
      connect_attrs_table_sql({}, [](std::string_view s) { return std::string(s); }).substr(0, 14),
      "JSON_TABLE([],");
}

} // namespace
} // namespace xserver
