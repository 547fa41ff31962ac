// The pieces of mysqlx-import's exactly-once resume that need no server: the
// job key, the digest of a recorded range, which errors are an entry's (and
// so bisected), and how a batch names its entries.
#include "batch.h"
#include "batch_store.h"
#include "progress_log.h"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>

namespace {

using mysqlx_import::progress_log;

TEST(ImportProgress, JobIsTheSameFromAnyDirectory) {
  char dir[] = "/tmp/import_progress_XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string file = std::string(dir) + "/in.jsonl";
  std::ofstream(file) << "{}\n";
  char cwd[4096];
  ASSERT_NE(::getcwd(cwd, sizeof cwd), nullptr);
  const progress_log absolute("s", "c", {file});
  ASSERT_EQ(::chdir(dir), 0);
  const progress_log relative("s", "c", {"in.jsonl"});
  ASSERT_EQ(::chdir(cwd), 0);
  EXPECT_EQ(absolute.job(), relative.job());
  EXPECT_EQ(absolute.job().size(), 16u);
  EXPECT_EQ(absolute.source(), "s.c <- " + file);
  // Another collection, schema, input list or order is another job.
  EXPECT_NE(progress_log("s", "d", {file}).job(), absolute.job());
  EXPECT_NE(progress_log("t", "c", {file}).job(), absolute.job());
  EXPECT_NE(progress_log("s", "c", {file, "-"}).job(), absolute.job());
  EXPECT_NE(progress_log("s", "c", {"-", file}).job(), progress_log("s", "c", {file, "-"}).job());
  // Names are separated, not glued: ("ab","c") is not ("a","bc").
  EXPECT_NE(progress_log("ab", "c", {"-"}).job(), progress_log("a", "bc", {"-"}).job());
  std::remove(file.c_str());
  ::rmdir(dir);
}

TEST(ImportProgress, DigestTellsEndsApart) {
  const std::string d = progress_log::digest("{\"n\":1}", "{\"n\":9}");
  EXPECT_EQ(d.size(), 16u);
  EXPECT_EQ(d, progress_log::digest("{\"n\":1}", "{\"n\":9}"));
  EXPECT_NE(d, progress_log::digest("{\"n\":9}", "{\"n\":1}")); // order counts
  EXPECT_NE(d, progress_log::digest("{\"n\":2}", "{\"n\":9}")); // shifted by one entry
  EXPECT_NE(d, progress_log::digest("{\"n\":1}", "{\"n\":10}"));
  EXPECT_NE(progress_log::digest("ab", "c"), progress_log::digest("a", "bc"));
}

mysqlx::Error server(std::uint32_t code) {
  return mysqlx::ServerError(code, "HY000", "error " + std::to_string(code));
}

TEST(ImportProgress, EntryErrorsAreTheRowsNotTheSession) {
  using mysqlx_import::refuses_an_entry;
  // A document's own fault: its batch is bisected to find it.
  for (std::uint32_t code : {1062u, 1406u, 3140u, 3157u, 3819u, 5116u, 5180u, 4025u, 4035u, 4038u})
    EXPECT_TRUE(refuses_an_entry(server(code))) << code;
  EXPECT_TRUE(refuses_an_entry(mysqlx::ClientError(mysqlx::errc::BAD_DOCUMENT, "Document 3 ...")));
  EXPECT_TRUE(refuses_an_entry(mysqlx::ClientError(2020, "larger than the server takes")));
  // The statement, the session or the server: bisecting would only blame
  // the first entry.
  for (std::uint32_t code : {1142u, 1146u, 1205u, 1213u, 1290u, 1317u, 3024u})
    EXPECT_FALSE(refuses_an_entry(server(code))) << code;
  EXPECT_FALSE(refuses_an_entry(mysqlx::ConnectionError(2013, "lost")));
  EXPECT_FALSE(refuses_an_entry(mysqlx::ClientError(mysqlx::errc::USAGE, "misuse")));
}

TEST(ImportProgress, BatchNamesItsEntriesAcrossInputs) {
  mysqlx_import::batch b;
  b.docs = {"{}", "{}", "{}"};
  b.lines = {7, 9, 1};
  b.files = {{0, "a.jsonl"}, {2, "b.jsonl"}};
  EXPECT_EQ(mysqlx_import::where(b.at(1)), "a.jsonl:9");
  EXPECT_EQ(mysqlx_import::where(b.at(2)), "b.jsonl:1");
  EXPECT_EQ(b.range(), "a.jsonl:7 to b.jsonl:1");
  b.docs.resize(2);
  EXPECT_EQ(b.range(), "a.jsonl:7-9");
  EXPECT_EQ(mysqlx_import::count(1, "entry", "entries"), "1 entry");
  EXPECT_EQ(mysqlx_import::count(2, "entry", "entries"), "2 entries");
  EXPECT_EQ(mysqlx_import::quoted("a\"b\n"), "\"a\\\"b\\u000a\"");
}

} // namespace
