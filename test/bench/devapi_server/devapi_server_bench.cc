// Issue 6: the connector's own cost against a live server (xserverd, 8.0
// mode, started on port 33186 by this program and stopped at exit).
//
// CPU figures are the client process's user + system time only
// (MeasureProcessCPUTime(): getrusage(RUSAGE_SELF)), so xserverd's and
// MariaDB's work is excluded; `cpu_per_doc` is that time divided by the
// documents handled (target for bulk add: <= 1 us). Documents are 100 bytes
// of JSON text without `_id`. Sessions use ssl-mode=disabled and
// compression=disabled so the connector's work is what is measured;
// BM_Add/defaults repeats the bulk add with TLS and compression as a user
// gets them by default.
//
// BM_RoundTripsSingleAdd runs single-document add().execute() through a
// counting TCP proxy (counting_proxy.h) and reports request/reply flights
// and frames per add, counted on the wire.
#include "test/bench/devapi_server/counting_proxy.h"
#include "test/bench/xserver/bench_server.h"

#include <benchmark/benchmark.h>
#include <memory>
#include <mysqlx/xdevapi.h>

namespace {

constexpr int k_port = 33186;
constexpr const char* k_plain = "?ssl-mode=disabled&compression=disabled";
std::unique_ptr<bench_server::server> g_server;
unsigned g_next_doc = 0;

std::string uri_on_port(int port) {
  std::string uri = g_server->uri();
  return uri.substr(0, uri.rfind(':') + 1) + std::to_string(port);
}

void set_per_doc(benchmark::State& state, std::int64_t docs_per_iteration) {
  state.SetItemsProcessed(state.iterations() * docs_per_iteration);
  state.counters["cpu_per_doc"] =
      benchmark::Counter(static_cast<double>(state.iterations() * docs_per_iteration),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void run_adds(benchmark::State& state, const std::string& options, const char* collection) {
  mysqlx::Session s(g_server->uri() + options);
  mysqlx::Collection c = s.getSchema("bench").createCollection(collection, true);
  const auto n = static_cast<unsigned>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming(); // documents are the user's: not the connector's cost
    const auto docs = bench_server::documents(g_next_doc, n);
    g_next_doc += n;
    state.ResumeTiming();
    const mysqlx::Result r = c.add(docs).execute();
    if (r.getAffectedItemsCount() != n) state.SkipWithError("add: wrong affected count");
  }
  set_per_doc(state, n);
}

// Server-generated ids (8.0): documents go out without `_id`.
void BM_Add(benchmark::State& state) {
  run_adds(state, k_plain, "add_server_ids");
}
BENCHMARK(BM_Add)->Arg(1)->Iterations(2000)->MeasureProcessCPUTime();
BENCHMARK(BM_Add)->Arg(100)->Iterations(200)->MeasureProcessCPUTime();
BENCHMARK(BM_Add)->Arg(10000)->Iterations(10)->MeasureProcessCPUTime();

// docid-mode=client: the connector generates each id and splices it in.
void BM_AddClientIds(benchmark::State& state) {
  run_adds(state, std::string(k_plain) + "&docid-mode=client", "add_client_ids");
}
BENCHMARK(BM_AddClientIds)->Arg(10000)->Iterations(10)->MeasureProcessCPUTime();

// Default options: TLS and (when the server offers it) compression.
void BM_AddDefaults(benchmark::State& state) {
  run_adds(state, "", "add_defaults");
}
BENCHMARK(BM_AddDefaults)->Arg(10000)->Iterations(10)->MeasureProcessCPUTime();

// find() of a 10,000-document collection, every document fetched.
void BM_Find(benchmark::State& state) {
  mysqlx::Session s(g_server->uri() + k_plain);
  mysqlx::Collection c = s.getSchema("bench").createCollection("find_source", true);
  const auto n = static_cast<unsigned>(state.range(0));
  if (c.count() != n) {
    c.remove("true").execute();
    c.add(bench_server::documents(0, n)).execute();
  }
  for (auto _ : state) {
    mysqlx::DocResult r = c.find().execute();
    const mysqlx::DocList docs = r.fetchAll();
    if (docs.size() != n) state.SkipWithError("find: wrong document count");
    benchmark::DoNotOptimize(docs.data());
  }
  set_per_doc(state, n);
}
BENCHMARK(BM_Find)->Arg(10000)->Iterations(20)->MeasureProcessCPUTime();

// Round trips of one single-document add().execute(), counted on the wire;
// the session's handshake is not included.
void BM_RoundTripsSingleAdd(benchmark::State& state) {
  bench_server::counting_proxy proxy(k_port);
  mysqlx::Session s(uri_on_port(proxy.port()) + k_plain);
  mysqlx::Collection c = s.getSchema("bench").createCollection("round_trips", true);
  c.add(bench_server::document(0)).execute(); // first use: any one-time exchange
  const auto before = proxy.snapshot();
  for (auto _ : state) {
    if (c.add(bench_server::document(++g_next_doc)).execute().getAffectedItemsCount() != 1)
      state.SkipWithError("add: wrong affected count");
  }
  const auto after = proxy.snapshot();
  const auto per_add = [&](long a, long b) {
    return static_cast<double>(b - a) / static_cast<double>(state.iterations());
  };
  state.counters["round_trips"] = per_add(before.c2s_flights, after.c2s_flights);
  state.counters["reply_flights"] = per_add(before.s2c_flights, after.s2c_flights);
  state.counters["frames_sent"] = per_add(before.c2s_frames, after.c2s_frames);
  state.counters["frames_received"] = per_add(before.s2c_frames, after.s2c_frames);
}
BENCHMARK(BM_RoundTripsSingleAdd)->Iterations(200);

} // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  try {
    g_server = std::make_unique<bench_server::server>("bench_devapi_server", k_port, "8.0");
    mysqlx::Session(g_server->uri() + k_plain).createSchema("bench", true);
    benchmark::RunSpecifiedBenchmarks();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_devapi_server: %s\n", e.what());
    g_server.reset();
    return 1;
  }
  g_server.reset(); // stops the server
  benchmark::Shutdown();
  return 0;
}
