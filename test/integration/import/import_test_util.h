// Helpers shared by the tests that run the mysqlx-import program against the
// xserver80 fixture: the URI, a scratch directory, running the tool.
// MYSQLX_IMPORT_BIN (the program's path) is defined by the CMake target.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace import_test {

inline std::string uri() {
  const char* u = std::getenv("MYSQLX_TEST_URI_80");
  return u ? u : "";
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A scratch directory for one test's inputs and outputs.
class scratch {
public:
  scratch() {
    char dir[] = "/tmp/import_it_XXXXXX";
    if (!::mkdtemp(dir)) throw std::runtime_error("mkdtemp failed");
    m_dir = dir;
  }
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  ~scratch() { (void)std::system(("rm -rf '" + m_dir + "'").c_str()); }
  std::string file(const std::string& name, const std::string& text) const {
    const std::string path = m_dir + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::string path(const std::string& name) const { return m_dir + "/" + name; }

private:
  std::string m_dir;
};

struct run_result {
  int status = -1;
  std::string out, err;
};

// Runs mysqlx-import with `args` (shell words) under `timeout`, with the
// shell redirections given; the URI comes through MYSQLX_URI, as the help
// advises. Its output and errors are read from tmp's "out" and "err".
inline run_result run_shell(const scratch& tmp, const std::string& args,
                            const std::string& redirections, const std::string& timeout) {
  const std::string cmd = "MYSQLX_URI='" + uri() + "' " + timeout + " " MYSQLX_IMPORT_BIN " " +
                          args + " " + redirections;
  const int rc = std::system(cmd.c_str());
  run_result r;
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  r.out = read_file(tmp.path("out"));
  r.err = read_file(tmp.path("err"));
  return r;
}

// The tool with standard input from `in`, under a 300 s timeout.
inline run_result run_tool(const scratch& tmp, const std::string& args,
                           const std::string& in = "/dev/null") {
  return run_shell(tmp, args,
                   "<'" + in + "' >'" + tmp.path("out") + "' 2>'" + tmp.path("err") + "'",
                   "timeout 300");
}

// The start of the final line on standard output.
inline std::string summary(std::uint64_t docs, std::uint64_t ids, std::uint64_t skipped) {
  return "documents " + std::to_string(docs) + ", ids generated " + std::to_string(ids) +
         ", invalid entries skipped " + std::to_string(skipped) + ", seconds ";
}

} // namespace import_test
