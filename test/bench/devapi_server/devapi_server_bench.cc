// Issue 6: the connector's own cost against a live server (xserverd, 8.0
// mode, started by this program and stopped at exit; port 33186, or 33187 for
// the peer build, or $MYSQLX_BENCH_PORT).
//
// The same source builds twice: bench_devapi_server against libmysqlx, and
// bench_devapi_server_peer against the official Connector/C++ 8.3
// (MYSQLX_BENCH_PEER, built by test/conformance/cpp/peer_programs with the
// peer that build_peer.sh installs). Only the public X DevAPI is used; what
// only libmysqlx has is under #ifndef MYSQLX_BENCH_PEER.
//
// CPU figures of BM_Add, BM_AddClientIds, BM_AddDefaults and BM_Find are the
// client process's user + system time only (MeasureProcessCPUTime():
// getrusage(RUSAGE_SELF)), so xserverd's and MariaDB's work is excluded;
// `cpu_per_doc` is that time divided by the documents handled (target for
// bulk add: <= 1 us). Documents are 100 bytes of JSON text without `_id`.
// Sessions use ssl-mode=disabled and compression=disabled so the connector's
// work is what is measured; BM_Add/defaults repeats the bulk add with TLS and
// compression as a user gets them by default.
//
// BM_AddCompression/<c> and BM_FindCompression/<c> measure the same bulk add
// and find with compression off or REQUIRED with one algorithm (no TLS), in
// CPU time of the benchmarking thread (Google Benchmark's default), so
// `cpu_per_doc` is the client thread's CPU per document.
//
// BM_FindBound/reused and /fresh: wall time of a find by a bound value with
// one statement object (prepared after its first run) or a new one each
// time (plain).
//
// BM_TlsFetch and BM_TlsAddOne (issue 13) use TLS and no compression, as
// users get them by default from a server without compression, in process
// CPU time: BM_TlsFetch fetches 11,000 documents of 120 bytes (the `_id`
// the server adds included) and reads one field of each through DbDoc;
// BM_TlsAddOne adds one document per execute(), 20,000 times (3,000 gave
// runs too short to compare). test/bench/devapi_server/
// compare.py runs both builds against one xserverd ($MYSQLX_BENCH_URI) and
// prints ours, the official client's and the ratio.
//
// BM_RoundTripsSingleAdd runs single-document add().execute() through a
// counting TCP proxy (counting_proxy.h) and reports request/reply flights
// and frames per add, counted on the wire.
//
// BM_Pool/threads:<n>: sessions and single adds per second of wall time
// through one Client (POOL_MAX_SIZE 8) shared by 1, 8 or 64 threads.
#include "test/bench/devapi_server/counting_proxy.h"
#include "test/bench/hang_watchdog.h"
#include "test/bench/xserver/bench_server.h"

#include <algorithm>
#include <atomic>
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <mysqlx/xdevapi.h>
#include <string>
#include <thread>
#include <vector>

