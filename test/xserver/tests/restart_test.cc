// xserverctl lifecycle and what must survive a restart: the data, the
// persisted unique prefix (SET PERSIST), and the order of ids (a later start
// timestamp). Uses its own named server on XS_PORT_RESTART.
#include "test/xserver/tests/xclient.h"

#include <array>
#include <cstdio>
#include <gtest/gtest.h>

namespace xtest {
namespace {

const char* const name = "xs_test_restart";

// Runs xserverctl; returns its stdout (stderr goes to the test log).
std::string ctl(const std::string& args) {
  const std::string cmd = "MYSQLX_BUILD_DIR='" + env("MYSQLX_BUILD_DIR") + "' XSERVERD='" +
                          env("XSERVERD") + "' '" + env("XS_CTL") + "' " + args;
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return out;
  std::array<char, 256> buf;
  while (std::fgets(buf.data(), buf.size(), p)) out += buf.data();
  ::pclose(p);
  return out;
}

std::string start(const std::string& extra = "") {
  return ctl("start --name " + std::string(name) + " --port " +
             std::to_string(env_port("XS_PORT_RESTART")) + " " + extra);
}

std::string expected_uri() {
  return "mysqlx://xtest:xtest-pw@127.0.0.1:" + std::to_string(env_port("XS_PORT_RESTART")) + "\n";
}

struct session_on_restart_server {
  xclient c{env_port("XS_PORT_RESTART")};
  session_on_restart_server() {
    auto r = c.auth("MYSQL41", "xtest", "xtest-pw");
    if (!is(r.back(), server_msg::sess_authenticate_ok)) throw std::runtime_error(describe(r));
  }
  std::string insert_one() {
    auto ids = generated_ids(c.insert_json("rs", "c", {"{}"}));
    return ids.size() == 1 ? ids[0] : std::string();
  }
};

std::uint64_t timestamp_of(const std::string& id) {
  return std::stoull(id.substr(4, 8), nullptr, 16);
}

class Restart : public ::testing::Test {
protected:
  void TearDown() override { ctl("stop --name " + std::string(name)); }
};

TEST_F(Restart, DataPrefixAndIdOrderSurviveARestart) {
  ASSERT_EQ(start("--fresh"), expected_uri());
  std::string id_before;
  {
    session_on_restart_server s;
    s.c.sql("CREATE DATABASE rs");
    ASSERT_TRUE(
        is(s.c.admin("create_collection", "rs", "c").back(), server_msg::sql_stmt_execute_ok));
    EXPECT_EQ(s.insert_one().substr(0, 4), "0000");
    s.c.sql("SET GLOBAL mysqlx_document_id_unique_prefix = 4660");
    EXPECT_EQ(s.insert_one().substr(0, 4), "1234");
    // Out of range: clamped with a warning, as MySQL does for integer variables.
    auto r = s.c.sql("SET GLOBAL mysqlx_document_id_unique_prefix = 70000");
    ASSERT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << describe(r);
    EXPECT_EQ(notice_of(r[0]).warning.code(), 1292u);
    EXPECT_EQ(s.insert_one().substr(0, 4), "ffff");
    s.c.sql("SET PERSIST mysqlx_document_id_unique_prefix = 171");
    id_before = s.insert_one();
    EXPECT_EQ(id_before.substr(0, 4), "00ab");
    s.c.sql("SET GLOBAL mysqlx_document_id_unique_prefix = 9"); // not persisted
  }
  ctl("stop --name " + std::string(name));
  ASSERT_EQ(start(), expected_uri());
  session_on_restart_server s;
  const std::string id_after = s.insert_one();
  EXPECT_EQ(id_after.substr(0, 4), "00ab"); // the persisted value, not 9
  EXPECT_GT(timestamp_of(id_after), timestamp_of(id_before));
  EXPECT_GT(id_after, id_before);
  auto count = s.c.sql("SELECT CAST(COUNT(*) AS CHAR) FROM rs.c");
  EXPECT_EQ(column_strings(count), (std::vector<std::string>{"5"}));
}

TEST_F(Restart, StartTwiceReportsTheRunningServerAndFreshWipes) {
  ASSERT_EQ(start("--fresh --unique-prefix 7"), expected_uri());
  {
    session_on_restart_server s;
    s.c.sql("CREATE DATABASE rs");
    s.c.admin("create_collection", "rs", "c");
    EXPECT_EQ(s.insert_one().substr(0, 4), "0007");
  }
  EXPECT_EQ(start(), expected_uri()); // already running: same URI, same data
  EXPECT_NE(ctl("status --name " + std::string(name)).find("running"), std::string::npos);
  ASSERT_EQ(start("--fresh"), expected_uri());
  session_on_restart_server s;
  EXPECT_TRUE(column_strings(s.c.sql("SHOW DATABASES LIKE 'rs'")).empty());
}

} // namespace
} // namespace xtest
