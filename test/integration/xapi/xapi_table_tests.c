/* The C API from C: session options, tables, listings, collection options
   and indexes, grouping and row locks (xapi_tests.h). */
#include "xapi_tests.h"

#include <mysqlx/xapi.h>
#include <stdio.h>
#include <string.h>

/* The first column of the next row as text, into buf; 0 at the end. */
static int next_text(mysqlx_result_t* r, uint32_t col, char* buf, size_t size) {
  mysqlx_row_t* row = mysqlx_row_fetch_one(r);
  size_t len = size;
  if (row == NULL) return 0;
  buf[0] = '\0';
  if (mysqlx_get_bytes(row, col, 0, buf, &len) != RESULT_OK) return 0;
  return 1;
}

/* An int column of the next row; -1 at the end. */
static int64_t next_int(mysqlx_result_t* r, uint32_t col) {
  int64_t v = -1;
  mysqlx_row_t* row = mysqlx_row_fetch_one(r);
  if (row == NULL || mysqlx_get_sint(row, col, &v) != RESULT_OK) return -1;
  return v;
}

void xt_session_options(const xt_config* cfg, xt_result* out) {
  mysqlx_session_options_t* opt = mysqlx_session_options_new();
  mysqlx_session_t* s;
  mysqlx_client_t* cli;
  mysqlx_error_t* err = NULL;
  mysqlx_result_t* r;
  char buf[256];
  unsigned int num = 0;

  CHECK(opt != NULL);
  CHECK_H(mysqlx_session_option_set(opt, OPT_HOST(cfg->host), OPT_PORT(cfg->port),
                                    OPT_USER(cfg->user), OPT_PWD(cfg->password),
                                    OPT_SSL_MODE(SSL_MODE_REQUIRED), OPT_DB(cfg->schema),
                                    PARAM_END) == RESULT_OK,
          opt);
  CHECK_H(mysqlx_session_option_get(opt, MYSQLX_OPT_HOST, buf) == RESULT_OK, opt);
  CHECK(strcmp(buf, cfg->host) == 0);
  CHECK_H(mysqlx_session_option_get(opt, MYSQLX_OPT_PORT, &num) == RESULT_OK, opt);
  CHECK(num == (unsigned)cfg->port);
  CHECK_H(mysqlx_session_option_get(opt, MYSQLX_OPT_SSL_MODE, &num) == RESULT_OK, opt);
  CHECK(num == SSL_MODE_REQUIRED);
  CHECK_H(mysqlx_session_option_get(opt, MYSQLX_OPT_DB, buf) == RESULT_OK, opt);
  CHECK(strcmp(buf, cfg->schema) == 0);
  /* Not set; no buffer; not an option. */
  CHECK(mysqlx_session_option_get(opt, MYSQLX_OPT_AUTH, &num) == RESULT_ERROR);
  CHECK(mysqlx_error_message(opt) != NULL);
  CHECK(mysqlx_session_option_get(opt, MYSQLX_OPT_HOST, NULL) == RESULT_ERROR);
  CHECK(mysqlx_session_option_get(opt, 999, buf) == RESULT_ERROR);

  /* All or nothing: the unknown option after USER leaves USER as it was. */
  CHECK(mysqlx_session_option_set(opt, OPT_USER("someone_else"), 999, "x", PARAM_END) ==
        RESULT_ERROR);
  CHECK(strstr(mysqlx_error_message(opt), "999") != NULL);
  CHECK_H(mysqlx_session_option_get(opt, MYSQLX_OPT_USER, buf) == RESULT_OK, opt);
  CHECK(strcmp(buf, cfg->user) == 0);
  /* A value the option does not take. */
  CHECK(mysqlx_session_option_set(opt, OPT_SSL_MODE(77), PARAM_END) == RESULT_ERROR);
  CHECK_H(mysqlx_session_option_get(opt, MYSQLX_OPT_SSL_MODE, &num) == RESULT_OK, opt);
  CHECK(num == SSL_MODE_REQUIRED);

  /* Empty text: refused, except for the password and the compression
     algorithms; a NULL password unsets it; a host list with priorities
     given in one call is checked as a whole. */
  CHECK(mysqlx_session_option_set(opt, OPT_DB(""), PARAM_END) == RESULT_ERROR);
  CHECK(mysqlx_session_option_set(opt, OPT_HOST(""), PARAM_END) == RESULT_ERROR);
  CHECK(mysqlx_session_option_set(opt, OPT_USER(NULL), PARAM_END) == RESULT_ERROR);
  CHECK_H(mysqlx_session_option_set(opt, OPT_COMPRESSION_ALGORITHMS(""), PARAM_END) == RESULT_OK,
          opt);
  {
    mysqlx_session_options_t* o2 = mysqlx_session_options_new();
    CHECK_H(mysqlx_session_option_set(o2, OPT_HOST("a"), OPT_PORT(1), OPT_PRIORITY(90),
                                      OPT_HOST("b"), OPT_PRIORITY(80), PARAM_END) == RESULT_OK,
            o2);
    CHECK_H(mysqlx_session_option_get(o2, MYSQLX_OPT_HOST, buf) == RESULT_OK, o2);
    CHECK(strcmp(buf, "b") == 0); /* the last host */
    CHECK_H(mysqlx_session_option_set(o2, OPT_PWD("x"), PARAM_END) == RESULT_OK, o2);
    CHECK_H(mysqlx_session_option_set(o2, OPT_PWD(NULL), PARAM_END) == RESULT_OK, o2);
    CHECK(mysqlx_session_option_get(o2, MYSQLX_OPT_PWD, buf) == RESULT_ERROR); /* unset */
    mysqlx_free_options(o2);
  }

  /* A session from the options, with its default schema. */
  s = mysqlx_get_session_from_options(opt, &err);
  CHECK(err == NULL);
  CHECK(s != NULL);
  CHECK(mysqlx_session_valid(s) == 1);
  r = mysqlx_sql(s, "SELECT DATABASE()", MYSQLX_NULL_TERMINATED);
  CHECK_H(r != NULL, s);
  CHECK(next_text(r, 0, buf, sizeof buf) && strcmp(buf, cfg->schema) == 0);
  mysqlx_session_close(s);

  /* A client from the same options with pool options added. */
  CHECK_H(mysqlx_session_option_set(opt, OPT_POOLING(1), OPT_POOL_MAX_SIZE(2),
                                    OPT_POOL_QUEUE_TIMEOUT(5000), PARAM_END) == RESULT_OK,
          opt);
  cli = mysqlx_get_client_from_options(opt, &err);
  CHECK(cli != NULL && err == NULL);
  s = mysqlx_get_session_from_client(cli, &err);
  CHECK(s != NULL && err == NULL);
  CHECK(xt_run(s, "SELECT 1", out));
  mysqlx_session_close(s);
  mysqlx_client_close(cli);

  /* Options read from a connection string; a wrong password fails as the
     URL form does, with an error the caller owns. */
  CHECK_H(mysqlx_session_option_set(opt, MYSQLX_OPT_URI, cfg->uri, PARAM_END) == RESULT_OK, opt);
  CHECK_H(mysqlx_session_option_get(opt, MYSQLX_OPT_HOST, buf) == RESULT_OK, opt);
  CHECK(strcmp(buf, cfg->host) == 0);
  CHECK_H(mysqlx_session_option_set(opt, OPT_PWD("wrong-pw"), PARAM_END) == RESULT_OK, opt);
  s = mysqlx_get_session_from_options(opt, &err);
  CHECK(s == NULL && err != NULL && mysqlx_error_num(err) == 1045);
  mysqlx_free(err);
  mysqlx_free_options(opt);
  mysqlx_free_options(NULL);
}

