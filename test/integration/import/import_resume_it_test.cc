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
#include "import_test_util.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <iostream>
#include <mysqlx/xdevapi.h>
#include <optional>
#include <random>
#include <regex>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace {

using namespace import_test;
using std::chrono::milliseconds;
using clock_type = std::chrono::steady_clock;

// A schema of these tests' own: when a test starts no other job has records
// in it, so all rows of its progress table are that test's job's (the name
// of the table's job column is the tool's business).
const char* const schema = "import_resume_it";

std::string signal_name(int sig) {
  switch (sig) {
  case SIGKILL:
    return "SIGKILL";
  case SIGTERM:
    return "SIGTERM";
  case SIGINT:
    return "SIGINT";
  default:
    return "signal " + std::to_string(sig);
  }
}

std::string join(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

// How a child ended.
struct exit_info {
  bool timed_out = false;
  bool exited = false; // else killed by `signal`
  int code = -1;
  int signal = 0;
  bool is_exit(int c) const { return !timed_out && exited && code == c; }
  std::string str() const {
    if (timed_out) return "timed out (killed)";
    if (exited) return "exit " + std::to_string(code);
    return "killed by " + signal_name(signal);
  }
};

// mysqlx-import started in the background: standard input /dev/null, its
// output and errors to files, the URI through MYSQLX_URI, SIGINT and SIGTERM
// at their default action and unblocked whatever the test runner set. A
// child still running when this goes away is killed and reaped, so a failed
// assertion leaves no process behind.
class tool_process {
public:
  tool_process(const std::vector<std::string>& args, std::string out, std::string err)
      : m_out(std::move(out)), m_err(std::move(err)) {
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e)
      if (std::strncmp(*e, "MYSQLX_URI=", 11) != 0) env.emplace_back(*e);
    env.push_back("MYSQLX_URI=" + uri());
    std::vector<std::string> words{MYSQLX_IMPORT_BIN};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> envp, argv;
    for (std::string& s : env) envp.push_back(s.data());
    envp.push_back(nullptr);
    for (std::string& s : words) argv.push_back(s.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&files, 1, m_out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&files, 2, m_err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (int sig : {SIGINT, SIGTERM, SIGPIPE}) sigaddset(&defaults, sig);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    const int rc = ::posix_spawn(&m_pid, argv[0], &files, &attr, argv.data(), envp.data());
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&files);
    if (rc != 0) throw std::runtime_error(std::string("posix_spawn: ") + std::strerror(rc));
    m_start = clock_type::now();
  }
  tool_process(const tool_process&) = delete;
  tool_process& operator=(const tool_process&) = delete;
  ~tool_process() {
    if (m_reaped) return;
    ::kill(m_pid, SIGKILL);
    int status = 0;
    while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
    }
  }

  long ms() const {
    return static_cast<long>(
        std::chrono::duration_cast<milliseconds>(clock_type::now() - m_start).count());
  }
  // Whether it has ended (reaped then, so its pid is never signalled again).
  bool ended() {
    if (m_reaped) return true;
    int status = 0;
    const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
    if (r == m_pid) reap(status);
    return m_reaped;
  }
  void signal(int sig) {
    if (!ended()) ::kill(m_pid, sig);
  }
  // Waits until it ends, at most `limit` from now; then SIGKILL.
  exit_info wait(milliseconds limit) {
    const auto deadline = clock_type::now() + limit;
    while (!ended()) {
      if (clock_type::now() >= deadline) {
        ::kill(m_pid, SIGKILL);
        int status = 0;
        while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
        }
        reap(status);
        m_info.timed_out = true;
        break;
      }
      std::this_thread::sleep_for(milliseconds(5));
    }
    return m_info;
  }
  std::string out() const { return read_file(m_out); }
  std::string err() const { return read_file(m_err); }

