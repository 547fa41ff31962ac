// Our connector's connection attributes, seen where MySQL shows them:
// performance_schema.session_connect_attrs of the session (xserverd answers
// it from the X sessions' attributes, as MySQL's X Plugin fills it).
#include "test/integration/devapi/it_common.h"

#include <map>

namespace devapi_it {
namespace {

// An attribute with an empty value reads as NULL (MySQL's table), here "<null>".
std::map<std::string, std::string> session_attrs(mysqlx::Session& s) {
  std::map<std::string, std::string> out;
  auto r = s.sql("SELECT ATTR_NAME, ATTR_VALUE FROM performance_schema.session_connect_attrs "
                 "WHERE PROCESSLIST_ID = CONNECTION_ID()")
               .execute();
  for (mysqlx::Row row : r.fetchAll())
    out[row[0].get<std::string>()] = row[1].isNull() ? "<null>" : row[1].get<std::string>();
  return out;
}

TEST(ConnectAttrs80, TheConnectorsAndTheUsersAttributesShow) {
  mysqlx::Session s(env_uri("MYSQLX_TEST_URI_80") + "?connection-attributes=[app=shop,empty=]");
  auto attrs = session_attrs(s);
  EXPECT_EQ(attrs["_client_name"], "mysqlx");
  EXPECT_FALSE(attrs["_client_version"].empty());
  EXPECT_FALSE(attrs["_os"].empty());
  EXPECT_EQ(attrs["app"], "shop");
  EXPECT_EQ(attrs["empty"], "<null>");
}

TEST(ConnectAttrs80, NoneWhenSwitchedOff) {
  mysqlx::Session s(env_uri("MYSQLX_TEST_URI_80") + "?connection-attributes=false");
  EXPECT_TRUE(session_attrs(s).empty());
}

} // namespace
} // namespace devapi_it
