// The X Plugin's variables in xserverd (xvars.h) against the fixtures:
// @@reads, SHOW VARIABLES/STATUS merged with MariaDB's, SET with MySQL's
// errors and scopes, the session status with and without compression and
// TLS, and 5.7 mode, where MySQL 5.7's X Plugin has three of the variables.
// What the timeouts and limits do: xvars_io_test.cc. Tests that change a
// variable set it back to DEFAULT: the fixture is shared.
#include "mysqlx_connection.pb.h"
#include "mysqlx_session.pb.h"
#include "test/xserver/tests/xvars_test_util.h"

#include <gtest/gtest.h>

namespace xtest {
namespace {

using Mysqlx::Datatypes::Any;

TEST(Xvars80, ReadsGiveMySQLsDefaultsWithTheirTypes) {
  xclient c = authed(port80());
  auto r = c.sql("SELECT @@mysqlx_compression_algorithms");
  EXPECT_EQ(rows_of(r), (rows_t{{"DEFLATE_STREAM,LZ4_MESSAGE,ZSTD_STREAM"}})) << describe(r);
  EXPECT_EQ(column_names(r), (std::vector<std::string>{"@@mysqlx_compression_algorithms"}));
  r = c.sql("SELECT @@global.mysqlx_deflate_default_compression_level, "
            "@@mysqlx_lz4_default_compression_level, @@mysqlx_zstd_default_compression_level, "
            "@@mysqlx_deflate_max_client_compression_level, "
            "@@mysqlx_lz4_max_client_compression_level, "
            "@@GLOBAL.mysqlx_zstd_max_client_compression_level");
  EXPECT_EQ(rows_of(r), (rows_t{{"3", "2", "3", "5", "8", "11"}})) << describe(r);
  EXPECT_EQ(column_names(r).front(), "@@global.mysqlx_deflate_default_compression_level");
  EXPECT_EQ(column_names(r).back(), "@@GLOBAL.mysqlx_zstd_max_client_compression_level");
  r = c.sql("SELECT @@mysqlx_lz4_max_client_compression_level + 1 AS n");
  EXPECT_EQ(rows_of(r), (rows_t{{"9"}})) << describe(r);
  expect_error(c, "SELECT @@session.mysqlx_lz4_default_compression_level", 1238, "HY000",
               "Variable 'mysqlx_lz4_default_compression_level' is a GLOBAL variable");
}

TEST(Xvars80, ShowVariablesMergesOursWithMariaDBsSorted) {
  xclient c = authed(port80());
  auto r = c.sql("SHOW VARIABLES LIKE 'mysqlx%'");
  EXPECT_EQ(column_names(r), (std::vector<std::string>{"Variable_name", "Value"}));
  EXPECT_EQ(rows_of(r),
            (rows_t{{"mysqlx_compression_algorithms", "DEFLATE_STREAM,LZ4_MESSAGE,ZSTD_STREAM"},
                    {"mysqlx_connect_timeout", "30"},
                    {"mysqlx_deflate_default_compression_level", "3"},
                    {"mysqlx_deflate_max_client_compression_level", "5"},
                    {"mysqlx_document_id_unique_prefix", "0"},
                    {"mysqlx_interactive_timeout", "28800"},
                    {"mysqlx_lz4_default_compression_level", "2"},
                    {"mysqlx_lz4_max_client_compression_level", "8"},
                    {"mysqlx_max_allowed_packet", "67108864"},
                    {"mysqlx_max_connections", "100"},
                    {"mysqlx_read_timeout", "30"},
                    {"mysqlx_wait_timeout", "28800"},
                    {"mysqlx_write_timeout", "60"},
                    {"mysqlx_zstd_default_compression_level", "3"},
                    {"mysqlx_zstd_max_client_compression_level", "11"}}))
      << describe(r);
  // MariaDB's innodb_compression_level sorts between ours.
  auto rows = rows_of(c.sql("SHOW GLOBAL VARIABLES LIKE '%compression_level'"));
  std::vector<std::string> names;
  for (const auto& row : rows) names.push_back(row[0]);
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end())) << ::testing::PrintToString(names);
  EXPECT_NE(std::find(names.begin(), names.end(), "innodb_compression_level"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "mysqlx_lz4_default_compression_level"),
            names.end());
  r = c.sql("SHOW SESSION VARIABLES WHERE Variable_name = "
            "'mysqlx_deflate_max_client_compression_level' OR Variable_name = 'autocommit'");
  EXPECT_EQ(rows_of(r),
            (rows_t{{"autocommit", "ON"}, {"mysqlx_deflate_max_client_compression_level", "5"}}))
      << describe(r);
}