private:
  void reap(int status) {
    m_reaped = true;
    m_info.exited = WIFEXITED(status);
    m_info.code = m_info.exited ? WEXITSTATUS(status) : -1;
    m_info.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  }

  std::string m_out, m_err;
  pid_t m_pid = -1;
  bool m_reaped = false;
  exit_info m_info;
  clock_type::time_point m_start;
};

const milliseconds child_limit(120000);

// Runs the tool to its end (at most child_limit).
struct finished_run {
  exit_info how;
  std::string out, err;
  std::string describe() const { return how.str() + "\nstdout:\n" + out + "stderr:\n" + err; }
};
finished_run run(const scratch& tmp, const std::vector<std::string>& args) {
  tool_process p(args, tmp.path("out"), tmp.path("err"));
  finished_run r;
  r.how = p.wait(child_limit);
  r.out = p.out();
  r.err = p.err();
  return r;
}

// The summary line on standard output ("documents N, ..."), and its N.
std::optional<std::uint64_t> summary_documents(const std::string& out) {
  static const std::regex line("(^|\n)documents ([0-9]+)[ ,]");
  std::smatch m;
  if (!std::regex_search(out, m, line)) return std::nullopt;
  return std::stoull(m[2].str());
}

// Standard error ends with advice naming --resume: it is in the last few
// hundred characters (the last message, whatever its wording and lines).
bool ends_with_resume_advice(const std::string& err) {
  std::string e = err;
  while (!e.empty() && std::isspace(static_cast<unsigned char>(e.back()))) e.pop_back();
  const std::size_t from = e.size() > 400 ? e.size() - 400 : 0;
  return e.find("--resume", from) != std::string::npos;
}

// "3, 7-9, 12" for sorted numbers; the first `max` ranges.
std::string ranges(const std::vector<int>& v, std::size_t max = 12) {
  std::string s;
  std::size_t shown = 0;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    if (shown++ == max) return s + ", ...";
    s += (s.empty() ? "" : ", ") + std::to_string(v[i]);
    if (j > i) s += "-" + std::to_string(v[j]);
    i = j + 1;
  }
  return s;
}

// An input of `count` documents {"n": 0..count-1}; those marked get their
// own string _id "own-<n>".
std::string documents(const std::vector<bool>& own_id) {
  std::string lines;
  for (std::size_t n = 0; n < own_id.size(); ++n) {
    const std::string num = std::to_string(n);
    lines += own_id[n] ? "{\"_id\":\"own-" + num + "\",\"n\":" + num + "}\n"
                       : "{\"n\":" + num + ",\"s\":\"x\"}\n";
  }
  return lines;
}

