// Table-driven checks shared by the sqlgen tests: each case has a name (shown
// on failure), an input, and either the exact SQL or the X Plugin's error.
#pragma once

#include "test/unit/sqlgen/builders.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace sqlgen_test {

struct outcome {
  std::string sql;        // expected SQL when code == 0
  std::uint32_t code = 0; // expected X Plugin error code
  std::string message;    // expected error text (exact)
  std::string sql_state = "HY000";
};
inline outcome sql(std::string s) {
  return outcome{std::move(s), 0, "", "HY000"};
}
inline outcome error(std::uint32_t code, std::string message, std::string state = "HY000") {
  return outcome{"", code, std::move(message), std::move(state)};
}

inline void check(const cdk::result<std::string>& got, const outcome& want) {
  if (want.code == 0) {
    ASSERT_TRUE(got.ok()) << "error " << got.err().code << ": " << got.err().message;
    EXPECT_EQ(got.value(), want.sql);
  } else {
    ASSERT_FALSE(got.ok()) << "unexpected SQL: " << got.value();
    EXPECT_EQ(got.err().code, want.code);
    EXPECT_EQ(got.err().message, want.message);
    EXPECT_EQ(got.err().sql_state, want.sql_state);
    EXPECT_FALSE(got.err().fatal);
  }
}

// Everything render_expr() needs, with placeholders' values as a vector.
struct env {
  bool relational = false;
  std::vector<Scalar> args;
  std::string schema;
  xserver::sqlgen::options opts;
};

inline cdk::result<std::string> render(const Expr& e, const env& en = {}) {
  xserver::sqlgen::arg_list args;
  for (const auto& a : en.args) *args.Add() = a;
  xserver::sqlgen::expr_context ctx{en.relational, &args, en.schema, en.opts};
  return xserver::sqlgen::render_expr(e, ctx);
}

inline env table_env() {
  env e;
  e.relational = true;
  return e;
}

inline env with_args(std::vector<Scalar> args) {
  env e;
  e.args = std::move(args);
  return e;
}

inline env v57_env(bool relational = false) {
  env e;
  e.relational = relational;
  e.opts.emulate = xserver::sqlgen::flavor::mysql57;
  return e;
}

} // namespace sqlgen_test
