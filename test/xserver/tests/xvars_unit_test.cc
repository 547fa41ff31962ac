// The X Plugin's variables (xvars.h) without a server: the table, SET and
// SHOW parsing, value checks with MySQL's errors, @@read rewriting, status.
#include "test/xserver/xvars.h"

#include <gtest/gtest.h>
#include <zstd.h>

namespace xserver {
namespace {

using k = sql_value::kind;

sql_value lit(std::string_view text) {
  auto v = parse_sql_literal(text);
  EXPECT_TRUE(v) << text;
  return v.value_or(sql_value{k::null, 0, ""});
}

TEST(Xvars, TableHasMySQLsDefaultsAndRanges) {
  const auto v = xvar_defaults();
  auto text = [&](xvar_id id) { return xvar_text(xvar(id), v[static_cast<std::size_t>(id)]); };
  EXPECT_EQ(text(xvar_id::compression_algorithms), "DEFLATE_STREAM,LZ4_MESSAGE,ZSTD_STREAM");
  EXPECT_EQ(text(xvar_id::deflate_default_compression_level), "3");
  EXPECT_EQ(text(xvar_id::lz4_default_compression_level), "2");
  EXPECT_EQ(text(xvar_id::zstd_default_compression_level), "3");
  EXPECT_EQ(text(xvar_id::deflate_max_client_compression_level), "5");
  EXPECT_EQ(text(xvar_id::lz4_max_client_compression_level), "8");
  EXPECT_EQ(text(xvar_id::zstd_max_client_compression_level), "11");
  EXPECT_EQ(text(xvar_id::document_id_unique_prefix), "0");
  const auto& z = xvar(xvar_id::zstd_max_client_compression_level);
  EXPECT_EQ(z.min, ZSTD_minCLevel());
  EXPECT_EQ(z.max, ZSTD_maxCLevel());
  EXPECT_EQ(xvar(xvar_id::lz4_default_compression_level).max, 16);
  EXPECT_EQ(xvar(xvar_id::deflate_max_client_compression_level).min, 1);
}

TEST(Xvars, NamesAreCaseInsensitiveAndFiveSevenHasNone) {
  EXPECT_EQ(find_xvar("MYSQLX_LZ4_DEFAULT_COMPRESSION_LEVEL", false),
            &xvar(xvar_id::lz4_default_compression_level));
  EXPECT_EQ(find_xvar("mysqlx_port", false), nullptr); // not ours: MariaDB's (1193)
  EXPECT_EQ(find_xvar("mysqlx_compression_algorithms", true), nullptr);
  EXPECT_EQ(find_xvar("mysqlx_document_id_unique_prefix", true), nullptr);
  EXPECT_EQ(find_xvar("mysqlx_wait_timeout", true), nullptr);
  EXPECT_EQ(find_xvar("mysqlx_interactive_timeout", true), nullptr);
  // 5.7's X Plugin has these three only, and its packet default is 1 MiB.
  EXPECT_EQ(xvar_rows(true, xvar_defaults(true)),
            (std::vector<name_value>{{"mysqlx_max_allowed_packet", "1048576"},
                                     {"mysqlx_max_connections", "100"},
                                     {"mysqlx_connect_timeout", "30"}}));
}

TEST(Xvars, LiteralsAreTypedAsMySQLsItems) {
  EXPECT_EQ(lit("42").type, k::integer);
  EXPECT_EQ(lit("+7").text, "7");
  EXPECT_EQ(lit("-3").integer, -3);
  EXPECT_EQ(lit("TRUE").integer, 1);
  EXPECT_EQ(lit("'a''b\\n'").text, "a'b\n");
  EXPECT_EQ(lit("\"lz4_message\"").type, k::string);
  EXPECT_EQ(lit("ZSTD_STREAM").type, k::string); // a bare word is a string
  EXPECT_EQ(lit("1.5").type, k::decimal);
  EXPECT_EQ(lit("1e3").type, k::real);
  EXPECT_EQ(lit("null").type, k::null);
  EXPECT_EQ(lit("Default").type, k::default_value);
  EXPECT_EQ(lit("99999999999999999999").type, k::decimal);
  EXPECT_FALSE(parse_sql_literal("1+1"));
  EXPECT_FALSE(parse_sql_literal("@v"));
  EXPECT_FALSE(parse_sql_literal("'a' 'b'"));
}

TEST(Xvars, IntegersAreClampedWithAWarningOrRefused) {
  const auto& prefix = xvar(xvar_id::document_id_unique_prefix);
  auto c = check_xvar_value(prefix, lit("70000"), prefix.def);
  EXPECT_FALSE(c.error);
  EXPECT_EQ(c.value, 65535);
  EXPECT_TRUE(c.truncated);
  EXPECT_EQ(truncated_warning(prefix, lit("70000")),
            "Truncated incorrect mysqlx_document_id_unique_prefix value: '70000'");
  EXPECT_EQ(check_xvar_value(prefix, lit("-3"), prefix.def).value, 0);
  // The compression levels have the X Plugin's own check: refused, 1231.
  const auto& deflate = xvar(xvar_id::deflate_default_compression_level);
  c = check_xvar_value(deflate, lit("10"), deflate.def);
  ASSERT_TRUE(c.error);
  EXPECT_EQ(c.error->code, 1231u);
  EXPECT_EQ(c.error->sql_state, "42000");
  EXPECT_EQ(
      c.error->message,
      "Variable 'mysqlx_deflate_default_compression_level' can't be set to the value of '10'");
  EXPECT_EQ(check_xvar_value(deflate, lit("9"), deflate.def).value, 9);
  EXPECT_TRUE(check_xvar_value(deflate, lit("0"), deflate.def).error);
  const auto& zstd = xvar(xvar_id::zstd_max_client_compression_level);
  EXPECT_TRUE(check_xvar_value(zstd, lit("0"), zstd.def).error); // zstd refuses 0
  EXPECT_EQ(check_xvar_value(zstd, lit("-5"), zstd.def).value, -5);
  EXPECT_EQ(check_xvar_value(zstd, lit("22"), zstd.def).value, 22);
  const auto& lz4max = xvar(xvar_id::lz4_max_client_compression_level);
  EXPECT_EQ(check_xvar_value(lz4max, lit("0"), lz4max.def).value, 0);
  EXPECT_EQ(check_xvar_value(deflate, lit("DEFAULT"), deflate.def).value, 3);
  // DEFAULT is what the caller says: a session's DEFAULT is the GLOBAL value.
  EXPECT_EQ(check_xvar_value(deflate, lit("DEFAULT"), 7).value, 7);
}

TEST(Xvars, TimeoutsPacketAndConnectionsHaveMySQLsRanges) {
  const auto v = xvar_defaults();
  EXPECT_EQ(value_of(v, xvar_id::max_allowed_packet), 67108864);
  EXPECT_EQ(value_of(xvar_defaults(true), xvar_id::max_allowed_packet), 1048576); // 5.7
  EXPECT_EQ(value_of(v, xvar_id::max_connections), 100);
  EXPECT_EQ(value_of(v, xvar_id::connect_timeout), 30);
  EXPECT_EQ(value_of(v, xvar_id::wait_timeout), 28800);
  EXPECT_EQ(value_of(v, xvar_id::interactive_timeout), 28800);
  EXPECT_EQ(value_of(v, xvar_id::read_timeout), 30);
  EXPECT_EQ(value_of(v, xvar_id::write_timeout), 60);
  // Clamped with 1292, as every MYSQL_SYSVAR/THDVAR with the default check.
  const auto& packet = xvar(xvar_id::max_allowed_packet);
  auto c = check_xvar_value(packet, lit("100"), packet.def);
  EXPECT_EQ(c.value, 512);
  EXPECT_TRUE(c.truncated);
  EXPECT_EQ(check_xvar_value(packet, lit("2147483648"), packet.def).value, 1073741824);
  const auto& wait = xvar(xvar_id::wait_timeout);
  c = check_xvar_value(wait, lit("0"), wait.def);
  EXPECT_EQ(c.value, 1);
  EXPECT_TRUE(c.truncated);
  EXPECT_EQ(check_xvar_value(wait, lit("3000000"), wait.def).value, 2147483);
  EXPECT_EQ(check_xvar_value(xvar(xvar_id::connect_timeout), lit("2000000000"), 30).value,
            1000000000);
  EXPECT_EQ(check_xvar_value(xvar(xvar_id::max_connections), lit("70000"), 100).value, 65535);
  EXPECT_EQ(check_xvar_value(wait, lit("'5'"), wait.def).error->code, 1232u);
  // Scopes: the three I/O timeouts are THDVARs, the rest GLOBAL only.
  for (auto id : {xvar_id::wait_timeout, xvar_id::read_timeout, xvar_id::write_timeout})
    EXPECT_TRUE(xvar(id).has_session) << xvar(id).name;
  for (auto id : {xvar_id::max_allowed_packet, xvar_id::max_connections, xvar_id::connect_timeout,
                  xvar_id::interactive_timeout})
    EXPECT_FALSE(xvar(id).has_session) << xvar(id).name;
  EXPECT_FALSE(xvar(xvar_id::max_connections).is_unsigned); // MYSQL_SYSVAR_INT
}

TEST(Xvars, IntegerVariablesTakeIntegersOnly) {
  const auto& lz4 = xvar(xvar_id::lz4_default_compression_level);
  for (auto text : {"'3'", "1.5", "1e0", "NULL", "ON"}) {
    auto c = check_xvar_value(lz4, lit(text), lz4.def);
    ASSERT_TRUE(c.error) << text;
    EXPECT_EQ(c.error->code, 1232u);
    EXPECT_EQ(c.error->message,
              "Incorrect argument type to variable 'mysqlx_lz4_default_compression_level'");
  }
}

TEST(Xvars, AlgorithmsAreASetOfNamesOrABitMask) {
  const auto& a = xvar(xvar_id::compression_algorithms);
  EXPECT_EQ(check_xvar_value(a, lit("'zstd_stream,DEFLATE_STREAM'"), a.def).value, 5);
  EXPECT_EQ(xvar_text(a, 5), "DEFLATE_STREAM,ZSTD_STREAM");
  EXPECT_EQ(check_xvar_value(a, lit("''"), a.def).value, 0);
  EXPECT_EQ(xvar_text(a, 0), "");
  EXPECT_EQ(check_xvar_value(a, lit("2"), a.def).value, 2);
  EXPECT_EQ(check_xvar_value(a, lit("LZ4_MESSAGE"), a.def).value, 2);
  auto c = check_xvar_value(a, lit("'ZSTD_STREAM,SNAPPY'"), a.def);
  ASSERT_TRUE(c.error);
  EXPECT_EQ(c.error->message, "Variable 'mysqlx_compression_algorithms' can't be set to the "
                              "value of 'ZSTD_STREAM,SNAPPY'");
  EXPECT_EQ(check_xvar_value(a, lit("8"), a.def).error->code, 1231u);
  EXPECT_EQ(check_xvar_value(a, lit("-1"), a.def).error->code, 1231u);
  EXPECT_EQ(check_xvar_value(a, lit("NULL"), a.def).error->message,
            "Variable 'mysqlx_compression_algorithms' can't be set to the value of 'NULL'");
  EXPECT_EQ(check_xvar_value(a, lit("1.5"), a.def).error->code, 1232u);
  EXPECT_EQ(xvar_sql(a, 7), "'DEFLATE_STREAM,LZ4_MESSAGE,ZSTD_STREAM'");
}

TEST(Xvars, SetStatementForms) {
  auto g = parse_set_xvar("set global mysqlx_document_id_unique_prefix = 12;", false);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->scope, xvar_scope::global);
  EXPECT_EQ(g->value, "12");
  auto p = parse_set_xvar("SET @@persist.MYSQLX_ZSTD_MAX_CLIENT_COMPRESSION_LEVEL=-3", false);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->var, &xvar(xvar_id::zstd_max_client_compression_level));
  EXPECT_EQ(p->scope, xvar_scope::persist);
  EXPECT_EQ(p->value, "-3");
  EXPECT_EQ(
      parse_set_xvar("SET PERSIST_ONLY mysqlx_lz4_default_compression_level = 4", false)->scope,
      xvar_scope::persist_only);
  EXPECT_EQ(parse_set_xvar("SET mysqlx_wait_timeout = 4", false)->scope, xvar_scope::session);
  for (auto s : {"SET mysqlx_lz4_default_compression_level = 4",
                 "SET SESSION mysqlx_lz4_default_compression_level = 4",
                 "SET @@local.mysqlx_lz4_default_compression_level = 4",
                 "SET @@mysqlx_lz4_default_compression_level = 4"})
    EXPECT_EQ(parse_set_xvar(s, false)->scope, xvar_scope::session) << s;
  EXPECT_EQ(parse_set_xvar("SET GLOBAL mysqlx_compression_algorithms = @a", false)->value, "@a");
  EXPECT_FALSE(parse_set_xvar("SET GLOBAL max_connections = 10", false));
  EXPECT_FALSE(parse_set_xvar("SET GLOBAL mysqlx_compression_algorithms = ''", true));
  EXPECT_FALSE(parse_set_xvar("SELECT 1", false));
  EXPECT_EQ(global_only_error(xvar(xvar_id::lz4_default_compression_level)).message,
            "Variable 'mysqlx_lz4_default_compression_level' is a GLOBAL variable and should be "
            "set with SET GLOBAL");
}

