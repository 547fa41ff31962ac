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
#include <vector>

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

// Issue 33, item 3: an input missing when the import starts is the same
// input once it exists, so that --resume finds the job it advised.
TEST(ImportProgress, JobDoesNotChangeWhenAMissingFileAppears) {
  char dir[] = "/tmp/import_progress_XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string file = std::string(dir) + "/b.jsonl";
  char cwd[4096];
  ASSERT_NE(::getcwd(cwd, sizeof cwd), nullptr);
  ASSERT_EQ(::chdir(dir), 0);
  const progress_log missing("s", "c", {"b.jsonl"});
  std::ofstream(file) << "{}\n";
  const progress_log present("s", "c", {"b.jsonl"});
  ASSERT_EQ(::chdir(cwd), 0);
  EXPECT_EQ(missing.job(), present.job());
  EXPECT_EQ(missing.source(), present.source());
  EXPECT_EQ(present.job(), progress_log("s", "c", {file}).job());
  std::remove(file.c_str());
  ::rmdir(dir);
}

// Whether `s` is valid UTF-8 (what a utf8mb4 column takes).
bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
    i += n;
  }
  return true;
}

std::size_t characters(const std::string& s) {
  std::size_t n = 0;
  for (const unsigned char c : s) n += (c >> 6) != 2 ? 1 : 0;
  return n;
}

// Issue 33, item 4: the record's `source` names the inputs for people
// reading the table; any file name must fit it (a utf8mb4 VARCHAR(1024)):
// bytes that are not UTF-8 are escaped, and a long list is cut between two
// characters, never inside one.
TEST(ImportProgress, SourceTakesAnyFileName) {
  const progress_log latin1("s", "c", {"/data/caf\xe9.jsonl"});
  EXPECT_EQ(latin1.source(), "s.c <- /data/caf\\xe9.jsonl");
  EXPECT_TRUE(valid_utf8(latin1.source()));
  const progress_log utf8("s", "c", {"/data/caf\xc3\xa9\\.jsonl"});
  EXPECT_EQ(utf8.source(), "s.c <- /data/caf\xc3\xa9\\\\.jsonl"); // a backslash is doubled
  EXPECT_NE(latin1.job(), utf8.job());

  std::vector<std::string> many;
  for (int i = 0; i < 300; ++i) many.push_back("/d/\xc3\xa9t\xc3\xa9-" + std::to_string(i));
  const progress_log list("s", "c", many);
  EXPECT_TRUE(valid_utf8(list.source()));
  EXPECT_LE(characters(list.source()), 1024u);
  EXPECT_GE(characters(list.source()), 1000u);
  EXPECT_EQ(list.source().substr(list.source().size() - 3), "...");
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
