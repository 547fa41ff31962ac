// Runs the C API's tests (xapi_tests.c, written in C) as gtest cases, each in
// the three configurations of the devapi tests: MySQL 8.0 mode (server ids),
// 5.7 emulation (the connector's ids), docid-mode=client on 8.0. The driver
// only prepares a fresh schema with an empty collection "docs" (through the
// C++ API) and reports what the C test found.
#include "test/integration/devapi/it_common.h"
#include "xapi_tests.h"

#include <gtest/gtest.h>
#include <mysqlx/xdevapi.h>
#include <ostream>
#include <string>

namespace devapi_it {
void PrintTo(const config& c, std::ostream* os) {
  *os << c.name;
}
} // namespace devapi_it

namespace {

using devapi_it::config;

struct xapi_case {
  const char* name;
  xt_test_fn* fn;
};

const xapi_case cases[] = {
    {"connect_failures", xt_connect_failures},
    {"connect_host_port", xt_connect_host_port},
    {"sql_values", xt_sql_values},
    {"sql_errors", xt_sql_errors},
    {"store_result", xt_store_result},
    {"schema_and_collection_handles", xt_schema_and_collection_handles},
    {"add_generated_ids", xt_add_generated_ids},
    {"add_errors", xt_add_errors},
    {"find_json", xt_find_json},
    {"close_frees_everything", xt_close_frees_everything},
    {"sql_param", xt_sql_param},
    {"transactions", xt_transactions},
    {"schema_collection_ddl", xt_schema_collection_ddl},
    {"result_sets_and_counts", xt_result_sets_and_counts},
    {"column_metadata", xt_column_metadata},
    {"warnings", xt_warnings},
    {"client_pool", xt_client_pool},
    {"statements", xt_statements},
    {"modify", xt_modify},
    {"sql_statement", xt_sql_statement},
    {"session_options", xt_session_options},
    {"table_one_shot", xt_table_one_shot},
    {"table_statements", xt_table_statements},
    {"listings", xt_listings},
    {"collection_options_and_indexes", xt_collection_options_and_indexes},
    {"find_grouping_and_locks", xt_find_grouping_and_locks},
    {"unconnectable_options", xt_unconnectable_options},
    // The name is matched by ./dev's TSAN_TESTS: CI runs it under TSan.
    {"several_threads", xt_several_threads},
};

// ctest lists each case by its name, not by the bytes of its parameters.
void PrintTo(const xapi_case& c, std::ostream* os) {
  *os << c.name;
}

class Xapi : public ::testing::TestWithParam<std::tuple<config, xapi_case>> {};

TEST_P(Xapi, RunsInC) {
  const config& c = std::get<0>(GetParam());
  const xapi_case& t = std::get<1>(GetParam());
  const std::string base = devapi_it::env_uri(c.uri_env);
  ASSERT_FALSE(base.empty()) << c.uri_env << " is not set";
  const std::string uri = devapi_it::uri_of(c);

  // mysqlx://user:password@host:port, as the fixtures write it.
  const auto scheme = base.find("://") + 3;
  const auto colon = base.find(':', scheme);
  const auto at = base.find('@', colon);
  const auto port_colon = base.rfind(':');
  const std::string user = base.substr(scheme, colon - scheme);
  const std::string password = base.substr(colon + 1, at - colon - 1);
  const std::string host = base.substr(at + 1, port_colon - at - 1);
  const int port = std::stoi(base.substr(port_colon + 1));

  const std::string schema = devapi_it::test_schema("xapi");
  {
    mysqlx::Session s(uri);
    s.dropSchema(schema);
    s.createSchema(schema).createCollection("docs");
  }

  const xt_config cfg{uri.c_str(),
                      host.c_str(),
                      port,
                      user.c_str(),
                      password.c_str(),
                      schema.c_str(),
                      c.id_length,
                      std::string(c.uri_env) == "MYSQLX_TEST_URI_57" ? 1 : 0};
  xt_result result{};
  t.fn(&cfg, &result);
  EXPECT_STREQ(result.message, "") << t.name << " on " << c.name;

  mysqlx::Session(uri).dropSchema(schema);
}

INSTANTIATE_TEST_SUITE_P(All, Xapi,
                         ::testing::Combine(::testing::ValuesIn(devapi_it::configs),
                                            ::testing::ValuesIn(cases)),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param).name) + "_" +
                                  std::get<1>(info.param).name;
                         });

} // namespace
