// Helpers shared by the tests that start mysqlx-import in the background and
// stop it, or its server, midway (import_resume_it_test.cc,
// import_server_kill_it_test.cc): the tool as a child process (posix_spawn,
// its pid to signal, a timeout), how it ended, what its output says, the
// input of numbered documents and what the collection holds of it.
// MYSQLX_IMPORT_BIN (the program's path) is defined by the CMake target.
#pragma once

#include "import_test_util.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <mysqlx/xdevapi.h>
#include <optional>
#include <random>
#include <regex>
#include <spawn.h>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace import_test {

inline std::string signal_name(int sig) {
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

inline std::string join(const std::vector<std::string>& words) {
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
// output and errors to files, the URI through MYSQLX_URI, SIGINT, SIGTERM and
// SIGPIPE at their default action and no signal blocked, whatever the test
// runner set. A child still running when this goes away is killed and
// reaped, so a failed assertion leaves no process behind.
class tool_process {
public:
  using clock = std::chrono::steady_clock;
  using milliseconds = std::chrono::milliseconds;

  tool_process(const std::string& uri, const std::vector<std::string>& args, std::string out,
               std::string err)
      : m_out(std::move(out)), m_err(std::move(err)) {
    std::vector<std::string> envs;
    for (char** e = environ; *e; ++e)
      if (std::strncmp(*e, "MYSQLX_URI=", 11) != 0) envs.emplace_back(*e);
    envs.push_back("MYSQLX_URI=" + uri);
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
    m_start = clock::now();
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

  // Milliseconds since it was started.
  long ms() const {
    return static_cast<long>(
        std::chrono::duration_cast<milliseconds>(clock::now() - m_start).count());
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
    const auto deadline = clock::now() + limit;
    while (!ended()) {
      if (clock::now() >= deadline) {
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
  clock::time_point m_start;
};

// Waits for the moment to stop `tool` (by signalling it or killing its
// server), or its end: `by_time`, `delay` ms after its start; else once
// `stored()` (the documents in the collection) reaches `threshold`, at most
// 60 s. The last count seen, `before` if none was read.
template <typename Stored>
std::uint64_t wait_for_moment(tool_process& tool, bool by_time, long delay, std::uint64_t threshold,
                              std::uint64_t before, Stored stored) {
  using std::chrono::milliseconds;
  std::uint64_t seen = before;
  if (by_time) {
    while (tool.ms() < delay && !tool.ended()) std::this_thread::sleep_for(milliseconds(2));
  } else {
    while (!tool.ended() && (seen = stored()) < threshold && tool.ms() < 60000)
      std::this_thread::sleep_for(milliseconds(2));
  }
  return seen;
}

// A run of the tool normally takes 0.3-3 s; one that goes on longer is stuck.
inline constexpr std::chrono::milliseconds child_limit(120000);

// The summary line on standard output ("documents N, ..."), and its N.
inline std::optional<std::uint64_t> summary_documents(const std::string& out) {
  static const std::regex line("(^|\n)documents ([0-9]+)[ ,]");
  std::smatch m;
  if (!std::regex_search(out, m, line)) return std::nullopt;
  return std::stoull(m[2].str());
}

// Standard error ends with advice naming --resume: it is in the last few
// hundred characters (the last message, whatever its wording and lines).
inline bool ends_with_resume_advice(const std::string& err) {
  std::string e = err;
  while (!e.empty() && std::isspace(static_cast<unsigned char>(e.back()))) e.pop_back();
  const std::size_t from = e.size() > 400 ? e.size() - 400 : 0;
  return e.find("--resume", from) != std::string::npos;
}

// "3, 7-9, 12" for sorted numbers; the first `max` ranges.
inline std::string ranges(const std::vector<int>& v, std::size_t max = 12) {
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
inline std::string documents(const std::vector<bool>& own_id) {
  std::string lines;
  for (std::size_t n = 0; n < own_id.size(); ++n) {
    const std::string num = std::to_string(n);
    if (own_id[n])
      lines.append("{\"_id\":\"own-").append(num).append("\",\"n\":").append(num).append("}\n");
    else
      lines.append("{\"n\":").append(num).append(",\"s\":\"x\"}\n");
  }
  return lines;
}

// The tool's options for the job importing into schema.coll, the input last.
inline std::vector<std::string> import_command(const std::string& schema, const std::string& coll,
                                               const std::vector<std::string>& options,
                                               const std::string& input) {
  std::vector<std::string> c{"-s", schema, "-c", coll, "--progress", "none"};
  c.insert(c.end(), options.begin(), options.end());
  c.push_back(input);
  return c;
}

// The same command with `flag` (--resume, --restart) added before the input.
inline std::vector<std::string> with(std::vector<std::string> cmd, const std::string& flag) {
  cmd.insert(cmd.end() - 1, flag);
  return cmd;
}

// The job of a case that stops the tool at random moments and resumes it:
// its random numbers (`seed`); an input of `count` numbered documents
// (documents()), half of them, chosen by `rng`, with their own _id; the
// command that imports it into schema.coll in batches of 100 with -j
// `parallel` and `docid_mode`, and the same command with --resume.
struct kill_job {
  kill_job(const scratch& tmp, const std::string& schema, const std::string& coll, int count,
           unsigned parallel, const std::string& docid_mode, unsigned seed)
      : rng(seed), own_id(count, false) {
    std::fill(own_id.begin(), own_id.begin() + count / 2, true);
    std::shuffle(own_id.begin(), own_id.end(), rng);
    const std::string input = tmp.file("docs.jsonl", documents(own_id));
    first = import_command(
        schema, coll, {"-b", "100", "-j", std::to_string(parallel), "--docid-mode", docid_mode},
        input);
    resume = with(first, "--resume");
  }
  std::mt19937 rng;
  std::vector<bool> own_id;
  std::vector<std::string> first, resume;
};

// Rows of the schema's progress table whose first_entry is `op` (a SQL
// comparison) 2^64 - 1: "<>" the ranges, "=" the row that says a job
// completed. A table that does not exist holds none.
inline std::uint64_t count_progress_rows(mysqlx::Session& s, const std::string& schema,
                                         const char* op) {
  try {
    return s
        .sql("SELECT COUNT(*) FROM `" + schema + "`.mysqlx_import_progress WHERE first_entry " +
             op + " 18446744073709551615")
        .execute()
        .fetchOne()[0]
        .get<std::uint64_t>();
  } catch (const mysqlx::Error& e) {
    if (e.code() == 1146) return 0; // ER_NO_SUCH_TABLE
    throw;
  }
}

// What a collection holds of an input made by documents(own_id): how often
// each n is stored, and the n stored under a wrong _id (not "own-<n>" for
// those with their own, "own-..." for the others).
struct contents {
  std::vector<int> times;
  std::vector<int> wrong_id;
  std::uint64_t total = 0, foreign = 0;
};

inline contents scan(mysqlx::Collection coll, const std::vector<bool>& own_id) {
  contents c;
  c.times.assign(own_id.size(), 0);
  const int count = static_cast<int>(own_id.size());
  mysqlx::DocResult all = coll.find().fields("n", "_id").execute();
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
  return c;
}

// What is wrong with `c`, empty when nothing is: an n stored twice or under
// a wrong _id, a foreign document, and (`complete`) an n missing, or else
// one below `prefix` (a stopped run said the first `prefix` entries are
// stored).
inline std::string problems(const contents& c, bool complete, std::uint64_t prefix = 0) {
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
    s << missing.size() << " of " << c.times.size() << " documents missing"
      << (complete ? "" : " below the stored prefix") << " (n " << ranges(missing) << ")\n";
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

} // namespace import_test
