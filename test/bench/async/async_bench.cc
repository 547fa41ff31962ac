// Issue 27, "How to show it": statements in flight (executeAsync()) against
// a loop of execute(), through a real round-trip time (xdelay).
//
// The same source builds twice: bench_async against libmysqlx, and
// bench_async_peer against the official Connector/C++ 8.3 (MYSQLX_BENCH_PEER,
// built by test/conformance/cpp/peer_programs next to
// bench_devapi_server_peer). The official connector has no executeAsync(),
// so the peer measures the loops of execute() only: the anchor.
//
// Workloads, each `--ops` statements (default 1,000), 100-byte documents:
//   find   coll.find("_id = :id").bind("id", id).execute().fetchOne() of
//          documents stored beforehand (each checked: its _id and number)
//   add    coll.add(doc).execute(), autocommitted: one transaction each,
//          so one log flush each on the server
//   txadd  the same adds between startTransaction() and commit() (timed)
// each as a plain loop of execute() and (ours only) with executeAsync(),
// keeping up to `--window` (100) statements in flight: once 100 are
// pending the oldest future is got before the next is sent. Every add's
// result is checked (one document, one new id), and so is the collection's
// count after each run.
//
//   bench_async [--uri URI --rtt-ms X] [--delays 0,0.25,1] [--reps N]
//               [--ops N] [--window N] [--workloads find,add,txadd]
//
// --uri: measure that server as it is (run.sh gives the URI of an xdelay in
// front of its xserverd), labelled with --rtt-ms. Without it the program
// starts an xserverd (port 23341, the peer 23345, or $MYSQLX_BENCH_PORT)
// and an xdelay in front of it per one-way delay D of --delays (the next
// ports), so the round trips are 2*D: 0, 0.5 and 2 ms. Sessions use
// ssl-mode=disabled and compression=disabled.
//
// Output: JSON lines on stdout, one per timed run
//   {"client":"mysqlx","rtt_ms":2,"workload":"find","mode":"async","ops":1000,
//    "rep":1,"seconds":0.123,"ops_per_s":8130.1}
// one per round trip measured ("mode":"ping": the median of 21 plain
// `SELECT 1`), and one summary per workload and round trip (medians over
// the reps, and async/plain). Progress goes to stderr. A run longer than
// $MYSQLX_BENCH_HANG_SECONDS (120) is a hang: the program stops its servers
// and exits with 3. A wrong result exits with 1.
#include "test/bench/hang_watchdog.h"
#include "test/bench/xserver/bench_server.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <mysqlx/xdevapi.h>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

#ifdef MYSQLX_BENCH_PEER
constexpr const char* k_name = "bench_async_peer";
constexpr const char* k_client = "connector-cpp-8.3";
constexpr const char* k_prefix = "peer"; // of its collections
constexpr int k_default_port = 23345;
#else
constexpr const char* k_name = "bench_async";
constexpr const char* k_client = "mysqlx";
constexpr const char* k_prefix = "ours";
constexpr int k_default_port = 23341;
#endif
constexpr const char* k_plain = "ssl-mode=disabled&compression=disabled";
constexpr int k_find_docs = 1000; // documents stored for the finds
constexpr const char* k_schema = "bench_async";

using clock_type = std::chrono::steady_clock;

struct options {
  std::string uri;
  double rtt_ms = 0;
  std::vector<double> delays{0, 0.25, 1};
  int reps = 1;
  int ops = 1000;
  int window = 100;
  std::vector<std::string> workloads{"find", "add", "txadd"};
  int port = k_default_port;
};

// ---- servers: xserverd (bench_server.h) and xdelay through xserverctl ----

std::mutex g_stop_mutex;
std::vector<std::string> g_proxy_stops; // `xserverctl proxy stop` commands

void stop_everything() {
  std::vector<std::string> stops;
  {
    const std::lock_guard<std::mutex> lock(g_stop_mutex);
    stops.swap(g_proxy_stops);
  }
  for (const auto& cmd : stops) (void)std::system(cmd.c_str());
  if (!bench_server::stop_command().empty())
    (void)std::system(bench_server::stop_command().c_str());
}

extern "C" void async_bench_stop_on_signal(int sig) {
  stop_everything();
  std::_Exit(128 + sig);
}

