// mysqlx-import when the server drops the connection mid-import: the tool's
// library is driven directly so that xserverd's fault injection can be
// switched on in its session (devapi/test_hooks.h), and what it says is
// checked against what the collection holds.
#include "devapi/test_hooks.h"
#include "importer.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <mysqlx/xdevapi.h>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

// A schema per test: ctest runs the cases in parallel, and each drops its
// schema's progress table when it starts.
std::string own_schema(const std::string& test_name) {
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08zx", std::hash<std::string>{}(test_name)&0xffffffffu);
  return std::string("import_fault_") + hex;
}

class ImportFault : public ::testing::Test {
protected:
  void SetUp() override {
    const char* u = std::getenv("MYSQLX_TEST_URI_80");
    ASSERT_NE(u, nullptr) << "MYSQLX_TEST_URI_80 is not set";
    uri = u;
    name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    schema = own_schema(name);
    session.emplace(uri);
    session->createSchema(schema, true).dropCollection(name);
    // Records of an earlier run of this test (the same job) are not wanted.
    session->sql(std::string("DROP TABLE IF EXISTS ") + schema + ".mysqlx_import_progress")
        .execute();
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
  // Distinct values of the field "i": each document's own.
  std::uint64_t distinct_i() {
    return session
        ->sql(std::string("SELECT COUNT(DISTINCT JSON_EXTRACT(doc, '$.i')) FROM ") + schema + "." +
              name)
        .execute()
        .fetchOne()[0]
        .get<std::uint64_t>();
  }
  // The same import again, without faults; true when it completes.
  bool resume(bool with_resume) {
    auto again = opts("", 0);
    again.on_session = nullptr;
    again.resume = with_resume;
    std::ostringstream out, err;
    return mysqlx_import::run_import(again, out, err).ok;
  }
  void clear_records() {
    session->sql(std::string("DROP TABLE IF EXISTS ") + schema + ".mysqlx_import_progress")
        .execute();
  }

  static constexpr int documents = 1000;
  static constexpr std::size_t batch = 100;
  std::string uri, name, file, schema;
  std::optional<mysqlx::Session> session;
};

TEST_F(ImportFault, ConnectionClosedBetweenBatches) {
  // The server answers eight messages (the first batch's START, Insert,
  // record, COMMIT, and the library's question for the server's message
  // limit among them), then closes before reading the next: a later batch
  // finds the connection gone, and nothing of it is stored.
  std::ostringstream out, err;
  const auto res = mysqlx_import::run_import(opts("close_after_messages", 8), out, err);
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
                   " entries of the input are all stored; run the same command with --resume"
                   " to store exactly the rest"),
            std::string::npos)
      << e;
  EXPECT_NE(out.str().find("documents " + n + ", ids generated " + n), std::string::npos)
      << out.str();

  // Without --resume the records left refuse a new import; with it, every
  // document is stored exactly once.
  EXPECT_FALSE(resume(false)) << "an import over records left must not start";
  EXPECT_EQ(stored(), res.documents);
  EXPECT_TRUE(resume(true));
  EXPECT_EQ(stored(), 1000u);
  EXPECT_EQ(distinct_i(), 1000u);
}

// The server dies right after applying a COMMIT: its reply never comes. The
// batch's progress record, committed with it, is looked up on a new
// connection: the account is exact with the server's ids as with the
// connector's (issue 26, item 6).
TEST_F(ImportFault, CommitAppliedButItsReplyLost) {
  for (const auto mode : {mysqlx::DocIdMode::SERVER, mysqlx::DocIdMode::CLIENT}) {
    session->getSchema(schema).dropCollection(name);
    clear_records();
    auto o = opts("close_before_commit_ok");
    o.docid_mode = mode;
    std::ostringstream out, err;
    const auto res = mysqlx_import::run_import(o, out, err);
    EXPECT_FALSE(res.ok);
    EXPECT_EQ(res.documents, 100u);
    EXPECT_EQ(res.uncertain_documents, 0u);
    EXPECT_EQ(res.stored_prefix, 100u);
    EXPECT_EQ(stored(), 100u);
    const std::string e = err.str();
    EXPECT_NE(e.find("its progress record, looked up on a new connection, tells what was stored"),
              std::string::npos)
        << e;
    EXPECT_EQ(e.find("may or may not be stored"), std::string::npos) << e;
    EXPECT_TRUE(resume(true));
    EXPECT_EQ(stored(), 1000u);
    EXPECT_EQ(distinct_i(), 1000u);
  }
}

// The COMMIT is applied, then answered with an error (xserverd's 2013 when
// its MariaDB dies meanwhile): the range is in doubt, not lost; its record
// says it is stored, and the count is exact.
TEST_F(ImportFault, CommitAppliedButAnsweredWithAnError) {
  std::ostringstream out, err;
  const auto res = mysqlx_import::run_import(opts("error_after_commit"), out, err);
  EXPECT_FALSE(res.ok);
  EXPECT_EQ(res.documents, 100u);
  EXPECT_EQ(res.uncertain_documents, 0u);
  EXPECT_EQ(stored(), 100u);
  EXPECT_NE(err.str().find("(error 2013)"), std::string::npos) << err.str();
  EXPECT_TRUE(resume(true));
  EXPECT_EQ(stored(), 1000u);
  EXPECT_EQ(distinct_i(), 1000u);
}

// The server applies an Insert inside the batch's transaction and closes
// before answering: the transaction was never committed, so nothing of the
// batch is stored, and the tool knows it without asking.
TEST_F(ImportFault, InsertAppliedButNotCommitted) {
  std::ostringstream out, err;
  const auto res = mysqlx_import::run_import(opts("close_before_insert_ok"), out, err);
  EXPECT_FALSE(res.ok);
  EXPECT_EQ(res.documents, 0u);
  EXPECT_EQ(res.uncertain_documents, 0u);
  EXPECT_EQ(stored(), 0u);
  EXPECT_TRUE(resume(true));
  EXPECT_EQ(stored(), 1000u);
}

// Every session loses its connection after a COMMIT at a different batch
// (-j 4): resuming stores each document exactly once.
TEST_F(ImportFault, ParallelSessionsDieAtDifferentBatches) {
  auto o = opts("", 0);
  o.parallel = 4;
  o.on_session = [](mysqlx::Session& s, unsigned worker) {
    // START, Insert, the record's INSERT, COMMIT: 4 messages a batch.
    mysqlx::detail::inject_server_fault(s, "close_after_messages", "count", 4 * (worker + 1) + 3);
  };
  std::ostringstream out, err;
  const auto res = mysqlx_import::run_import(o, out, err);
  EXPECT_FALSE(res.ok);
  EXPECT_EQ(stored(), res.documents);
  EXPECT_TRUE(resume(true));
  EXPECT_EQ(stored(), 1000u);
  EXPECT_EQ(distinct_i(), 1000u);
}

} // namespace
