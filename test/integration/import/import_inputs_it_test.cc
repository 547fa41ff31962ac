// mysqlx-import against the xserver80 fixture, issue 33: what it does with
// its files and descriptors (--rejects never truncates an input and keeps
// its earlier entries on --resume, a write error on it stops the import, a
// missing input, names that are not UTF-8, closed standard descriptors, an
// endless line and a signal) and what its messages say about the input
// (NUL bytes, UTF-16, raw bytes escaped).
#include "import_fixture.h"

#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>
#include <mysqlx/xdevapi.h>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using namespace import_test;

// A string literal's bytes, NULs included.
template <std::size_t N> std::string bytes(const char (&text)[N]) {
  return std::string(text, N - 1);
}

class ImportInputs : public import_fixture {
protected:
  void SetUp() override {
    import_fixture::SetUp();
    if (!HasFatalFailure()) fresh();
  }
  // The tool run by a shell, `redirections` as given (a closed descriptor,
  // say); its output and errors in tmp's "out" and "err" unless redirected.
  run_result run_shell(const std::string& args, const std::string& redirections,
                       const std::string& timeout = "timeout -s KILL 60") {
    return import_test::run_shell(tmp, args, redirections, timeout);
  }
  std::string outputs() const { return " >'" + tmp.path("out") + "' 2>'" + tmp.path("err") + "'"; }
};

const char* const three_lines = "{\"n\":1}\n[\"bad\"]\n{\"n\":3}\n";

// Item 1: `--rejects data.jsonl </dev/null` (the rejects name forgotten)
// emptied data.jsonl, and `--rejects in.jsonl in.jsonl` emptied the input.
TEST_F(ImportInputs, RejectsNeverTruncatesAnInput) {
  const std::string data = tmp.file("data.jsonl", three_lines);
  run_result r = run_tool(tmp, target() + " --skip-invalid --rejects " + data);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(data), three_lines) << "a file nothing was written to was truncated";

  // The input itself, by its name, by a hard link, as standard input, or as
  // the .reasons file: refused before anything is stored.
  const std::string link = tmp.path("alias.rej");
  ASSERT_EQ(::link(data.c_str(), link.c_str()), 0);
  const std::string reasons_input = tmp.file("r.reasons", three_lines);
  const struct {
    std::string args, in, named;
  } cases[] = {{"--rejects " + data + " " + data, "/dev/null", data},
               {"--rejects " + link + " " + data, "/dev/null", data},
               {"--rejects " + data + " -", data, "standard input"},
               {"--rejects " + tmp.path("r") + " " + reasons_input, "/dev/null", reasons_input}};
  for (const auto& c : cases) {
    r = run_tool(tmp, target() + " --skip-invalid " + c.args, c.in);
    EXPECT_EQ(r.status, 1) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find("is an input of the import (" + c.named + ")"), std::string::npos)
        << c.args << "\n"
        << r.err;
    EXPECT_EQ(read_file(data), three_lines) << c.args;
    EXPECT_EQ(read_file(reasons_input), three_lines) << c.args;
  }
  EXPECT_EQ(coll().count(), 0u);
}

// Item 1: a --resume appended to the rejects of the run it resumes, which
// it emptied before: the entries that run skipped were lost.
TEST_F(ImportInputs, RejectsKeepsTheEarlierEntriesOnResume) {
  // Not closed: the import stores the batch of elements 1-3 (the invalid
  // one written to the rejects), then stops at the end of the input.
  const std::string head = "[\n{\"n\":1},\n5,\n{\"n\":2},\n{\"n\":3}";
  const std::string file = tmp.file("a.json", head + "\n");
  const std::string rej = tmp.path("bad.rej");
  const std::string args =
      target() + " --json-array -b 2 --skip-invalid --rejects " + rej + " " + file;
  run_result r = run_tool(tmp, args);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(coll().count(), 2u);
  EXPECT_EQ(read_file(rej), "5\n");

  tmp.file("a.json", head + ",\n\"s\"\n]\n");
  r = run_tool(tmp, args + " --resume");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(coll().count(), 3u);
  EXPECT_EQ(read_file(rej), "5\n\"s\"\n");
  EXPECT_EQ(read_file(rej + ".reasons"), rej + ":1: " + file +
                                             ":3: not a JSON object (a number)\n" + rej +
                                             ":2: " + file + ":6: not a JSON object (a string)\n");
  EXPECT_NE(r.err.find("1 skipped entry written to " + rej + " after the 1 of earlier runs"),
            std::string::npos)
      << r.err;
}

