// Compile time of a translation unit that includes <mysqlx/xdevapi.h>
// (target: at most 0.5 s of CPU).
//
// Runs `c++ -std=c++17 -fsyntax-only` on a file with only the include, ours
// (also with MYSQLX_LEAN_HEADERS, without the standard headers Connector/C++
// programs rely on) and, if the conformance_cpp_peer fixture has built it,
// Connector/C++ 8.3's;
// on a file with only the standard headers our umbrella header includes
// (the part of its cost that is the standard library's); and on a baseline
// that includes just <string>, <vector> and <memory> (which any user's file
// has anyway). Each several times, interleaved, and prints JSON with the best
// and median CPU time (user + system of the compiler, so a busy machine
// inflates it less than wall time) and the best wall time.
//
// Usage: bench_devapi_compile [runs]   (default 5; Google Benchmark flags
// that ./dev bench passes to every benchmark are ignored)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

struct sample {
  double cpu_s;
  double wall_s;
};

double cpu_seconds(const rusage& r) {
  return static_cast<double>(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
         static_cast<double>(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
}

sample compile_once(const std::string& file, const char* include_dir) {
  const auto start = std::chrono::steady_clock::now();
  const std::string include_flag = std::string("-I") + include_dir;
  const pid_t pid = fork();
  if (pid == 0) {
    execl(MYSQLX_CXX, MYSQLX_CXX, "-std=c++17", "-fsyntax-only", include_flag.c_str(), file.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (pid < 0 || wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "compiling %s failed\n", file.c_str());
    std::exit(1);
  }
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
  return {cpu_seconds(usage), wall.count()};
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = std::string(MYSQLX_BENCH_TMP) + "/" + name;
  std::ofstream(path) << text;
  return path;
}

void report(const char* name, std::vector<sample> runs, bool last) {
  std::sort(runs.begin(), runs.end(), [](auto& a, auto& b) { return a.cpu_s < b.cpu_s; });
  double best_wall = runs.front().wall_s;
  for (const auto& r : runs) best_wall = std::min(best_wall, r.wall_s);
  std::printf(
      "    \"%s\": {\"cpu_best_s\": %.3f, \"cpu_median_s\": %.3f, \"wall_best_s\": %.3f}%s\n", name,
      runs.front().cpu_s, runs[runs.size() / 2].cpu_s, best_wall, last ? "" : ",");
}

} // namespace

int main(int argc, char** argv) {
  int n = 5;
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] != '-') n = std::max(1, std::atoi(argv[i]));
  }
  const std::string api = write_file("bench_xdevapi.cc", "#include <mysqlx/xdevapi.h>\n");
  const std::string lean = write_file("bench_xdevapi_lean.cc",
                                      "#define MYSQLX_LEAN_HEADERS\n#include <mysqlx/xdevapi.h>\n");
  const std::string base =
      write_file("bench_baseline.cc", "#include <memory>\n#include <string>\n#include <vector>\n");
  // The standard headers of our xdevapi.h and its per-concept headers.
  std::string std_text;
  for (const char* h :
       {"algorithm",    "array",        "bitset",        "cassert", "chrono",  "cwctype",
        "deque",        "forward_list", "functional",    "ios",     "istream", "list",
        "map",          "memory",       "ostream",       "set",     "sstream", "string",
        "system_error", "tuple",        "unordered_map", "vector"})
    std_text += std::string("#include <") + h + ">\n";
  const std::string std_only = write_file("bench_std_headers.cc", std_text);
  const bool have_peer = access(MYSQLX_PEER_INCLUDE_DIR "/mysqlx/xdevapi.h", R_OK) == 0;
  std::vector<sample> api_runs, lean_runs, peer_runs, std_runs, base_runs;
  for (int i = 0; i < n; ++i) {
    api_runs.push_back(compile_once(api, MYSQLX_INCLUDE_DIR));
    lean_runs.push_back(compile_once(lean, MYSQLX_INCLUDE_DIR));
    if (have_peer) peer_runs.push_back(compile_once(api, MYSQLX_PEER_INCLUDE_DIR));
    std_runs.push_back(compile_once(std_only, MYSQLX_INCLUDE_DIR));
    base_runs.push_back(compile_once(base, MYSQLX_INCLUDE_DIR));
  }
  std::printf("{\n  \"benchmark\": \"compile time of #include <mysqlx/xdevapi.h>\",\n");
  std::printf("  \"compiler\": \"%s -std=c++17 -fsyntax-only\",\n  \"runs\": %d,\n", MYSQLX_CXX, n);
  std::printf("  \"target_s\": 0.5,\n  \"results\": {\n");
  report("xdevapi.h", api_runs, false);
  report("xdevapi.h with MYSQLX_LEAN_HEADERS", lean_runs, false);
  if (have_peer)
    report("Connector/C++ 8.3 xdevapi.h", peer_runs, false);
  else
    std::printf("    \"Connector/C++ 8.3 xdevapi.h\": null,\n");
  report("standard headers of xdevapi.h", std_runs, false);
  report("baseline <string><vector><memory>", base_runs, true);
  std::printf("  }\n}\n");
  return 0;
}