namespace {

#ifdef MYSQLX_BENCH_PEER
constexpr const char* k_name = "bench_devapi_server_peer";
constexpr int k_default_port = 33187;
#else
constexpr const char* k_name = "bench_devapi_server";
constexpr int k_default_port = 33186;
#endif
constexpr const char* k_plain = "?ssl-mode=disabled&compression=disabled";
std::unique_ptr<bench_server::server> g_server;
std::string g_uri; // the server's mysqlx:// URI, without options
int g_port = k_default_port;
unsigned g_next_doc = 0;

// Runs one benchmark body under the watchdog; an exception (a session the
// server refuses, say) skips this benchmark with its message, not the rest.
template <class F> void guarded(benchmark::State& state, const std::string& what, F body) {
  const bench_watchdog::watch w(what);
  try {
    body();
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

std::string uri_on_port(int port) {
  std::string uri = g_uri;
  return uri.substr(0, uri.rfind(':') + 1) + std::to_string(port);
}

// The session's TLS version and cipher as the server reports them
// ("TLSv1.3 TLS_AES_128_GCM_SHA256"), or "no TLS": compare.py checks that
// both builds negotiated the same, or their CPU is not comparable.
std::string tls_label(mysqlx::Session& s) {
  std::string version, cipher;
  for (mysqlx::Row row : s.sql("SHOW STATUS LIKE 'Mysqlx_ssl_%'").execute()) {
    const std::string name = row[0].get<std::string>();
    if (name == "Mysqlx_ssl_version") version = row[1].get<std::string>();
    if (name == "Mysqlx_ssl_cipher") cipher = row[1].get<std::string>();
  }
  return version.empty() ? "no TLS" : version + " " + cipher;
}

void set_per_doc(benchmark::State& state, std::int64_t docs_per_iteration) {
  state.SetItemsProcessed(state.iterations() * docs_per_iteration);
  state.counters["cpu_per_doc"] =
      benchmark::Counter(static_cast<double>(state.iterations() * docs_per_iteration),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  // The documents of the whole run, so that compare.py --callgrind can divide
  // the measured loop's instructions by them.
  state.counters["docs"] = static_cast<double>(state.iterations() * docs_per_iteration);
}

// The measured loops are functions of their own, never inlined, so that
// callgrind can count exactly them in both builds:
//   valgrind --tool=callgrind --toggle-collect='*add_loop*' bench_devapi_server ...
[[gnu::noinline]] void add_loop(benchmark::State& state, mysqlx::Collection& c,
                                const std::vector<std::vector<std::string>>& batches) {
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& docs = batches[i++ % batches.size()];
    const mysqlx::Result r = c.add(docs).execute();
    if (r.getAffectedItemsCount() != docs.size()) state.SkipWithError("add: wrong affected count");
  }
}

// The documents are the user's, not the connector's cost: every batch is
// made before the timed loop. (Pausing the timer around making them inside
// the loop cost each iteration four clock reads, system calls for process CPU
// time, counted in both clients' figures.)
std::vector<std::vector<std::string>> make_batches(benchmark::State& state, unsigned n) {
  std::vector<std::vector<std::string>> batches;
  const auto count = std::max<benchmark::IterationCount>(state.max_iterations, 1);
  batches.reserve(static_cast<std::size_t>(count));
  for (benchmark::IterationCount i = 0; i < count; ++i) {
    batches.push_back(bench_server::documents(g_next_doc, n));
    g_next_doc += n;
  }
  return batches;
}

void run_adds(benchmark::State& state, const std::string& options, const std::string& collection) {
  guarded(state, "add " + collection, [&] {
    mysqlx::Session s(g_uri + options);
    // Each run starts from an empty collection: otherwise every run adds to
    // the table the runs before it filled, the server's work per add grows
    // with it (and with it the cache misses it causes the client), and in
    // compare.py the build that runs second in each round would always meet
    // the bigger table.
    mysqlx::Schema bench = s.getSchema("bench");
    bench.dropCollection(collection);
    mysqlx::Collection c = bench.createCollection(collection);
    const auto batches = make_batches(state, static_cast<unsigned>(state.range(0)));
    add_loop(state, c, batches);
    set_per_doc(state, state.range(0));
    state.SetLabel(tls_label(s));
  });
}

// Server-generated ids (8.0): documents go out without `_id`.
void BM_Add(benchmark::State& state) {
  run_adds(state, k_plain, "add_server_ids");
}
BENCHMARK(BM_Add)->Arg(1)->Iterations(2000)->MeasureProcessCPUTime();
BENCHMARK(BM_Add)->Arg(100)->Iterations(200)->MeasureProcessCPUTime();
BENCHMARK(BM_Add)->Arg(10000)->Iterations(10)->MeasureProcessCPUTime();

#ifndef MYSQLX_BENCH_PEER
// docid-mode=client (ours): the connector generates each id and splices it in.
void BM_AddClientIds(benchmark::State& state) {
  run_adds(state, std::string(k_plain) + "&docid-mode=client", "add_client_ids");
}
BENCHMARK(BM_AddClientIds)->Arg(10000)->Iterations(10)->MeasureProcessCPUTime();
#endif

// Default options: TLS and (when the server offers it) compression.
void BM_AddDefaults(benchmark::State& state) {
  run_adds(state, "", "add_defaults");
}
BENCHMARK(BM_AddDefaults)->Arg(10000)->Iterations(10)->MeasureProcessCPUTime();

// find() of a 10,000-document collection, every document fetched. The
// collection is filled first, through a plain session of its own.
[[gnu::noinline]] void find_loop(benchmark::State& state, mysqlx::Collection& c, unsigned n) {
  for (auto _ : state) {
    mysqlx::DocResult r = c.find().execute();
    const std::vector<mysqlx::DbDoc> docs = r.fetchAll();
    if (docs.size() != n) state.SkipWithError("find: wrong document count");
    benchmark::DoNotOptimize(docs.data());
  }
}

void run_finds(benchmark::State& state, const std::string& options) {
  guarded(state, "find " + options, [&] {
    const auto n = static_cast<unsigned>(state.range(0));
    {
      mysqlx::Session filler(g_uri + k_plain);
      mysqlx::Collection c = filler.getSchema("bench").createCollection("find_source", true);
      if (c.count() != n) {
        c.remove("true").execute();
        c.add(bench_server::documents(0, n)).execute();
      }
    }
    mysqlx::Session s(g_uri + options);
    mysqlx::Collection c = s.getSchema("bench").getCollection("find_source");
    find_loop(state, c, n);
    set_per_doc(state, n);
  });
}

void BM_Find(benchmark::State& state) {
  run_finds(state, k_plain);
}
BENCHMARK(BM_Find)->Arg(10000)->Iterations(20)->MeasureProcessCPUTime();

constexpr const char* k_tls = "?ssl-mode=required&compression=disabled";
constexpr unsigned k_tls_fetch_docs = 11000;
// 83 bytes of JSON text + the 37 of `"_id":"<28 hex>",` = 120 bytes stored.
constexpr std::size_t k_tls_fetch_doc_size = 83;

// Every document fetched and its field `n` read as an integer: what an
// application does with a result, so DbDoc's field access is in the cost.
[[gnu::noinline]] void find_field_loop(benchmark::State& state, mysqlx::Collection& c, unsigned n) {
  for (auto _ : state) {
    mysqlx::DocResult r = c.find().execute();
    std::int64_t sum = 0;
    unsigned docs = 0;
    for (mysqlx::DbDoc d = r.fetchOne(); !d.isNull(); d = r.fetchOne()) {
      sum += d["n"].get<std::int64_t>();
      ++docs;
    }
    if (docs != n) state.SkipWithError("find: wrong document count");
    benchmark::DoNotOptimize(sum);
  }
}

void BM_TlsFetch(benchmark::State& state) {
  guarded(state, "TLS fetch", [&] {
    {
      mysqlx::Session filler(g_uri + k_plain);
      mysqlx::Collection c = filler.getSchema("bench").createCollection("tls_fetch_source", true);
      if (c.count() != k_tls_fetch_docs) {
        c.remove("true").execute();
        c.add(bench_server::documents(0, k_tls_fetch_docs, k_tls_fetch_doc_size)).execute();
      }
    }
    mysqlx::Session s(g_uri + k_tls);
    mysqlx::Collection c = s.getSchema("bench").getCollection("tls_fetch_source");
    find_field_loop(state, c, k_tls_fetch_docs);
    set_per_doc(state, k_tls_fetch_docs);
    state.SetLabel(tls_label(s));
  });
}
BENCHMARK(BM_TlsFetch)->Iterations(30)->MeasureProcessCPUTime();

void BM_TlsAddOne(benchmark::State& state) {
  run_adds(state, k_tls, "tls_add_one");
}
BENCHMARK(BM_TlsAddOne)->Arg(1)->Iterations(20000)->MeasureProcessCPUTime();

// find("n = :n") of one document among 10, bound to another value each
// time: through one statement object (prepared on its second run, then
// Prepare.Execute of the server-side statement) or a new object each time
// (always a plain Crud.Find). Wall time per find, the server's included.
[[gnu::noinline]] void bound_find_loop(benchmark::State& state, mysqlx::Collection& c, bool reuse) {
  mysqlx::CollectionFind once = c.find("n = :n");
  int i = 0;
  for (auto _ : state) {
    const int n = 10000000 + i++ % 10;
    mysqlx::DocResult r =
        reuse ? once.bind("n", n).execute() : c.find("n = :n").bind("n", n).execute();
    if (r.count() != 1) state.SkipWithError("find: wrong document count");
  }
}

void BM_FindBound(benchmark::State& state, bool reuse) {
  guarded(state, "bound find", [&] {
    mysqlx::Session s(g_uri + k_plain);
    mysqlx::Collection c = s.getSchema("bench").createCollection("bound_source", true);
    if (c.count() != 10) {
      c.remove("true").execute();
      c.add(bench_server::documents(0, 10)).execute();
    }
    bound_find_loop(state, c, reuse);
  });
}
BENCHMARK_CAPTURE(BM_FindBound, reused, true)->Iterations(3000)->UseRealTime();
BENCHMARK_CAPTURE(BM_FindBound, fresh, false)->Iterations(3000)->UseRealTime();

// Compression off, or REQUIRED with one algorithm; thread CPU time.
std::string compression_options(const std::string& algorithm) {
  if (algorithm == "off") return k_plain;
  return "?ssl-mode=disabled&compression=required&compression-algorithms=" + algorithm;
}

void BM_AddCompression(benchmark::State& state, const char* algorithm) {
  run_adds(state, compression_options(algorithm), std::string("add_") + algorithm);
}
void BM_FindCompression(benchmark::State& state, const char* algorithm) {
  run_finds(state, compression_options(algorithm));
}
#define MYSQLX_BENCH_COMPRESSION(algorithm)                                                        \
  BENCHMARK_CAPTURE(BM_AddCompression, algorithm, #algorithm)->Arg(10000)->Iterations(10);         \
  BENCHMARK_CAPTURE(BM_FindCompression, algorithm, #algorithm)->Arg(10000)->Iterations(20)
MYSQLX_BENCH_COMPRESSION(off);
MYSQLX_BENCH_COMPRESSION(zstd_stream);
MYSQLX_BENCH_COMPRESSION(lz4_message);
MYSQLX_BENCH_COMPRESSION(deflate_stream);

// Round trips of one single-document add().execute(), counted on the wire;
// the session's handshake is not included.
void BM_RoundTripsSingleAdd(benchmark::State& state) {
  guarded(state, "round trips", [&] {
    bench_server::counting_proxy proxy(g_port);
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
  });
}
BENCHMARK(BM_RoundTripsSingleAdd)->Iterations(200);

// Issue 14: pool throughput. One Client of at most 8 connections shared by
// 1, 8 or 64 threads; each thread repeatedly takes a session (an idle
// connection, reset with Session.Reset), adds 4 single documents and gives
// the session back. Wall time; `sessions_per_s` and `adds_per_s` are for all
// threads together. POOL_QUEUE_TIMEOUT is 0 (wait as long as it takes), so
// every cycle completes.
constexpr int k_pool_cycles = 512; // per iteration, split among the threads
constexpr int k_pool_adds = 4;     // per session

void BM_Pool(benchmark::State& state) {
  guarded(state, "pool", [&] {
    const int threads = static_cast<int>(state.range(0));
    mysqlx::Client client =
        mysqlx::getClient(g_server->uri() + k_plain, mysqlx::ClientOption::POOL_MAX_SIZE, 8,
                          mysqlx::ClientOption::POOL_QUEUE_TIMEOUT, 0);
    client.getSession().getSchema("bench").createCollection("pool", true);
    std::atomic<int> failures{0};
    for (auto _ : state) {
      std::vector<std::thread> workers;
      workers.reserve(static_cast<std::size_t>(threads));
      for (int t = 0; t < threads; ++t)
        workers.emplace_back([&, t] {
          try {
            for (int i = t; i < k_pool_cycles; i += threads) {
              mysqlx::Session s = client.getSession();
              mysqlx::Collection c = s.getSchema("bench").getCollection("pool");
              for (int a = 0; a < k_pool_adds; ++a)
                if (c.add(bench_server::document(static_cast<unsigned>(i * k_pool_adds + a)))
                        .execute()
                        .getAffectedItemsCount() != 1)
                  ++failures;
            }
          } catch (const std::exception&) {
            ++failures;
          }
        });
      for (auto& w : workers) w.join();
    }
    if (failures.load() != 0) state.SkipWithError("pool: a cycle failed");
    const double cycles = static_cast<double>(state.iterations() * k_pool_cycles);
    state.counters["sessions_per_s"] = benchmark::Counter(cycles, benchmark::Counter::kIsRate);
    state.counters["adds_per_s"] =
        benchmark::Counter(cycles * k_pool_adds, benchmark::Counter::kIsRate);
  });
}
BENCHMARK(BM_Pool)->Arg(1)->Arg(8)->Arg(64)->ArgName("threads")->Iterations(3)->UseRealTime();

} // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (const char* port = std::getenv("MYSQLX_BENCH_PORT")) g_port = std::atoi(port);
  bench_watchdog::start(k_name, 300, [] {
    if (!bench_server::stop_command().empty())
      (void)std::system(bench_server::stop_command().c_str());
  });
  try {
    // $MYSQLX_BENCH_URI: a running server (compare.py's), shared by both builds.
    if (const char* uri = std::getenv("MYSQLX_BENCH_URI")) {
      g_uri = uri;
    } else {
      g_server = std::make_unique<bench_server::server>(k_name, g_port, "8.0");
      g_uri = g_server->uri();
    }
    mysqlx::Session(g_uri + k_plain).createSchema("bench", true);
    benchmark::RunSpecifiedBenchmarks();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", k_name, e.what());
    g_server.reset();
    return 1;
  }
  g_server.reset(); // stops the server
  benchmark::Shutdown();
  return 0;
}