// Item 1: an invalid entry between two batches belonged to no recorded
// range, so a --resume met it again and wrote it to --rejects twice.
TEST_F(ImportInputs, RejectsGetsAnEntryBetweenBatchesOnce) {
  // Batch 1 is elements 1-2; the invalid 5 comes before batch 2's first
  // document; the array does not close, so the import stops after batch 2.
  const std::string head = "[\n{\"n\":1},\n{\"n\":2},\n5,\n{\"n\":3},\n{\"n\":4},\n{\"n\":5}";
  const std::string file = tmp.file("a.json", head + "\n");
  const std::string rej = tmp.path("bad.rej");
  const std::string args =
      target() + " --json-array -b 2 --skip-invalid --rejects " + rej + " " + file;
  run_result r = run_tool(tmp, args);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(coll().count(), 4u);
  EXPECT_EQ(read_file(rej), "5\n");

  tmp.file("a.json", head + "\n]\n");
  r = run_tool(tmp, args + " --resume");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(coll().count(), 5u);
  EXPECT_EQ(read_file(rej), "5\n");
  EXPECT_EQ(read_file(rej + ".reasons"),
            rej + ":1: " + file + ":4: not a JSON object (a number)\n");
  EXPECT_NE(r.out.find(summary(1, 1, 0)), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("; resumed: 5 entries stored or skipped by earlier runs (4 documents)"),
            std::string::npos)
      << r.out;
}

// Item 6: `--rejects /dev/full` said "2 skipped entries written" and exited
// 0, and made /dev/full.reasons.
TEST_F(ImportInputs, RejectsWriteErrorStopsTheImport) {
  const std::string file = tmp.file("in.jsonl", "{\"n\":1}\n5\n{\"n\":3}\n6\n{\"n\":5}\n");
  std::remove("/dev/full.reasons");
  const run_result r = run_tool(tmp, target() + " --skip-invalid --rejects /dev/full " + file);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("--rejects /dev/full: cannot write: No space left on device"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("written to /dev/full"), std::string::npos) << r.err;
  // The batch with the skipped entries is not stored either: they are
  // written in its transaction, before its COMMIT, and --resume tries again.
  EXPECT_NE(r.err.find("stopped: 0 documents stored; the first 0 entries of the input are all"
                       " stored; once --rejects /dev/full can be written, run the same command"
                       " with --resume"),
            std::string::npos)
      << r.err;
  struct stat st {};
  EXPECT_NE(::stat("/dev/full.reasons", &st), 0) << "/dev/full.reasons was made";
  std::remove("/dev/full.reasons");
  EXPECT_EQ(coll().count(), 0u);
}

// Item 3: with b.jsonl missing, a.jsonl was stored and --resume advised;
// b.jsonl created, the --resume found no job (its key came from realpath(),
// which fails for a missing file) and stored a.jsonl again: 7, not 5. The
// advice "add --skip-invalid" does not skip a missing file.
TEST_F(ImportInputs, MissingInputThenResumeStoresEachEntryOnce) {
  const std::string a = tmp.file("a.jsonl", "{\"f\":\"a\"}\n{\"f\":\"a\"}\n");
  const std::string b = tmp.path("b.jsonl");
  const std::string c = tmp.file("c.jsonl", "{\"f\":\"c\"}\n{\"f\":\"c\"}\n");
  const std::string args = target() + " " + a + " " + b + " " + c;
  run_result r = run_tool(tmp, args);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find(b + ": cannot open: No such file or directory"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("--skip-invalid"), std::string::npos) << r.err;
  tmp.file("b.jsonl", "{\"f\":\"b\"}\n");
  r = run_tool(tmp, args + " --resume");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(coll().count(), 5u);

  // A directory is no input either, and --skip-invalid is no advice for it.
  session->getSchema(schema).dropCollection(coll_name);
  r = run_tool(tmp, target() + " --restart --skip-invalid " + a + " " + tmp.path(""));
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("is a directory"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("add --skip-invalid"), std::string::npos) << r.err;
}

// Item 4: a file name that is not UTF-8 failed the progress record (1366),
// and with --skip-invalid every entry was "skipped" and the import said
// every entry was stored; a long list of non-ASCII names was cut inside a
// character.
TEST_F(ImportInputs, AnyFileNameWorks) {
  const std::string latin1 = tmp.file("caf\xe9.jsonl", "{\"n\":1}\n{\"n\":2}\n");
  run_result r = run_tool(tmp, target() + " --skip-invalid " + latin1);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(summary(2, 2, 0)), std::string::npos) << r.out;
  EXPECT_EQ(coll().count(), 2u);

  session->getSchema(schema).dropCollection(coll_name);
  std::string files;
  for (int i = 0; i < 40; ++i)
    files += " " + tmp.file("\xc3\xa9t\xc3\xa9-\xc3\xa0-\xc3\xa9t\xc3\xa9-" + std::to_string(i),
                            "{\"n\":" + std::to_string(i) + "}\n");
  r = run_tool(tmp, target() + " --skip-invalid -b 7" + files);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(summary(40, 40, 0)), std::string::npos) << r.out;
  EXPECT_EQ(coll().count(), 40u);
}