TEST(Xvars80, SetGlobalChangesWhatReadsAndShowSee) {
  xclient c = authed(port80());
  expect_ok(c, "SET GLOBAL mysqlx_lz4_default_compression_level = 4");
  expect_ok(c, "SET @@global.mysqlx_compression_algorithms = 'zstd_stream,deflate_stream'");
  expect_ok(c, "SET @v = 7");
  expect_ok(c, "SET GLOBAL mysqlx_zstd_max_client_compression_level = @v + 2");
  xclient other = authed(port80()); // global: every session sees it
  EXPECT_EQ(rows_of(other.sql("SELECT @@mysqlx_lz4_default_compression_level, "
                              "@@mysqlx_compression_algorithms, "
                              "@@mysqlx_zstd_max_client_compression_level")),
            (rows_t{{"4", "DEFLATE_STREAM,ZSTD_STREAM", "9"}}));
  EXPECT_EQ(rows_of(other.sql("SHOW VARIABLES LIKE 'mysqlx_compression_algorithms'")),
            (rows_t{{"mysqlx_compression_algorithms", "DEFLATE_STREAM,ZSTD_STREAM"}}));
  expect_ok(c, "SET GLOBAL mysqlx_compression_algorithms = ''");
  EXPECT_EQ(rows_of(c.sql("SELECT @@mysqlx_compression_algorithms")), (rows_t{{""}}));
  for (auto v : {"mysqlx_lz4_default_compression_level", "mysqlx_compression_algorithms",
                 "mysqlx_zstd_max_client_compression_level"})
    expect_ok(c, std::string("SET GLOBAL ") + v + " = DEFAULT");
  EXPECT_EQ(rows_of(c.sql("SELECT @@mysqlx_lz4_default_compression_level, "
                          "@@mysqlx_compression_algorithms")),
            (rows_t{{"2", "DEFLATE_STREAM,LZ4_MESSAGE,ZSTD_STREAM"}}));
}

TEST(Xvars80, SetRefusesAsMySQLDoes) {
  xclient c = authed(port80());
  expect_error(c, "SET mysqlx_zstd_default_compression_level = 4", 1229, "HY000",
               "Variable 'mysqlx_zstd_default_compression_level' is a GLOBAL variable and should "
               "be set with SET GLOBAL");
  EXPECT_EQ(sql_error(c, "SET SESSION mysqlx_compression_algorithms = ''").code(), 1229u);
  expect_error(c, "SET GLOBAL mysqlx_deflate_default_compression_level = 10", 1231, "42000",
               "Variable 'mysqlx_deflate_default_compression_level' can't be set to the value of "
               "'10'");
  EXPECT_EQ(sql_error(c, "SET GLOBAL mysqlx_zstd_max_client_compression_level = 0").code(), 1231u);
  expect_error(c, "SET GLOBAL mysqlx_compression_algorithms = 'ZSTD_STREAM,SNAPPY'", 1231, "42000",
               "Variable 'mysqlx_compression_algorithms' can't be set to the value of "
               "'ZSTD_STREAM,SNAPPY'");
  expect_error(c, "SET GLOBAL mysqlx_lz4_max_client_compression_level = 'abc'", 1232, "42000",
               "Incorrect argument type to variable 'mysqlx_lz4_max_client_compression_level'");
  EXPECT_EQ(sql_error(c, "SET GLOBAL mysqlx_lz4_max_client_compression_level = 1.5").code(), 1232u);
  // Nothing changed.
  EXPECT_EQ(rows_of(c.sql("SELECT @@mysqlx_deflate_default_compression_level, "
                          "@@mysqlx_lz4_max_client_compression_level")),
            (rows_t{{"3", "8"}}));
}

