// classify_sql_transaction(): what a statement sent through sql() does to the
// session's transaction state. A wrong answer makes a split add() either
// commit the application's transaction (START TRANSACTION inside it) or run
// its parts without one, so every form the MySQL manual allows is covered:
// comments, case, whitespace, the optional words, and the statements that
// commit implicitly.
#include "devapi/sql_trx.h"

#include <gtest/gtest.h>
#include <ostream>
#include <string>

using mysqlx::detail::classify_sql_transaction;
using mysqlx::detail::trx_effect;

namespace {

const char* name_of(trx_effect e) {
  switch (e) {
  case trx_effect::none:
    return "none";
  case trx_effect::begin:
    return "begin";
  case trx_effect::end:
    return "end";
  case trx_effect::autocommit_on:
    return "autocommit_on";
  case trx_effect::autocommit_off:
    return "autocommit_off";
  }
  return "?";
}

struct trx_case {
  const char* sql;
  trx_effect effect;
};

std::ostream& operator<<(std::ostream& os, const trx_case& c) {
  return os << '"' << c.sql << "\" -> " << name_of(c.effect);
}

class ClassifySql : public ::testing::TestWithParam<trx_case> {};

TEST_P(ClassifySql, Effect) {
  EXPECT_STREQ(name_of(classify_sql_transaction(GetParam().sql)), name_of(GetParam().effect));
}

const trx_case opening[] = {
    {"START TRANSACTION", trx_effect::begin},
    {"start transaction", trx_effect::begin},
    {"Start Transaction;", trx_effect::begin},
    {"  \t\n START\n\tTRANSACTION  ", trx_effect::begin},
    {"START TRANSACTION WITH CONSISTENT SNAPSHOT", trx_effect::begin},
    {"START TRANSACTION READ ONLY", trx_effect::begin},
    {"START TRANSACTION READ WRITE, WITH CONSISTENT SNAPSHOT", trx_effect::begin},
    {"BEGIN", trx_effect::begin},
    {"begin work", trx_effect::begin},
    {"BEGIN;", trx_effect::begin},
    {"/* app */ START TRANSACTION", trx_effect::begin},
    {"/* a */ /* b */BEGIN", trx_effect::begin},
    {"/*multi\nline*/\nBEGIN", trx_effect::begin},
    {"-- opening\nSTART TRANSACTION", trx_effect::begin},
    // Executable comments are run by the server: their text counts.
    {"/*!40101 START TRANSACTION */", trx_effect::begin},
    {"/*M!100100 BEGIN */", trx_effect::begin},
    {"/*!SET autocommit=0*/", trx_effect::autocommit_off},
    {"--\tx\nBEGIN", trx_effect::begin},
    {"--\nBEGIN", trx_effect::begin},
    {"# hash comment\nBEGIN", trx_effect::begin},
    {"#\nSTART /* between */ TRANSACTION", trx_effect::begin},
    {"START -- between\n TRANSACTION", trx_effect::begin},
    {"COMMIT AND CHAIN", trx_effect::begin},
    {"commit work and chain", trx_effect::begin},
    {"ROLLBACK AND CHAIN", trx_effect::begin},
    {"ROLLBACK WORK AND CHAIN RELEASE", trx_effect::begin},
};

const trx_case closing[] = {
    {"COMMIT", trx_effect::end},
    {"commit;", trx_effect::end},
    {"COMMIT WORK", trx_effect::end},
    {"COMMIT AND NO CHAIN", trx_effect::end},
    {"COMMIT WORK AND NO CHAIN NO RELEASE", trx_effect::end},
    {"COMMIT RELEASE", trx_effect::end},
    {"ROLLBACK", trx_effect::end},
    {"rollback work", trx_effect::end},
    {"ROLLBACK AND NO CHAIN", trx_effect::end},
    {"/* undo */ ROLLBACK", trx_effect::end},
    {"# x\nCOMMIT", trx_effect::end},
    // Statements that commit implicitly (MySQL manual 15.3.3).
    {"CREATE TABLE t (a INT)", trx_effect::end},
    {"create index i on t(a)", trx_effect::end},
    {"CREATE DATABASE d", trx_effect::end},
    {"CREATE SCHEMA s", trx_effect::end},
    {"CREATE VIEW v AS SELECT 1", trx_effect::end},
    {"CREATE USER u", trx_effect::end},
    {"DROP TABLE t", trx_effect::end},
    {"DROP DATABASE IF EXISTS d", trx_effect::end},
    {"ALTER TABLE t ADD COLUMN b INT", trx_effect::end},
    {"RENAME TABLE a TO b", trx_effect::end},
    {"TRUNCATE TABLE t", trx_effect::end},
    {"truncate t", trx_effect::end},
    {"GRANT ALL ON *.* TO u", trx_effect::end},
    {"REVOKE ALL ON *.* FROM u", trx_effect::end},
    {"LOCK TABLES t WRITE", trx_effect::end},
    {"ANALYZE TABLE t", trx_effect::end},
    {"OPTIMIZE TABLE t", trx_effect::end},
    {"REPAIR TABLE t", trx_effect::end},
    {"FLUSH PRIVILEGES", trx_effect::end},
    {"CACHE INDEX t IN c", trx_effect::end},
    {"LOAD INDEX INTO CACHE t", trx_effect::end},
    {"INSTALL PLUGIN p SONAME 'p.so'", trx_effect::end},
    {"UNINSTALL PLUGIN p", trx_effect::end},
    {"/* ddl */ DROP TABLE t", trx_effect::end},
    {"CHECK TABLE t", trx_effect::end},
    {"RESET MASTER", trx_effect::end},
    {"SET PASSWORD = 'x'", trx_effect::end},
    {"SET PASSWORD FOR u = 'x'", trx_effect::end},
    {"START REPLICA", trx_effect::end},
    {"STOP SLAVE", trx_effect::end},
    {"CHANGE MASTER TO MASTER_HOST = 'h'", trx_effect::end},
    {"IMPORT TABLE FROM 'f.sdi'", trx_effect::end},
};

const trx_case autocommit[] = {
    {"SET autocommit=0", trx_effect::autocommit_off},
    {"SET autocommit = 0", trx_effect::autocommit_off},
    {"set AUTOCOMMIT=OFF", trx_effect::autocommit_off},
    {"SET autocommit = false", trx_effect::autocommit_off},
    {"SET SESSION autocommit = 0", trx_effect::autocommit_off},
    {"SET LOCAL autocommit = 0", trx_effect::autocommit_off},
    {"SET @@autocommit = 0", trx_effect::autocommit_off},
    {"SET @@session.autocommit=0", trx_effect::autocommit_off},
    {"SET @@SESSION.AUTOCOMMIT = 0", trx_effect::autocommit_off},
    {"SET @@local.autocommit=0", trx_effect::autocommit_off},
    {"SET x=1, autocommit=OFF", trx_effect::autocommit_off},
    {"SET @a = 1, @@session.autocommit = 0, @b = 2", trx_effect::autocommit_off},
    {"/* off */ SET autocommit=0", trx_effect::autocommit_off},
    // The scope keyword holds until the next one; @@global. is one variable's.
    {"SET GLOBAL x = 1, SESSION autocommit = 0", trx_effect::autocommit_off},
    {"SET @@global.autocommit = 1, autocommit = 0", trx_effect::autocommit_off},
    {"SET GLOBAL x = 1, @@session.autocommit = 0", trx_effect::autocommit_off},
    {"SET autocommit := 0", trx_effect::autocommit_off},
    {"SET autocommit = 'OFF'", trx_effect::autocommit_off},
    {"SET autocommit=1", trx_effect::autocommit_on},
    {"SET autocommit = ON", trx_effect::autocommit_on},
    {"set autocommit=true", trx_effect::autocommit_on},
    {"SET @@session.autocommit = 1", trx_effect::autocommit_on},
    // The last assignment wins, as it does on the server.
    {"SET autocommit=0, autocommit=1", trx_effect::autocommit_on},
    {"SET autocommit=1, autocommit=0", trx_effect::autocommit_off},
};

// Nothing happens to the transaction state.
const trx_case neutral[] = {
    {"", trx_effect::none},
    {"   ", trx_effect::none},
    {"/* only a comment */", trx_effect::none},
    {"-- only a comment", trx_effect::none},
    {"SELECT 1", trx_effect::none},
    {"INSERT INTO t VALUES (1)", trx_effect::none},
    {"UPDATE t SET a = 1", trx_effect::none},
    {"DELETE FROM t", trx_effect::none},
    {"SELECT 'COMMIT'", trx_effect::none},
    {"SELECT 1 -- COMMIT", trx_effect::none},
    {"/* COMMIT */ SELECT 1", trx_effect::none},
    {"-- COMMIT\nSELECT 1", trx_effect::none},
    {"# BEGIN\nSELECT 1", trx_effect::none},
    {"SAVEPOINT s", trx_effect::none},
    {"RELEASE SAVEPOINT s", trx_effect::none},
    {"ROLLBACK TO s", trx_effect::none},
    {"ROLLBACK TO SAVEPOINT s", trx_effect::none},
    {"ROLLBACK WORK TO SAVEPOINT s", trx_effect::none},
    {"rollback work to s", trx_effect::none},
    {"CREATE TEMPORARY TABLE t (a INT)", trx_effect::none},
    {"create temporary table t select 1", trx_effect::none},
    {"DROP TEMPORARY TABLE t", trx_effect::none},
    {"DROP TEMPORARY TABLE IF EXISTS t", trx_effect::none},
    {"SET @x = 1", trx_effect::none},
    {"SET NAMES utf8mb4", trx_effect::none},
    {"SET sql_mode = ''", trx_effect::none},
    {"SET @autocommit = 0", trx_effect::none},       // a user variable
    {"SET my_autocommit = 0", trx_effect::none},     // another name
    {"SET autocommit_x = 0", trx_effect::none},      // another name
    {"SET TRANSACTION READ ONLY", trx_effect::none}, // the next transaction's mode
    {"STARTING", trx_effect::none},
    {"BEGINNING", trx_effect::none},
    {"COMMITTED", trx_effect::none},
    {"LOAD DATA INFILE 'f' INTO TABLE t", trx_effect::none},
    // Another scope's autocommit is not this session's.
    {"SET GLOBAL autocommit = 0", trx_effect::none},
    {"SET PERSIST autocommit = 0", trx_effect::none},
    {"SET PERSIST_ONLY autocommit = 0", trx_effect::none},
    {"SET @@global.autocommit = 0", trx_effect::none},
    {"SET @@GLOBAL.autocommit = 1", trx_effect::none},
    {"SET GLOBAL sort_buffer_size = 1, autocommit = 0", trx_effect::none},
    {"START SLAVE IO_THREAD", trx_effect::end},
    {"RESET PERSIST", trx_effect::none},
};

INSTANTIATE_TEST_SUITE_P(Opening, ClassifySql, ::testing::ValuesIn(opening));
INSTANTIATE_TEST_SUITE_P(Closing, ClassifySql, ::testing::ValuesIn(closing));
INSTANTIATE_TEST_SUITE_P(Autocommit, ClassifySql, ::testing::ValuesIn(autocommit));
INSTANTIATE_TEST_SUITE_P(Neutral, ClassifySql, ::testing::ValuesIn(neutral));

TEST(ClassifySqlText, AnUnterminatedCommentIsNotAStatement) {
  EXPECT_EQ(classify_sql_transaction("/* COMMIT"), trx_effect::none);
}

TEST(ClassifySqlText, OnlyTheStatementStartCounts) {
  // A long statement is classified from its first words; the rest is never
  // misread as another statement.
  std::string sql = "SELECT ";
  for (int i = 0; i < 1000; ++i) sql += "'COMMIT', ";
  sql += "1";
  EXPECT_EQ(classify_sql_transaction(sql), trx_effect::none);
}

} // namespace
