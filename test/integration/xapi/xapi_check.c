/* Helpers shared by the C tests of the C API (xapi_tests.h). */
#include "xapi_tests.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void xt_fail(xt_result* out, const char* file, int line, const char* fmt, ...) {
  va_list args;
  const char* slash = strrchr(file, '/');
  int n = snprintf(out->message, sizeof out->message, "%s:%d: ", slash ? slash + 1 : file, line);
  if (n < 0 || (size_t)n >= sizeof out->message) return;
  va_start(args, fmt);
  vsnprintf(out->message + n, sizeof out->message - (size_t)n, fmt, args);
  va_end(args);
}

mysqlx_session_t* xt_open_session(const xt_config* cfg, xt_result* out) {
  mysqlx_error_t* err = NULL;
  mysqlx_session_t* s = mysqlx_get_session_from_url(cfg->uri, &err);
  if (s == NULL) {
    xt_fail(out, __FILE__, __LINE__, "cannot connect to %s: %s", cfg->uri,
            err && mysqlx_error_message(err) ? mysqlx_error_message(err) : "no error");
    mysqlx_free(err);
  }
  return s;
}

mysqlx_session_options_t* xt_options(const xt_config* cfg, xt_result* out) {
  mysqlx_session_options_t* opt = mysqlx_session_options_new();
  if (opt == NULL) {
    xt_fail(out, __FILE__, __LINE__, "mysqlx_session_options_new() gave NULL");
    return NULL;
  }
  if (mysqlx_session_option_set(opt, OPT_HOST(cfg->host), OPT_PORT(cfg->port), OPT_USER(cfg->user),
                                OPT_PWD(cfg->password), PARAM_END) != RESULT_OK) {
    xt_fail(out, __FILE__, __LINE__, "options: %s", mysqlx_error_message(opt));
    mysqlx_free_options(opt);
    return NULL;
  }
  return opt;
}

/* Runs SQL that must succeed; frees its result. */
int xt_run(mysqlx_session_t* s, const char* sql, xt_result* out) {
  mysqlx_result_t* r = mysqlx_sql(s, sql, MYSQLX_NULL_TERMINATED);
  if (r == NULL) {
    xt_fail(out, __FILE__, __LINE__, "%s: %s", sql, mysqlx_error_message(s));
    return 0;
  }
  mysqlx_free(r);
  return 1;
}
