// mysqlx-import resumes exactly once (issue 26). Every batch is stored in one
// transaction with a progress record in <schema>.mysqlx_import_progress, so
// an import stopped for any reason (SIGKILL, SIGTERM, SIGINT, an invalid
// entry) and run again as the same command with --resume stores exactly the
// entries not stored yet, with any -j and either docid mode. Without --resume
// an earlier run's records make it refuse; --restart forgets them; a complete
// import deletes them. Checked against what the collection holds: every
// document of the input exactly once, those with their own _id under it.
//
// The tool is started with posix_spawn (its pid is needed to signal it), and
// every child runs under a timeout. The kill-and-resume cases are random but
// reproducible: each has a fixed seed, printed with every failure (and in the
// test's name). MYSQLX_IMPORT_RESUME_SEEDS=FIRST-LAST adds cases with more
// seeds when the test binary is run by hand.
#include "import_process_util.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <functional>
#include <gtest/gtest.h>
#include <iostream>
#include <mysqlx/xdevapi.h>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace import_test;
using std::chrono::milliseconds;

// Each test has a schema of its own, so all rows of its progress table are
// its job's (the name of the table's job column is the tool's business).
// ctest runs the cases as processes of their own, in parallel: a schema
// shared by all of them let one case's set-up delete another's records while
// it ran, and its --resume then stored everything again.
std::string own_schema(const std::string& test_name) {
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08zx", std::hash<std::string>{}(test_name)&0xffffffffu);
  return std::string("import_resume_") + hex;
}

// Runs the tool to its end (at most child_limit).
struct finished_run {
  exit_info how;
  std::string out, err;
  std::string describe() const { return how.str() + "\nstdout:\n" + out + "stderr:\n" + err; }
};
finished_run run(const scratch& tmp, const std::vector<std::string>& args) {
  tool_process p(uri(), args, tmp.path("out"), tmp.path("err"));
  finished_run r;
  r.how = p.wait(child_limit);
  r.out = p.out();
  r.err = p.err();
  return r;
}

class ImportResume : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(uri().empty()) << "MYSQLX_TEST_URI_80 is not set";
    coll_name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& ch : coll_name)
      if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_'; // "Case/param"
    schema = own_schema(coll_name);
    session.emplace(uri());
    session->createSchema(schema, true).dropCollection(coll_name);
    // Records an earlier (failed) run of this test left.
    try {
      session->sql(std::string("DELETE FROM `") + schema + "`.mysqlx_import_progress").execute();
    } catch (const mysqlx::Error&) { // no such table yet
    }
  }

  mysqlx::Collection coll() { return session->getSchema(schema).getCollection(coll_name); }

  // Documents in the collection (0 before the tool created it).
  std::uint64_t stored() {
    try {
      return coll().count();
    } catch (const mysqlx::Error&) {
      return 0;
    }
  }

  // Range rows of the schema's progress table, all this test's job's (see
  // `schema`); a table that does not exist holds none. The row that says a
  // job completed (first_entry 2^64 - 1) is not a range: completed() below.
  std::uint64_t progress_rows() { return count_rows("<>"); }
  bool completed() { return count_rows("=") > 0; }
  std::uint64_t count_rows(const char* op) { return count_progress_rows(*session, schema, op); }

  // What is wrong with the collection: each n of the input exactly once,
  // under its own _id when it had one, under a generated one otherwise.
  // Empty when nothing is.
  std::string content_problems(const std::vector<bool>& own_id) {
    return problems(scan(coll(), own_id), true);
  }

  // The tool's options for this test's job, the input last.
  std::vector<std::string> command(const std::vector<std::string>& options,
                                   const std::string& input) const {
    return import_command(schema, coll_name, options, input);
  }

  std::string coll_name, schema;
  std::optional<mysqlx::Session> session;
  scratch tmp;
};

// 1. Killed at random moments, resumed until it completes ----------------

struct kill_case {
  unsigned parallel;
  const char* docid_mode;
  unsigned seed;
};

void PrintTo(const kill_case& c, std::ostream* os) {
  *os << "-j " << c.parallel << " --docid-mode " << c.docid_mode << ", seed " << c.seed;
}