/* Creates table `t` (id, name, n) in the test's schema. */
static mysqlx_table_t* make_table(mysqlx_session_t* s, const xt_config* cfg, xt_result* out) {
  char sql[256];
  mysqlx_schema_t* sch = mysqlx_get_schema(s, cfg->schema, 1);
  mysqlx_table_t* t;
  snprintf(sql, sizeof sql,
           "CREATE TABLE `%s`.t (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20), n INT)",
           cfg->schema);
  if (sch == NULL || !xt_run(s, sql, out)) return NULL;
  t = mysqlx_get_table(sch, "t", 1);
  if (t == NULL) xt_fail(out, __FILE__, __LINE__, "get_table: %s", mysqlx_error_message(sch));
  return t;
}

void xt_table_one_shot(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_schema_t* sch;
  mysqlx_table_t* t;
  mysqlx_result_t* r;
  uint64_t count = 0;
  char buf[64];

  if (s == NULL) return;
  t = make_table(s, cfg, out);
  if (t == NULL) return;
  sch = mysqlx_get_schema(s, cfg->schema, 0);
  CHECK(mysqlx_get_table(sch, "t", 0) == t); /* the same handle again */
  CHECK(mysqlx_get_table(sch, "no_such_table", 1) == NULL);
  CHECK(strstr(mysqlx_error_message(sch), "no_such_table") != NULL);
  CHECK(mysqlx_get_table(sch, "", 0) == NULL);
  CHECK(strcmp(mysqlx_error_message(sch), MYSQLX_ERROR_MISSING_TABLE_NAME_MSG) == 0);

  r = mysqlx_table_insert(t, "name", PARAM_STRING("a"), "n", PARAM_SINT(10), PARAM_END);
  CHECK_H(r != NULL, t);
  CHECK(mysqlx_get_affected_count(r) == 1);
  CHECK(mysqlx_get_auto_increment_value(r) == 1);
  r = mysqlx_table_insert(t, "name", PARAM_STRING("b"), "n", PARAM_SINT(20), PARAM_END);
  CHECK_H(r != NULL, t);
  CHECK(mysqlx_get_auto_increment_value(r) == 2);
  r = mysqlx_table_insert(t, "id", PARAM_UINT(7), "name", PARAM_NULL(), "n", PARAM_SINT(30),
                          PARAM_END);
  CHECK_H(r != NULL, t);
  CHECK(mysqlx_table_insert(t, PARAM_END) == NULL);
  CHECK(mysqlx_error_message(t) != NULL);
  CHECK(mysqlx_table_insert(t, "no_such_column", PARAM_SINT(1), PARAM_END) == NULL);
  CHECK(mysqlx_error_num(t) == 1054); /* the server's: unknown column */
  CHECK_H(mysqlx_table_count(t, &count) == RESULT_OK, t);
  CHECK(count == 3);
  CHECK(mysqlx_table_count(t, NULL) == RESULT_ERROR);

  /* Every column of the rows asked for. */
  r = mysqlx_table_select(t, "n > 10");
  CHECK_H(r != NULL, t);
  CHECK(mysqlx_column_get_count(r) == 3);
  CHECK(strcmp(mysqlx_column_get_name(r, 1), "name") == 0);
  CHECK(next_int(r, 0) == 2);
  CHECK(next_int(r, 0) == 7);
  CHECK(mysqlx_row_fetch_one(r) == NULL);

  /* Limit, offset and order: 30, 20, 10 by n descending, skip one, take one. */
  r = mysqlx_table_select_limit(t, NULL, 1, 1, PARAM_SORT_DESC("n"), PARAM_END);
  CHECK_H(r != NULL, t);
  CHECK(next_text(r, 1, buf, sizeof buf) && strcmp(buf, "b") == 0);
  CHECK(mysqlx_row_fetch_one(r) == NULL);
  CHECK(mysqlx_table_select_limit(t, NULL, 1, 0, "n", 9, PARAM_END) == NULL);
  CHECK(strstr(mysqlx_error_message(t), "SORT_ORDER") != NULL);

  /* An update with an expression and a value; a delete. */
  r = mysqlx_table_update(t, "id = 1", "n", PARAM_EXPR("n + 5"), "name", PARAM_STRING("a2"),
                          PARAM_END);
  CHECK_H(r != NULL, t);
  CHECK(mysqlx_get_affected_count(r) == 1);
  r = mysqlx_table_select(t, "id = 1");
  CHECK_H(r != NULL, t);
  {
    mysqlx_row_t* row = mysqlx_row_fetch_one(r);
    int64_t n = 0;
    size_t len = sizeof buf;
    CHECK(row != NULL);
    CHECK(mysqlx_get_sint(row, 2, &n) == RESULT_OK && n == 15);
    CHECK(mysqlx_get_bytes(row, 1, 0, buf, &len) == RESULT_OK && strcmp(buf, "a2") == 0);
  }
  r = mysqlx_table_delete(t, "id = 7");
  CHECK_H(r != NULL, t);
  CHECK(mysqlx_get_affected_count(r) == 1);
  r = mysqlx_table_update(t, NULL, "n", PARAM_SINT(0), PARAM_END); /* every row */
  CHECK_H(r != NULL, t);
  CHECK(mysqlx_get_affected_count(r) == 2);
  r = mysqlx_table_delete(t, NULL); /* every row */
  CHECK_H(r != NULL, t);
  CHECK(mysqlx_get_affected_count(r) == 2);
  CHECK_H(mysqlx_table_count(t, &count) == RESULT_OK, t);
  CHECK(count == 0);
  mysqlx_session_close(s);
}