std::string ctl() {
  return "MYSQLX_BUILD_DIR=" + bench_server::shell_quote(MYSQLX_BENCH_BUILD_DIR) + " " +
         bench_server::shell_quote(MYSQLX_BENCH_XSERVERCTL);
}

std::string number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

// `xserverctl proxy start` on construction (an xdelay in front of the
// server on `target_port`), `proxy stop` on destruction.
class proxy {
public:
  proxy(const std::string& name, int port, int target_port, double delay_ms) {
    m_stop = ctl() + " proxy stop --name " + bench_server::shell_quote(name) + " >/dev/null 2>&1";
    {
      const std::lock_guard<std::mutex> lock(g_stop_mutex);
      g_proxy_stops.push_back(m_stop);
    }
    const std::string start = ctl() + " proxy start --name " + bench_server::shell_quote(name) +
                              " --port " + std::to_string(port) + " --target-port " +
                              std::to_string(target_port) + " --delay-ms " + number(delay_ms);
    FILE* p = popen(start.c_str(), "r");
    if (!p) throw std::runtime_error("cannot run xserverctl proxy start");
    char line[512] = {};
    const bool got = std::fgets(line, sizeof line, p) != nullptr;
    if (pclose(p) != 0 || !got) throw std::runtime_error("xserverctl proxy start failed");
    m_uri = line;
    while (!m_uri.empty() && (m_uri.back() == '\n' || m_uri.back() == '\r')) m_uri.pop_back();
  }
  proxy(const proxy&) = delete;
  proxy& operator=(const proxy&) = delete;
  ~proxy() {
    {
      const std::lock_guard<std::mutex> lock(g_stop_mutex);
      g_proxy_stops.erase(std::remove(g_proxy_stops.begin(), g_proxy_stops.end(), m_stop),
                          g_proxy_stops.end());
    }
    (void)std::system(m_stop.c_str());
  }
  const std::string& uri() const { return m_uri; }

private:
  std::string m_stop;
  std::string m_uri;
};

// ---- the workloads ----

void check(bool ok, const std::string& what) {
  if (!ok) throw std::logic_error("wrong result: " + what);
}

std::string find_id(int i) {
  char id[16];
  std::snprintf(id, sizeof id, "f%06d", i % k_find_docs);
  return id;
}

void check_found(const mysqlx::DbDoc& d, const std::string& id) {
  check(!d.isNull(), "find " + id + ": no document");
  check(d["_id"].get<std::string>() == id, "find " + id + ": another document");
  check(d["n"].get<int>() == std::stoi(id.substr(1)), "find " + id + ": another n");
}

// Each add: one document stored, one id made, never seen before.
void check_added(const mysqlx::Result& r, std::set<std::string>& ids) {
  check(r.getAffectedItemsCount() == 1, "add: affected items not 1");
  const std::vector<std::string> made = r.getGeneratedIds();
  check(made.size() == 1, "add: not one generated id");
  check(ids.insert(made.front()).second, "add: id " + made.front() + " twice");
}

[[gnu::noinline]] void finds_plain(mysqlx::Collection& c, int ops) {
  for (int i = 0; i < ops; ++i) {
    const std::string id = find_id(i);
    check_found(c.find("_id = :id").bind("id", id).execute().fetchOne(), id);
  }
}

[[gnu::noinline]] void adds_plain(mysqlx::Collection& c, const std::vector<std::string>& docs,
                                  std::set<std::string>& ids) {
  for (const auto& doc : docs) check_added(c.add(doc).execute(), ids);
}

#ifndef MYSQLX_BENCH_PEER
[[gnu::noinline]] void finds_async(mysqlx::Collection& c, int ops, std::size_t window) {
  std::deque<std::pair<std::string, mysqlx::Future<mysqlx::DocResult>>> pending;
  const auto take = [&pending] {
    check_found(pending.front().second.get().fetchOne(), pending.front().first);
    pending.pop_front();
  };
  for (int i = 0; i < ops; ++i) {
    if (pending.size() == window) take();
    std::string id = find_id(i);
    auto f = c.find("_id = :id").bind("id", id).executeAsync();
    pending.emplace_back(std::move(id), std::move(f));
  }
  while (!pending.empty()) take();
}

