// mysqlx-import against the xserver80 fixture: what a user sees (exit status,
// messages naming file and line, the summary) and what the collection holds.
#include "import_fixture.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <mysqlx/xdevapi.h>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using namespace import_test;

class Import : public import_fixture {
protected:
  void SetUp() override {
    import_fixture::SetUp();
    if (!HasFatalFailure()) fresh();
  }
};

const char* const mixed_lines = "{\"n\":1}\n"
                                "\n"
                                "   \n"
                                "{\"n\":2}\r\n"
                                "[\"not\",\"an object\"]\n"
                                "{\"n\":3}\n"
                                "{\"n\": 4,\n"
                                "{\"n\":5}\n";

TEST_F(Import, StopsAtTheFirstInvalidLineAndSaysWhereAndHowToResume) {
  const std::string file = tmp.file("mixed.jsonl", mixed_lines);
  const run_result r = run_tool(tmp, target() + " -b 1 " + file);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find(file + ":5: not a JSON object (an array)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("stopped at " + file +
                       ":5: 2 documents stored before it; the first 2 entries of the input are"
                       " all stored; fix that entry in place (keeping its line) and run the same"
                       " command with --resume to store exactly the rest, or add --skip-invalid"
                       " to skip it\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find(summary(2, 2, 0)), std::string::npos) << r.out;
  EXPECT_EQ(coll().count(), 2u);

  // Resuming as it said, with --skip-invalid: nothing twice, nothing lost.
  const run_result again = run_tool(tmp, target() + " --resume --skip-invalid " + file);
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.err.find(file + ":5: skipped: not a JSON object"), std::string::npos)
      << again.err;
  EXPECT_NE(again.err.find(file + ":7: skipped: not valid JSON"), std::string::npos) << again.err;
  EXPECT_NE(again.out.find(summary(2, 2, 2)), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("; resumed: 2 entries stored or skipped by earlier runs (2 documents)"),
            std::string::npos)
      << again.out;
  EXPECT_EQ(coll().count(), 4u);
  EXPECT_EQ(coll().find("n = 3 or n = 5").execute().count(), 2u);
}

TEST_F(Import, TheUrisSchemaIsCreatedWhenMissingAsSchemaIs) {
  // The server refuses a connection to a schema that does not exist (1049);
  // --help promises the URI's schema is created as --schema's is.
  const std::string fresh = "import_it_uri_schema";
  session->dropSchema(fresh);
  const std::string base = uri();
  const auto q = base.find('?');
  const std::string with_schema = q == std::string::npos
                                      ? base + "/" + fresh
                                      : base.substr(0, q) + "/" + fresh + base.substr(q);
  const std::string file = tmp.file("two.jsonl", "{\"n\":1}\n{\"n\":2}\n");
  const run_result r =
      run_tool(tmp, "-u '" + with_schema + "' -c " + coll_name + " --progress none " + file);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(session->getSchema(fresh).getCollection(coll_name).count(), 2u);
  session->dropSchema(fresh);
}

TEST_F(Import, SkipInvalidImportsEveryValidLine) {
  const std::string file = tmp.file("mixed.jsonl", mixed_lines);
  const run_result r = run_tool(tmp, target() + " --skip-invalid " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(summary(4, 4, 2)), std::string::npos) << r.out;
  EXPECT_EQ(coll().count(), 4u);
}

TEST_F(Import, StandardInputAsOneJsonArray) {
  std::string array = "[\n";
  for (int i = 0; i < 2500; ++i)
    array += std::string(i ? ",\n" : "") + "{\"i\":" + std::to_string(i) + ",\"s\":\"a,]}[\\\"\"}";
  array += "\n]\n";
  const std::string in = tmp.file("docs.json", array);
  const run_result r = run_tool(tmp, target() + " --json-array -b 1000", in);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(summary(2500, 2500, 0)), std::string::npos) << r.out;
  EXPECT_EQ(coll().count(), 2500u);
  const mysqlx::DbDoc d = coll().find("i = 2499").execute().fetchOne();
  EXPECT_EQ(d["s"].get<std::string>(), "a,]}[\"");
}