TEST(Xvars80, TheIoTimeoutsHaveASessionScope) {
  xclient c = authed(port80());
  expect_ok(c, "SET SESSION mysqlx_read_timeout = 5");
  expect_ok(c, "SET @@local.mysqlx_write_timeout = 7");
  EXPECT_EQ(rows_of(c.sql("SELECT @@mysqlx_read_timeout, @@session.mysqlx_read_timeout, "
                          "@@global.mysqlx_read_timeout, @@mysqlx_write_timeout")),
            (rows_t{{"5", "5", "30", "7"}}));
  EXPECT_EQ(rows_of(c.sql("SHOW VARIABLES LIKE 'mysqlx_read_timeout'")),
            (rows_t{{"mysqlx_read_timeout", "5"}}));
  EXPECT_EQ(rows_of(c.sql("SHOW GLOBAL VARIABLES LIKE 'mysqlx_read_timeout'")),
            (rows_t{{"mysqlx_read_timeout", "30"}}));
  xclient other = authed(port80()); // a session's own
  EXPECT_EQ(rows_of(other.sql("SELECT @@mysqlx_read_timeout")), (rows_t{{"30"}}));
  // No scope means SESSION for them; out of range is clamped with 1292.
  auto r = c.sql("SET mysqlx_wait_timeout = 0");
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  EXPECT_EQ(notice_of(r[0]).warning.msg(), "Truncated incorrect mysqlx_wait_timeout value: '0'");
  EXPECT_EQ(rows_of(c.sql("SELECT @@mysqlx_wait_timeout")), (rows_t{{"1"}}));
  expect_ok(c, "SET SESSION mysqlx_wait_timeout = 28800");
  // The others are GLOBAL only.
  EXPECT_EQ(sql_error(c, "SET SESSION mysqlx_connect_timeout = 5").code(), 1229u);
  EXPECT_EQ(sql_error(c, "SET mysqlx_max_allowed_packet = 4096").code(), 1229u);
  expect_error(c, "SELECT @@session.mysqlx_max_connections", 1238, "HY000",
               "Variable 'mysqlx_max_connections' is a GLOBAL variable");
  EXPECT_EQ(sql_error(c, "SET SESSION mysqlx_interactive_timeout = 5").code(), 1229u);
}

TEST(Xvars80, SessionValuesStartFromTheGlobalOnes) {
  global_setting g("mysqlx_read_timeout", "40");
  xclient c = authed(port80());
  EXPECT_EQ(rows_of(c.sql("SELECT @@mysqlx_read_timeout")), (rows_t{{"40"}}));
  expect_ok(c, "SET SESSION mysqlx_read_timeout = 5");
  // A session's DEFAULT is the GLOBAL value (sys_var_pluginvar::session_update).
  expect_ok(c, "SET SESSION mysqlx_read_timeout = DEFAULT");
  EXPECT_EQ(rows_of(c.sql("SELECT @@mysqlx_read_timeout")), (rows_t{{"40"}}));
  // Session.Reset: a fresh THD, GLOBAL values again.
  expect_ok(c, "SET SESSION mysqlx_read_timeout = 5");
  Mysqlx::Session::Reset reset;
  reset.set_keep_open(true);
  c.send(client_msg::sess_reset, reset);
  ASSERT_TRUE(is(c.reply().back(), server_msg::ok));
  EXPECT_EQ(rows_of(c.sql("SELECT @@mysqlx_read_timeout")), (rows_t{{"40"}}));
}

TEST(Xvars80, AnOutOfRangePrefixIsClampedWithWarning1292) {
  xclient c = authed(port80());
  auto r = c.sql("SET GLOBAL mysqlx_document_id_unique_prefix = 70000");
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  auto w = notice_of(r[0]).warning;
  EXPECT_EQ(w.code(), 1292u);
  EXPECT_EQ(w.msg(), "Truncated incorrect mysqlx_document_id_unique_prefix value: '70000'");
  EXPECT_EQ(rows_of(c.sql("SELECT @@mysqlx_document_id_unique_prefix")), (rows_t{{"65535"}}));
  expect_ok(c, "SET GLOBAL mysqlx_document_id_unique_prefix = DEFAULT");
  EXPECT_EQ(rows_of(c.sql("SELECT @@mysqlx_document_id_unique_prefix")), (rows_t{{"0"}}));
}

std::vector<frame> set_compression(xclient& c, const std::string& algorithm) {
  Mysqlx::Connection::CapabilitiesSet set;
  auto* cap = set.mutable_capabilities()->add_capabilities();
  cap->set_name("compression");
  cap->mutable_value()->set_type(Any::OBJECT);
  auto* f = cap->mutable_value()->mutable_obj()->add_fld();
  f->set_key("algorithm");
  f->mutable_value()->set_type(Any::SCALAR);
  f->mutable_value()->mutable_scalar()->set_type(Mysqlx::Datatypes::Scalar::V_STRING);
  f->mutable_value()->mutable_scalar()->mutable_v_string()->set_value(algorithm);
  c.send(client_msg::con_capabilities_set, set);
  return c.reply();
}