TEST(Xvars, ReadsAreRewrittenToValues) {
  auto v = xvar_defaults();
  v[static_cast<std::size_t>(xvar_id::document_id_unique_prefix)] = 5;
  auto rw = [&](std::string_view sql) { return rewrite_xvar_reads(sql, false, v, v).sql; };
  EXPECT_EQ(rw("SELECT @@mysqlx_document_id_unique_prefix"),
            "SELECT CAST(5 AS UNSIGNED) AS `@@mysqlx_document_id_unique_prefix`");
  EXPECT_EQ(rw("SELECT 1, @@global.mysqlx_document_id_unique_prefix + 1"),
            "SELECT 1, CAST(5 AS UNSIGNED) + 1");
  EXPECT_EQ(
      rw("select @@GLOBAL.mysqlx_lz4_default_compression_level, @@mysqlx_compression_algorithms"
         " FROM dual"),
      "select CAST(2 AS SIGNED) AS `@@GLOBAL.mysqlx_lz4_default_compression_level`, "
      "'DEFLATE_STREAM,LZ4_MESSAGE,ZSTD_STREAM' AS `@@mysqlx_compression_algorithms` FROM dual");
  EXPECT_EQ(rw("SELECT CONCAT(@@mysqlx_lz4_default_compression_level, 'x') AS c"),
            "SELECT CONCAT(CAST(2 AS SIGNED), 'x') AS c");
  EXPECT_EQ(rw("SELECT '@@mysqlx_lz4_default_compression_level', @@max_connections"),
            "SELECT '@@mysqlx_lz4_default_compression_level', @@max_connections");
  EXPECT_EQ(rw("SELECT @@mysqlx_lz4_default_compression_level AS l"),
            "SELECT CAST(2 AS SIGNED) AS l");
  auto e =
      rewrite_xvar_reads("SELECT @@session.mysqlx_zstd_default_compression_level", false, v, v);
  ASSERT_TRUE(e.error);
  EXPECT_EQ(e.error->code, 1238u);
  EXPECT_EQ(e.error->message,
            "Variable 'mysqlx_zstd_default_compression_level' is a GLOBAL variable");
  // 5.7 mode: MariaDB answers (1193 Unknown system variable).
  EXPECT_EQ(rewrite_xvar_reads("SELECT @@mysqlx_compression_algorithms", true, v, v).sql,
            "SELECT @@mysqlx_compression_algorithms");
}