void xt_table_statements(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_table_t* t;
  mysqlx_stmt_t* st;
  mysqlx_result_t* r;
  uint64_t count = 0;
  char buf[64];

  if (s == NULL) return;
  t = make_table(s, cfg, out);
  if (t == NULL) return;

  /* SQL's values are its `?` in order: an empty list is an error. */
  st = mysqlx_sql_new(s, "SELECT ?", MYSQLX_NULL_TERMINATED);
  CHECK_H(st != NULL, s);
  CHECK(mysqlx_stmt_bind(st, PARAM_END) == RESULT_ERROR);
  mysqlx_free(st);

  /* An insert of several rows into named columns. */
  st = mysqlx_table_insert_new(t);
  CHECK_H(st != NULL, t);
  CHECK(mysqlx_execute(st) == NULL); /* no rows yet */
  CHECK_H(mysqlx_set_insert_columns(st, "name", "n", PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_insert_row(st, PARAM_STRING("x"), PARAM_SINT(1), PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_insert_row(st, PARAM_STRING("y"), PARAM_SINT(1), PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_insert_row(st, PARAM_STRING("z"), PARAM_SINT(2), PARAM_END) == RESULT_OK, st);
  CHECK(mysqlx_set_items(st, "name", PARAM_END) == RESULT_ERROR); /* not for an insert */
  CHECK(mysqlx_set_where(st, "n > 1") == RESULT_ERROR);
  r = mysqlx_execute(st);
  CHECK_H(r != NULL, st);
  CHECK(mysqlx_get_affected_count(r) == 3);
  /* New columns drop the rows given for the old ones. */
  CHECK_H(mysqlx_set_insert_columns(st, "name", PARAM_END) == RESULT_OK, st);
  CHECK(mysqlx_execute(st) == NULL); /* no rows */
  mysqlx_free(st);

  /* A select: projection, bound condition, order, limit and offset. */
  st = mysqlx_table_select_new(t);
  CHECK_H(st != NULL, t);
  CHECK_H(mysqlx_set_select_items(st, "name", "n * 10 AS tens", PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_select_where(st, "n >= :min") == RESULT_OK, st);
  CHECK_H(mysqlx_stmt_bind(st, "min", PARAM_SINT(1), PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_select_order_by(st, PARAM_SORT_DESC("name"), PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_select_limit_and_offset(st, 2, 1) == RESULT_OK, st);
  r = mysqlx_execute(st);
  CHECK_H(r != NULL, st);
  CHECK(mysqlx_column_get_count(r) == 2);
  CHECK(strcmp(mysqlx_column_get_name(r, 1), "tens") == 0);
  CHECK(next_text(r, 0, buf, sizeof buf) && strcmp(buf, "y") == 0); /* z, y, x: skip z */
  CHECK(next_text(r, 0, buf, sizeof buf) && strcmp(buf, "x") == 0);
  CHECK(mysqlx_row_fetch_one(r) == NULL);
  mysqlx_free(st);

  /* Grouping with HAVING. */
  st = mysqlx_table_select_new(t);
  CHECK_H(mysqlx_set_items(st, "n", "COUNT(*) AS c", PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_select_group_by(st, "n", PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_select_having(st, "c > 1") == RESULT_OK, st);
  r = mysqlx_execute(st);
  CHECK_H(r != NULL, st);
  CHECK(next_int(r, 0) == 1);
  CHECK(mysqlx_row_fetch_one(r) == NULL);
  mysqlx_free(st);

  /* An update limited to one row in order, with an expression. */
  st = mysqlx_table_update_new(t);
  CHECK(mysqlx_execute(st) == NULL); /* no values yet */
  CHECK_H(mysqlx_set_update_values(st, "n", PARAM_EXPR("n + 100"), PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_update_where(st, "n = 1") == RESULT_OK, st);
  CHECK_H(mysqlx_set_update_order_by(st, PARAM_SORT_ASC("name"), PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_update_limit(st, 1) == RESULT_OK, st);
  CHECK(mysqlx_set_limit_and_offset(st, 1, 1) == RESULT_ERROR); /* no offset for an update */
  CHECK(mysqlx_set_row_locking(st, ROW_LOCK_SHARED, LOCK_CONTENTION_DEFAULT) == RESULT_ERROR);
  CHECK(strcmp(mysqlx_error_message(st), MYSQLX_ERROR_ROW_LOCKING) == 0);
  r = mysqlx_execute(st);
  CHECK_H(r != NULL, st);
  CHECK(mysqlx_get_affected_count(r) == 1);
  mysqlx_free(st);
  r = mysqlx_table_select(t, "n = 101");
  CHECK_H(r != NULL, t);
  CHECK(next_text(r, 1, buf, sizeof buf) && strcmp(buf, "x") == 0);

  /* A delete of the two highest n. */
  st = mysqlx_table_delete_new(t);
  CHECK_H(mysqlx_set_delete_order_by(st, PARAM_SORT_DESC("n"), PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_delete_limit(st, 2) == RESULT_OK, st);
  r = mysqlx_execute(st);
  CHECK_H(r != NULL, st);
  CHECK(mysqlx_get_affected_count(r) == 2);
  mysqlx_free(st);
  CHECK_H(mysqlx_table_count(t, &count) == RESULT_OK, t);
  CHECK(count == 1);

  /* Locks on a select: the setter checks its arguments. */
  st = mysqlx_table_select_new(t);
  CHECK(mysqlx_set_row_locking(st, 7, LOCK_CONTENTION_DEFAULT) == RESULT_ERROR);
  CHECK(strcmp(mysqlx_error_message(st), MYSQLX_ERROR_WRONG_LOCKING_MODE) == 0);
  CHECK(mysqlx_set_row_locking(st, ROW_LOCK_SHARED, 9) == RESULT_ERROR);
  CHECK_H(mysqlx_set_select_row_locking(st, ROW_LOCK_EXCLUSIVE, LOCK_CONTENTION_DEFAULT) ==
              RESULT_OK,
          st);
  CHECK_H(mysqlx_transaction_begin(s) == RESULT_OK, s);
  r = mysqlx_execute(st);
  CHECK_H(r != NULL, st);
  CHECK(next_int(r, 0) > 0);
  CHECK_H(mysqlx_transaction_commit(s) == RESULT_OK, s);
  mysqlx_session_close(s); /* frees the statement too */
}

void xt_listings(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_schema_t* sch;
  mysqlx_result_t* r;
  char sql[256];
  char buf[64];
  size_t rows = 0;

  if (s == NULL) return;
  sch = mysqlx_get_schema(s, cfg->schema, 1);
  CHECK_H(sch != NULL, s);
  snprintf(sql, sizeof sql, "CREATE TABLE `%s`.tab_1 (id INT)", cfg->schema);
  CHECK(xt_run(s, sql, out));
  snprintf(sql, sizeof sql, "CREATE VIEW `%s`.view_1 AS SELECT id FROM `%s`.tab_1", cfg->schema,
           cfg->schema);
  CHECK(xt_run(s, sql, out));
  CHECK_H(mysqlx_collection_create(sch, "coll_1") == RESULT_OK, sch);

  /* The schema by its exact name, and as a pattern. */
  r = mysqlx_get_schemas(s, cfg->schema);
  CHECK_H(r != NULL, s);
  CHECK(mysqlx_column_get_count(r) == 1);
  CHECK(next_text(r, 0, buf, sizeof buf) && strcmp(buf, cfg->schema) == 0);
  CHECK(mysqlx_row_fetch_one(r) == NULL);
  r = mysqlx_get_schemas(s, NULL);
  CHECK_H(r != NULL, s);
  CHECK_H(mysqlx_store_result(r, &rows) == RESULT_OK, r);
  CHECK(rows >= 2);

  /* Tables: the table alone, then with the view; never the collections. */
  r = mysqlx_get_tables(sch, NULL, 0);
  CHECK_H(r != NULL, sch);
  CHECK(mysqlx_column_get_count(r) == 2);
  CHECK(next_text(r, 0, buf, sizeof buf) && strcmp(buf, "tab_1") == 0);
  CHECK(mysqlx_row_fetch_one(r) == NULL);
  r = mysqlx_get_tables(sch, "%_1", 1);
  CHECK_H(r != NULL, sch);
  CHECK(next_text(r, 1, buf, sizeof buf) && strcmp(buf, "TABLE") == 0);
  CHECK(next_text(r, 1, buf, sizeof buf) && strcmp(buf, "VIEW") == 0);
  CHECK(mysqlx_row_fetch_one(r) == NULL);

  /* Collections ("docs" and "coll_1"), by pattern. */
  r = mysqlx_get_collections(sch, NULL);
  CHECK_H(r != NULL, sch);
  CHECK_H(mysqlx_store_result(r, &rows) == RESULT_OK, r);
  CHECK(rows == 2);
  r = mysqlx_get_collections(sch, "co%");
  CHECK_H(r != NULL, sch);
  {
    mysqlx_row_t* row = mysqlx_row_fetch_one(r);
    size_t len = sizeof buf;
    CHECK(row != NULL);
    CHECK(mysqlx_get_bytes(row, 0, 0, buf, &len) == RESULT_OK && strcmp(buf, "coll_1") == 0);
    len = sizeof buf;
    CHECK(mysqlx_get_bytes(row, 1, 0, buf, &len) == RESULT_OK && strcmp(buf, "COLLECTION") == 0);
  }
  CHECK(mysqlx_row_fetch_one(r) == NULL);
  r = mysqlx_get_collections(sch, "nothing%");
  CHECK_H(r != NULL, sch);
  CHECK(mysqlx_row_fetch_one(r) == NULL);
  mysqlx_session_close(s);
}

/* The number of rows SHOW INDEX gives for index `name` of collection `coll`. */
static long index_rows(mysqlx_session_t* s, const xt_config* cfg, const char* coll,
                       const char* name) {
  char sql[256];
  size_t rows = 0;
  mysqlx_result_t* r;
  snprintf(sql, sizeof sql, "SHOW INDEX FROM `%s`.`%s` WHERE Key_name = '%s'", cfg->schema, coll,
           name);
  r = mysqlx_sql(s, sql, MYSQLX_NULL_TERMINATED);
  if (r == NULL || mysqlx_store_result(r, &rows) != RESULT_OK) return -1;
  return (long)rows;
}

void xt_collection_options_and_indexes(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_schema_t* sch;
  mysqlx_collection_t* c;
  mysqlx_collection_options_t* opts;
  mysqlx_result_t* r;

  if (s == NULL) return;
  sch = mysqlx_get_schema(s, cfg->schema, 1);
  CHECK_H(sch != NULL, s);

  /* REUSE: creating an existing collection is no error. */
  opts = mysqlx_collection_options_new();
  CHECK(opts != NULL);
  CHECK_H(mysqlx_collection_options_set(opts, OPT_COLLECTION_REUSE(1), PARAM_END) == RESULT_OK,
          opts);
  CHECK(mysqlx_collection_options_set(opts, OPT_COLLECTION_REUSE(0), PARAM_END) == RESULT_ERROR);
  CHECK(mysqlx_error_message(opts) != NULL); /* given twice */
  CHECK(mysqlx_collection_options_set(opts, 4242, 1, PARAM_END) == RESULT_ERROR);
  CHECK_H(mysqlx_collection_create_with_options(sch, "docs", opts) == RESULT_OK, sch);
  CHECK(mysqlx_collection_create_with_json_options(sch, "docs", "{\"reuseExisting\": false}") ==
        RESULT_ERROR);
  CHECK(mysqlx_error_num(sch) == 1050); /* the server's: table exists */
  CHECK_H(mysqlx_collection_create_with_json_options(sch, "docs", "{\"reuseExisting\": true}") ==
              RESULT_OK,
          sch);
  CHECK(mysqlx_collection_create_with_json_options(sch, "x", "{\"no_such\": 1}") == RESULT_ERROR);
  CHECK(strstr(mysqlx_error_message(sch), "no_such") != NULL);
  mysqlx_free(opts);

  if (!cfg->server_57) {
    /* Validation (MySQL 8.0.19+): a schema, strict, then switched off. */
    opts = mysqlx_collection_options_new();
    CHECK_H(mysqlx_collection_options_set(
                opts, OPT_COLLECTION_VALIDATION_LEVEL(VALIDATION_STRICT),
                OPT_COLLECTION_VALIDATION_SCHEMA("{\"type\": \"object\", \"properties\": "
                                                 "{\"n\": {\"type\": \"integer\"}}}"),
                PARAM_END) == RESULT_OK,
            opts);
    CHECK_H(mysqlx_collection_create_with_options(sch, "valid", opts) == RESULT_OK, sch);
    mysqlx_free(opts);
    c = mysqlx_get_collection(sch, "valid", 1);
    CHECK_H(c != NULL, sch);
    r = mysqlx_collection_add(c, "{\"n\": 1}", PARAM_END);
    CHECK_H(r != NULL, c);
    CHECK(mysqlx_collection_add(c, "{\"n\": \"text\"}", PARAM_END) == NULL);
    CHECK(mysqlx_error_num(c) != 0);
    CHECK_H(mysqlx_collection_modify_with_json_options(
                sch, "valid", "{\"validation\": {\"level\": \"off\"}}") == RESULT_OK,
            sch);
    r = mysqlx_collection_add(c, "{\"n\": \"text\"}", PARAM_END);
    CHECK_H(r != NULL, c);
    opts = mysqlx_collection_options_new();
    CHECK_H(mysqlx_collection_options_set(opts, OPT_COLLECTION_VALIDATION_LEVEL(VALIDATION_OFF),
                                          PARAM_END) == RESULT_OK,
            opts);
    CHECK_H(mysqlx_collection_modify_with_options(sch, "valid", opts) == RESULT_OK, sch);
    CHECK(mysqlx_collection_options_set(opts, OPT_COLLECTION_VALIDATION_LEVEL(5), PARAM_END) ==
          RESULT_ERROR);
    mysqlx_free(opts);
  }

  /* An index on $.n, then dropped. */
  c = mysqlx_get_collection(sch, "docs", 1);
  CHECK_H(c != NULL, sch);
  CHECK_H(mysqlx_collection_create_index(
              c, "ix_n", "{\"fields\": [{\"field\": \"$.n\", \"type\": \"INT\"}]}") == RESULT_OK,
          c);
  CHECK(index_rows(s, cfg, "docs", "ix_n") == 1);
  CHECK(mysqlx_collection_create_index(c, "ix_bad", "{\"fields\": 5}") == RESULT_ERROR);
  CHECK(mysqlx_error_message(c) != NULL);
  CHECK(mysqlx_collection_create_index(c, NULL, "{}") == RESULT_ERROR);
  CHECK(strcmp(mysqlx_error_message(c), MYSQLX_ERROR_MISSING_KEY_NAME_MSG) == 0);
  CHECK_H(mysqlx_collection_drop_index(c, "ix_n") == RESULT_OK, c);
  CHECK(index_rows(s, cfg, "docs", "ix_n") == 0);
  mysqlx_session_close(s);
}

void xt_find_grouping_and_locks(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_session_t* s2 = NULL;
  mysqlx_collection_t* c;
  mysqlx_collection_t* c2;
  mysqlx_stmt_t* st;
  mysqlx_result_t* r;
  const char* doc;

  if (s == NULL) return;
  c = mysqlx_get_collection(mysqlx_get_schema(s, cfg->schema, 0), "docs", 0);
  CHECK(c != NULL);
  r = mysqlx_collection_add(c, "{\"_id\": \"1\", \"g\": \"a\", \"v\": 1}",
                            "{\"_id\": \"2\", \"g\": \"a\", \"v\": 2}",
                            "{\"_id\": \"3\", \"g\": \"b\", \"v\": 5}", PARAM_END);
  CHECK_H(r != NULL, c);

  /* A find grouped by g, kept where the sum is under 4. */
  st = mysqlx_collection_find_new(c);
  CHECK_H(st != NULL, c);
  CHECK_H(mysqlx_set_find_projection(st, "{\"g\": g, \"total\": SUM(v)}") == RESULT_OK, st);
  CHECK_H(mysqlx_set_find_group_by(st, "g", PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_find_having(st, "total < 4") == RESULT_OK, st);
  r = mysqlx_execute(st);
  CHECK_H(r != NULL, st);
  doc = mysqlx_json_fetch_one(r, NULL);
  CHECK(doc != NULL && strstr(doc, "\"a\"") != NULL && strstr(doc, "3") != NULL);
  CHECK(mysqlx_json_fetch_one(r, NULL) == NULL);
  mysqlx_free(st);

  /* An exclusive lock held by one session; another's NOWAIT read fails,
     SKIP LOCKED leaves the locked document out. */
  CHECK_H(mysqlx_transaction_begin(s) == RESULT_OK, s);
  st = mysqlx_collection_find_new(c);
  CHECK_H(mysqlx_set_find_criteria(st, "_id = '1'") == RESULT_OK, st);
  CHECK_H(mysqlx_set_find_row_locking(st, ROW_LOCK_EXCLUSIVE, LOCK_CONTENTION_DEFAULT) == RESULT_OK,
          st);
  r = mysqlx_execute(st);
  CHECK_H(r != NULL, st);
  CHECK(mysqlx_json_fetch_one(r, NULL) != NULL);

  if (cfg->server_57) {
    /* MySQL 5.7 has no NOWAIT or SKIP LOCKED: a second reader would wait. */
    CHECK_H(mysqlx_transaction_commit(s) == RESULT_OK, s);
    mysqlx_session_close(s);
    return;
  }
  s2 = xt_open_session(cfg, out);
  if (s2 == NULL) return;
  c2 = mysqlx_get_collection(mysqlx_get_schema(s2, cfg->schema, 0), "docs", 0);
  CHECK_H(mysqlx_transaction_begin(s2) == RESULT_OK, s2);
  st = mysqlx_collection_find_new(c2);
  CHECK_H(mysqlx_set_find_row_locking(st, ROW_LOCK_SHARED, LOCK_CONTENTION_NOWAIT) == RESULT_OK,
          st);
  CHECK(mysqlx_execute(st) == NULL);
  CHECK(mysqlx_error_num(st) != 0);
  CHECK_H(mysqlx_set_find_row_locking(st, ROW_LOCK_SHARED, LOCK_CONTENTION_SKIP_LOCKED) ==
              RESULT_OK,
          st);
  CHECK_H(mysqlx_set_find_order_by(st, PARAM_SORT_ASC("_id"), PARAM_END) == RESULT_OK, st);
  r = mysqlx_execute(st);
  CHECK_H(r != NULL, st);
  doc = mysqlx_json_fetch_one(r, NULL);
  CHECK(doc != NULL && strstr(doc, "\"2\"") != NULL);
  CHECK_H(mysqlx_transaction_rollback(s2) == RESULT_OK, s2);
  CHECK_H(mysqlx_transaction_commit(s) == RESULT_OK, s);
  mysqlx_session_close(s2);
  mysqlx_session_close(s);
}
