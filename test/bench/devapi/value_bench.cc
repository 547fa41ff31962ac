// CPU cost of the session-free data path: reading documents (DbDoc parse and
// field access) and converting row values, per item.
#include <benchmark/benchmark.h>
#include <mysqlx/value.h>
#include <string>

namespace {

const std::string doc_100_bytes =
    R"({"_id": "00005e1b0e3a0000000000000001", "item": "fountain pen", "price": 12.5, "qty": 3})";

void BM_DbDocParseAndRead(benchmark::State& state) {
  for (auto _ : state) {
    mysqlx::DbDoc d(doc_100_bytes);
    double price = d["price"];
    int qty = d["qty"];
    benchmark::DoNotOptimize(price + qty);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * doc_100_bytes.size()));
}
BENCHMARK(BM_DbDocParseAndRead);

void BM_DbDocPassThrough(benchmark::State& state) { // a document only handed on: never parsed
  for (auto _ : state) {
    mysqlx::DbDoc d(doc_100_bytes);
    benchmark::DoNotOptimize(d);
  }
}
BENCHMARK(BM_DbDocPassThrough);

void BM_ValueConversions(benchmark::State& state) {
  const mysqlx::Value i(std::int64_t{42}), s(std::string("name")), d(2.5);
  for (auto _ : state) {
    int a = i;
    std::string b = s;
    double c = d;
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_ValueConversions);

} // namespace

BENCHMARK_MAIN();