TEST(Xvars, SessionReadsTakeTheSessionValue) {
  const auto global = xvar_defaults();
  auto session = global;
  session[static_cast<std::size_t>(xvar_id::wait_timeout)] = 5;
  session[static_cast<std::size_t>(xvar_id::connect_timeout)] = 99; // no SESSION scope: unused
  auto rw = [&](std::string_view sql) {
    return rewrite_xvar_reads(sql, false, global, session).sql;
  };
  EXPECT_EQ(rw("SELECT @@mysqlx_wait_timeout, @@session.mysqlx_wait_timeout, "
               "@@local.mysqlx_wait_timeout, @@global.mysqlx_wait_timeout"),
            "SELECT CAST(5 AS UNSIGNED) AS `@@mysqlx_wait_timeout`, CAST(5 AS UNSIGNED) AS "
            "`@@session.mysqlx_wait_timeout`, CAST(5 AS UNSIGNED) AS "
            "`@@local.mysqlx_wait_timeout`, CAST(28800 AS UNSIGNED) AS "
            "`@@global.mysqlx_wait_timeout`");
  EXPECT_EQ(rw("SELECT @@mysqlx_connect_timeout"),
            "SELECT CAST(30 AS UNSIGNED) AS `@@mysqlx_connect_timeout`");
  EXPECT_EQ(rw("SELECT @@mysqlx_max_connections"),
            "SELECT CAST(100 AS SIGNED) AS `@@mysqlx_max_connections`");
  auto e = rewrite_xvar_reads("SELECT @@session.mysqlx_max_allowed_packet", false, global, session);
  ASSERT_TRUE(e.error);
  EXPECT_EQ(e.error->message, "Variable 'mysqlx_max_allowed_packet' is a GLOBAL variable");
  const auto view = session_view(global, session);
  EXPECT_EQ(value_of(view, xvar_id::wait_timeout), 5);
  EXPECT_EQ(value_of(view, xvar_id::connect_timeout), 30);
}

