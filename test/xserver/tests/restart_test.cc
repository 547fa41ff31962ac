// xserverctl lifecycle and what must survive a restart: the data, the
// persisted unique prefix (SET PERSIST), and the order of ids (a later start
// timestamp). Uses its own named server on XS_PORT_RESTART.
#include "test/xserver/tests/xclient.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <gtest/gtest.h>
#include <memory>

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
    // Every X Plugin variable persists the same way.
    s.c.sql("SET PERSIST mysqlx_compression_algorithms = 'LZ4_MESSAGE'");
    s.c.sql("SET PERSIST_ONLY mysqlx_zstd_default_compression_level = 7");
    s.c.sql("SET GLOBAL mysqlx_lz4_default_compression_level = 9"); // not persisted
  }
  ctl("stop --name " + std::string(name));
  ASSERT_EQ(start(), expected_uri());
  session_on_restart_server s;
  const std::string id_after = s.insert_one();
  EXPECT_EQ(id_after.substr(0, 4), "00ab"); // the persisted value, not 9
  EXPECT_GT(timestamp_of(id_after), timestamp_of(id_before));
  EXPECT_GT(id_after, id_before);
  auto vars = s.c.sql("SELECT @@mysqlx_compression_algorithms");
  EXPECT_EQ(column_strings(vars), (std::vector<std::string>{"LZ4_MESSAGE"})) << describe(vars);
  vars = s.c.sql("SELECT CONCAT(@@mysqlx_zstd_default_compression_level, ' ', "
                 "@@mysqlx_lz4_default_compression_level)");
  EXPECT_EQ(column_strings(vars), (std::vector<std::string>{"7 2"})) << describe(vars);
  auto count = s.c.sql("SELECT CAST(COUNT(*) AS CHAR) FROM rs.c");
  EXPECT_EQ(column_strings(count), (std::vector<std::string>{"5"}));
}

// WL#10955 NF4: servers of one cluster never generate the same id, given
// either their own unique prefix or interleaved auto-increment settings.
// Two servers started in the same second share the start timestamp, so
// nothing else keeps their ids apart.
class TwoServers : public ::testing::Test {
protected:
  static std::uint16_t port(int i) {
    return static_cast<std::uint16_t>(env_port("XS_PORT_RESTART") + i);
  }
  static std::string name_of(int i) { return "xs_test_pair_" + std::to_string(i); }
  static void start_pair(const std::string& a, const std::string& b) {
    ASSERT_NE(
        ctl("start --fresh --name " + name_of(1) + " --port " + std::to_string(port(1)) + " " + a),
        "");
    ASSERT_NE(
        ctl("start --fresh --name " + name_of(2) + " --port " + std::to_string(port(2)) + " " + b),
        "");
  }
  // 20 inserts of 5 documents on each server, alternating between them.
  static std::vector<std::string> ids_from_both(std::vector<std::string>* of_first = nullptr) {
    std::vector<std::unique_ptr<xclient>> clients;
    for (int i : {1, 2}) {
      clients.push_back(std::make_unique<xclient>(port(i)));
      clients.back()->auth("MYSQL41", "xtest", "xtest-pw");
      clients.back()->sql("CREATE DATABASE pair");
      clients.back()->admin("create_collection", "pair", "c");
    }
    std::vector<std::string> all;
    for (int round = 0; round < 20; ++round) {
      for (std::size_t i = 0; i < clients.size(); ++i) {
        auto ids =
            generated_ids(clients[i]->insert_json("pair", "c", {"{}", "{}", "{}", "{}", "{}"}));
        EXPECT_EQ(ids.size(), 5u);
        all.insert(all.end(), ids.begin(), ids.end());
        if (i == 0 && of_first) of_first->insert(of_first->end(), ids.begin(), ids.end());
      }
    }
    return all;
  }
  static std::size_t distinct(std::vector<std::string> ids) {
    std::sort(ids.begin(), ids.end());
    return static_cast<std::size_t>(std::unique(ids.begin(), ids.end()) - ids.begin());
  }
  void TearDown() override {
    for (int i : {1, 2}) ctl("stop --name " + name_of(i));
  }
};

TEST_F(TwoServers, DifferentUniquePrefixesNeverCollide) {
  start_pair("--unique-prefix 1", "--unique-prefix 2");
  std::vector<std::string> first;
  const auto all = ids_from_both(&first);
  ASSERT_EQ(all.size(), 200u);
  EXPECT_EQ(distinct(all), all.size());
  for (const auto& id : first) EXPECT_EQ(id.substr(0, 4), "0001") << id;
}

