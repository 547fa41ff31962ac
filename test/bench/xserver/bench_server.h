// Shared by the server benchmarks (test/bench/xserver, test/bench/devapi_server):
// an xserverd started through xserverctl for the life of the program, and the
// ~100-byte documents both insert.
#pragma once

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

namespace bench_server {

// Paths come from the build (compile definitions of the bench targets).
inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

inline std::string& stop_command() {
  static std::string cmd;
  return cmd;
}

// A bench killed by Ctrl-C or SIGTERM still stops its servers.
extern "C" inline void stop_on_signal(int sig) {
  if (!stop_command().empty()) (void)std::system(stop_command().c_str());
  std::_Exit(128 + sig);
}

// `xserverctl start --fresh` on construction, `xserverctl stop` on
// destruction (and on SIGINT/SIGTERM), so no run leaves a server behind.
class server {
public:
  server(const std::string& name, int port, const std::string& emulate) : m_name(name) {
    const std::string env = "MYSQLX_BUILD_DIR=" + shell_quote(MYSQLX_BENCH_BUILD_DIR) + " ";
    const std::string ctl = env + shell_quote(MYSQLX_BENCH_XSERVERCTL);
    stop_command() = ctl + " stop --name " + shell_quote(name) + " >/dev/null 2>&1";
    std::signal(SIGINT, stop_on_signal);
    std::signal(SIGTERM, stop_on_signal);
    const std::string start = ctl + " start --fresh --name " + shell_quote(name) + " --port " +
                              std::to_string(port) + " --emulate " + emulate + " --xserverd " +
                              shell_quote(MYSQLX_BENCH_XSERVERD);
    FILE* p = popen(start.c_str(), "r");
    if (!p) throw std::runtime_error("cannot run xserverctl");
    char line[512] = {};
    const bool got = std::fgets(line, sizeof line, p) != nullptr;
    const int rc = pclose(p);
    if (!got || rc != 0) {
      stop();
      throw std::runtime_error("xserverctl start failed (see its stderr above)");
    }
    m_uri = line;
    while (!m_uri.empty() && (m_uri.back() == '\n' || m_uri.back() == '\r')) m_uri.pop_back();
  }
  server(const server&) = delete;
  server& operator=(const server&) = delete;
  ~server() { stop(); }

  void stop() {
    if (!stop_command().empty()) (void)std::system(stop_command().c_str());
    stop_command().clear();
  }
  const std::string& uri() const { return m_uri; }
  std::string state_dir() const {
    return std::string(MYSQLX_BENCH_BUILD_DIR) + "/xserver/" + m_name + "/";
  }
  int pid_of(const std::string& pid_file) const {
    std::ifstream in(state_dir() + pid_file);
    int pid = 0;
    in >> pid;
    return pid;
  }
  // mariadbd's socket, read from its command line (xserverctl moves it to
  // /tmp when the state path is too long for sun_path).
  std::string mariadb_socket() const {
    std::ifstream in("/proc/" + std::to_string(pid_of("mariadb.pid")) + "/cmdline");
    const std::string cmdline((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
    const std::string key = "--socket=";
    const auto at = cmdline.find(key);
    if (at == std::string::npos) throw std::runtime_error("mariadbd has no --socket argument");
    return cmdline.substr(at + key.size(), cmdline.find('\0', at) - at - key.size());
  }

private:
  std::string m_name;
  std::string m_uri;
};

// utime + stime of another process in seconds (all its threads), from
// /proc/<pid>/stat.
inline double process_cpu_seconds(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close_paren = text.rfind(')');
  if (close_paren == std::string::npos) return 0;
  // Fields after "pid (comm)": state is field 3; utime, stime are 14, 15.
  std::size_t pos = close_paren + 2;
  for (int field = 3; field < 14; ++field) pos = text.find(' ', pos) + 1;
  char* end = nullptr;
  const double ut = std::strtod(text.c_str() + pos, &end);
  const double st = std::strtod(end, nullptr);
  return (ut + st) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// A document of exactly `size` bytes (at least 67) without `_id` (the
// server adds 37 bytes: `"_id":"<28 hex>",`). n makes each one different.
inline std::string document(unsigned n, std::size_t size = 100) {
  char head[96];
  std::snprintf(head, sizeof head,
                R"({"item":"fountain pen","n":1%07u,"price":12.5,"qty":3,"note":")", n);
  std::string doc = head;
  doc.append(size - doc.size() - 2, 'x');
  return doc + "\"}";
}

inline std::vector<std::string> documents(unsigned first, unsigned count, std::size_t size = 100) {
  std::vector<std::string> docs;
  docs.reserve(count);
  for (unsigned i = 0; i < count; ++i) docs.push_back(document(first + i, size));
  return docs;
}

} // namespace bench_server
