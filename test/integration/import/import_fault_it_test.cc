// mysqlx-import when the server drops the connection mid-import: the tool's
// library is driven directly so that xserverd's fault injection can be
// switched on in its session (devapi/test_hooks.h), and what it says is
// checked against what the collection holds.
#include "devapi/test_hooks.h"
#include "importer.h"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <mysqlx/xdevapi.h>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

const char* const schema = "import_fault_it";

class ImportFault : public ::testing::Test {
protected:
  void SetUp() override {
    const char* u = std::getenv("MYSQLX_TEST_URI_80");
    ASSERT_NE(u, nullptr) << "MYSQLX_TEST_URI_80 is not set";
    uri = u;
    name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    session.emplace(uri);
    session->createSchema(schema, true).dropCollection(name);
    char path[] = "/tmp/import_fault_XXXXXX";
    const int fd = ::mkstemp(path);
    ASSERT_GE(fd, 0);
    ::close(fd);
    file = path;
    std::ofstream out(file);
    for (int i = 0; i < documents; ++i) out << "{\"i\":" << i << "}\n";
  }
  void TearDown() override { ::unlink(file.c_str()); }

  mysqlx_import::options opts(const std::string& fault, std::uint64_t count = 0) {
    mysqlx_import::options o;
    o.uri = uri;
    o.schema = schema;
    o.collection = name;
    o.inputs = {file};
    o.batch_size = batch;
    o.progress = mysqlx_import::progress_style::none;
    o.on_session = [fault, count](mysqlx::Session& s, unsigned) {
      if (count)
        mysqlx::detail::inject_server_fault(s, fault, "count", count);
      else
        mysqlx::detail::inject_server_fault(s, fault);
    };
    return o;
  }
  std::uint64_t stored() { return session->getSchema(schema).getCollection(name).count(); }

  static constexpr int documents = 1000;
  static constexpr std::size_t batch = 100;
  std::string uri, name, file;
  std::optional<mysqlx::Session> session;
};

TEST_F(ImportFault, ConnectionClosedBetweenBatches) {
  // The server answers four messages (the session's own first request among
  // them), then closes before reading the next: a later add() finds the
  // connection gone, and nothing of its batch is stored.
  std::ostringstream out, err;
  const auto res = mysqlx_import::run_import(opts("close_after_messages", 4), out, err);
  EXPECT_FALSE(res.ok);
  ASSERT_GT(res.documents, 0u);
  ASSERT_LT(res.documents, 1000u);
  EXPECT_EQ(res.documents % batch, 0u);
  EXPECT_EQ(res.stored_prefix, res.documents);
  EXPECT_EQ(stored(), res.documents); // what it says is what is there
  const std::string n = std::to_string(res.documents);
  const std::string e = err.str();
  EXPECT_NE(e.find(file + ":" + std::to_string(res.documents + 1) + "-" +
                   std::to_string(res.documents + batch) + ": the batch of 100 documents failed: "),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("(error 2013)"), std::string::npos) << e; // lost connection
  EXPECT_NE(e.find("stopped: " + n + " documents stored; the first " + n +
                   " entries of the input are all stored (resume with --skip " + n + ")"),
            std::string::npos)
      << e;
  EXPECT_NE(out.str().find("documents " + n + ", ids generated " + n), std::string::npos)
      << out.str();

  // Resuming as it says stores each document exactly once.
  auto again = opts("", 0);
  again.on_session = nullptr;
  again.skip = res.stored_prefix;
  std::ostringstream out2, err2;
  EXPECT_TRUE(mysqlx_import::run_import(again, out2, err2).ok) << err2.str();
  EXPECT_EQ(stored(), 1000u);
}

TEST_F(ImportFault, ConnectionClosedAfterACommitBeforeItsReply) {
  // The first batch is committed, its reply never comes: the tool cannot
  // know, does not count it, and says it may be stored.
  std::ostringstream out, err;
  const auto res = mysqlx_import::run_import(opts("close_before_insert_ok"), out, err);
  EXPECT_FALSE(res.ok);
  EXPECT_EQ(res.documents, 0u);
  EXPECT_EQ(res.uncertain_documents, 100u);
  EXPECT_EQ(res.stored_prefix, 0u);
  EXPECT_EQ(stored(), 100u); // it was stored after all
  const std::string e = err.str();
  EXPECT_NE(e.find(file + ":1-100: the batch of 100 documents failed: "), std::string::npos) << e;
  EXPECT_NE(e.find("may or may not be stored"), std::string::npos) << e;
  EXPECT_NE(e.find("stopped: 0 documents stored"), std::string::npos) << e;
}

TEST_F(ImportFault, ClientIdsTellWhetherTheLostBatchIsStored) {
  // As above with ids made by the connector: the tool looks the batch's
  // first id up on a new connection and counts exactly.
  auto o = opts("close_before_insert_ok");
  o.docid_mode = mysqlx::DocIdMode::CLIENT;
  std::ostringstream out, err;
  const auto res = mysqlx_import::run_import(o, out, err);
  EXPECT_FALSE(res.ok);
  EXPECT_EQ(res.documents, 100u);
  EXPECT_EQ(res.uncertain_documents, 0u);
  EXPECT_EQ(res.stored_prefix, 100u);
  EXPECT_EQ(stored(), 100u);
  const std::string e = err.str();
  EXPECT_NE(e.find("first client-made id on a new connection, that batch is stored"),
            std::string::npos)
      << e;
  EXPECT_EQ(e.find("may or may not be stored"), std::string::npos) << e;
  EXPECT_NE(e.find("resume with --skip 100"), std::string::npos) << e;
}

TEST_F(ImportFault, ClientIdsTellWhenTheLostBatchIsNotStored) {
  // The server closes before reading the Insert: looked up, not stored.
  auto o = opts("close_after_messages", 4);
  o.docid_mode = mysqlx::DocIdMode::CLIENT;
  std::ostringstream out, err;
  const auto res = mysqlx_import::run_import(o, out, err);
  EXPECT_FALSE(res.ok);
  EXPECT_EQ(res.uncertain_documents, 0u);
  EXPECT_EQ(res.stored_prefix, res.documents);
  EXPECT_EQ(stored(), res.documents);
  EXPECT_NE(err.str().find("that batch is not stored"), std::string::npos) << err.str();
}

} // namespace