TEST(Xvars, TopLevelCommas) {
  EXPECT_TRUE(has_top_level_comma("1, GLOBAL max_connections = 5"));
  EXPECT_FALSE(has_top_level_comma("CONCAT('a', 'b')"));
  EXPECT_FALSE(has_top_level_comma("'a,b'"));
}

TEST(Xvars, ShowStatementsAndLike) {
  auto s = parse_show("SHOW GLOBAL VARIABLES LIKE 'mysqlx%'");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->status);
  EXPECT_TRUE(s->global);
  EXPECT_EQ(s->like, "mysqlx%");
  s = parse_show("show session status where Variable_name = 'x';");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->status);
  EXPECT_FALSE(s->global);
  EXPECT_FALSE(parse_show("SHOW VARIABLES")->global);
  EXPECT_EQ(s->where, "Variable_name = 'x'");
  EXPECT_TRUE(parse_show("SHOW STATUS"));
  EXPECT_FALSE(parse_show("SHOW TABLES"));
  EXPECT_FALSE(parse_show("SHOW VARIABLES LIKE"));
  EXPECT_TRUE(sql_like("Mysqlx_compression_level", "mysqlx\\_compression%"));
  EXPECT_TRUE(sql_like("mysqlx_lz4_max_client_compression_level", "%lz4%level"));
  EXPECT_FALSE(sql_like("mysqlx_lz4", "mysqlx_lz"));
  EXPECT_TRUE(sql_like("abc", "a_c"));
}

