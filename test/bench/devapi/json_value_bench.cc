// CPU cost of reading JSON into Values: DbDoc parsing of documents of the
// shapes find() returns (flat, nested, array-heavy), per document; and of
// turning row fields of DECIMAL, DATETIME and JSON-array columns into Values
// (detail::to_value, private header), per field.
#include "devapi/result_convert.h"

#include <benchmark/benchmark.h>
#include <mysqlx/value.h>
#include <string>

namespace {

// A flat 10-field order, ~300 bytes.
const std::string flat_doc =
    R"({"_id": "00005e1b0e3a0000000000000001", "item": "fountain pen", "price": 12.5,)"
    R"( "qty": 3, "paid": true, "note": null, "customer": "Ana Lucia Pereira",)"
    R"( "city": "Porto", "zip": "4000-123", "created": "2024-01-02 03:04:05"})";

// Nested documents and arrays, ~2 KB.
std::string nested_doc() {
  std::string d = R"({"_id": "00005e1b0e3a0000000000000002", "lines": [)";
  for (int i = 0; i < 12; ++i) {
    if (i) d += ", ";
    d += R"({"sku": "SKU-)" + std::to_string(1000 + i) + R"(", "qty": )" + std::to_string(i + 1) +
         R"(, "price": 1.25, "tags": ["a", "b", "c"], "dims": {"w": 1, "h": 2.5}})";
  }
  d += R"(], "address": {"street": "Rua das Flores 12", "city": "Porto", "geo": [41.14, -8.61]}})";
  return d;
}

void BM_DbDocFlatParse(benchmark::State& state) {
  for (auto _ : state) {
    mysqlx::DbDoc d(flat_doc);
    benchmark::DoNotOptimize(d["qty"].getType());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * flat_doc.size()));
}
BENCHMARK(BM_DbDocFlatParse);

void BM_DbDocNestedParse(benchmark::State& state) {
  const std::string text = nested_doc();
  for (auto _ : state) {
    mysqlx::DbDoc d(text);
    benchmark::DoNotOptimize(d["lines"][5]["dims"]["h"].getType());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_DbDocNestedParse);

namespace pr = cdk::protocol;

pr::column_meta column(pr::field_type t, std::uint32_t content_type = 0) {
  pr::column_meta c;
  c.type = t;
  c.content_type = content_type;
  c.collation = 63;
  return c;
}

void BM_RowDecimal(benchmark::State& state) {
  const auto c = column(pr::field_type::decimal);
  const pr::value v = pr::value::of_string("-12345.67");
  for (auto _ : state) {
    mysqlx::Value x = mysqlx::detail::to_value(v, c);
    benchmark::DoNotOptimize(x.get<double>());
  }
}
BENCHMARK(BM_RowDecimal);

void BM_RowDatetime(benchmark::State& state) {
  const auto c = column(pr::field_type::datetime, 2);
  const pr::value v = pr::value::of_string("2024-01-02 03:04:05.000006");
  for (auto _ : state) {
    mysqlx::Value x = mysqlx::detail::to_value(v, c);
    benchmark::DoNotOptimize(x.getRawBytes().size());
  }
}
BENCHMARK(BM_RowDatetime);

void BM_RowJsonArray(benchmark::State& state) {
  const auto c = column(pr::field_type::bytes, 2);
  pr::value v;
  v.type = pr::value::kind::octets;
  v.content_type = 2;
  v.bytes = R"([1, "two", 3.5, {"four": 4}, [5, 6], true, null, "eight"])";
  for (auto _ : state) {
    mysqlx::Value x = mysqlx::detail::to_value(v, c);
    benchmark::DoNotOptimize(x.elementCount());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * v.bytes.size()));
}
BENCHMARK(BM_RowJsonArray);

} // namespace

BENCHMARK_MAIN();