TEST(Xvars80, StatusWithoutCompressionOrTls) {
  xclient c = authed(port80());
  EXPECT_EQ(rows_of(c.sql("SHOW STATUS LIKE 'Mysqlx_compression%'")),
            (rows_t{{"Mysqlx_compression_algorithm", ""}, {"Mysqlx_compression_level", ""}}));
  EXPECT_EQ(rows_of(c.sql("SHOW GLOBAL STATUS LIKE 'mysqlx_ssl%'")),
            (rows_t{{"Mysqlx_ssl_active", "OFF"},
                    {"Mysqlx_ssl_cipher", ""},
                    {"Mysqlx_ssl_version", ""}}));
}

TEST(Xvars80, StatusShowsTheSessionsCompression) {
  xclient c(port80());
  auto r = set_compression(c, "zstd_stream");
  ASSERT_TRUE(is(r.back(), server_msg::ok)) << describe(r);
  c.enable_compression(/*outgoing=*/false, "zstd_stream");
  auto a = c.auth("MYSQL41", "xtest", "xtest-pw");
  ASSERT_TRUE(is(a.back(), server_msg::sess_authenticate_ok)) << describe(a);
  auto rows = rows_of(c.sql("SHOW SESSION STATUS LIKE 'Mysqlx_compression%'"));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"Mysqlx_compression_algorithm", "ZSTD_STREAM"}));
  EXPECT_EQ(rows[1][0], "Mysqlx_compression_level");
  // The number is the level the session compresses with (session.h
  // m_compression_level).
  EXPECT_FALSE(rows[1][1].empty());
  EXPECT_EQ(rows[1][1].find_first_not_of("-0123456789"), std::string::npos) << rows[1][1];
  EXPECT_GE(c.compressed_frames_read(), 1);
}

TEST(Xvars80, StatusShowsTls) {
  xclient c(port80());
  ASSERT_TRUE(c.start_tls(env("XS_CA_80")));
  auto a = c.auth("PLAIN", "xtest", "xtest-pw");
  ASSERT_TRUE(is(a.back(), server_msg::sess_authenticate_ok)) << describe(a);
  auto rows = rows_of(c.sql("SHOW STATUS WHERE Variable_name LIKE 'Mysqlx_ssl%'"));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"Mysqlx_ssl_active", "ON"}));
  EXPECT_FALSE(rows[1][1].empty()); // the cipher
  EXPECT_EQ(rows[2][1].rfind("TLSv1.", 0), 0u) << rows[2][1];
}

TEST(Xvars57, FiveSevenHasThreeOfTheVariables) {
  xclient c = authed(env_port("XS_PORT_57"), /*hello=*/false);
  expect_error(c, "SELECT @@mysqlx_compression_algorithms", 1193, "HY000",
               "Unknown system variable 'mysqlx_compression_algorithms'");
  EXPECT_EQ(sql_error(c, "SET GLOBAL mysqlx_lz4_default_compression_level = 3").code(), 1193u);
  EXPECT_EQ(sql_error(c, "SELECT @@mysqlx_wait_timeout").code(), 1193u);
  // 5.7's mysqlx_max_allowed_packet defaults to 1 MiB.
  EXPECT_EQ(rows_of(c.sql("SHOW VARIABLES LIKE 'mysqlx%'")),
            (rows_t{{"mysqlx_connect_timeout", "30"},
                    {"mysqlx_max_allowed_packet", "1048576"},
                    {"mysqlx_max_connections", "100"}}));
  EXPECT_TRUE(rows_of(c.sql("SHOW STATUS LIKE 'Mysqlx_compression%'")).empty());
  EXPECT_TRUE(rows_of(c.sql("SHOW STATUS LIKE 'Mysqlx_aborted_clients'")).empty());
  EXPECT_EQ(rows_of(c.sql("SHOW STATUS LIKE 'Mysqlx_ssl_active'")),
            (rows_t{{"Mysqlx_ssl_active", "OFF"}}));
}

} // namespace
} // namespace xtest
