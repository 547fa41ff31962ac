// Connection-string parsing speed. Target: <= 1 us per typical URI.
#include "cdk/parser/uri_parser.h"

#include <benchmark/benchmark.h>
#include <string>

namespace {

void run(benchmark::State& state, const std::string& uri) {
  for (auto _ : state) {
    auto r = cdk::parse_uri(uri);
    if (!r) state.SkipWithError(r.err().message.c_str());
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * uri.size()));
}

void BM_uri_typical(benchmark::State& state) {
  run(state, "mysqlx://app:secret@db.example.com:33060/shop?ssl-mode=verify_ca&ssl-ca=%2Fetc%2Fca."
             "pem&connect-timeout=5000");
}
BENCHMARK(BM_uri_typical);

void BM_uri_minimal(benchmark::State& state) {
  run(state, "app@localhost");
}
BENCHMARK(BM_uri_minimal);

void BM_uri_failover(benchmark::State& state) {
  run(state, "mysqlx://app:secret@[(address=db1.example.com:33060,priority=100),(address=[fd00::"
             "12]:33061,priority=90),(address=%2Frun%2Fmysqld%2Fx.sock,priority=10)]/shop"
             "?tls-versions=[TLSv1.2,TLSv1.3]&compression-algorithms=[zstd,lz4]"
             "&connection-attributes=[app=shop,tier=web]");
}
BENCHMARK(BM_uri_failover);

void BM_uri_parts_only(benchmark::State& state) {
  const std::string uri = "mysqlx://app:secret@db.example.com:33060/shop?ssl-mode=verify_ca&ssl-"
                          "ca=%2Fetc%2Fca.pem&connect-timeout=5000";
  for (auto _ : state) {
    auto r = cdk::parse_uri_parts(uri);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_uri_parts_only);

void BM_uri_bad_option(benchmark::State& state) {
  const std::string uri = "mysqlx://app:secret@db.example.com/shop?ssl-mode=sometimes";
  for (auto _ : state) {
    auto r = cdk::parse_uri(uri);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_uri_bad_option);

// Worst case for error quoting: a long text before the last '@' that every
// quoted value is compared with. Must stay linear, not quadratic.
void BM_uri_bad_option_long_guard(benchmark::State& state) {
  const std::string uri =
      "u:" + std::string(30000, 'p') + "@db?ssl-mode=" + std::string(30000, 'v');
  for (auto _ : state) {
    auto r = cdk::parse_uri(uri);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_uri_bad_option_long_guard);

} // namespace
