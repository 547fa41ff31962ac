// mysqlx-import when the SERVER dies mid-import (issue 26): xserverd, or the
// MariaDB it runs every statement on, is killed with SIGKILL at a random
// moment while the tool stores; the tool must stop by itself (exit 1, advice
// naming --resume); the server is brought back on the same data, and the same
// command with --resume, run until it completes, must leave every entry
// stored exactly once.
//
// What decides what is stored:
// - xserverd killed: MariaDB keeps running and rolls back the transactions of
//   the connections that dropped, unless their COMMIT had reached it; the
//   tool sees its connections close (a COMMIT without its reply is in doubt).
// - mariadbd killed: InnoDB's crash recovery at the restart decides which
//   transactions are committed; xserverd, still up, answers the tool's
//   statements with MariaDB's error 2013, its COMMIT too (one that MariaDB
//   may have made durable).
// Either way each batch's documents and its progress record commit
// together, so the records say exactly what --resume must pass over.
//
// The server is a private one (fixture xserver_impkill: xserverctl start
// --fresh / stop, see CMakeLists.txt), since the test kills and restarts it;
// the cases take turns. It is restarted with `xserverctl start` without
// --fresh, which keeps the state directory and its MariaDB data directory
// (and reuses a mariadbd still running); when mariadbd was killed, the
// surviving xserverd is stopped first so that start brings both back up.
//
// Each case has a fixed seed (printed with every failure and in the test's
// name) that picks the documents with their own _id, how many runs are
// killed and when. MYSQLX_IMPORT_SERVER_KILL_SEEDS=FIRST-LAST adds cases
// with more seeds when the binary is run by hand. The tool is started with
// posix_spawn and every child runs under a timeout, as in
// import_resume_it_test.cc (whose process helpers are repeated here).
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

using import_test::read_file;
using import_test::scratch;
using std::chrono::milliseconds;
using clock_type = std::chrono::steady_clock;

const char* const schema = "import_server_kill_it";

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// The private server: its URI, name and port, and how to run xserverctl on it
// (all set by CMakeLists.txt through the test's launcher).
std::string server_uri() {
  return env("MYSQLX_IMPORT_KILL_URI");
}
std::string server_name() {
  return env("MYSQLX_IMPORT_KILL_NAME");
}
std::string state_dir() {
  return env("MYSQLX_BUILD_DIR") + "/xserver/" + server_name();
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
    return "killed by signal " + std::to_string(signal);
  }
};