TEST(Xvars, StatusRows) {
  auto rows = xstatus_rows(false, {"zstd_stream", 3, true, "TLSv1.3", "TLS_AES_256_GCM_SHA384",
                                   connection_counters{1, 2, 3, 4, 5}, compression_bytes{6, 7},
                                   compression_bytes{8, 9}});
  ASSERT_EQ(rows.size(), 14u);
  EXPECT_EQ(rows[0], (name_value{"Mysqlx_compression_algorithm", "ZSTD_STREAM"}));
  EXPECT_EQ(rows[1], (name_value{"Mysqlx_compression_level", "3"}));
  EXPECT_EQ(rows[2], (name_value{"Mysqlx_bytes_received_compressed_payload", "8"}));
  EXPECT_EQ(rows[3], (name_value{"Mysqlx_bytes_received_uncompressed_frame", "9"}));
  EXPECT_EQ(rows[4], (name_value{"Mysqlx_bytes_sent_compressed_payload", "6"}));
  EXPECT_EQ(rows[5], (name_value{"Mysqlx_bytes_sent_uncompressed_frame", "7"}));
  EXPECT_EQ(rows[6], (name_value{"Mysqlx_ssl_active", "ON"}));
  EXPECT_EQ(rows[8], (name_value{"Mysqlx_ssl_version", "TLSv1.3"}));
  EXPECT_EQ(rows[9], (name_value{"Mysqlx_aborted_clients", "1"}));
  EXPECT_EQ(rows[10], (name_value{"Mysqlx_connection_errors", "2"}));
  EXPECT_EQ(rows[11], (name_value{"Mysqlx_connections_accepted", "3"}));
  EXPECT_EQ(rows[12], (name_value{"Mysqlx_connections_closed", "4"}));
  EXPECT_EQ(rows[13], (name_value{"Mysqlx_connections_rejected", "5"}));
  rows = xstatus_rows(false, {});
  EXPECT_EQ(rows[0].second, "");
  EXPECT_EQ(rows[1].second, ""); // no level without compression
  EXPECT_EQ(rows[2].second, "0");
  EXPECT_EQ(rows[6].second, "OFF");
  // 5.7: no compression variables, no Mysqlx_aborted_clients.
  rows = xstatus_rows(true, {});
  ASSERT_EQ(rows.size(), 7u);
  EXPECT_EQ(rows[3].first, "Mysqlx_connection_errors");
}

} // namespace
} // namespace xserver