std::vector<kill_case> kill_cases() {
  // Two fixed seeds for each of -j 1 / -j 4 and server / client ids: CI is
  // deterministic (as far as timing allows), and the signals vary.
  std::vector<kill_case> cases{{1, "server", 11}, {1, "server", 12}, {1, "client", 13},
                               {1, "client", 14}, {4, "server", 15}, {4, "server", 16},
                               {4, "client", 17}, {4, "client", 18}};
  if (const char* more = std::getenv("MYSQLX_IMPORT_RESUME_SEEDS")) {
    unsigned first = 0, last = 0;
    if (std::sscanf(more, "%u-%u", &first, &last) == 2)
      for (unsigned seed = first; seed <= last; ++seed)
        for (unsigned j : {1u, 4u})
          for (const char* mode : {"server", "client"}) cases.push_back({j, mode, seed});
  }
  return cases;
}

class ImportResumeKill : public ImportResume, public ::testing::WithParamInterface<kill_case> {};

TEST_P(ImportResumeKill, EveryEntryStoredExactlyOnce) {
  const kill_case c = GetParam();
  const int count = 20000;
  const int max_rounds = 10;
  const int kill_signals[] = {SIGKILL, SIGTERM, SIGINT};

  // Half the documents (chosen by the seed) have their own _id.
  kill_job job(tmp, schema, coll_name, count, c.parallel, c.docid_mode, c.seed);

  const unsigned kills = 1 + job.rng() % 3; // rounds signalled, then one left to complete
  std::ostringstream log;
  log << "seed " << c.seed << ", mysqlx-import " << join(job.first) << "\n";
  bool complete = false;
  // Whether the count before a round is final: after a SIGKILL the server
  // may still commit the killed session's last batch for a moment.
  bool settled = true;
  for (int round = 0; round < max_rounds && !complete; ++round) {
    const bool signalled = static_cast<unsigned>(round) < kills;
    const int sig = kill_signals[(c.seed + round) % 3];
    // When to signal it. The import's speed varies tenfold with the load
    // of the machine (20,000 documents take 0.3 s on an idle 2-core one, 2 s
    // while it compiles), so a delay alone mostly signals after the end, or
    // always near the start: one round in four waits 50-300 ms from the
    // start (connecting, the first batches: SIGKILL may come before anything
    // is stored), the others until a random share (0-89 %) of what is left
    // is stored.
    const bool by_time = job.rng() % 4 == 0;
    const long delay = 50 + static_cast<long>(job.rng() % 251);
    const std::uint64_t before = stored();
    const std::uint64_t left = before < count ? count - before : 0;
    const std::uint64_t threshold = before + 1 + left * (job.rng() % 90) / 100;
    const std::string tag = std::to_string(round + 1);
    tool_process tool(uri(), round == 0 ? job.first : job.resume, tmp.path("out" + tag),
                      tmp.path("err" + tag));
    log << "round " << tag << (round ? " (--resume)" : "") << ": ";
    if (signalled) {
      std::uint64_t seen =
          wait_for_moment(tool, by_time, delay, threshold, before, [&] { return stored(); });
      // SIGTERM and SIGINT once the run has stored something, so that its
      // handlers are surely installed (not during the program's loading).
      if (sig != SIGKILL)
        while (!tool.ended() && (seen = stored()) <= before && tool.ms() < 60000)
          std::this_thread::sleep_for(milliseconds(2));
      log << signal_name(sig) << " at " << tool.ms() << " ms";
      if (by_time)
        log << " (after " << delay << " ms)";
      else
        log << " (" << seen << " stored, waited for " << threshold << ")";
      if (tool.ended()) log << " (it had ended)";
      log << ", ";
      tool.signal(sig);
    }
    const exit_info how = tool.wait(child_limit);
    const std::string out = tool.out(), err = tool.err();
    const std::uint64_t after = stored();
    log << how.str() << "; stored " << before << " -> " << after << "\n";
    const std::string outputs = "stdout:\n" + out + ("stderr:\n" + err);
    if (how.timed_out) {
      ADD_FAILURE() << log.str() << "the run did not end in " << child_limit.count() << " ms\n"
                    << outputs;
      break;
    }
    if (how.is_exit(0)) {
      complete = true;
      const auto docs = summary_documents(out);
      EXPECT_TRUE(docs.has_value()) << log.str() << "no summary line\n" << outputs;
      if (settled && docs) {
        EXPECT_EQ(*docs, after - before) << log.str() << "the summary counts what it stored\n"
                                         << outputs;
      }
      break;
    }
    if (!signalled) {
      ADD_FAILURE() << log.str() << "a run not signalled must complete with exit 0\n" << outputs;
      break;
    }
    if (sig == SIGKILL) {
      EXPECT_EQ(how.signal, SIGKILL) << log.str() << "it stopped by itself before SIGKILL\n"
                                     << outputs;
      settled = false;
    } else {
      // It finishes the batches sent, says what it stored and how to go on.
      EXPECT_TRUE(how.is_exit(128 + sig))
          << log.str() << signal_name(sig) << " must end it with exit " << 128 + sig << "\n"
          << outputs;
      const auto docs = summary_documents(out);
      EXPECT_TRUE(docs.has_value()) << log.str() << "no summary line on stdout\n" << outputs;
      if (settled && docs) {
        EXPECT_EQ(*docs, after - before) << log.str() << "the summary counts what it stored\n"
                                         << outputs;
      }
      EXPECT_TRUE(ends_with_resume_advice(err))
          << log.str() << "standard error must end with advice naming --resume\n"
          << outputs;
      settled = true;
    }
    const std::uint64_t rows = progress_rows();
    if (after > 0 && after < static_cast<std::uint64_t>(count) && settled) {
      EXPECT_GT(rows, 0u) << log.str() << "documents stored, the import stopped, and no records";
    }
    // Signalled after it had stored everything and marked its job
    // complete: a --resume would store nothing.
    if (completed()) {
      EXPECT_EQ(after, static_cast<std::uint64_t>(count))
          << log.str() << "complete, not all stored";
      EXPECT_EQ(rows, 0u) << log.str() << "complete, with ranges left";
      log << "  complete when signalled\n";
      complete = true;
    }
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_TRUE(complete) << log.str() << "not complete after " << max_rounds << " rounds";
  EXPECT_EQ(content_problems(job.own_id), "") << log.str();
  if (complete) {
    EXPECT_EQ(progress_rows(), 0u) << log.str() << "records left after it completed";
  }
  std::cout << log.str(); // the rounds, in the test's output (ctest -V)
}

INSTANTIATE_TEST_SUITE_P(Seeds, ImportResumeKill, ::testing::ValuesIn(kill_cases()),
                         [](const ::testing::TestParamInfo<kill_case>& i) {
                           return "j" + std::to_string(i.param.parallel) + "_" +
                                  i.param.docid_mode + "_seed" + std::to_string(i.param.seed);
                         });

// 2. Without --resume an earlier run's records refuse; --restart forgets -----

// Stopped at an invalid entry (no --skip-invalid): it says --resume; the
// same command without it refuses and stores nothing; once the entry is
// fixed (the input keeps its name), --resume stores exactly the rest.
TEST_F(ImportResume, InvalidEntryThenRefusalThenResumeAfterTheFix) {
  const int count = 3000, bad = 1233; // line 1234
  std::vector<bool> own_id(count);
  for (int n = 0; n < count; ++n) own_id[n] = n % 2 == 0;
  std::string lines = documents(own_id);
  const std::string good_line = "{\"n\":" + std::to_string(bad) + ",\"s\":\"x\"}\n";
  const std::size_t at = lines.find(good_line);
  ASSERT_NE(at, std::string::npos);
  std::string broken = lines;
  broken.replace(at, good_line.size(), "{\"n\": " + std::to_string(bad) + ",\n");
  const std::string input = tmp.file("docs.jsonl", broken);
  const std::vector<std::string> cmd = command({"-b", "100", "-j", "2"}, input);

  finished_run r = run(tmp, cmd);
  EXPECT_TRUE(r.how.is_exit(1)) << r.describe();
  EXPECT_NE(r.err.find(input + ":1234: "), std::string::npos) << r.describe();
  EXPECT_TRUE(ends_with_resume_advice(r.err)) << r.describe();
  const std::uint64_t stored_first = stored();
  EXPECT_LE(stored_first, static_cast<std::uint64_t>(bad));
  const std::uint64_t rows = progress_rows();
  if (stored_first > 0) {
    EXPECT_GT(rows, 0u) << "documents stored and no progress records";
  }

  // The same command again: it refuses, naming both ways on, and stores nothing.
  r = run(tmp, cmd);
  EXPECT_TRUE(r.how.is_exit(1)) << r.describe();
  EXPECT_NE(r.err.find("--resume"), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("--restart"), std::string::npos) << r.describe();
  EXPECT_EQ(stored(), stored_first);
  EXPECT_EQ(progress_rows(), rows);

  tmp.file("docs.jsonl", lines); // fixed
  r = run(tmp, with(cmd, "--resume"));
  EXPECT_TRUE(r.how.is_exit(0)) << r.describe();
  const auto docs = summary_documents(r.out);
  ASSERT_TRUE(docs.has_value()) << r.describe();
  EXPECT_EQ(*docs, static_cast<std::uint64_t>(count) - stored_first) << r.describe();
  EXPECT_EQ(content_problems(own_id), "") << "stopped with " << stored_first << " stored\n"
                                          << r.describe();
  EXPECT_EQ(progress_rows(), 0u);
}

// Killed (SIGKILL) mid-import: the same command without --resume refuses;
// with --restart it forgets the records and imports the whole input again.
// For documents without an _id that means the first run's ones plus all
// again; to make the check exact every document here has its own _id and
// the import uses --replace: each one the first run stored is replaced by
// itself, and the summary's "added A, replaced R" shows that everything
// was sent again (R = what the killed run stored), where a resume would
// have added the rest and replaced nothing.
TEST_F(ImportResume, RestartAfterAKilledRunImportsEverythingAgain) {
  const int count = 4000; // addOrReplaceOne one by one: about 2,000 a second
  const std::vector<bool> own_id(count, true);
  const std::string input = tmp.file("docs.jsonl", documents(own_id));
  const std::vector<std::string> cmd = command({"--replace", "-b", "100", "-j", "2"}, input);

  {
    tool_process tool(uri(), cmd, tmp.path("out"), tmp.path("err"));
    while (!tool.ended() && stored() == 0 && tool.ms() < 60000)
      std::this_thread::sleep_for(milliseconds(5));
    const bool ended_first = tool.ended();
    tool.signal(SIGKILL);
    const exit_info how = tool.wait(child_limit);
    ASSERT_FALSE(ended_first) << "it ended before it could be killed: " << how.str() << "\n"
                              << tool.out() << tool.err();
    ASSERT_EQ(how.signal, SIGKILL) << how.str();
  }
  std::this_thread::sleep_for(milliseconds(300)); // the killed session's last commit, if any
  const std::uint64_t stored_first = stored();
  ASSERT_GT(stored_first, 0u);
  ASSERT_LT(stored_first, static_cast<std::uint64_t>(count));
  const std::uint64_t rows = progress_rows();
  EXPECT_GT(rows, 0u) << "documents stored and no progress records";

  finished_run r = run(tmp, cmd);
  EXPECT_TRUE(r.how.is_exit(1)) << r.describe();
  EXPECT_NE(r.err.find("--resume"), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("--restart"), std::string::npos) << r.describe();
  EXPECT_EQ(stored(), stored_first) << r.describe();
  EXPECT_EQ(progress_rows(), rows);

  r = run(tmp, with(cmd, "--restart"));
  EXPECT_TRUE(r.how.is_exit(0)) << r.describe();
  EXPECT_NE(r.out.find("documents " + std::to_string(count) + " (added " +
                       std::to_string(count - stored_first) + ", replaced " +
                       std::to_string(stored_first) + ")"),
            std::string::npos)
      << "the killed run stored " << stored_first << "\n"
      << r.describe();
  EXPECT_EQ(content_problems(own_id), "") << r.describe();
  EXPECT_EQ(progress_rows(), 0u);
}

// 3. A complete import leaves no records -----------------------------------

// And so the same command runs again without --resume (and, the documents
// having no _id, adds them all a second time).
TEST_F(ImportResume, CompleteImportLeavesOnlyItsCompletion) {
  const int count = 3000;
  std::string lines;
  for (int n = 0; n < count; ++n) lines += "{\"n\":" + std::to_string(n) + "}\n";
  const std::vector<std::string> cmd =
      command({"-b", "100", "-j", "2"}, tmp.file("docs.jsonl", lines));

  finished_run r = run(tmp, cmd);
  EXPECT_TRUE(r.how.is_exit(0)) << r.describe();
  EXPECT_NE(r.out.find(summary(count, count, 0)), std::string::npos) << r.describe();
  EXPECT_EQ(stored(), static_cast<std::uint64_t>(count));
  EXPECT_EQ(progress_rows(), 0u);
  EXPECT_TRUE(completed());

  // --resume after it (as after a SIGKILL right at its end): nothing again.
  r = run(tmp, with(cmd, "--resume"));
  EXPECT_TRUE(r.how.is_exit(0)) << r.describe();
  EXPECT_NE(r.err.find("completed: nothing to resume"), std::string::npos) << r.describe();
  EXPECT_EQ(stored(), static_cast<std::uint64_t>(count));

  // The same command again is a new import of the same inputs.
  r = run(tmp, cmd);
  EXPECT_TRUE(r.how.is_exit(0)) << r.describe();
  EXPECT_EQ(stored(), 2u * count);
  EXPECT_EQ(progress_rows(), 0u);
  EXPECT_TRUE(completed());
}

} // namespace
