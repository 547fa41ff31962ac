// Targets (issue 4): <= 25 ns per id on one thread, and >= 100x faster than
// libuuid's uuid_generate_time in the same run. Compare the rows by name:
//   BM_generate/threads:1  vs  BM_uuid_generate_time
#include "cdk/docid/generator.h"
#include "cdk/json/id_inject.h"
#include "cdk/json/id_scan.h"

#include <benchmark/benchmark.h>
#include <string>
#include <uuid/uuid.h>

namespace {

// The process-wide generator, as sessions use it (default clock).
void BM_generate(benchmark::State& state) {
  auto& gen = cdk::docid::generator::process();
  char id[32];
  for (auto _ : state) {
    gen.generate(id);
    benchmark::DoNotOptimize(id);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_generate)->Threads(1)->Threads(2)->UseRealTime();

// The same with CLOCK_REALTIME read on every id: what the coarse default saves.
void BM_generate_precise_clock(benchmark::State& state) {
  static cdk::docid::generator gen(&cdk::docid::precise_system_clock(), nullptr);
  char id[32];
  for (auto _ : state) {
    gen.generate(id);
    benchmark::DoNotOptimize(id);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_generate_precise_clock)->Threads(1)->UseRealTime();

void BM_uuid_generate_time(benchmark::State& state) {
  uuid_t u;
  for (auto _ : state) {
    uuid_generate_time(u);
    benchmark::DoNotOptimize(u);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_uuid_generate_time)->UseRealTime();

void BM_uuid_generate_random(benchmark::State& state) {
  uuid_t u;
  for (auto _ : state) {
    uuid_generate_random(u);
    benchmark::DoNotOptimize(u);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_uuid_generate_random)->UseRealTime();

// A product-like document of about `size` bytes, no `_id`.
std::string make_document(std::size_t size) {
  std::string doc = R"({"name":"fountain pen","price":12.5,"stock":140,"tags":["office","ink"],)";
  for (int i = 0; doc.size() + 40 < size; ++i)
    doc += "\"attr" + std::to_string(i) + "\":\"value number " + std::to_string(i) + "\",";
  doc += R"("active":true})";
  return doc;
}

void BM_scan(benchmark::State& state) {
  const std::string doc = make_document(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    auto scan = cdk::json::scan_for_id(doc);
    benchmark::DoNotOptimize(scan);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(doc.size()));
  state.counters["doc_bytes"] = static_cast<double>(doc.size());
}
BENCHMARK(BM_scan)->Arg(200)->Arg(20 << 10);

// `_id` first: what stop_at_id saves when the application supplies ids.
void BM_scan_id_first_stop(benchmark::State& state) {
  std::string doc = make_document(static_cast<std::size_t>(state.range(0)));
  doc.insert(1, R"("_id":"user-0001",)");
  for (auto _ : state) {
    auto scan = cdk::json::scan_for_id(doc, cdk::json::scan_mode::stop_at_id);
    benchmark::DoNotOptimize(scan);
  }
  state.counters["doc_bytes"] = static_cast<double>(doc.size());
}
BENCHMARK(BM_scan_id_first_stop)->Arg(200)->Arg(20 << 10);

// Injection into a reused buffer, as add() does for a batch.
void BM_inject(benchmark::State& state) {
  const std::string doc = make_document(static_cast<std::size_t>(state.range(0)));
  const std::string id = cdk::docid::generator::process().next();
  std::string out;
  for (auto _ : state) {
    out.clear();
    auto st = cdk::json::append_with_id(out, doc, id);
    benchmark::DoNotOptimize(st);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(doc.size()));
  state.counters["doc_bytes"] = static_cast<double>(doc.size());
}
BENCHMARK(BM_inject)->Arg(200)->Arg(20 << 10);

// What add() does per document in client mode: scan, generate, inject.
void BM_scan_generate_inject(benchmark::State& state) {
  const std::string doc = make_document(static_cast<std::size_t>(state.range(0)));
  auto& gen = cdk::docid::generator::process();
  std::string out;
  char id[32];
  for (auto _ : state) {
    out.clear();
    auto scan = cdk::json::scan_for_id(doc);
    benchmark::DoNotOptimize(scan);
    gen.generate(id);
    auto st = cdk::json::append_with_id(out, doc, std::string_view(id, sizeof id));
    benchmark::DoNotOptimize(st);
  }
  state.counters["doc_bytes"] = static_cast<double>(doc.size());
}
BENCHMARK(BM_scan_generate_inject)->Arg(200)->Arg(20 << 10);

} // namespace
