// Shared by the devapi integration tests: the three configurations and
// helpers for a fresh collection per test.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <gtest/gtest.h>
#include <mysqlx/xdevapi.h>
#include <string>

namespace devapi_it {

// A schema of the running test's own. ctest runs each case of a binary as a
// process of its own, in parallel, so two cases must never share tables: a
// name made only from the configuration let one case drop another's
// collection. The name is prefix_<hash of suite, case and parameter>, well
// under MySQL's 64-character limit.
inline std::string test_schema(const std::string& prefix) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string full = std::string(info->test_suite_name()) + "." + info->name();
  char hex[9];
  const std::size_t h = std::hash<std::string>{}(full);
  std::snprintf(hex, sizeof hex, "%08zx", h & 0xffffffffu);
  return prefix + "_" + hex;
}

struct config {
  const char* name;      // test-name suffix and schema-name part
  const char* uri_env;   // MYSQLX_TEST_URI_80 / _57
  const char* query;     // appended to the URI
  std::size_t id_length; // generated ids: 28 (server) or 32 (client)
  mysqlx::DocIdMode mode;
};

inline const config configs[] = {
    {"server80", "MYSQLX_TEST_URI_80", "", 28, mysqlx::DocIdMode::SERVER},
    {"emulated57", "MYSQLX_TEST_URI_57", "", 32, mysqlx::DocIdMode::CLIENT},
    {"client80", "MYSQLX_TEST_URI_80", "?docid-mode=client", 32, mysqlx::DocIdMode::CLIENT},
};

inline std::string env_uri(const char* var) {
  const char* v = std::getenv(var);
  return v ? v : "";
}

inline std::string uri_of(const config& c) {
  return env_uri(c.uri_env) + c.query;
}

inline bool is_lower_hex(const std::string& s) {
  for (char ch : s)
    if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'))) return false;
  return true;
}

inline std::uint64_t count_rows(mysqlx::Session& s, const std::string& schema,
                                const std::string& coll) {
  auto r = s.sql("SELECT COUNT(*) FROM `" + schema + "`.`" + coll + "`").execute();
  return r.fetchOne()[0].get<std::int64_t>();
}

} // namespace devapi_it