TEST_F(TwoServers, InterleavedAutoIncrementOffsetsNeverCollide) {
  start_pair("--unique-prefix 0 --auto-increment-offset 1 --auto-increment-increment 2",
             "--unique-prefix 0 --auto-increment-offset 2 --auto-increment-increment 2");
  std::vector<std::string> first;
  const auto all = ids_from_both(&first);
  ASSERT_EQ(all.size(), 200u);
  EXPECT_EQ(distinct(all), all.size());
  for (const auto& id : first) EXPECT_EQ(std::stoull(id.substr(12), nullptr, 16) % 2, 1u) << id;
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

// The options our own tests use to run the connector against MySQL's other
// compression styles: --compression-algorithms limits what is offered and
// --compression-style overrides what the client asks for.
TEST_F(Restart, CompressionOptionsLimitTheOfferAndForceTheStyle) {
  ASSERT_EQ(start("--fresh --compression-algorithms lz4_message --compression-style single"),
            expected_uri());
  xclient c(env_port("XS_PORT_RESTART"));
  const auto caps = get_caps(c);
  const Mysqlx::Datatypes::Any* comp = find_cap(caps, "compression");
  ASSERT_NE(comp, nullptr);
  ASSERT_EQ(comp->obj().fld(0).value().array().value_size(), 1);
  EXPECT_EQ(comp->obj().fld(0).value().array().value(0).scalar().v_string().value(), "lz4_message");
  Mysqlx::Datatypes::Any algorithm;
  algorithm.set_type(Mysqlx::Datatypes::Any::SCALAR);
  algorithm.mutable_scalar()->set_type(Mysqlx::Datatypes::Scalar::V_STRING);
  algorithm.mutable_scalar()->mutable_v_string()->set_value("lz4_message");
  // The client asks for the default, mixed types in one message.
  auto r = cap_set(c, {{"compression", any_object({{"algorithm", algorithm}})}});
  ASSERT_TRUE(is(r.back(), server_msg::ok)) << describe(r);
  c.enable_compression(/*outgoing=*/false, "lz4_message");
  ASSERT_TRUE(is(c.auth("MYSQL41", "xtest", "xtest-pw").back(), server_msg::sess_authenticate_ok));
  c.clear_wire_frames();
  auto rows = column_strings(c.sql("SELECT 'a' UNION ALL SELECT 'b' UNION ALL SELECT 'c'"));
  EXPECT_EQ(rows, (std::vector<std::string>{"a", "b", "c"}));
  // Single style: every Compression message names its one frame's type
  // (server_messages, field 2, first) and holds one frame: metadata, three
  // rows, FetchDone and the ROWS_AFFECTED notice make six.
  int compressed = 0;
  for (const frame& f : c.wire_frames()) {
    if (f.type != 19) continue;
    ++compressed;
    ASSERT_FALSE(f.payload.empty());
    EXPECT_EQ(static_cast<unsigned char>(f.payload[0]), 0x10);
  }
  EXPECT_EQ(compressed, 6);
}

// --account-without-password: a second privileged account with no
// password, for clients that log in with a user name alone (Oracle's tests).
TEST_F(Restart, AnAccountWithoutPassword) {
  ASSERT_EQ(start("--fresh --account-without-password xs_nopw"), expected_uri());
  xclient plain(env_port("XS_PORT_RESTART"));
  ASSERT_TRUE(plain.start_tls(env("MYSQLX_BUILD_DIR") + "/xserver/" + name + "/certs/ca.pem"));
  auto r = plain.auth("PLAIN", "xs_nopw", "");
  ASSERT_TRUE(is(r.back(), server_msg::sess_authenticate_ok)) << describe(r);
  EXPECT_EQ(column_strings(plain.sql("SELECT 'in'")), (std::vector<std::string>{"in"}));
  xclient native(env_port("XS_PORT_RESTART"));
  r = native.auth("MYSQL41", "xs_nopw", "");
  EXPECT_TRUE(is(r.back(), server_msg::sess_authenticate_ok)) << describe(r);
  // A password it does not have is refused, and xtest keeps its own.
  xclient wrong(env_port("XS_PORT_RESTART"));
  EXPECT_TRUE(is(wrong.auth("MYSQL41", "xs_nopw", "pw").back(), server_msg::error));
  xclient test_user(env_port("XS_PORT_RESTART"));
  EXPECT_TRUE(is(test_user.auth("MYSQL41", "xtest", "").back(), server_msg::error));
}

} // namespace
} // namespace xtest