[[gnu::noinline]] void adds_async(mysqlx::Collection& c, const std::vector<std::string>& docs,
                                  std::set<std::string>& ids, std::size_t window) {
  std::deque<mysqlx::Future<mysqlx::Result>> pending;
  const auto take = [&] {
    check_added(pending.front().get(), ids);
    pending.pop_front();
  };
  for (const auto& doc : docs) {
    if (pending.size() == window) take();
    pending.push_back(c.add(doc).executeAsync());
  }
  while (!pending.empty()) take();
}
#endif

struct sample {
  std::string workload, mode;
  double seconds = 0;
};

std::string json_head(double rtt_ms, const std::string& workload, const std::string& mode) {
  return std::string(R"({"client":")") + k_client + R"(","rtt_ms":)" + number(rtt_ms) +
         R"(,"workload":")" + workload + R"(","mode":")" + mode + "\"";
}

// The round trip a statement sees: the median of 21 plain SELECT 1.
double ping_ms(mysqlx::Session& s) {
  std::vector<double> t;
  for (int i = 0; i < 21; ++i) {
    const auto t0 = clock_type::now();
    check(s.sql("SELECT 1").execute().fetchOne()[0].get<int>() == 1, "SELECT 1");
    t.push_back(std::chrono::duration<double, std::milli>(clock_type::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

unsigned g_next_doc = 0;

// One timed run of `workload` in `mode`: seconds.
double run_once(mysqlx::Session& s, const options& o, const std::string& workload,
                const std::string& mode) {
  mysqlx::Schema schema = s.getSchema(k_schema);
  const std::string coll_name = k_prefix;
  if (workload == "find") {
    mysqlx::Collection c = schema.getCollection(coll_name + "_find");
    const auto t0 = clock_type::now();
#ifndef MYSQLX_BENCH_PEER
    if (mode == "async") {
      finds_async(c, o.ops, static_cast<std::size_t>(o.window));
    } else
#endif
    {
      finds_plain(c, o.ops);
    }
    return std::chrono::duration<double>(clock_type::now() - t0).count();
  }
  // add, txadd: into an empty collection (made outside the timed part).
  const std::string name = coll_name + "_" + workload;
  schema.dropCollection(name);
  mysqlx::Collection c = schema.createCollection(name);
  const std::vector<std::string> docs =
      bench_server::documents(g_next_doc, static_cast<unsigned>(o.ops));
  g_next_doc += static_cast<unsigned>(o.ops);
  std::set<std::string> ids;
  const bool tx = workload == "txadd";
  const auto t0 = clock_type::now();
  if (tx) s.startTransaction();
#ifndef MYSQLX_BENCH_PEER
  if (mode == "async") {
    adds_async(c, docs, ids, static_cast<std::size_t>(o.window));
  } else
#endif
  {
    adds_plain(c, docs, ids);
  }
  if (tx) s.commit();
  const double seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
  check(c.count() == docs.size(), workload + " " + mode + ": collection count");
  return seconds;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Every workload and mode, `reps` times, through `uri` (round trip rtt_ms).
void measure(const std::string& uri, double rtt_ms, const options& o) {
  const std::string sep = uri.find('?') == std::string::npos ? "?" : "&";
  mysqlx::Session s(uri + sep + k_plain);
  s.createSchema(k_schema, true);
  mysqlx::Schema schema = s.getSchema(k_schema);
  const std::string coll_name = k_prefix;
  {
    // The documents the finds look for: _id f000000.., n = the number.
    schema.dropCollection(coll_name + "_find");
    mysqlx::Collection c = schema.createCollection(coll_name + "_find");
    std::vector<std::string> docs;
    for (int i = 0; i < k_find_docs; ++i) {
      std::string doc = bench_server::document(0);
      const std::string head = R"({"_id":")" + find_id(i) + R"(","n":)" + std::to_string(i) + ",";
      doc.replace(0, doc.find(R"("price")"), head);
      docs.push_back(doc);
    }
    c.add(docs).execute();
    finds_plain(c, 10); // warm-up
  }
  std::printf("%s,\"ping_ms\":%.4f}\n", json_head(rtt_ms, "none", "ping").c_str(), ping_ms(s));
  std::fflush(stdout);

  std::vector<std::string> modes{"plain"};
#ifndef MYSQLX_BENCH_PEER
  modes.emplace_back("async");
#endif
  std::vector<sample> samples;
  for (int rep = 1; rep <= o.reps; ++rep) {
    for (const auto& w : o.workloads) {
      // Alternating which mode goes first, as the server's state drifts.
      std::vector<std::string> order = modes;
      if (rep % 2 == 0) std::reverse(order.begin(), order.end());
      for (const auto& m : order) {
        std::string what = w;
        what += " " + m;
        what += " at " + number(rtt_ms) + " ms";
        const bench_watchdog::watch guard(what);
        const double secs = run_once(s, o, w, m);
        samples.push_back({w, m, secs});
        std::printf("%s,\"ops\":%d,\"rep\":%d,\"seconds\":%.6f,\"ops_per_s\":%.1f}\n",
                    json_head(rtt_ms, w, m).c_str(), o.ops, rep, secs, o.ops / secs);
        std::fflush(stdout);
        std::fprintf(stderr, "%s: rtt %s ms %s %s: %.0f ops/s\n", k_name, number(rtt_ms).c_str(),
                     w.c_str(), m.c_str(), o.ops / secs);
      }
    }
  }
  for (const auto& w : o.workloads) {
    std::string line = json_head(rtt_ms, w, "summary") + ",\"reps\":" + std::to_string(o.reps);
    double plain = 0;
    for (const auto& m : modes) {
      std::vector<double> secs;
      for (const auto& smp : samples)
        if (smp.workload == w && smp.mode == m) secs.push_back(smp.seconds);
      const double ops_per_s = o.ops / median(secs);
      line += ",\"" + m + "_ops_per_s\":" + number(ops_per_s);
      if (m == "plain")
        plain = ops_per_s;
      else
        line += ",\"ratio\":" + number(ops_per_s / plain);
    }
    std::printf("%s}\n", line.c_str());
  }
  std::fflush(stdout);
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(item);
  return out;
}

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: %s [--uri URI --rtt-ms X] [--delays D,...] [--reps N] [--ops N]\n"
               "       [--window N] [--workloads find,add,txadd]\n",
               k_name);
  std::exit(2);
}

options parse(int argc, char** argv) {
  options o;
  if (const char* port = std::getenv("MYSQLX_BENCH_PORT")) o.port = std::atoi(port);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    // `./dev bench` passes its arguments to every benchmark: Google
    // Benchmark's are not ours.
    if (a.rfind("--benchmark_", 0) == 0) continue;
    if (i + 1 >= argc) usage();
    const std::string v = argv[++i];
    if (a == "--uri")
      o.uri = v;
    else if (a == "--rtt-ms")
      o.rtt_ms = std::stod(v);
    else if (a == "--reps")
      o.reps = std::stoi(v);
    else if (a == "--ops")
      o.ops = std::stoi(v);
    else if (a == "--window")
      o.window = std::stoi(v);
    else if (a == "--workloads")
      o.workloads = split(v);
    else if (a == "--delays") {
      o.delays.clear();
      for (const auto& d : split(v)) o.delays.push_back(std::stod(d));
    } else
      usage();
  }
  for (const auto& w : o.workloads)
    if (w != "find" && w != "add" && w != "txadd") usage();
  if (o.reps < 1 || o.ops < 1 || o.window < 1) usage();
  return o;
}

} // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  bench_watchdog::start(k_name, 120, stop_everything);
  try {
    if (!o.uri.empty()) {
      measure(o.uri, o.rtt_ms, o);
      return 0;
    }
    const bench_server::server server(k_name, o.port, "8.0");
    std::signal(SIGINT, async_bench_stop_on_signal);
    std::signal(SIGTERM, async_bench_stop_on_signal);
    for (std::size_t i = 0; i < o.delays.size(); ++i) {
      const int port = o.port + 1 + static_cast<int>(i);
      const proxy p(std::string(k_name) + "_" + std::to_string(i + 1), port, o.port, o.delays[i]);
      measure(p.uri(), 2 * o.delays[i], o);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", k_name, e.what());
    stop_everything();
    return 1;
  }
  return 0;
}
