// Issue 36: the time from the Session constructor to the first row of
// `SELECT 1`, for one connection string, repeated in one process (the first
// connect of the process is reported too: it pays for lazy initialisation).
//
// The same source builds twice: bench_connect against libmysqlx and
// bench_connect_peer against the official Connector/C++ 8.3
// (MYSQLX_BENCH_PEER, test/conformance/cpp/peer_programs). run.sh puts an
// xdelay in front of one xserverd and runs both, and counts the round trips
// from xdelay's flights log.
//
//   bench_connect --uri URI [--reps N] [--label TEXT] [--abandon 1] [--pool N]
//
// --pool N: instead, a Client with a pool of N from cold, N threads each
// taking a session and running SELECT 1 at once: one line with the time
// until all N have their row ({"mode":"pool","sessions":N,"ms":...}).
//
// --abandon 1: after the last first row the process exits at once, without
// closing the session (no Close, no TLS close_notify), so that xdelay's
// flights log holds exactly the round trips to the first row.
//
// Output: one JSON line per connect on stdout
//   {"client":"mysqlx","label":"tls auto 2ms","rep":0,"ms":4.21}
// A wrong row or a failed connect prints the error and exits with 1.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mysqlx/xdevapi.h>
#include <string>
#include <thread>
#include <vector>

namespace {

#ifdef MYSQLX_BENCH_PEER
constexpr const char* k_client = "connector-cpp-8.3";
#else
constexpr const char* k_client = "mysqlx";
#endif

struct options {
  std::string uri, label;
  int reps = 10;
  bool abandon = false;
  int pool = 0;
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "bench_connect: %s\nusage: bench_connect --uri URI [--reps N] [--label T] "
               "[--abandon 1] [--pool N]\n",
               why);
  std::exit(2);
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; i += 2) {
    const std::string opt = argv[i];
    if (i + 1 >= argc) usage("an option needs a value");
    const std::string value = argv[i + 1];
    if (opt == "--uri") {
      o.uri = value;
    } else if (opt == "--reps") {
      o.reps = std::atoi(value.c_str());
      if (o.reps <= 0) usage("--reps: a positive number");
    } else if (opt == "--pool") {
      o.pool = std::atoi(value.c_str());
      if (o.pool <= 0) usage("--pool: a positive number");
    } else if (opt == "--abandon") {
      o.abandon = value == "1";
    } else if (opt == "--label") {
      o.label = value;
    } else {
      usage("unknown option");
    }
  }
  if (o.uri.empty()) usage("--uri is required");
  return o;
}

// One connect, to the first row; the session closes after the clock stops
// (abandon: the process ends instead, leaving the socket to the kernel).
double connect_once(const std::string& uri, bool abandon) {
  const auto start = std::chrono::steady_clock::now();
  mysqlx::Session s(uri);
  mysqlx::Row row = s.sql("SELECT 1").execute().fetchOne();
  const auto end = std::chrono::steady_clock::now();
  if (row.colCount() != 1 || row[0].get<int>() != 1) {
    std::fprintf(stderr, "bench_connect: SELECT 1 did not return 1\n");
    std::exit(1);
  }
  if (abandon) std::_Exit(0);
  s.close();
  return std::chrono::duration<double, std::milli>(end - start).count();
}

// A pool of n warmed from cold: n threads take a session each at once.
double warm_pool(const std::string& uri, int n) {
  const auto start = std::chrono::steady_clock::now();
  mysqlx::Client client = mysqlx::getClient(uri, mysqlx::ClientOption::POOL_MAX_SIZE, n);
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(n));
  std::atomic<int> ok{0};
  for (int i = 0; i < n; ++i)
    threads.emplace_back([&client, &ok] {
      try {
        mysqlx::Session s = client.getSession();
        if (s.sql("SELECT 1").execute().fetchOne()[0].get<int>() == 1) ++ok;
      } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_connect: %s\n", e.what());
      }
    });
  for (auto& t : threads) t.join();
  const auto end = std::chrono::steady_clock::now();
  if (ok != n) std::exit(1);
  return std::chrono::duration<double, std::milli>(end - start).count();
}

} // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  try {
    if (o.pool > 0) {
      std::printf("{\"client\":\"%s\",\"label\":\"%s\",\"mode\":\"pool\",\"sessions\":%d,"
                  "\"ms\":%.3f}\n",
                  k_client, o.label.c_str(), o.pool, warm_pool(o.uri, o.pool));
      return 0;
    }
    for (int rep = 0; rep < o.reps; ++rep) {
      const double ms = connect_once(o.uri, o.abandon && rep + 1 == o.reps);
      std::printf("{\"client\":\"%s\",\"label\":\"%s\",\"rep\":%d,\"ms\":%.3f}\n", k_client,
                  o.label.c_str(), rep, ms);
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_connect (%s): %s\n", k_client, e.what());
    return 1;
  }
  return 0;
}