class ImportResume : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(uri().empty()) << "MYSQLX_TEST_URI_80 is not set";
    coll_name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& ch : coll_name)
      if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_'; // "Case/param"
    session.emplace(uri());
    session->createSchema(schema, true).dropCollection(coll_name);
    // Records an earlier (failed) test left: not this test's job's.
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
  std::uint64_t count_rows(const char* op) {
    try {
      const mysqlx::Row r =
          session
              ->sql(std::string("SELECT COUNT(*) FROM `") + schema +
                    "`.mysqlx_import_progress WHERE first_entry " + op + " 18446744073709551615")
              .execute()
              .fetchOne();
      return r[0].get<std::uint64_t>();
    } catch (const mysqlx::Error& e) {
      if (e.code() == 1146) return 0; // ER_NO_SUCH_TABLE
      throw;
    }
  }

  // What is wrong with the collection: each n of the input exactly once,
  // under its own _id when it had one, under a generated one otherwise.
  // Empty when nothing is.
  std::string content_problems(const std::vector<bool>& own_id) {
    const int count = static_cast<int>(own_id.size());
    std::vector<int> times(own_id.size(), 0);
    std::vector<int> wrong_id;
    std::uint64_t total = 0, foreign = 0;
    mysqlx::DocResult all = coll().find().fields("n", "_id").execute();
    while (mysqlx::DbDoc d = all.fetchOne()) {
      ++total;
      const int n = d["n"].get<int>();
      if (n < 0 || n >= count) {
        ++foreign;
        continue;
      }
      ++times[n];
      const std::string id = d["_id"].get<std::string>();
      if (own_id[n] ? id != "own-" + std::to_string(n) : id.rfind("own-", 0) == 0)
        wrong_id.push_back(n);
    }
    std::vector<int> missing, twice;
    std::uint64_t extra = 0;
    for (int n = 0; n < count; ++n) {
      if (times[n] == 0) missing.push_back(n);
      if (times[n] > 1) {
        twice.push_back(n);
        extra += times[n] - 1;
      }
    }
    std::ostringstream s;
    if (!missing.empty())
      s << missing.size() << " of " << count << " documents missing (n " << ranges(missing)
        << ")\n";
    if (!twice.empty())
      s << twice.size() << " documents stored more than once, " << extra << " copies too many (n "
        << ranges(twice) << ")\n";
    if (!wrong_id.empty())
      s << wrong_id.size() << " documents not under their own _id / under a foreign one (n "
        << ranges(wrong_id) << ")\n";
    if (foreign) s << foreign << " documents whose n is not in the input\n";
    if (!s.str().empty()) s << "(the collection holds " << total << " documents)\n";
    return s.str();
  }

  // The tool's options for this test's job, the input last.
  std::vector<std::string> command(const std::vector<std::string>& options,
                                   const std::string& input) const {
    std::vector<std::string> c{"-s", schema, "-c", coll_name, "--progress", "none"};
    c.insert(c.end(), options.begin(), options.end());
    c.push_back(input);
    return c;
  }
  // The same command with `flag` (--resume, --restart) added.
  static std::vector<std::string> with(std::vector<std::string> cmd, const std::string& flag) {
    cmd.insert(cmd.end() - 1, flag);
    return cmd;
  }

  std::string coll_name;
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
  std::mt19937 rng(c.seed);

  // Half the documents (chosen by the seed) have their own _id.
  std::vector<bool> own_id(count, false);
  std::fill(own_id.begin(), own_id.begin() + count / 2, true);
  std::shuffle(own_id.begin(), own_id.end(), rng);
  const std::string input = tmp.file("docs.jsonl", documents(own_id));
  const std::vector<std::string> first =
      command({"-b", "100", "-j", std::to_string(c.parallel), "--docid-mode", c.docid_mode}, input);
  const std::vector<std::string> resume = with(first, "--resume");

  const unsigned kills = 1 + rng() % 3; // rounds signalled, then one left to complete
  std::ostringstream log;
  log << "seed " << c.seed << ", mysqlx-import " << join(first) << "\n";
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
    const bool by_time = rng() % 4 == 0;
    const long delay = 50 + static_cast<long>(rng() % 251);
    const std::uint64_t before = stored();
    const std::uint64_t left = before < count ? count - before : 0;
    const std::uint64_t threshold = before + 1 + left * (rng() % 90) / 100;
    const std::string tag = std::to_string(round + 1);
    tool_process tool(round == 0 ? first : resume, tmp.path("out" + tag), tmp.path("err" + tag));
    log << "round " << tag << (round ? " (--resume)" : "") << ": ";
    if (signalled) {
      std::uint64_t seen = before;
      if (by_time) {
        while (tool.ms() < delay && !tool.ended()) std::this_thread::sleep_for(milliseconds(2));
      } else {
        while (!tool.ended() && (seen = stored()) < threshold && tool.ms() < 60000)
          std::this_thread::sleep_for(milliseconds(2));
      }
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
    const std::string outputs = "stdout:\n" + out + "stderr:\n" + err;
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
  EXPECT_EQ(content_problems(own_id), "") << log.str();
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
    tool_process tool(cmd, tmp.path("out"), tmp.path("err"));
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
