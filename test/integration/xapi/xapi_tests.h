/* The C API's integration tests: written in C (xapi_tests.c, compiled as
   C99) and run by a thin gtest driver (xapi_it_test.cc), which gives each
   test its server and reports what failed. */
#ifndef XAPI_TESTS_H
#define XAPI_TESTS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where a test runs. */
typedef struct xt_config {
  const char* uri;  /* mysqlx://user:pwd@host:port, with any options */
  const char* host; /* the same server, for mysqlx_get_session() */
  int port;
  const char* user;
  const char* password;
  const char* schema; /* a schema of the test's own, holding collection "docs" */
  size_t id_length;   /* generated ids: 28 (server) or 32 (connector) */
  int server_57;      /* 1 on the 5.7-mode server (no merge patch there) */
} xt_config;

/* What a test reports: empty when it passed, else the first failed check. */
typedef struct xt_result {
  char message[1024];
} xt_result;

typedef void xt_test_fn(const xt_config* cfg, xt_result* out);

#ifndef __cplusplus
#include <mysqlx/xapi.h>

/* Records a failure at file:line in `out` (printf-style message). */
void xt_fail(xt_result* out, const char* file, int line, const char* fmt, ...);
/* A session to cfg->uri, or NULL with the failure in `out`. */
mysqlx_session_t* xt_open_session(const xt_config* cfg, xt_result* out);
/* Session options for cfg's server, user and password, or NULL with the
   failure in `out`; the caller frees them (mysqlx_free_options()). */
mysqlx_session_options_t* xt_options(const xt_config* cfg, xt_result* out);
/* Runs SQL that must succeed and frees its result; 0 with the failure in `out`. */
int xt_run(mysqlx_session_t* s, const char* sql, xt_result* out);

/* Checks `cond`; on failure records it (and the handle's error, if any) and
   leaves the test. Leaves handles open: the driver's process ends anyway. */
#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      xt_fail(out, __FILE__, __LINE__, "%s", #cond);                                               \
      return;                                                                                      \
    }                                                                                              \
  } while (0)
#define CHECK_H(cond, handle)                                                                      \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      const char* m_ = mysqlx_error_message(handle);                                               \
      xt_fail(out, __FILE__, __LINE__, "%s (error %u: %s)", #cond, mysqlx_error_num(handle),       \
              m_ ? m_ : "none");                                                                   \
      return;                                                                                      \
    }                                                                                              \
  } while (0)

#endif

xt_test_fn xt_connect_failures;
xt_test_fn xt_connect_host_port;
xt_test_fn xt_sql_values;
xt_test_fn xt_sql_errors;
xt_test_fn xt_store_result;
xt_test_fn xt_schema_and_collection_handles;
xt_test_fn xt_add_generated_ids;
xt_test_fn xt_add_errors;
xt_test_fn xt_find_json;
xt_test_fn xt_close_frees_everything;
xt_test_fn xt_sql_param;
xt_test_fn xt_transactions;
xt_test_fn xt_schema_collection_ddl;
xt_test_fn xt_result_sets_and_counts;
xt_test_fn xt_column_metadata;
xt_test_fn xt_warnings;
xt_test_fn xt_client_pool;
xt_test_fn xt_statements;
xt_test_fn xt_modify;
xt_test_fn xt_sql_statement;
/* xapi_table_tests.c */
xt_test_fn xt_session_options;
xt_test_fn xt_table_one_shot;
xt_test_fn xt_table_statements;
xt_test_fn xt_listings;
xt_test_fn xt_collection_options_and_indexes;
xt_test_fn xt_find_grouping_and_locks;
/* xapi_session_tests.c */
xt_test_fn xt_unconnectable_options;
xt_test_fn xt_several_threads;

#ifdef __cplusplus
}
#endif

#endif
