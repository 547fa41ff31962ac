// Session::sql(), result types, schema calls and transactions (8.0 mode).
#include "it_common.h"

#include <chrono>
#include <thread>

using namespace mysqlx;

namespace {
Session open80() {
  return Session(devapi_it::env_uri("MYSQLX_TEST_URI_80"));
}
} // namespace

TEST(SqlTest, ValueTypesAndColumns) {
  Session s = open80();
  SqlResult r = s.sql("SELECT -5 AS i, 7.25e0 AS d, 'txt' AS s, CAST(12.50 AS DECIMAL(5,2)) AS "
                      "dec_, NULL AS n, ? AS bound, CAST('2024-01-02 03:04:05' AS DATETIME) AS dt")
                    .bind(42)
                    .execute();
  ASSERT_TRUE(r.hasData());
  ASSERT_EQ(r.getColumnCount(), 7u);
  EXPECT_EQ(r.getColumn(0).getColumnLabel(), "i");
  EXPECT_EQ(r.getColumn(2).getType(), Type::STRING);
  EXPECT_FALSE(r.getColumn(2).getCharacterSetName().empty());
  EXPECT_TRUE(r.getColumn(0).isNumberSigned());
  EXPECT_EQ(r.getColumn(3).getType(), Type::DECIMAL);
  Row row = r.fetchOne();
  EXPECT_EQ(row[0].get<int>(), -5);
  EXPECT_DOUBLE_EQ(row[1].get<double>(), 7.25);
  EXPECT_EQ(row[2].get<std::string>(), "txt");
  EXPECT_EQ(row[3].get<std::string>(), "12.50");
  EXPECT_TRUE(row[4].isNull());
  EXPECT_EQ(row[5].get<int>(), 42);
  EXPECT_EQ(row[6].get<std::string>(), "2024-01-02 03:04:05");
  EXPECT_TRUE(r.fetchOne().isNull());
}

// Bound values go with one execute(), as in Connector/C++ 8: a statement
// run in a loop binds its values each time.
TEST(SqlTest, BoundValuesGoWithOneExecution) {
  Session s = open80();
  SqlStatement st = s.sql("SELECT ? + 1");
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(st.bind(i).execute().fetchOne()[0].get<int>(), i + 1);
  }
  EXPECT_THROW(st.execute(), Error); // no value for the placeholder now
  EXPECT_EQ(st.bind(10).execute().fetchOne()[0].get<int>(), 11);
}

// As in Connector/C++ 8: the counts of a statement that returned rows are
// there once its result sets are behind.
TEST(SqlTest, CountsThrowWhileAResultSetIsCurrent) {
  Session s = open80();
  SqlResult r = s.sql("SELECT 1 UNION SELECT 2").execute();
  EXPECT_THROW(r.getAffectedItemsCount(), Error);
  EXPECT_THROW(r.getAutoIncrementValue(), Error);
  EXPECT_FALSE(r.nextResult());
  EXPECT_EQ(r.getAffectedItemsCount(), 0u);
  EXPECT_EQ(r.getAutoIncrementValue(), 0u);
}

TEST(SqlTest, AffectedItemsAutoIncrementAndWarnings) {
  Session s = open80();
  s.sql("CREATE DATABASE IF NOT EXISTS dv_sql").execute();
  s.sql("DROP TABLE IF EXISTS dv_sql.t").execute();
  s.sql("CREATE TABLE dv_sql.t (id INT AUTO_INCREMENT PRIMARY KEY, v TINYINT)").execute();
  SqlResult r = s.sql("INSERT INTO dv_sql.t (v) VALUES (1), (2), (3)").execute();
  EXPECT_FALSE(r.hasData());
  EXPECT_EQ(r.getAffectedItemsCount(), 3u);
  EXPECT_EQ(r.getAutoIncrementValue(), 1u);
  SqlResult w = s.sql("INSERT IGNORE INTO dv_sql.t (v) VALUES (1000)").execute();
  EXPECT_GE(w.getWarningsCount(), 1u);
  EXPECT_EQ(s.sql("SELECT * FROM dv_sql.t").execute().count(), 4u);
}