// Item 4: a progress record the server refuses is the tool's own fault, not
// the entries': the import stops, it does not skip them.
TEST_F(ImportInputs, AFailedProgressRecordStopsTheImport) {
  const std::string own = "import_it_record";
  session->dropSchema(own);
  session->createSchema(own);
  // The table as the tool makes it, with a check that refuses every row
  // (MariaDB's 4025, which an entry's check constraint also gives).
  session
      ->sql("CREATE TABLE " + own +
            ".mysqlx_import_progress (job CHAR(16) NOT NULL, first_entry BIGINT UNSIGNED NOT NULL,"
            " end_entry BIGINT UNSIGNED NOT NULL, documents BIGINT UNSIGNED NOT NULL,"
            " digest CHAR(16) NOT NULL, source VARCHAR(1024) NOT NULL,"
            " stored_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),"
            " PRIMARY KEY (job, first_entry), CHECK (first_entry > 1000000)) ENGINE=InnoDB")
      .execute();
  const std::string file = tmp.file("in.jsonl", "{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n");
  const run_result r =
      run_tool(tmp, "-s " + own + " -c c --progress none --skip-invalid -b 2 " + file);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find(summary(0, 0, 0)), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("skipped"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("every entry is stored"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(error 4025)"), std::string::npos) << r.err;
  EXPECT_EQ(session->getSchema(own).getCollection("c").count(), 0u);
  session->dropSchema(own);
}

// Item 5: with standard input closed, the connection got descriptor 0 and
// the tool read its own connection as its input: it hung.
TEST_F(ImportInputs, ClosedStandardDescriptors) {
  run_result r = run_shell(target(), "<&-" + outputs());
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("standard input is closed"), std::string::npos) << r.err;

  const std::string file = tmp.file("in.jsonl", "{\"n\":1}\n{\"n\":2}\n");
  r = run_shell(target() + " " + file, "<&-" + outputs());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(coll().count(), 2u);
  // Standard output closed: the summary does not go down the connection.
  session->getSchema(schema).dropCollection(coll_name);
  r = run_shell(target() + " " + file, "</dev/null >&- 2>'" + tmp.path("err") + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(coll().count(), 2u);
}

// Item 7: reading /dev/zero (one endless line) ignored SIGINT: the flag
// its handler sets was looked at only when a read() was interrupted.
TEST_F(ImportInputs, SigintStopsAnEndlessLine) {
  // SIGINT after 2 s; its exit status kept (--preserve-status).
  const run_result r =
      run_shell(target() + " --max-document-size 1000 /dev/zero", "</dev/null" + outputs(),
                "timeout -s KILL 60 timeout --preserve-status -s INT 2");
  EXPECT_EQ(r.status, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted (SIGINT)"), std::string::npos) << r.err;
}

// Item 11: a NUL byte is named with its offset; raw bytes of the input are
// escaped in messages; UTF-16 is named.
TEST_F(ImportInputs, MessagesNameNulBytesAndEncodings) {
  const std::string nul = tmp.file("nul.jsonl", bytes("{\"n\":1}\n{\"a\":\"x\0y\"}\n"));
  run_result r = run_tool(tmp, target() + " " + nul);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find(nul + ":2: not valid JSON: a NUL byte at offset 7"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find('\0'), std::string::npos);

  const std::string ff = tmp.file("ff.json", "\xff[{\"n\":1}]\n");
  r = run_tool(tmp, target() + " --json-array " + ff);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("the input begins with '\\xff'"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\xff'), std::string::npos) << r.err;

  const std::string utf16 = tmp.file("u16.jsonl", bytes("\xff\xfe{\0\"\0n\0\"\0:\0"
                                                        "1\0}\0\n\0"));
  r = run_tool(tmp, target() + " --skip-invalid " + utf16);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find(utf16 + ":1: the input is UTF-16LE (byte order mark FF FE);"
                               " mysqlx-import reads UTF-8"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("add --skip-invalid"), std::string::npos) << r.err;
}

// Item 11: -j above 256 was capped without a word.
TEST(ImportInputsCommandLine, ParallelAbove256IsRefused) {
  scratch tmp;
  run_result r = run_tool(tmp, "-c x -j 257");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--parallel (-j) takes at most 256 sessions, not 257"), std::string::npos)
      << r.err;
  r = run_tool(tmp, "--help");
  for (const char* said :
       {"counted from 1", "appends", "the later entry of the input wins", "--max-document-size"})
    EXPECT_NE(r.out.find(said), std::string::npos) << said;
}

} // namespace
