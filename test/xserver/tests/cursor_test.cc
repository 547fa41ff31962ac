// Mysqlx.Cursor.Open / Fetch / Close over a prepared statement (cursor.cc),
// as MySQL 8.0's X Plugin answers them; 5.7 mode has no cursors (1047).
#include "mysqlx_cursor.pb.h"
#include "mysqlx_prepare.pb.h"
#include "mysqlx_resultset.pb.h"
#include "test/xserver/tests/xclient.h"

#include <gtest/gtest.h>

namespace xtest {
namespace {

using Mysqlx::Prepare::Prepare;

// A session with table <schema>.t holding n = 1..5 and statement 1
// preparing `SELECT n ... ORDER BY n`.
struct cursor_session {
  xclient c{env_port("XS_PORT_80")};
  std::string schema = unique_name("cur");
  cursor_session() {
    c.auth("MYSQL41", "xtest", "xtest-pw");
    c.sql("CREATE DATABASE " + schema);
    c.sql("CREATE TABLE " + schema + ".t (n INT)");
    c.sql("INSERT INTO " + schema + ".t VALUES (3), (1), (5), (2), (4)");
    prepare(1, "SELECT n FROM " + schema + ".t ORDER BY n");
  }
  void prepare(std::uint32_t id, const std::string& sql) {
    Prepare p;
    p.set_stmt_id(id);
    p.mutable_stmt()->set_type(Prepare::OneOfMessage::STMT);
    p.mutable_stmt()->mutable_stmt_execute()->set_stmt(sql);
    c.send(client_msg::prepare_prepare, p);
    c.reply();
  }
  std::vector<frame> open(std::uint32_t cursor, std::uint32_t stmt, std::uint64_t rows) {
    Mysqlx::Cursor::Open o;
    o.set_cursor_id(cursor);
    o.mutable_stmt()->set_type(Mysqlx::Cursor::Open::OneOfMessage::PREPARE_EXECUTE);
    o.mutable_stmt()->mutable_prepare_execute()->set_stmt_id(stmt);
    o.set_fetch_rows(rows);
    c.send(client_msg::cursor_open, o);
    return c.reply();
  }
  std::vector<frame> fetch(std::uint32_t cursor, std::uint64_t rows) {
    Mysqlx::Cursor::Fetch f;
    f.set_cursor_id(cursor);
    f.set_fetch_rows(rows);
    c.send(client_msg::cursor_fetch, f);
    return c.reply();
  }
  std::vector<frame> close(std::uint32_t cursor) {
    Mysqlx::Cursor::Close m;
    m.set_cursor_id(cursor);
    c.send(client_msg::cursor_close, m);
    return c.reply();
  }
};

std::size_t count(const std::vector<frame>& r, server_msg t) {
  std::size_t n = 0;
  for (const auto& f : r) n += is(f, t) ? 1 : 0;
  return n;
}

// The integer values of a reply's rows (column 0, zigzag varint of one byte).
std::vector<int> values(const std::vector<frame>& r) {
  std::vector<int> out;
  for (const auto& f : r) {
    if (!is(f, server_msg::resultset_row)) continue;
    Mysqlx::Resultset::Row row;
    row.ParseFromString(f.payload);
    out.push_back(static_cast<unsigned char>(row.field(0)[0]) >> 1);
  }
  return out;
}

TEST(Cursor80, RowsComeInThePortionsAskedFor) {
  cursor_session s;
  auto r = s.open(7, 1, 2);
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  EXPECT_EQ(count(r, server_msg::resultset_column_meta_data), 1u);
  EXPECT_EQ(values(r), (std::vector<int>{1, 2}));
  EXPECT_EQ(count(r, server_msg::resultset_fetch_suspended), 1u);
  EXPECT_EQ(count(r, server_msg::resultset_fetch_done), 0u);

  r = s.fetch(7, 2);
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  EXPECT_EQ(count(r, server_msg::resultset_column_meta_data), 0u);
  EXPECT_EQ(values(r), (std::vector<int>{3, 4}));
  EXPECT_EQ(count(r, server_msg::resultset_fetch_suspended), 1u);

  r = s.fetch(7, 10); // more than remain: the rest, then the end
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  EXPECT_EQ(values(r), (std::vector<int>{5}));
  EXPECT_EQ(count(r, server_msg::resultset_fetch_suspended), 0u);
  EXPECT_EQ(count(r, server_msg::resultset_fetch_done), 1u);

  r = s.fetch(7, 1); // past the end
  ASSERT_TRUE(is(r.back(), server_msg::error)) << describe(r);
  EXPECT_EQ(error_of(r.back()).code(), 5123u);
  EXPECT_EQ(error_of(r.back()).msg(), "No more data in cursor (cursor id:7)");

  EXPECT_TRUE(is(s.close(7).back(), server_msg::ok));
  r = s.close(7);
  EXPECT_EQ(error_of(r.back()).code(), 5111u);
  EXPECT_EQ(error_of(r.back()).msg(), "Cursor with ID=7 was not opened.");
}

TEST(Cursor80, OpenWithoutRowsSuspendsAndFetchZeroTakesTheRest) {
  cursor_session s;
  auto r = s.open(1, 1, 0);
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  EXPECT_EQ(count(r, server_msg::resultset_column_meta_data), 1u);
  EXPECT_TRUE(values(r).empty());
  EXPECT_EQ(count(r, server_msg::resultset_fetch_suspended), 1u);
  r = s.fetch(1, 0);
  EXPECT_EQ(values(r), (std::vector<int>{1, 2, 3, 4, 5}));
  EXPECT_EQ(count(r, server_msg::resultset_fetch_done), 1u);
}

TEST(Cursor80, AnEmptyResultEndsAtOnce) {
  cursor_session s;
  s.prepare(2, "SELECT n FROM " + s.schema + ".t WHERE n > 100");
  auto r = s.open(3, 2, 5);
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  EXPECT_EQ(count(r, server_msg::resultset_column_meta_data), 1u);
  EXPECT_EQ(count(r, server_msg::resultset_fetch_done), 1u);
  EXPECT_EQ(error_of(s.fetch(3, 1).back()).code(), 5123u);
}

TEST(Cursor80, UnknownIdsAndReplacedCursors) {
  cursor_session s;
  auto r = s.open(1, 99, 1);
  EXPECT_EQ(error_of(r.back()).code(), 5110u);
  EXPECT_EQ(error_of(r.back()).msg(), "Statement with ID=99 was not prepared.");
  EXPECT_EQ(error_of(s.fetch(42, 1).back()).code(), 5111u);
  // A second Open of the same statement replaces its cursor.
  ASSERT_TRUE(is(s.open(1, 1, 1).back(), server_msg::sql_stmt_execute_ok));
  ASSERT_TRUE(is(s.open(2, 1, 1).back(), server_msg::sql_stmt_execute_ok));
  EXPECT_EQ(error_of(s.fetch(1, 1).back()).code(), 5111u);
  EXPECT_EQ(values(s.fetch(2, 1)), (std::vector<int>{2}));
  // Deallocating the statement closes its cursor, and so does a reset.
  Mysqlx::Prepare::Deallocate d;
  d.set_stmt_id(1);
  s.c.send(client_msg::prepare_deallocate, d);
  ASSERT_TRUE(is(s.c.reply().back(), server_msg::ok));
  EXPECT_EQ(error_of(s.fetch(2, 1).back()).code(), 5111u);
}

TEST(Cursor57, CursorMessagesAreUnknown) {
  xclient c(env_port("XS_PORT_57"), false);
  c.auth("MYSQL41", "xtest", "xtest-pw");
  Mysqlx::Cursor::Fetch f;
  f.set_cursor_id(1);
  c.send(client_msg::cursor_fetch, f);
  EXPECT_EQ(error_of(c.reply().back()).code(), 1047u);
}

} // namespace
} // namespace xtest