TEST(SqlTest, ServerErrorKeepsItsCodeAndTheSessionGoesOn) {
  Session s = open80();
  try {
    s.sql("SELECT * FROM no_such_db.no_such_table").execute();
    FAIL();
  } catch (const Error& e) {
    EXPECT_TRUE(e.isServerError());
    EXPECT_EQ(e.code(), 1146u);
  }
  EXPECT_EQ(s.sql("SELECT 1").execute().fetchOne()[0].get<int>(), 1);
}

TEST(SchemaTest, CreateGetListAndDrop) {
  Session s = open80();
  s.dropSchema("dv_schema");
  Schema db = s.createSchema("dv_schema");
  EXPECT_TRUE(db.existsInDatabase());
  EXPECT_THROW(s.createSchema("dv_schema"), Error);
  EXPECT_NO_THROW(s.createSchema("dv_schema", true));
  db.createCollection("c1");
  db.createCollection("c2");
  EXPECT_THROW(db.createCollection("c1"), Error);
  EXPECT_NO_THROW(db.createCollection("c1", true));
  std::vector<std::string> names = db.getCollectionNames();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"c1", "c2"}));
  EXPECT_EQ(db.getCollections().size(), 2u);
  EXPECT_TRUE(db.getCollection("c1", true).existsInDatabase());
  EXPECT_THROW(db.getCollection("nope", true), Error);
  EXPECT_FALSE(db.getCollection("nope").existsInDatabase());
  s.sql("CREATE TABLE dv_schema.t (a INT)").execute();
  EXPECT_EQ(db.getTableNames().size(), 1u);
  EXPECT_TRUE(db.getTable("t", true).existsInDatabase());
  db.dropCollection("c2");
  EXPECT_EQ(db.getCollectionNames().size(), 1u);
  bool listed = false;
  for (const Schema& sc : s.getSchemas()) listed = listed || sc.getName() == "dv_schema";
  EXPECT_TRUE(listed);
  s.dropSchema("dv_schema");
  EXPECT_FALSE(db.existsInDatabase());
}

TEST(SchemaTest, DefaultSchemaFromTheUri) {
  Session s = open80();
  s.createSchema("dv_default", true);
  Session t(devapi_it::env_uri("MYSQLX_TEST_URI_80") + "/dv_default");
  EXPECT_EQ(t.getDefaultSchemaName(), "dv_default");
  EXPECT_EQ(t.getDefaultSchema().getName(), "dv_default");
  EXPECT_THROW(s.getDefaultSchema(), Error);
}

TEST(TransactionTest, CommitRollbackAndSavepoints) {
  Session s = open80();
  Collection c = s.createSchema("dv_trx", true).createCollection("c", true);
  c.remove("true").execute();
  s.startTransaction();
  c.add(R"({"n": 1})").execute();
  s.rollback();
  EXPECT_EQ(c.count(), 0u);
  s.startTransaction();
  c.add(R"({"n": 1})").execute();
  std::string sp = s.setSavepoint();
  EXPECT_FALSE(sp.empty());
  c.add(R"({"n": 2})").execute();
  s.rollbackTo(sp);
  s.setSavepoint("named");
  s.releaseSavepoint("named");
  s.commit();
  EXPECT_EQ(c.count(), 1u);
}

TEST(SessionTest, CloseMakesLaterCallsFailCleanly) {
  Session s = open80();
  Collection c = s.createSchema("dv_close", true).createCollection("c", true);
  s.close();
  EXPECT_THROW(c.add(R"({"n": 1})").execute(), Error);
  EXPECT_THROW(s.sql("SELECT 1").execute(), Error);
}

