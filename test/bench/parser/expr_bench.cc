// Expression parsing speed. Target (issue 5): a typical 100-character
// condition parses in <= 2 us. The output message is reused across
// iterations, as a statement object reusing its Find message would.
#include "cdk/parser/expr_parser.h"
#include "cdk/parser/expr_printer.h"
#include "mysqlx_crud.pb.h"
#include "mysqlx_expr.pb.h"

#include <benchmark/benchmark.h>
#include <string>
#include <string_view>

namespace {

// 100 characters: paths, placeholders, a string, a list, a function call.
constexpr const char* k_condition = "age > :min AND name LIKE 'a%' AND address.city IN ('Oslo', "
                                    "'Rome') OR score * 2 >= avg(a.b[0]) + 100";
static_assert(std::string_view(k_condition).size() == 100);

void BM_ParseCondition(benchmark::State& state) {
  Mysqlx::Expr::Expr e;
  cdk::placeholder_map ph;
  for (auto _ : state) {
    ph.clear();
    const cdk::status st = cdk::parse_expr(k_condition, cdk::expr_mode::document, ph, e);
    benchmark::DoNotOptimize(st);
    benchmark::DoNotOptimize(e);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 100);
}
BENCHMARK(BM_ParseCondition);

void BM_ParseConditionFreshMessage(benchmark::State& state) {
  for (auto _ : state) {
    Mysqlx::Expr::Expr e;
    cdk::placeholder_map ph;
    const cdk::status st = cdk::parse_expr(k_condition, cdk::expr_mode::document, ph, e);
    benchmark::DoNotOptimize(st);
    benchmark::DoNotOptimize(e);
  }
}
BENCHMARK(BM_ParseConditionFreshMessage);

// A reused message whose previous tree has another shape: the writer then
// clears and adds sub-messages instead of overwriting like ones. Two
// 100-character conditions alternate, so each parse meets the other's tree.
void BM_ParseConditionAlternating(benchmark::State& state) {
  constexpr const char* other = "NOT (price BETWEEN 10 AND 20) OR tags[*] OVERLAPS ['a','b'] "
                                "OR CAST(:v AS SIGNED) = $.x XOR {'k': 1}";
  static_assert(std::string_view(other).size() == 100);
  const char* texts[2] = {k_condition, other};
  Mysqlx::Expr::Expr e;
  cdk::placeholder_map ph;
  std::size_t i = 0;
  for (auto _ : state) {
    ph.clear();
    const cdk::status st = cdk::parse_expr(texts[i++ & 1], cdk::expr_mode::document, ph, e);
    benchmark::DoNotOptimize(st);
    benchmark::DoNotOptimize(e);
  }
  if (!cdk::parse_expr(other, cdk::expr_mode::document, ph, e).ok())
    state.SkipWithError("the other condition does not parse");
}
BENCHMARK(BM_ParseConditionAlternating);

void BM_ParseConditionArena(benchmark::State& state) {
  for (auto _ : state) {
    google::protobuf::Arena arena;
    auto* e = google::protobuf::Arena::CreateMessage<Mysqlx::Expr::Expr>(&arena);
    cdk::placeholder_map ph;
    const cdk::status st = cdk::parse_expr(k_condition, cdk::expr_mode::document, ph, *e);
    benchmark::DoNotOptimize(st);
    benchmark::DoNotOptimize(e);
  }
}
BENCHMARK(BM_ParseConditionArena);

void BM_ParseTableCondition(benchmark::State& state) {
  constexpr const char* cond = "t.price * t.qty > :limit AND doc->>'$.status' = 'open'";
  Mysqlx::Expr::Expr e;
  cdk::placeholder_map ph;
  for (auto _ : state) {
    ph.clear();
    benchmark::DoNotOptimize(cdk::parse_expr(cond, cdk::expr_mode::table, ph, e));
  }
}
BENCHMARK(BM_ParseTableCondition);

void BM_ParseError(benchmark::State& state) {
  Mysqlx::Expr::Expr e;
  cdk::placeholder_map ph;
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        cdk::parse_expr("age > :min AND (name LIKE 'a%'", cdk::expr_mode::document, ph, e));
  }
}
BENCHMARK(BM_ParseError);

void BM_PrintCondition(benchmark::State& state) {
  Mysqlx::Expr::Expr e;
  cdk::placeholder_map ph;
  if (!cdk::parse_expr(k_condition, cdk::expr_mode::document, ph, e).ok()) {
    state.SkipWithError("parse failed");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(cdk::print_expr(e, &ph));
}
BENCHMARK(BM_PrintCondition);

void BM_ParseSortAndProjection(benchmark::State& state) {
  Mysqlx::Crud::Order o;
  Mysqlx::Crud::Projection p;
  cdk::placeholder_map ph;
  for (auto _ : state) {
    benchmark::DoNotOptimize(cdk::parse_sort("a.b DESC", cdk::expr_mode::document, ph, o));
    benchmark::DoNotOptimize(
        cdk::parse_projection("a.b + 1 AS c", cdk::expr_mode::document, ph, p));
  }
}
BENCHMARK(BM_ParseSortAndProjection);

} // namespace
