// session_connect_attrs reach performance_schema.session_connect_attrs of
// the client's session, as with MySQL's X Plugin, which hands exactly the
// client's attributes to performance_schema for its thread
// (capabilities/handler_connection_attributes.cc). 8.0 fixture.
#include "mysqlx_session.pb.h"
#include "test/xserver/tests/xclient.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace xtest {
namespace {

const char* const k_attrs_query =
    "SELECT CONCAT(ATTR_NAME, '=', ATTR_VALUE) FROM performance_schema.session_connect_attrs "
    "WHERE PROCESSLIST_ID = CONNECTION_ID()";

std::vector<frame> set_attrs(xclient& c,
                             const std::vector<std::pair<std::string, std::string>>& attrs) {
  std::vector<std::pair<std::string, Mysqlx::Datatypes::Any>> fields;
  for (const auto& [k, v] : attrs) fields.emplace_back(k, any_string(v));
  return cap_set(c, {{"session_connect_attrs", any_object(fields)}});
}

TEST(ConnectAttrs80, TheClientsAttributesAreItsSessionsOnly) {
  xclient c(env_port("XS_PORT_80"));
  ASSERT_TRUE(is(set_attrs(c, {{"_client_name", "xclient"}, {"program", "attrs test"}}).back(),
                 server_msg::ok));
  auto r = c.auth("MYSQL41", "xtest", "xtest-pw");
  ASSERT_TRUE(is(r.back(), server_msg::sess_authenticate_ok)) << describe(r);
  r = c.sql(k_attrs_query);
  // Sorted: the order is libmariadb's (a hash), not the client's (README).
  auto rows = column_strings(r);
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(rows, (std::vector<std::string>{"_client_name=xclient", "program=attrs test"}))
      << describe(r);
}

TEST(ConnectAttrs80, NoAttributesNoRows) {
  xclient c = authed(env_port("XS_PORT_80"));
  auto r = c.sql(k_attrs_query);
  ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  EXPECT_TRUE(column_strings(r).empty()) << describe(r);
}

TEST(ConnectAttrs80, ANewSetAfterResetReplacesThem) {
  xclient c(env_port("XS_PORT_80"));
  ASSERT_TRUE(is(set_attrs(c, {{"first", "1"}}).back(), server_msg::ok));
  ASSERT_TRUE(is(c.auth("MYSQL41", "xtest", "xtest-pw").back(), server_msg::sess_authenticate_ok));
  c.send(client_msg::sess_reset, Mysqlx::Session::Reset());
  ASSERT_TRUE(is(c.reply().back(), server_msg::ok));
  ASSERT_TRUE(is(set_attrs(c, {{"second", "2"}}).back(), server_msg::ok));
  ASSERT_TRUE(is(c.auth("MYSQL41", "xtest", "xtest-pw").back(), server_msg::sess_authenticate_ok));
  EXPECT_EQ(column_strings(c.sql(k_attrs_query)), (std::vector<std::string>{"second=2"}));
}

} // namespace
} // namespace xtest