TEST(SessionTest, AnIdleSessionTheServerClosedIsAnErrorThatSaysWhy) {
  Session s = open80();
  s.sql("SET SESSION mysqlx_wait_timeout = 1").execute();
  // Idle past it: the server sends its notice and closes (as MySQL 8.0).
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  try {
    s.sql("SELECT 1").execute();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("read_timeout exceeded"), std::string::npos) << what;
    EXPECT_NE(what.find("1810"), std::string::npos) << what;
  }
  EXPECT_THROW(s.sql("SELECT 1").execute(), Error); // and stays closed
}

// KILL of the session's own connection ends the session, as MySQL does
// (its X Plugin sends a "Session was killed" notice and closes); xserverd
// used to answer 2006 to every later call on a session that looked open.
TEST(SessionTest, KillingItsOwnConnectionEndsTheSession) {
  Session s = open80();
  const auto id = s.sql("SELECT CONNECTION_ID()").execute().fetchOne()[0].get<std::uint64_t>();
  // The KILL itself, or at the latest the next call, meets the closed
  // connection, with the server's reason.
  try {
    s.sql("KILL " + std::to_string(id)).execute();
    s.sql("SELECT 1").execute();
    ADD_FAILURE() << "the session is still usable after KILL of its own connection";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::LOST_CONNECTION) << e.what();
    EXPECT_NE(std::string(e.what()).find("notice 3169 'Session was killed'"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(s.sql("SELECT 1").execute(), Error); // and it stays closed
  // Another session is unaffected.
  Session other = open80();
  EXPECT_EQ(other.sql("SELECT 2").execute().fetchOne()[0].get<int>(), 2);
}

TEST(SqlTest, WarningLevelsAreTheServers) {
  Session s = open80();
  // A note: DROP of a table that does not exist, with IF EXISTS (1051).
  SqlResult note = s.sql("DROP TABLE IF EXISTS dv_sql_no_such.t_no_such").execute();
  ASSERT_EQ(note.getWarningsCount(), 1u);
  EXPECT_EQ(note.getWarning(0).getLevel(), Warning::LEVEL_INFO);
  EXPECT_EQ(note.getWarning(0).getCode(), 1051u);
  // A warning: a value cut to fit its column (1264).
  s.sql("CREATE DATABASE IF NOT EXISTS dv_sql_levels").execute();
  s.sql("DROP TABLE IF EXISTS dv_sql_levels.t").execute();
  s.sql("CREATE TABLE dv_sql_levels.t (v TINYINT)").execute();
  SqlResult warn = s.sql("INSERT IGNORE INTO dv_sql_levels.t VALUES (1000)").execute();
  ASSERT_GE(warn.getWarningsCount(), 1u);
  EXPECT_EQ(warn.getWarning(0).getLevel(), Warning::LEVEL_WARNING);
  EXPECT_EQ(warn.getWarning(0).getCode(), 1264u);
}

// Issue 38: a procedure that returns two result sets and then fails. As on
// MySQL, execute() succeeds, both result sets read, and the error comes with
// the nextResult() that moves to the statement that failed.
TEST(SqlTest, ProcedureErrorComesWithTheResultThatFailed) {
  Session s = open80();
  s.sql("CREATE DATABASE IF NOT EXISTS dv_sql_proc").execute();
  s.sql("DROP PROCEDURE IF EXISTS dv_sql_proc.p").execute();
  s.sql("CREATE PROCEDURE dv_sql_proc.p() BEGIN SELECT 1; SELECT 2 UNION SELECT 3; "
        "SELECT * FROM dv_sql_proc.unknowntable; END")
      .execute();
  SqlResult r = s.sql("CALL dv_sql_proc.p()").execute();
  EXPECT_EQ(r.count(), 1u);
  ASSERT_TRUE(r.nextResult());
  EXPECT_EQ(r.count(), 2u);
  try {
    r.nextResult();
    ADD_FAILURE() << "nextResult() to the failed statement did not throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknowntable"), std::string::npos) << e.what();
  }
  // The session goes on.
  EXPECT_EQ(s.sql("SELECT 7").execute().fetchOne()[0].get<int>(), 7);
}
