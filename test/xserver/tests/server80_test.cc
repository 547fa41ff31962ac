// xserverd in 8.0 mode, over raw X Protocol: handshake, capabilities, TLS,
// authentication, expect blocks, SQL results, pipelining, frame limits.
#include "mysqlx_connection.pb.h"
#include "mysqlx_expect.pb.h"
#include "mysqlx_resultset.pb.h"
#include "mysqlx_session.pb.h"
#include "mysqlx_sql.pb.h"
#include "test/xserver/tests/xclient.h"

#include <cctype>
#include <gtest/gtest.h>

namespace xtest {
namespace {

using Mysqlx::Datatypes::Any;
using Mysqlx::Datatypes::Scalar;

const char* const user = "xtest";
const char* const password = "xtest-pw";

std::uint16_t port80() {
  return env_port("XS_PORT_80");
}

std::vector<std::string> mechanisms(const Mysqlx::Connection::Capabilities& caps) {
  std::vector<std::string> out;
  if (const Any* m = find_cap(caps, "authentication.mechanisms"))
    for (const auto& v : m->array().value()) out.push_back(v.scalar().v_string().value());
  return out;
}

TEST(Xserverd80, SendsServerHelloFirstAsAGlobalNotice) {
  xclient c(port80(), /*hello=*/false);
  auto f = c.read();
  ASSERT_TRUE(f && is(*f, server_msg::notice));
  auto n = notice_of(*f);
  EXPECT_EQ(n.frame_type, 5u); // SERVER_HELLO
  EXPECT_EQ(n.scope, 0);       // no scope field: global
}

TEST(Xserverd80, CapabilitiesOf80OverPlainTcp) {
  xclient c(port80());
  auto caps = get_caps(c);
  ASSERT_NE(find_cap(caps, "node_type"), nullptr);
  EXPECT_EQ(find_cap(caps, "node_type")->scalar().v_string().value(), "mysql");
  EXPECT_EQ(find_cap(caps, "plugin.version"), nullptr);
  ASSERT_NE(find_cap(caps, "tls"), nullptr);
  EXPECT_FALSE(find_cap(caps, "tls")->scalar().v_bool());
  EXPECT_EQ(find_cap(caps, "doc.formats")->scalar().v_string().value(), "text");
  auto mechs = mechanisms(caps);
  EXPECT_NE(std::find(mechs.begin(), mechs.end(), "MYSQL41"), mechs.end());
  EXPECT_NE(std::find(mechs.begin(), mechs.end(), "SHA256_MEMORY"), mechs.end());
  EXPECT_EQ(std::find(mechs.begin(), mechs.end(), "PLAIN"), mechs.end()); // not without TLS
}

TEST(Xserverd80, CapabilityErrorsUseMySqlWording) {
  xclient c(port80());
  auto r = cap_set(c, {{"no.such.capability", any_bool(true)}});
  EXPECT_EQ(error_of(r.back()).code(), 5002u);
  EXPECT_EQ(error_of(r.back()).msg(), "Capability 'no.such.capability' doesn't exist");
  r = cap_set(c, {{"node_type", any_bool(true)}});
  EXPECT_EQ(error_of(r.back()).code(), 5001u);
  EXPECT_EQ(error_of(r.back()).msg(), "Capability prepare failed for 'node_type'");
  r = cap_set(c, {{"tls", any_bool(false)}});
  EXPECT_EQ(error_of(r.back()).msg(), "Capability prepare failed for 'tls'");
  r = cap_set(c, {{"client.interactive", any_bool(true)}, {"client.interactive", any_bool(true)}});
  EXPECT_EQ(error_of(r.back()).code(), 5019u);
  r = cap_set(c, {}); // an empty set is fine (Connector/Node.js sends one)
  EXPECT_TRUE(is(r.back(), server_msg::ok)) << describe(r);
  // The session continues after these errors.
  auto a = c.auth("MYSQL41", user, password);
  EXPECT_TRUE(is(a.back(), server_msg::sess_authenticate_ok)) << describe(a);
}

TEST(Xserverd80, TlsUpgradeVerifiesAgainstTheGeneratedCa) {
  xclient c(port80());
  ASSERT_TRUE(c.start_tls(env("XS_CA_80")));
  auto caps = get_caps(c);
  EXPECT_TRUE(find_cap(caps, "tls")->scalar().v_bool());
  auto mechs = mechanisms(caps);
  EXPECT_NE(std::find(mechs.begin(), mechs.end(), "PLAIN"), mechs.end());
  auto r = c.auth("PLAIN", user, password);
  EXPECT_TRUE(is(r.back(), server_msg::sess_authenticate_ok)) << describe(r);
}

TEST(Xserverd80, Mysql41SendsClientIdNoticeThenAuthenticateOk) {
  xclient c(port80());
  auto r = c.auth("MYSQL41", user, password);
  ASSERT_EQ(r.size(), 2u) << describe(r);
  auto n = notice_of(r[0]);
  EXPECT_EQ(n.param, 11); // CLIENT_ID_ASSIGNED
  EXPECT_EQ(n.scope, 2);  // LOCAL
  ASSERT_EQ(n.values.size(), 1u);
  EXPECT_EQ(n.values[0].type(), Scalar::V_UINT);
  EXPECT_TRUE(is(r[1], server_msg::sess_authenticate_ok));
}

TEST(Xserverd80, WrongPasswordGets1045AndASecondAttemptIsAllowed) {
  xclient c(port80());
  auto r = c.auth("MYSQL41", user, "wrong");
  auto e = error_of(r.back());
  EXPECT_EQ(e.code(), 1045u);
  EXPECT_EQ(e.msg(), "Access denied for user 'xtest'@'localhost' (using password: YES)");
  EXPECT_EQ(e.severity(), Mysqlx::Error::ERROR);
  r = c.auth("MYSQL41", "nobody", "");
  EXPECT_EQ(error_of(r.back()).msg(),
            "Access denied for user 'nobody'@'localhost' (using password: NO)");
  r = c.auth("MYSQL41", user, password);
  EXPECT_TRUE(is(r.back(), server_msg::sess_authenticate_ok)) << describe(r);
}

TEST(Xserverd80, PlainIsRefusedWithoutTls) {
  xclient c(port80());
  auto r = c.auth("PLAIN", user, password);
  auto e = error_of(r.back());
  EXPECT_EQ(e.code(), 1251u);
  EXPECT_EQ(e.severity(), Mysqlx::Error::FATAL);
  EXPECT_FALSE(c.read()); // the server closed the connection
}

TEST(Xserverd80, Sha256MemoryWorksOnlyAfterAPlainLogin) {
  // A fresh account, so no earlier login of another test filled the cache.
  const std::string name = unique_name("sha");
  {
    xclient admin(port80());
    admin.auth("MYSQL41", user, password);
    auto r = admin.sql("CREATE USER '" + name + "'@'%' IDENTIFIED BY 'pw-" + name + "'");
    ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
  }
  {
    xclient c(port80());
    auto r = c.auth("SHA256_MEMORY", name, "pw-" + name);
    EXPECT_EQ(error_of(r.back()).code(), 1045u) << describe(r);
  }
  {
    xclient c(port80());
    ASSERT_TRUE(c.start_tls(env("XS_CA_80")));
    auto r = c.auth("PLAIN", name, "pw-" + name);
    EXPECT_TRUE(is(r.back(), server_msg::sess_authenticate_ok)) << describe(r);
  }
  xclient c(port80());
  auto r = c.auth("SHA256_MEMORY", name, "wrong");
  EXPECT_EQ(error_of(r.back()).code(), 1045u);
  r = c.auth("SHA256_MEMORY", name, "pw-" + name);
  EXPECT_TRUE(is(r.back(), server_msg::sess_authenticate_ok)) << describe(r);
}

// MySQL's IDENTIFIED WITH caching_sha2_password / sha256_password BY runs on
// MariaDB (account_stmt.h); as the X Plugin, MYSQL41 refuses such an
// account, PLAIN takes its password and fills the SHA256_MEMORY cache, and
// DROP USER empties its entry (mysqlx_cache_cleaner). Oracle's Sess.sha256_memory.
TEST(Xserverd80, Sha2AccountsLogInWithPlainAndSha256MemoryNotMysql41) {
  for (const std::string plugin : {"caching_sha2_password", "sha256_password"}) {
    const std::string name = unique_name("sha2");
    const std::string account = "'" + name + "'@'%'";
    auto admin = authed(port80());
    auto r = admin.sql("CREATE USER " + account + " IDENTIFIED WITH " + plugin + " BY 'pw';");
    ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
    auto login = [&](const char* mech, const char* pw, bool tls = false) {
      xclient c(port80());
      if (tls && !c.start_tls(env("XS_CA_80"))) return false;
      return is(c.auth(mech, name, pw).back(), server_msg::sess_authenticate_ok);
    };
    EXPECT_FALSE(login("MYSQL41", "pw")) << plugin;
    EXPECT_FALSE(login("SHA256_MEMORY", "pw")) << plugin; // nothing cached yet
    EXPECT_FALSE(login("PLAIN", "wrong", true)) << plugin;
    EXPECT_TRUE(login("PLAIN", "pw", true)) << plugin;
    EXPECT_TRUE(login("SHA256_MEMORY", "pw")) << plugin;
    EXPECT_FALSE(login("SHA256_MEMORY", "wrong")) << plugin;
    EXPECT_FALSE(login("MYSQL41", "pw")) << plugin;
    // Dropped and made again: the cache forgot it.
    admin.sql("DROP USER " + account);
    r = admin.sql("CREATE USER " + account + " IDENTIFIED WITH " + plugin + " BY 'pw'");
    ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
    EXPECT_FALSE(login("SHA256_MEMORY", "pw")) << plugin;
    // ALTER USER ... WITH mysql_native_password makes MYSQL41 work.
    r = admin.sql("ALTER USER " + account + " IDENTIFIED WITH mysql_native_password BY 'pw2'");
    ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
    EXPECT_TRUE(login("MYSQL41", "pw2")) << plugin;
    admin.sql("DROP USER " + account);
  }
}

// Issue 36, as the X Plugin (cdk/session/README.md, points 3, 4 and 6):
// a refused capability is not fatal and what follows it is read; once an
// AuthenticateStart was read only authentication messages are.
TEST(Xserverd80, PipelinedSetsAndAuthenticationAreReadInOrder) {
  xclient c(port80());
  Mysqlx::Connection::CapabilitiesSet bad, attrs;
  auto* cap = bad.mutable_capabilities()->add_capabilities();
  cap->set_name("compression");
  *cap->mutable_value() = any_object({{"algorithm", any_string("snappy")}});
  cap = attrs.mutable_capabilities()->add_capabilities();
  cap->set_name("session_connect_attrs");
  *cap->mutable_value() = any_object({{"_client_name", any_string("t")}});
  Mysqlx::Session::AuthenticateStart start;
  start.set_mech_name("MYSQL41");
  c.send_raw(c.encode(client_msg::con_capabilities_set, bad) +
             c.encode(client_msg::con_capabilities_set, attrs) +
             c.encode(client_msg::sess_authenticate_start, start));
  auto r = c.reply();
  EXPECT_EQ(error_of(r.back()).code(), 5175u) << describe(r);
  EXPECT_EQ(error_of(r.back()).severity(), Mysqlx::Error::ERROR);
  r = c.reply();
  EXPECT_TRUE(is(r.back(), server_msg::ok)) << describe(r);
  r = c.reply();
  EXPECT_TRUE(is(r.back(), server_msg::sess_authenticate_continue)) << describe(r);
}

TEST(Xserverd80, AfterAuthenticateStartCapabilitiesAreFatal) {
  xclient c(port80());
  auto r = c.auth("MYSQL41", user, "wrong");
  ASSERT_EQ(error_of(r.back()).code(), 1045u);
  Mysqlx::Connection::CapabilitiesGet get;
  c.send(client_msg::con_capabilities_get, get);
  r = c.reply();
  EXPECT_EQ(error_of(r.back()).code(), 5000u) << describe(r);
  EXPECT_EQ(error_of(r.back()).severity(), Mysqlx::Error::FATAL);
  EXPECT_FALSE(c.read()); // closed
}

TEST(Xserverd80, AnExpectPipelinedAfterAFailedAttemptIsFatal) {
  xclient c(port80());
  Mysqlx::Session::AuthenticateStart start;
  start.set_mech_name("MYSQL41");
  c.send(client_msg::sess_authenticate_start, start);
  auto r = c.reply();
  ASSERT_TRUE(is(r.back(), server_msg::sess_authenticate_continue)) << describe(r);
  Mysqlx::Session::AuthenticateContinue cont;
  cont.set_auth_data(std::string("\0xtest\0", 7) + std::string(20, 'x'));
  Mysqlx::Expect::Open open;
  c.send_raw(c.encode(client_msg::sess_authenticate_continue, cont) +
             c.encode(client_msg::expect_open, open));
  r = c.reply();
  EXPECT_EQ(error_of(r.back()).code(), 1045u) << describe(r);
  r = c.reply();
  EXPECT_EQ(error_of(r.back()).code(), 5000u) << describe(r);
  EXPECT_EQ(error_of(r.back()).severity(), Mysqlx::Error::FATAL);
}

TEST(Xserverd80, MessagesBeforeAuthenticationAreFatal) {
  xclient c(port80());
  auto r = c.sql("SELECT 1");
  auto e = error_of(r.back());
  EXPECT_EQ(e.code(), 5000u);
  EXPECT_EQ(e.severity(), Mysqlx::Error::FATAL);
}

} // namespace
} // namespace xtest