// mysqlx-import started in the background: standard input /dev/null, its
// output and errors to files, the URI through MYSQLX_URI, signals at their
// default action. Killed and reaped if still running when this goes away.
class tool_process {
public:
  tool_process(const std::vector<std::string>& args, std::string out, std::string err)
      : m_out(std::move(out)), m_err(std::move(err)) {
    std::vector<std::string> envs;
    for (char** e = environ; *e; ++e)
      if (std::strncmp(*e, "MYSQLX_URI=", 11) != 0) envs.emplace_back(*e);
    envs.push_back("MYSQLX_URI=" + server_uri());
    std::vector<std::string> words{MYSQLX_IMPORT_BIN};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> envp, argv;
    for (std::string& s : envs) envp.push_back(s.data());
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
  bool ended() {
    if (m_reaped) return true;
    int status = 0;
    const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
    if (r == m_pid) reap(status);
    return m_reaped;
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

// A run of the tool normally takes 0.3-3 s; one that goes on after its
// server died is stuck.
const milliseconds child_limit(120000);

// "documents N, ..." on standard output, and its N.
std::optional<std::uint64_t> summary_documents(const std::string& out) {
  static const std::regex line("(^|\n)documents ([0-9]+)[ ,]");
  std::smatch m;
  if (!std::regex_search(out, m, line)) return std::nullopt;
  return std::stoull(m[2].str());
}

// Documents of COMMITs in doubt whose record could not be looked up (the
// server was down): "... so N documents may or may not be stored".
std::uint64_t uncertain_documents(const std::string& err) {
  static const std::regex line("so ([0-9]+) documents? may or may not be stored");
  std::smatch m;
  return std::regex_search(err, m, line) ? std::stoull(m[1].str()) : 0;
}

// "the first N entries of the input are all stored" (a run without --resume).
std::optional<std::uint64_t> stored_prefix(const std::string& err) {
  static const std::regex line("the first ([0-9]+) entr(y|ies) of the input (is|are) all stored");
  std::smatch m;
  if (!std::regex_search(err, m, line)) return std::nullopt;
  return std::stoull(m[1].str());
}

// Standard error ends with advice naming --resume.
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

// `count` documents {"n": 0..count-1}; those marked have the _id "own-<n>".
std::string documents(const std::vector<bool>& own_id) {
  std::string lines;
  for (std::size_t n = 0; n < own_id.size(); ++n) {
    const std::string num = std::to_string(n);
    lines += own_id[n] ? "{\"_id\":\"own-" + num + "\",\"n\":" + num + "}\n"
                       : "{\"n\":" + num + ",\"s\":\"x\"}\n";
  }
  return lines;
}

// ---- the server ------------------------------------------------------------

// xserverctl <args> on the private server, its messages appended to `log`.
// Its exit status.
int ctl(const std::string& args, const std::string& log) {
  const std::string cmd = "MYSQLX_BUILD_DIR='" + env("MYSQLX_BUILD_DIR") + "' XSERVERD='" +
                          env("XSERVERD") + "' timeout 120 '" + env("MYSQLX_XSERVERCTL") + "' " +
                          args + " --name " + server_name() + " >>'" + log + "' 2>&1";
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}
int ctl_start(const std::string& log) {
  return ctl("start --port " + env("MYSQLX_IMPORT_KILL_PORT"), log);
}

// The process one of the server's pid files names, if it runs for this
// server's state directory (the test of xserverctl's live_pid()).
std::optional<pid_t> live_pid(const std::string& pid_file) {
  const std::string text = read_file(state_dir() + "/" + pid_file);
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return std::nullopt;
  const pid_t pid = static_cast<pid_t>(std::stol(text));
  std::string cmdline = read_file("/proc/" + std::to_string(pid) + "/cmdline");
  std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
  if (cmdline.find(state_dir() + "/") == std::string::npos) return std::nullopt;
  return pid;
}

// Gone, or a zombie: neither holds a port, a socket or a file lock.
bool dead(pid_t pid) {
  const std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
  const std::size_t paren = stat.rfind(')');
  return stat.empty() || (paren != std::string::npos && paren + 2 < stat.size() &&
                          (stat[paren + 2] == 'Z' || stat[paren + 2] == 'X'));
}

// SIGKILL to one of the two servers; true once it is dead (at most 10 s).
bool kill_server(pid_t pid) {
  if (::kill(pid, SIGKILL) != 0) return false;
  for (int i = 0; i < 1000; ++i) {
    if (dead(pid)) return true;
    std::this_thread::sleep_for(milliseconds(10));
  }
  return false;
}

enum class victim { xserverd, mariadbd, either };

const char* victim_name(victim v) {
  switch (v) {
  case victim::xserverd:
    return "xserverd";
  case victim::mariadbd:
    return "mariadbd";
  default:
    return "either";
  }
}

struct kill_case {
  unsigned parallel;
  const char* docid_mode;
  victim kills;
  unsigned seed;
};

void PrintTo(const kill_case& c, std::ostream* os) {
  *os << "-j " << c.parallel << " --docid-mode " << c.docid_mode << ", kill "
      << victim_name(c.kills) << ", seed " << c.seed;
}

std::vector<kill_case> kill_cases() {
  // xserverd alone in two cases, mariadbd alone in one, either (by the seed,
  // each round) in one: -j 1 and -j 4, server and client ids.
  std::vector<kill_case> cases{{1, "server", victim::xserverd, 41},
                               {4, "client", victim::xserverd, 42},
                               {4, "server", victim::mariadbd, 43},
                               {1, "client", victim::either, 44}};
  if (const char* more = std::getenv("MYSQLX_IMPORT_SERVER_KILL_SEEDS")) {
    unsigned first = 0, last = 0;
    if (std::sscanf(more, "%u-%u", &first, &last) == 2)
      for (unsigned seed = first; seed <= last; ++seed)
        cases.push_back({seed % 2 ? 1u : 4u, seed % 4 < 2 ? "server" : "client",
                         static_cast<victim>(seed % 3), seed});
  }
  return cases;
}

class ImportServerKill : public ::testing::TestWithParam<kill_case> {
protected:
  void SetUp() override {
    ASSERT_FALSE(server_uri().empty()) << "MYSQLX_IMPORT_KILL_URI is not set";
    ASSERT_FALSE(env("MYSQLX_XSERVERCTL").empty()) << "MYSQLX_XSERVERCTL is not set";
    coll_name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& ch : coll_name)
      if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    ctl_log = tmp.path("xserverctl.log");
    // Up whatever an earlier case left (a no-op when both servers run).
    ASSERT_EQ(ctl_start(ctl_log), 0) << read_file(ctl_log);
    mysqlx::Session& s = session();
    s.createSchema(schema, true).dropCollection(coll_name);
    // Each case's job is the only one with records in the schema.
    s.sql(std::string("DROP TABLE IF EXISTS `") + schema + "`.mysqlx_import_progress").execute();
  }

  // A session on the server, made again after the server was restarted.
  mysqlx::Session& session() {
    if (!m_session) m_session.emplace(server_uri());
    return *m_session;
  }
  // `f` on the session; once more on a new one if the first failed (its
  // connection died with the server).
  template <typename F> auto with_session(F f) {
    try {
      return f(session());
    } catch (const mysqlx::Error&) {
      m_session.reset();
    }
    return f(session());
  }

  std::uint64_t stored() {
    return with_session([&](mysqlx::Session& s) -> std::uint64_t {
      try {
        return s.getSchema(schema).getCollection(coll_name).count();
      } catch (const mysqlx::Error& e) {
        if (e.code() == 1146) return 0; // the tool has not made it yet
        throw;
      }
    });
  }

  bool collection_exists() {
    return with_session([&](mysqlx::Session& s) {
      return s.getSchema(schema).getCollection(coll_name).existsInDatabase();
    });
  }

  // Rows of the progress table: ranges (op "<>") or the completion row ("=").
  std::uint64_t count_rows(const char* op) {
    return with_session([&](mysqlx::Session& s) -> std::uint64_t {
      try {
        return s
            .sql(std::string("SELECT COUNT(*) FROM `") + schema +
                 "`.mysqlx_import_progress WHERE first_entry " + op + " 18446744073709551615")
            .execute()
            .fetchOne()[0]
            .get<std::uint64_t>();
      } catch (const mysqlx::Error& e) {
        if (e.code() == 1146) return 0; // ER_NO_SUCH_TABLE
        throw;
      }
    });
  }
  std::uint64_t progress_rows() { return count_rows("<>"); }
  bool completed() { return count_rows("=") > 0; }

  // How often each n of the input is stored, and the n stored under a wrong
  // _id (not "own-<n>" for those with their own, "own-..." for the others).
  struct contents {
    std::vector<int> times;
    std::vector<int> wrong_id;
    std::uint64_t total = 0, foreign = 0;
  };
  contents scan(const std::vector<bool>& own_id) {
    return with_session([&](mysqlx::Session& s) {
      contents c;
      c.times.assign(own_id.size(), 0);
      const int count = static_cast<int>(own_id.size());
      try {
        mysqlx::DocResult all =
            s.getSchema(schema).getCollection(coll_name).find().fields("n", "_id").execute();
        while (mysqlx::DbDoc d = all.fetchOne()) {
          ++c.total;
          const int n = d["n"].get<int>();
          if (n < 0 || n >= count) {
            ++c.foreign;
            continue;
          }
          ++c.times[n];
          const std::string id = d["_id"].get<std::string>();
          if (own_id[n] ? id != "own-" + std::to_string(n) : id.rfind("own-", 0) == 0)
            c.wrong_id.push_back(n);
        }
      } catch (const mysqlx::Error& e) {
        if (e.code() != 1146) throw;
      }
      return c;
    });
  }

  // What is wrong with the collection: an n stored twice or under a wrong
  // _id, a foreign document, and (`complete`) an n missing, or one below
  // `prefix` (a stopped run said the first `prefix` entries are stored).
  std::string problems(const std::vector<bool>& own_id, bool complete, std::uint64_t prefix = 0) {
    const contents c = scan(own_id);
    std::vector<int> missing, twice;
    std::uint64_t extra = 0;
    for (int n = 0; n < static_cast<int>(c.times.size()); ++n) {
      if (c.times[n] == 0 && (complete || static_cast<std::uint64_t>(n) < prefix))
        missing.push_back(n);
      if (c.times[n] > 1) {
        twice.push_back(n);
        extra += c.times[n] - 1;
      }
    }
    std::ostringstream s;
    if (!missing.empty())
      s << missing.size() << " documents missing" << (complete ? "" : " below the stored prefix")
        << " (n " << ranges(missing) << ")\n";
    if (!twice.empty())
      s << twice.size() << " documents stored more than once, " << extra << " copies too many (n "
        << ranges(twice) << ")\n";
    if (!c.wrong_id.empty())
      s << c.wrong_id.size() << " documents not under their own _id / under a foreign one (n "
        << ranges(c.wrong_id) << ")\n";
    if (c.foreign) s << c.foreign << " documents whose n is not in the input\n";
    if (!s.str().empty()) s << "(the collection holds " << c.total << " documents)\n";
    return s.str();
  }

  std::vector<std::string> command(const std::vector<std::string>& options,
                                   const std::string& input) const {
    std::vector<std::string> c{"-s", schema, "-c", coll_name, "--progress", "none"};
    c.insert(c.end(), options.begin(), options.end());
    c.push_back(input);
    return c;
  }

  std::string coll_name, ctl_log;
  std::optional<mysqlx::Session> m_session;
  scratch tmp;
};

TEST_P(ImportServerKill, EveryEntryStoredExactlyOnce) {
  const kill_case c = GetParam();
  const int count = 20000;
  const int max_rounds = 8;
  std::mt19937 rng(c.seed);

  std::vector<bool> own_id(count, false);
  std::fill(own_id.begin(), own_id.begin() + count / 2, true);
  std::shuffle(own_id.begin(), own_id.end(), rng);
  const std::string input = tmp.file("docs.jsonl", documents(own_id));
  const std::vector<std::string> first =
      command({"-b", "100", "-j", std::to_string(c.parallel), "--docid-mode", c.docid_mode}, input);
  std::vector<std::string> resume = first;
  resume.insert(resume.end() - 1, "--resume");

  const unsigned kills = 2 + rng() % 2; // rounds whose server is killed; then one to complete
  std::ostringstream log;
  log << "seed " << c.seed << ", mysqlx-import " << join(first) << "\n";
  bool complete = false;
  for (int round = 0; round < max_rounds && !complete; ++round) {
    const bool killing = static_cast<unsigned>(round) < kills;
    const victim v =
        c.kills != victim::either ? c.kills : (rng() % 2 ? victim::xserverd : victim::mariadbd);
    // When: once a random share (0-89 %) of what is left is stored, or, one
    // round in four, 20-300 ms from the start (connecting, the progress
    // table and its records, the input checked against them, the first
    // batches). Not while the tool makes the collection: xserverd makes
    // one in three statements (a table, then its two _id triggers), and a
    // server killed between them leaves a table without triggers, which
    // refuses every document without an _id (error 1364) from then on. So
    // the early kill only in rounds that find the collection made.
    const bool by_time = rng() % 4 == 0 && collection_exists();
    const long delay = 20 + static_cast<long>(rng() % 281);
    const std::uint64_t before = stored();
    const std::uint64_t left = before < count ? count - before : 0;
    const std::uint64_t threshold = before + 1 + left * (rng() % 90) / 100;
    const std::string tag = std::to_string(round + 1);
    const auto x_pid = live_pid("xserverd.pid"), m_pid = live_pid("mariadb.pid");
    ASSERT_TRUE(x_pid && m_pid) << log.str() << "the server is not up";
    tool_process tool(round == 0 ? first : resume, tmp.path("out" + tag), tmp.path("err" + tag));
    log << "round " << tag << (round ? " (--resume)" : "") << ": ";
    bool killed = false;
    if (killing) {
      std::uint64_t seen = before;
      if (by_time) {
        while (tool.ms() < delay && !tool.ended()) std::this_thread::sleep_for(milliseconds(2));
      } else {
        while (!tool.ended() && (seen = stored()) < threshold && tool.ms() < 60000)
          std::this_thread::sleep_for(milliseconds(2));
      }
      if (tool.ended()) {
        log << "it ended before the kill, ";
      } else {
        const pid_t pid = v == victim::xserverd ? *x_pid : *m_pid;
        log << "SIGKILL " << victim_name(v) << " at " << tool.ms() << " ms";
        if (by_time)
          log << " (after " << delay << " ms)";
        else
          log << " (" << seen << " stored, waited for " << threshold << ")";
        log << ", ";
        ASSERT_TRUE(kill_server(pid)) << log.str() << "it did not die";
        killed = true;
      }
    }
    const exit_info how = tool.wait(child_limit);
    const std::string out = tool.out(), err = tool.err();
    const std::string outputs = "stdout:\n" + out + "stderr:\n" + err;
    log << how.str() << " at " << tool.ms() << " ms";
    if (killed) {
      // The killed xserverd's connections: MariaDB finishes a COMMIT that
      // had reached it, or rolls back, a moment after they close.
      std::this_thread::sleep_for(milliseconds(200));
      const auto t0 = clock_type::now();
      // mariadbd killed: xserverd still runs on it, and `start` would take
      // the server as up; stopped first, both come back up.
      if (v == victim::mariadbd) {
        EXPECT_EQ(ctl("stop", ctl_log), 0) << read_file(ctl_log);
      }
      ASSERT_EQ(ctl_start(ctl_log), 0) << log.str() << read_file(ctl_log);
      log << ", restarted in "
          << std::chrono::duration_cast<milliseconds>(clock_type::now() - t0).count() << " ms";
      const auto m_after = live_pid("mariadb.pid");
      ASSERT_TRUE(m_after) << log.str();
      if (v == victim::xserverd) {
        EXPECT_EQ(*m_after, *m_pid) << log.str() << "mariadbd should have kept running";
      } else {
        EXPECT_NE(*m_after, *m_pid) << log.str() << "mariadbd should have been started again";
      }
    }
    const std::uint64_t after = stored();
    const auto reported = summary_documents(out);
    const std::uint64_t uncertain = uncertain_documents(err);
    log << "; reported " << (reported ? std::to_string(*reported) : "nothing");
    if (uncertain) log << " (+" << uncertain << " uncertain)";
    log << ", stored " << before << " -> " << after << "\n";
    if (how.timed_out) {
      ADD_FAILURE() << log.str() << "the run did not end in " << child_limit.count() << " ms\n"
                    << outputs;
      break;
    }
    if (how.is_exit(0)) {
      // Complete; killed, it had stored everything (the row that says so
      // may be missing: a --resume then stores nothing and writes it).
      EXPECT_TRUE(reported.has_value()) << log.str() << "no summary line\n" << outputs;
      if (reported) {
        EXPECT_EQ(*reported, after - before) << log.str() << "the summary counts what it stored\n"
                                             << outputs;
      }
      if (!killed) {
        complete = true;
        break;
      }
      log << "  it had stored everything when killed\n";
      EXPECT_EQ(after, static_cast<std::uint64_t>(count)) << log.str() << outputs;
      EXPECT_EQ(problems(own_id, false), "") << log.str();
      continue;
    }
    if (!killed) {
      ADD_FAILURE() << log.str() << "a run whose server was not killed must complete\n" << outputs;
      break;
    }
    // Stopped by the dead server: exit 1, what it stored, how to go on.
    EXPECT_TRUE(how.is_exit(1)) << log.str() << "its server killed, it must exit 1\n" << outputs;
    if (!reported) {
      // Killed while it connected (mariadbd killed then, xserverd says
      // "Access denied", error 1045), checked the collection, made its
      // progress table or read the records: it ends with the error alone
      // ("nothing was imported", main.cc; no advice), having stored nothing.
      EXPECT_EQ(after, before) << log.str() << "stored without a summary\n" << outputs;
      log << "  stopped before storing: " << err;
    } else {
      EXPECT_TRUE(ends_with_resume_advice(err))
          << log.str() << "standard error must end with advice naming --resume\n"
          << outputs;
      // What it says it stored is stored (a COMMIT answered is durable);
      // more only where a COMMIT reached the server and its reply did not
      // come back, which it says "may or may not be stored".
      EXPECT_LE(*reported, after - before) << log.str() << "it reported more than it stored\n"
                                           << outputs;
      if (after - before > *reported + uncertain) {
        // xserverd killed: its connections close, so a COMMIT without its
        // reply is in doubt and counted as uncertain. mariadbd killed:
        // xserverd answers a COMMIT that MariaDB may have made durable
        // with MariaDB's error 2013, which the tool takes as "not stored"
        // (its summary counts too few; the records, and so --resume, are
        // right). Noted, not failed.
        if (v == victim::xserverd) {
          ADD_FAILURE() << log.str() << "stored more than it reported, not said to be uncertain\n"
                        << outputs;
        } else {
          log << "  stored " << after - before - *reported - uncertain
              << " more than reported (a COMMIT answered with an error by xserverd)\n";
        }
      }
    }
    const auto prefix = stored_prefix(err);
    if (round == 0 && reported) {
      EXPECT_TRUE(prefix.has_value()) << log.str() << "no stored prefix said\n" << outputs;
    }
    EXPECT_EQ(problems(own_id, false, prefix.value_or(0)), "") << log.str() << outputs;
    if (after > 0 && after < static_cast<std::uint64_t>(count)) {
      EXPECT_GT(progress_rows(), 0u) << log.str() << "documents stored, stopped, no records";
    }
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_TRUE(complete) << log.str() << "not complete after " << max_rounds << " rounds";
  EXPECT_EQ(problems(own_id, true), "") << log.str();
  if (complete) {
    EXPECT_TRUE(completed()) << log.str() << "no completion row";
    EXPECT_EQ(progress_rows(), 0u) << log.str() << "range rows left after it completed";
  }
  std::cout << log.str(); // the rounds, in the test's output (ctest -V)
}

INSTANTIATE_TEST_SUITE_P(Seeds, ImportServerKill, ::testing::ValuesIn(kill_cases()),
                         [](const ::testing::TestParamInfo<kill_case>& i) {
                           return "j" + std::to_string(i.param.parallel) + "_" +
                                  i.param.docid_mode + "_" + victim_name(i.param.kills) + "_seed" +
                                  std::to_string(i.param.seed);
                         });

} // namespace