// Issue 26: the format is the user's word. JSON lines whose first line is an
// array used to be read as one array: with --skip-invalid it exited 0 having
// stored 0 of 20 documents.
TEST_F(Import, JsonLinesWhoseFirstLineIsAnArrayStayJsonLines) {
  std::string lines = "[{\"i\":-2},{\"i\":-1}]\n";
  for (int i = 0; i < 19; ++i) lines += "{\"i\":" + std::to_string(i) + "}\n";
  const std::string file = tmp.file("first-array.jsonl", lines);
  run_result r = run_tool(tmp, target() + " --skip-invalid " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(file + ":1: skipped: not a JSON object (an array) (an input that is one"
                              " JSON array of documents needs --json-array)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find(summary(19, 19, 1)), std::string::npos) << r.out;
  EXPECT_EQ(coll().count(), 19u);

  // Said to be one array, it is not one: the array closes at the end of line
  // 1, not at the end of the input. A clear stop, even with --skip-invalid,
  // and line 1's elements are not stored either.
  session->getSchema(schema).dropCollection(coll_name);
  r = run_tool(tmp, target() + " --json-array --skip-invalid " + file);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find(file + ":2: text after the closing ']' (line 1) of the top-level array that"
                              " begins on line 1: the input is not one JSON array (JSON lines are"
                              " read without --json-array)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find(summary(0, 0, 0)), std::string::npos) << r.out;
  EXPECT_EQ(coll().count(), 0u);
}

TEST_F(Import, JsonArrayThatIsNotAnArrayIsAClearError) {
  const std::string file = tmp.file("obj.json", "\n{\"a\":1}\n");
  run_result r = run_tool(tmp, target() + " --json-array --skip-invalid " + file);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find(file + ":2: --json-array: the input begins with '{', not '['"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("stopped at " + file + ":2: 0 documents stored before it"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("--skip-invalid"), std::string::npos) << r.err; // it cannot help
  EXPECT_EQ(coll().count(), 0u);

  // A pretty-printed array without the flag: its first line is named, with the hint.
  const std::string array = tmp.file("pretty.json", "[\n  {\"a\":1},\n  {\"a\":2}\n]\n");
  r = run_tool(tmp, target() + " " + array);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find(array + ":1: not a JSON object (an array) (an input that is one JSON array"
                               " of documents needs --json-array)"),
            std::string::npos)
      << r.err;
  r = run_tool(tmp, target() + " --json-array " + array);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(coll().count(), 2u);
}

// Issue 26: a duplicate _id is named by its file, line and id, whether it
// repeats an earlier line of the same batch or one already stored. The batch
// is split until that entry is found: every other entry before it is stored,
// nothing is stored twice.
TEST_F(Import, DuplicateIdIsNamedByLineAndId) {
  std::string lines;
  for (int i = 1; i <= 120; ++i)
    lines += "{\"_id\":\"id-" + std::to_string(i == 58 ? 12 : i) + "\",\"n\":" + std::to_string(i) +
             "}\n";
  const std::string dup = tmp.file("dup.jsonl", lines);
  run_result r = run_tool(tmp, target() + " -b 1000 " + dup);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find(dup + ":58: duplicate _id \"id-12\", the same _id as " + dup +
                       ":12 (error 5116)\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(
      r.err.find("stopped: 57 documents stored; the first 57 entries of the input are all"
                 " stored; fix that entry in place (keeping its line) and run the same"
                 " command with --resume to store exactly the rest, or add --skip-invalid"
                 " to skip it, or --replace or --patch to replace or patch the stored document\n"),
      std::string::npos)
      << r.err;
  EXPECT_EQ(coll().count(), 57u);

  // Resumed with --skip-invalid: line 58 is reported and skipped, lines
  // 59-120 stored, lines 1-57 not again.
  r = run_tool(tmp, target() + " --resume --skip-invalid " + dup);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(dup + ":58: skipped: duplicate _id \"id-12\": a document with this _id is"
                             " already stored (error 5116)\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find(summary(62, 0, 1)), std::string::npos) << r.out;
  EXPECT_EQ(coll().count(), 119u);
  EXPECT_EQ(coll().getOne("id-12")["n"].get<int>(), 12);
}

// Issue 26, item 2: entries the server refuses (a lone surrogate escape, an
// _id longer than the server keeps, nesting deeper than the library takes)
// are found inside their batch, reported with file, line, _id and the
// server's error, and skipped with --skip-invalid; every other entry of the
// batch is stored. --rejects writes them as they were, with their reasons.
TEST_F(Import, RefusedEntriesAreFoundInTheirBatchAndSkipped) {
  std::string lines;
  for (int i = 1; i <= 300; ++i) {
    if (i == 17)
      lines += "{\"s\":\"\\udc00\"}\n";
    else if (i == 150)
      lines += "{\"_id\":\"" + std::string(36, 'x') + "\",\"n\":150}\n";
    else if (i == 151)
      lines += "{\"d\":" + std::string(120, '[') + std::string(120, ']') + "}\n";
    else
      lines += "{\"n\":" + std::to_string(i) + "}\n";
  }
  const std::string file = tmp.file("refused.jsonl", lines);
  const std::string rej = tmp.path("rejects.jsonl");
  const run_result r =
      run_tool(tmp, target() + " -b 1000 --skip-invalid --rejects " + rej + " " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(file + ":17: skipped: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(file + ":150: skipped: _id \"" + std::string(36, 'x') + "\": "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(file + ":151: skipped: the document cannot be stored: JSON nesting deeper"
                              " than 100"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find(summary(297, 297, 3)), std::string::npos) << r.out;
  EXPECT_EQ(coll().count(), 297u);
  EXPECT_EQ(coll().find("n = 16 or n = 18 or n = 149 or n = 152").execute().count(), 4u);

  const std::string rejected = read_file(rej);
  EXPECT_EQ(rejected, "{\"s\":\"\\udc00\"}\n{\"_id\":\"" + std::string(36, 'x') +
                          "\",\"n\":150}\n{\"d\":" + std::string(120, '[') + std::string(120, ']') +
                          "}\n");
  const std::string reasons = read_file(rej + ".reasons");
  EXPECT_EQ(reasons.find(rej + ":1: " + file + ":17: "), 0u) << reasons;
  EXPECT_NE(reasons.find("\n" + rej + ":2: " + file + ":150: _id"), std::string::npos) << reasons;
  EXPECT_NE(reasons.find("\n" + rej + ":3: " + file + ":151: "), std::string::npos) << reasons;
  EXPECT_NE(r.err.find("3 skipped entries written to " + rej), std::string::npos) << r.err;

  // Without --skip-invalid the import stops at the first, the 16 before it
  // stored.
  session->getSchema(schema).dropCollection(coll_name);
  const run_result stop = run_tool(tmp, target() + " --restart -b 1000 " + file);
  EXPECT_EQ(stop.status, 1) << stop.err;
  EXPECT_NE(stop.err.find("stopped: 16 documents stored; the first 16 entries"), std::string::npos)
      << stop.err;
  EXPECT_EQ(coll().count(), 16u);
}

// Issue 26: --replace said "documents 120" where 119 exist: line 58 replaced
// line 12's document (same _id). It now says what it added and replaced.
TEST_F(Import, ReplaceSaysWhatItAddedAndWhatItReplaced) {
  std::string lines;
  for (int i = 1; i <= 120; ++i)
    lines += "{\"_id\":\"id-" + std::to_string(i == 58 ? 12 : i) + "\",\"n\":" + std::to_string(i) +
             "}\n";
  const std::string dup = tmp.file("dup.jsonl", lines);
  run_result r = run_tool(tmp, target() + " --replace " + dup);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("documents 120 (added 119, replaced 1), ids generated 0,"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(coll().count(), 119u);
  EXPECT_EQ(coll().getOne("id-12")["n"].get<int>(), 58);

  // Again, the same documents: every one replaces its own (unchanged) one.
  r = run_tool(tmp, target() + " --replace -b 7 " + dup);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("documents 120 (added 0, replaced 120)"), std::string::npos) << r.out;
  EXPECT_EQ(coll().count(), 119u);
}

// Issue 26: --resume needs the input it resumes. A line removed since the
// stopped run shifts every entry after it: the recorded ranges no longer
// match, and nothing is stored (a file is checked whole before anything is
// sent; a pipe as it is read).
TEST_F(Import, ResumeRefusesAChangedInput) {
  std::string lines;
  for (int i = 1; i <= 40; ++i)
    lines += "{\"_id\":\"id-" + std::to_string(i == 25 ? 3 : i) + "\",\"n\":" + std::to_string(i) +
             "}\n";
  const std::string file = tmp.file("shift.jsonl", lines);
  run_result r = run_tool(tmp, target() + " -b 10 " + file);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(coll().count(), 24u);

  // Line 5 removed: entry 10 (the last of the first range) is now line 11.
  std::string shifted;
  for (int i = 1; i <= 40; ++i)
    if (i != 5)
      shifted += "{\"_id\":\"id-" + std::to_string(i == 25 ? 3 : i) +
                 "\",\"n\":" + std::to_string(i) + "}\n";
  tmp.file("shift.jsonl", shifted);
  r = run_tool(tmp, target() + " --resume --skip-invalid -b 10 " + file);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find(file + ":10: not the entry the import being resumed stored here: the input"
                              " changed since"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(coll().count(), 24u);

  // The input restored, --resume finishes the job.
  tmp.file("shift.jsonl", lines);
  r = run_tool(tmp, target() + " --resume --skip-invalid -b 10 " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(coll().count(), 39u);

  // Standard input (its own job) is checked as it is read: the import
  // stops at the first entry that differs.
  session->getSchema(schema).dropCollection(coll_name);
  const std::string original = tmp.file("original.jsonl", lines);
  r = run_tool(tmp, target() + " -b 10 -", original);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(coll().count(), 24u);
  r = run_tool(tmp, target() + " --resume --skip-invalid -b 10 -", tmp.file("s2.jsonl", shifted));
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("<stdin>:10: not the entry the import being resumed stored here"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(coll().count(), 24u);
}

// Issue 26: --patch merges a document into the stored one with its _id (a
// JSON merge patch: members replaced or added, null removes one), adds it
// when none is stored, and says how many of each.
TEST_F(Import, PatchMergesIntoTheStoredDocument) {
  const std::string first =
      tmp.file("first.jsonl", "{\"_id\":\"a\",\"x\":1,\"y\":{\"p\":1,\"q\":2}}\n"
                              "{\"_id\":\"b\",\"x\":2}\n");
  ASSERT_EQ(run_tool(tmp, target() + " " + first).status, 0);
  const std::string patch = tmp.file(
      "patch.jsonl", "{\"_id\":\"a\",\"y\":{\"q\":null,\"r\":3},\"z\":true}\n"
                     "{\"_id\":\"c\",\"x\":3}\n{\"n\":9}\n{\"_id\":\"b\",\"x\":2}\n{\"_id\":7}\n");
  run_result r = run_tool(tmp, target() + " --patch --skip-invalid -b 2 " + patch);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("documents 4 (added 2, patched 2), ids generated 1, invalid entries"
                       " skipped 1,"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.err.find(patch + ":5: skipped: --patch needs a string _id"), std::string::npos)
      << r.err;
  EXPECT_EQ(coll().count(), 4u);
  const mysqlx::DbDoc a = coll().getOne("a");
  EXPECT_EQ(a["x"].get<int>(), 1);
  EXPECT_TRUE(a["z"].get<bool>());
  EXPECT_EQ(a["y"]["p"].get<int>(), 1);
  EXPECT_EQ(a["y"]["r"].get<int>(), 3);
  EXPECT_FALSE(a["y"].hasField("q"));
  EXPECT_EQ(coll().getOne("c")["x"].get<int>(), 3);
  EXPECT_EQ(coll().getOne("b")["x"].get<int>(), 2);

  r = run_tool(tmp, target() + " --patch --replace " + patch);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--replace and --patch exclude each other"), std::string::npos) << r.err;
}

// Issue 26: entries are counted from 1 everywhere. The library names a
// document it refuses by its place in the add() ("Document 11", counted
// from 1 too); the tool names it by its file and line instead.
TEST_F(Import, LibraryRefusalIsNamedByLine) {
  std::string lines;
  for (int i = 1; i <= 12; ++i) {
    if (i == 11)
      lines += "{\"deep\":" + std::string(120, '[') + std::string(120, ']') + "}\n";
    else
      lines += "{\"n\":" + std::to_string(i) + "}\n";
  }
  const std::string file = tmp.file("deep.jsonl", lines);
  const run_result r = run_tool(tmp, target() + " " + file);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find(file + ":11: the document cannot be stored: JSON nesting deeper than 100"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("Document 11"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("Document 1 "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("stopped: 10 documents stored; the first 10 entries of the input are all"
                       " stored; fix that entry in place (keeping its line) and run the same"
                       " command with --resume to store exactly the rest, or add --skip-invalid"
                       " to skip it\n"),
            std::string::npos)
      << r.err; // --replace would not help it
  EXPECT_EQ(coll().count(), 10u);
}

TEST_F(Import, TwoTopLevelIdsAreNamedByLine) {
  const std::string file =
      tmp.file("two.jsonl", "{\"n\":1}\n{\"_id\":\"a\",\"_id\":\"b\"}\n{\"n\":3}\n");
  const run_result r = run_tool(tmp, target() + " --skip-invalid " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(file + ":2: skipped: more than one top-level _id"), std::string::npos)
      << r.err;
  EXPECT_EQ(coll().count(), 2u);
}

TEST_F(Import, SeveralFilesAndDash) {
  const std::string a = tmp.file("a.jsonl", "{\"f\":\"a\"}\n{\"f\":\"a\"}\n");
  const std::string b = tmp.file("b.jsonl", "{\"f\":\"b\"}");
  const std::string in = tmp.file("in.jsonl", "{\"f\":\"stdin\"}\n");
  const run_result r = run_tool(tmp, target() + " " + a + " - " + b, in);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(coll().count(), 4u);
  EXPECT_EQ(coll().find("f = 'stdin'").execute().count(), 1u);
  EXPECT_EQ(coll().find("f = 'b'").execute().count(), 1u);
}

TEST_F(Import, DocumentsWithTheirOwnIdKeepIt) {
  const std::string file = tmp.file(
      "ids.jsonl", "{\"_id\":\"own-1\",\"v\":1}\n{\"v\":2}\n{\"_id\":\"own-2\",\"v\":3}\n");
  run_result r = run_tool(tmp, target() + " " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(summary(3, 1, 0)), std::string::npos) << r.out;
  EXPECT_EQ(coll().getOne("own-1")["v"].get<int>(), 1);
  EXPECT_EQ(coll().getOne("own-2")["v"].get<int>(), 3);

  // Again: the same ids are duplicates, and the batch (atomic) stores nothing.
  r = run_tool(tmp, target() + " " + file);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("error 5116"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("0 documents stored"), std::string::npos) << r.err;
  EXPECT_EQ(coll().count(), 3u);

  // --replace: by id, so importing the file again is safe.
  const std::string changed =
      tmp.file("ids2.jsonl", "{\"_id\":\"own-1\",\"v\":10}\n{\"_id\":\"own-3\",\"v\":30}\n");
  r = run_tool(tmp, target() + " --replace " + changed);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("documents 2 (added 1, replaced 1), ids generated 0, "), std::string::npos)
      << r.out;
  EXPECT_EQ(coll().getOne("own-1")["v"].get<int>(), 10);
  EXPECT_EQ(coll().getOne("own-3")["v"].get<int>(), 30);
  EXPECT_EQ(coll().count(), 4u);
}

TEST_F(Import, TenMegabyteDocument) {
  const std::string big(10u << 20, 'x');
  const std::string file =
      tmp.file("big.jsonl", "{\"n\":1}\n{\"_id\":\"big\",\"blob\":\"" + big + "\"}\n{\"n\":3}\n");
  const run_result r = run_tool(tmp, target() + " " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(summary(3, 2, 0)), std::string::npos) << r.out;
  EXPECT_EQ(coll().getOne("big")["blob"].get<std::string>().size(), big.size());
  EXPECT_EQ(coll().count(), 3u);

  // Above --max-document-size it is an invalid entry like any other.
  const run_result small = run_tool(tmp, target() + " --max-document-size 1000000 " + file);
  EXPECT_EQ(small.status, 1);
  EXPECT_NE(small.err.find(file + ":2: the document is larger than 1000000 bytes"),
            std::string::npos)
      << small.err;
}

TEST_F(Import, ParallelSessionsStoreEveryDocumentOnce) {
  std::string lines;
  for (int i = 0; i < 20000; ++i) lines += "{\"i\":" + std::to_string(i) + "}\n";
  const std::string file = tmp.file("many.jsonl", lines);
  const run_result r = run_tool(tmp, target() + " -j 4 -b 250 " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(summary(20000, 20000, 0)), std::string::npos) << r.out;
  EXPECT_EQ(coll().count(), 20000u);
  // Every input document is there exactly once.
  mysqlx::DocResult all = coll().find().fields("i").execute();
  std::set<int> seen;
  while (mysqlx::DbDoc d = all.fetchOne()) seen.insert(d["i"].get<int>());
  EXPECT_EQ(seen.size(), 20000u);
}

TEST_F(Import, ClientIdsWhenAsked) {
  const std::string file = tmp.file("c.jsonl", "{\"n\":1}\n");
  const run_result r = run_tool(tmp, target() + " --docid-mode client " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  mysqlx::DbDoc d = coll().find().execute().fetchOne();
  EXPECT_EQ(d["_id"].get<std::string>().size(), 32u); // a UUIDv7 made by the connector
}

TEST_F(Import, ProgressLinesWhenNotATerminal) {
  std::string lines;
  for (int i = 0; i < 100; ++i) lines += "{\"i\":" + std::to_string(i) + "}\n";
  const std::string file = tmp.file("p.jsonl", lines);
  const run_result r = run_tool(tmp, "-s import_it -c " + coll_name + " --progress lines " +
                                         "--progress-interval 1 --batch-size 1 " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  // At least the final line; the file's size is known, so a percentage.
  EXPECT_NE(r.err.find("mysqlx-import: 100%, 100 documents, 0.0 MB, "), std::string::npos) << r.err;
}

TEST_F(Import, ProgressBarWhenAsked) {
  std::string lines;
  for (int i = 0; i < 50; ++i) lines += "{\"i\":" + std::to_string(i) + "}\n";
  const std::string file = tmp.file("b.jsonl", lines);
  const run_result r = run_tool(tmp, "-s import_it -c " + coll_name + " --progress bar " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  // Redrawn in place (carriage return, clear to the end of the line), full at the end.
  EXPECT_NE(r.err.find("\r[" + std::string(30, '#') + "] 100%, 50 documents, "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("\x1b[K\n"), std::string::npos) << r.err;
}

TEST(ImportCommandLine, HelpDocumentsEveryOption) {
  scratch tmp;
  const run_result r = run_tool(tmp, "--help");
  EXPECT_EQ(r.status, 0);
  for (const char* opt : {"--uri",
                          "--schema",
                          "--collection",
                          "--batch-size",
                          "--docid-mode",
                          "--replace",
                          "--skip-invalid",
                          "--skip N",
                          "--parallel",
                          "--json-array",
                          "--resume",
                          "--restart",
                          "--rejects FILE",
                          "SIGTERM",
                          "--progress MODE",
                          "--progress-interval",
                          "--max-document-size",
                          "--help",
                          "MYSQLX_URI",
                          "Resuming",
                          "Exit status"})
    EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
}

TEST(ImportCommandLine, BadOptionsAreUsageErrors) {
  scratch tmp;
  run_result r = run_tool(tmp, "-c x --batch-size 0");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--batch-size needs a whole number of at least 1"), std::string::npos)
      << r.err;
  r = run_tool(tmp, "-c x --docid-mode sometimes");
  EXPECT_EQ(r.status, 2);
  r = run_tool(tmp, "--no-such-option");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown option --no-such-option"), std::string::npos) << r.err;
  r = run_tool(tmp, "-s x"); // no collection
  EXPECT_EQ(r.status, 2);
}

TEST(ImportCommandLine, WrongPasswordIsNamedWithoutThePassword) {
  scratch tmp;
  std::string bad = uri();
  const auto at = bad.find("xtest-pw");
  ASSERT_NE(at, std::string::npos);
  bad.replace(at, 8, "wrong-secret");
  const std::string cmd = "timeout 60 " MYSQLX_IMPORT_BIN " -u '" + bad +
                          "' -s import_it -c nope </dev/null >/dev/null 2>'" + tmp.path("err") +
                          "'";
  const int rc = std::system(cmd.c_str());
  EXPECT_EQ(WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, 1);
  const std::string err = read_file(tmp.path("err"));
  EXPECT_NE(err.find("mysqlx-import: "), std::string::npos) << err;
  EXPECT_EQ(err.find("wrong-secret"), std::string::npos) << err;
}

} // namespace
