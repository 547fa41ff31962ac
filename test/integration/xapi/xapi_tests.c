/* The C API used from C, as a C program uses it. Each test stops at its
   first failed check and says which (xapi_tests.h). */
#include "xapi_tests.h"

#include <mysqlx/xapi.h>
#include <stdio.h>
#include <string.h>

void xt_connect_failures(const xt_config* cfg, xt_result* out) {
  char url[512];
  mysqlx_error_t* err = NULL;
  mysqlx_session_t* s;

  /* A wrong password: the server's error, owned by the caller. */
  snprintf(url, sizeof url, "mysqlx://%s:wrong-pw@%s:%d", cfg->user, cfg->host, cfg->port);
  s = mysqlx_get_session_from_url(url, &err);
  CHECK(s == NULL);
  CHECK(err != NULL);
  CHECK(mysqlx_error(err) == err); /* an error handle describes itself */
  CHECK(mysqlx_error_num(err) == 1045);
  CHECK(mysqlx_error_message(err) != NULL && strlen(mysqlx_error_message(err)) > 0);
  mysqlx_free(err);

  /* The same through the host/port form. */
  err = NULL;
  s = mysqlx_get_session(cfg->host, cfg->port, cfg->user, "wrong-pw", NULL, &err);
  CHECK(s == NULL);
  CHECK(err != NULL && mysqlx_error_num(err) == 1045);
  mysqlx_free(err);

  /* Nobody listening: a connection error. */
  err = NULL;
  s = mysqlx_get_session("127.0.0.1", 1, cfg->user, cfg->password, NULL, &err);
  CHECK(s == NULL);
  CHECK(err != NULL && mysqlx_error_num(err) != 0 && mysqlx_error_message(err) != NULL);
  mysqlx_free(err);

  /* Refused before connecting: a bad URL, a port out of range, no URL. */
  err = NULL;
  s = mysqlx_get_session_from_url("mysqlx://u@h?no-such-option=1", &err);
  CHECK(s == NULL);
  CHECK(err != NULL && strstr(mysqlx_error_message(err), "no-such-option") != NULL);
  mysqlx_free(err);
  err = NULL;
  s = mysqlx_get_session(cfg->host, 70000, cfg->user, cfg->password, NULL, &err);
  CHECK(s == NULL && err != NULL && mysqlx_error_message(err) != NULL);
  mysqlx_free(err);
  err = NULL;
  s = mysqlx_get_session_from_url(NULL, &err);
  CHECK(s == NULL && err != NULL && mysqlx_error_message(err) != NULL);
  mysqlx_free(err);

  /* No error wanted: only NULL comes back. */
  s = mysqlx_get_session_from_url(url, NULL);
  CHECK(s == NULL);

  /* NULL is a no-op everywhere it is a handle. */
  mysqlx_free(NULL);
  mysqlx_session_close(NULL);
  CHECK(mysqlx_error(NULL) == NULL);
  CHECK(mysqlx_error_message(NULL) == NULL);
  CHECK(mysqlx_error_num(NULL) == 0);
}

void xt_connect_host_port(const xt_config* cfg, xt_result* out) {
  mysqlx_error_t* err = NULL;
  mysqlx_session_t* s;
  mysqlx_result_t* r;
  mysqlx_row_t* row;
  char buf[128];
  size_t len = sizeof buf;

  s = mysqlx_get_session(cfg->host, cfg->port, cfg->user, cfg->password, cfg->schema, &err);
  CHECK(s != NULL);
  CHECK(err == NULL);
  CHECK(mysqlx_error(s) == NULL);
  /* The database argument is the default schema. */
  r = mysqlx_sql(s, "SELECT DATABASE()", MYSQLX_NULL_TERMINATED);
  CHECK_H(r != NULL, s);
  row = mysqlx_row_fetch_one(r);
  CHECK_H(row != NULL, r);
  CHECK_H(mysqlx_get_bytes(row, 0, 0, buf, &len) == RESULT_OK, row);
  CHECK(len == strlen(cfg->schema) + 1 && strcmp(buf, cfg->schema) == 0);
  mysqlx_session_close(s);
}

void xt_sql_values(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_result_t* r;
  mysqlx_row_t* row;
  int64_t sv = 0;
  uint64_t uv = 0;
  double dv = 0;
  char buf[64];
  size_t len;
  char sql[512];
  const char query[] = "SELECT i AS a_int, u, d, m, t, b, n FROM v ORDER BY i trailing";

  if (s == NULL) return;
  snprintf(sql, sizeof sql, "USE `%s`", cfg->schema);
  if (!xt_run(s, sql, out)) return;
  if (!xt_run(s,
              "CREATE TABLE v (i INT, u BIGINT UNSIGNED, d DOUBLE, m DECIMAL(5,2),"
              " t VARCHAR(20), b BLOB, n INT)",
              out))
    return;
  if (!xt_run(s,
              "INSERT INTO v VALUES (-5, 18446744073709551615, 2.5, 12.50, 'hello', x'00ff', NULL)",
              out))
    return;

  /* A length, not a NUL, ends the query: the last word is not sent. */
  r = mysqlx_sql(s, query, sizeof query - 1 - strlen(" trailing"));
  CHECK_H(r != NULL, s);
  CHECK(mysqlx_error(r) == NULL);
  CHECK(mysqlx_column_get_count(r) == 7);
  CHECK(strcmp(mysqlx_column_get_name(r, 0), "a_int") == 0);
  CHECK(strcmp(mysqlx_column_get_name(r, 4), "t") == 0);
  CHECK(mysqlx_column_get_name(r, 7) == NULL);
  CHECK(mysqlx_error_num(r) == MYSQLX_ERROR_INDEX_OUT_OF_RANGE);
  CHECK(strcmp(mysqlx_error_message(r), MYSQLX_ERROR_INDEX_OUT_OF_RANGE_MSG) == 0);

  row = mysqlx_row_fetch_one(r);
  CHECK_H(row != NULL, r);
  CHECK(mysqlx_error(r) == NULL); /* the fetch cleared the result's error */

  CHECK_H(mysqlx_get_sint(row, 0, &sv) == RESULT_OK, row);
  CHECK(sv == -5);
  CHECK(mysqlx_get_uint(row, 0, &uv) == RESULT_ERROR); /* -5 does not fit */
  CHECK(mysqlx_error_message(row) != NULL);
  CHECK_H(mysqlx_get_uint(row, 1, &uv) == RESULT_OK, row);
  CHECK(uv == UINT64_MAX);
  CHECK(mysqlx_get_sint(row, 1, &sv) == RESULT_ERROR);
  CHECK_H(mysqlx_get_double(row, 2, &dv) == RESULT_OK, row);
  CHECK(dv == 2.5);
  CHECK_H(mysqlx_get_double(row, 3, &dv) == RESULT_OK, row);
  CHECK(dv == 12.5);
  CHECK(mysqlx_get_sint(row, 4, &sv) == RESULT_ERROR); /* text is no number */

  /* Text: the bytes and the 0x00 that ends every string value. */
  len = sizeof buf;
  CHECK_H(mysqlx_get_bytes(row, 4, 0, buf, &len) == RESULT_OK, row);
  CHECK(len == 6 && memcmp(buf, "hello", 6) == 0);
  len = 2;
  CHECK(mysqlx_get_bytes(row, 4, 2, buf, &len) == RESULT_MORE_DATA);
  CHECK(len == 2 && memcmp(buf, "ll", 2) == 0);
  len = sizeof buf;
  CHECK(mysqlx_get_bytes(row, 4, 4, buf, &len) == RESULT_OK);
  CHECK(len == 2 && memcmp(buf, "o", 2) == 0);
  len = sizeof buf;
  CHECK(mysqlx_get_bytes(row, 4, 100, buf, &len) == RESULT_OK);
  CHECK(len == 0);
  /* A BLOB: its bytes (a 0x00 among them) and the same end byte. */
  len = sizeof buf;
  CHECK_H(mysqlx_get_bytes(row, 5, 0, buf, &len) == RESULT_OK, row);
  CHECK(len == 3 && (unsigned char)buf[0] == 0x00 && (unsigned char)buf[1] == 0xff && buf[2] == 0);
  /* Numbers are read with the number getters. */
  len = sizeof buf;
  CHECK(mysqlx_get_bytes(row, 0, 0, buf, &len) == RESULT_ERROR);
  CHECK(mysqlx_error_message(row) != NULL);
  /* Arguments the call cannot do without. */
  len = 0;
  CHECK(mysqlx_get_bytes(row, 4, 0, buf, &len) == RESULT_ERROR);
  CHECK(strcmp(mysqlx_error_message(row), MYSQLX_ERROR_OUTPUT_BUFFER_ZERO) == 0);
  len = sizeof buf;
  CHECK(mysqlx_get_bytes(row, 4, 0, NULL, &len) == RESULT_ERROR);
  CHECK(strcmp(mysqlx_error_message(row), MYSQLX_ERROR_OUTPUT_BUFFER_NULL) == 0);
  CHECK(mysqlx_get_sint(row, 0, NULL) == RESULT_ERROR);

  /* NULL is RESULT_NULL for every getter, and nothing is written. */
  sv = 7;
  CHECK(mysqlx_get_sint(row, 6, &sv) == RESULT_NULL && sv == 7);
  CHECK(mysqlx_get_uint(row, 6, &uv) == RESULT_NULL);
  CHECK(mysqlx_get_double(row, 6, &dv) == RESULT_NULL);
  len = sizeof buf;
  CHECK(mysqlx_get_bytes(row, 6, 0, buf, &len) == RESULT_NULL);
  CHECK(mysqlx_error(row) == NULL);

  /* Out of range: its own number and message, on the row. */
  CHECK(mysqlx_get_sint(row, 7, &sv) == RESULT_ERROR);
  CHECK(mysqlx_error_num(row) == MYSQLX_ERROR_INDEX_OUT_OF_RANGE);
  CHECK(strcmp(mysqlx_error_message(row), MYSQLX_ERROR_INDEX_OUT_OF_RANGE_MSG) == 0);

  CHECK(mysqlx_row_fetch_one(r) == NULL);
  CHECK(mysqlx_error(r) == NULL); /* the end is no error */
  mysqlx_result_free(r);

  /* A statement without rows: no columns, no rows. */
  r = mysqlx_sql(s, "UPDATE v SET i = 6", MYSQLX_NULL_TERMINATED);
  CHECK_H(r != NULL, s);
  CHECK(mysqlx_column_get_count(r) == 0);
  CHECK(mysqlx_row_fetch_one(r) == NULL && mysqlx_error(r) == NULL);
  mysqlx_free(r);
  mysqlx_session_close(s);
}

void xt_sql_errors(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_result_t* r;
  mysqlx_error_t* e;

  if (s == NULL) return;
  r = mysqlx_sql(s, "SELECT * FROM no_such_schema_xt.no_such_table", MYSQLX_NULL_TERMINATED);
  CHECK(r == NULL);
  e = mysqlx_error(s);
  CHECK(e != NULL);
  CHECK(mysqlx_error_num(s) == 1146 || mysqlx_error_num(s) == 1049);
  CHECK(mysqlx_error_num(e) == mysqlx_error_num(s));
  CHECK(strcmp(mysqlx_error_message(e), mysqlx_error_message(s)) == 0);
  /* The session's error is the session's: mysqlx_free() leaves it alone. */
  mysqlx_free(e);
  CHECK(mysqlx_error(s) == e && mysqlx_error_num(s) != 0);

  r = mysqlx_sql(s, "SELEC 1", MYSQLX_NULL_TERMINATED);
  CHECK(r == NULL);
  CHECK(mysqlx_error_num(s) == 1064);

  CHECK(mysqlx_sql(s, "", MYSQLX_NULL_TERMINATED) == NULL);
  CHECK(mysqlx_error_message(s) != NULL);
  CHECK(mysqlx_sql(s, NULL, 0) == NULL);
  CHECK(mysqlx_error_message(s) != NULL);
  CHECK(mysqlx_sql(NULL, "SELECT 1", MYSQLX_NULL_TERMINATED) == NULL);

  /* The session works on, and a call that succeeds clears its error. */
  r = mysqlx_sql(s, "SELECT 1", MYSQLX_NULL_TERMINATED);
  CHECK_H(r != NULL, s);
  CHECK(mysqlx_error(s) == NULL && mysqlx_error_num(s) == 0 && mysqlx_error_message(s) == NULL);
  mysqlx_free(r);
  mysqlx_session_close(s);
}

void xt_store_result(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_result_t* r;
  mysqlx_result_t* other;
  mysqlx_row_t* first;
  mysqlx_row_t* row;
  size_t num = 0;
  int64_t v = 0;
  int64_t expect;
  char sql[256];

  if (s == NULL) return;
  snprintf(sql, sizeof sql, "CREATE TABLE `%s`.five (i INT)", cfg->schema);
  if (!xt_run(s, sql, out)) return;
  snprintf(sql, sizeof sql, "INSERT INTO `%s`.five VALUES (1), (2), (3), (4), (5)", cfg->schema);
  if (!xt_run(s, sql, out)) return;
  snprintf(sql, sizeof sql, "SELECT i FROM `%s`.five ORDER BY i", cfg->schema);
  r = mysqlx_sql(s, sql, MYSQLX_NULL_TERMINATED);
  CHECK_H(r != NULL, s);
  first = mysqlx_row_fetch_one(r);
  CHECK_H(first != NULL, r);
  CHECK_H(mysqlx_row_fetch_one(r) != NULL, r);
  /* Three rows are left; stored, they outlive other statements. */
  CHECK_H(mysqlx_store_result(r, &num) == RESULT_OK, r);
  CHECK(num == 3);
  CHECK_H(mysqlx_store_result(r, &num) == RESULT_OK, r);
  CHECK(num == 3);
  CHECK_H(mysqlx_store_result(r, NULL) == RESULT_OK, r);
  other = mysqlx_sql(s, "SELECT 42", MYSQLX_NULL_TERMINATED);
  CHECK_H(other != NULL, s);
  for (expect = 3; expect <= 5; ++expect) {
    row = mysqlx_row_fetch_one(r);
    CHECK_H(row != NULL, r);
    CHECK_H(mysqlx_get_sint(row, 0, &v) == RESULT_OK, row);
    CHECK(v == expect);
  }
  CHECK(mysqlx_row_fetch_one(r) == NULL);
  CHECK_H(mysqlx_store_result(r, &num) == RESULT_OK, r);
  CHECK(num == 0);
  /* Rows already fetched stay valid until their result is freed. */
  CHECK_H(mysqlx_get_sint(first, 0, &v) == RESULT_OK, first);
  CHECK(v == 1);
  mysqlx_free(r);

  row = mysqlx_row_fetch_one(other);
  CHECK_H(row != NULL, other);
  CHECK_H(mysqlx_get_sint(row, 0, &v) == RESULT_OK, row);
  CHECK(v == 42);
  mysqlx_free(other);

  /* A result without rows has nothing to store. */
  snprintf(sql, sizeof sql, "DELETE FROM `%s`.five", cfg->schema);
  r = mysqlx_sql(s, sql, MYSQLX_NULL_TERMINATED);
  CHECK_H(r != NULL, s);
  CHECK(mysqlx_store_result(r, &num) == RESULT_ERROR);
  CHECK(mysqlx_error_message(r) != NULL);
  mysqlx_free(r);
  mysqlx_session_close(s);
}

void xt_schema_and_collection_handles(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_schema_t* sch;
  mysqlx_collection_t* c;

  if (s == NULL) return;
  sch = mysqlx_get_schema(s, cfg->schema, 1);
  CHECK_H(sch != NULL, s);
  CHECK(mysqlx_get_schema(s, cfg->schema, 0) == sch); /* one handle per name */
  CHECK(mysqlx_get_schema(s, "no_such_schema_xt", 1) == NULL);
  CHECK(mysqlx_error_message(s) != NULL);
  CHECK(mysqlx_get_schema(s, "no_such_schema_xt", 0) != NULL); /* no check, no round trip */
  CHECK(mysqlx_get_schema(s, NULL, 0) == NULL);
  CHECK(strcmp(mysqlx_error_message(s), MYSQLX_ERROR_MISSING_SCHEMA_NAME_MSG) == 0);
  CHECK(mysqlx_get_schema(s, "", 0) == NULL);
  CHECK(mysqlx_get_schema(NULL, cfg->schema, 0) == NULL);

  c = mysqlx_get_collection(sch, "docs", 1);
  CHECK_H(c != NULL, sch);
  CHECK(mysqlx_error(sch) == NULL);
  CHECK(mysqlx_get_collection(sch, "docs", 0) == c);
  CHECK(mysqlx_get_collection(sch, "no_such_collection", 1) == NULL);
  CHECK(mysqlx_error_message(sch) != NULL);
  CHECK(mysqlx_get_collection(sch, NULL, 1) == NULL);
  CHECK(strcmp(mysqlx_error_message(sch), MYSQLX_ERROR_MISSING_COLLECTION_NAME_MSG) == 0);
  CHECK(mysqlx_error(s) != NULL); /* the schema's errors are not the session's... */
  CHECK(mysqlx_get_schema(s, cfg->schema, 0) == sch);
  CHECK(mysqlx_error(s) == NULL); /* ...which its own next call cleared */

  /* Schemas and collections belong to the session: mysqlx_free() leaves them. */
  mysqlx_free(c);
  mysqlx_free(sch);
  CHECK(mysqlx_get_collection(sch, "docs", 1) == c);
  mysqlx_session_close(s);
}

/* The document `criteria` finds, as JSON text (of the find's result, kept
   by the session until it is closed). */
static const char* find_one(mysqlx_collection_t* c, const char* criteria) {
  mysqlx_result_t* r = mysqlx_collection_find(c, criteria);
  return r ? mysqlx_json_fetch_one(r, NULL) : NULL;
}

void xt_add_generated_ids(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_collection_t* c;
  mysqlx_result_t* r;
  const char* id1;
  const char* id2;
  const char* doc;

  if (s == NULL) return;
  c = mysqlx_get_collection(mysqlx_get_schema(s, cfg->schema, 0), "docs", 0);
  CHECK(c != NULL);

  r = mysqlx_collection_add(c, "{\"n\": 1}", "{\"_id\": \"own-1\", \"n\": 2}", "{\"n\": 3}",
                            PARAM_END);
  CHECK_H(r != NULL, c);
  /* One id per document that had none, in document order; none for own-1. */
  id1 = mysqlx_fetch_generated_id(r);
  id2 = mysqlx_fetch_generated_id(r);
  CHECK(id1 != NULL && id2 != NULL);
  CHECK(mysqlx_fetch_generated_id(r) == NULL);
  CHECK(mysqlx_fetch_generated_id(r) == NULL);
  CHECK(strlen(id1) == cfg->id_length && strlen(id2) == cfg->id_length);
  CHECK(strcmp(id1, id2) < 0); /* both kinds of ids increase */
  CHECK(strcmp(id1, "own-1") != 0 && strcmp(id2, "own-1") != 0);

  /* Each id is the one stored with its document. */
  doc = find_one(c, "n = 1");
  CHECK_H(doc != NULL, c);
  CHECK(strstr(doc, id1) != NULL);
  doc = find_one(c, "n = 3");
  CHECK_H(doc != NULL, c);
  CHECK(strstr(doc, id2) != NULL);
  doc = find_one(c, "n = 2");
  CHECK_H(doc != NULL, c);
  CHECK(strstr(doc, "own-1") != NULL);

  /* Ids stay valid after other statements, until their result is freed. */
  CHECK(strlen(id1) == cfg->id_length);
  mysqlx_free(r);

  /* Documents that all have their own _id: no generated id. */
  r = mysqlx_collection_add(c, "{\"_id\": \"own-2\"}", PARAM_END);
  CHECK_H(r != NULL, c);
  CHECK(mysqlx_fetch_generated_id(r) == NULL);
  CHECK(mysqlx_error(r) == NULL);
  mysqlx_free(r);

  /* A single document. */
  r = mysqlx_collection_add(c, "{\"n\": 4}", PARAM_END);
  CHECK_H(r != NULL, c);
  id1 = mysqlx_fetch_generated_id(r);
  CHECK(id1 != NULL && strlen(id1) == cfg->id_length);
  CHECK(mysqlx_fetch_generated_id(r) == NULL);
  mysqlx_free(r);
  mysqlx_session_close(s);
}

void xt_add_errors(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_collection_t* c;
  mysqlx_result_t* r;
  size_t num = 0;

  if (s == NULL) return;
  c = mysqlx_get_collection(mysqlx_get_schema(s, cfg->schema, 0), "docs", 0);
  CHECK(c != NULL);

  /* Not JSON: nothing is added, the error is the collection's. */
  CHECK(mysqlx_collection_add(c, "{\"n\": 1}", "{bad", PARAM_END) == NULL);
  CHECK(mysqlx_error_num(c) != 0 && mysqlx_error_message(c) != NULL);
  CHECK(mysqlx_error(s) == NULL);
  CHECK(mysqlx_collection_add(c, "", PARAM_END) == NULL);
  CHECK(strcmp(mysqlx_error_message(c), MYSQLX_ERROR_EMPTY_JSON) == 0);
  CHECK(mysqlx_collection_add(c, PARAM_END) == NULL);
  CHECK(mysqlx_error_message(c) != NULL);
  CHECK(mysqlx_collection_add(NULL, "{}", PARAM_END) == NULL);

  /* The same _id twice: the server's duplicate-key error. */
  r = mysqlx_collection_add(c, "{\"_id\": \"dup\"}", PARAM_END);
  CHECK_H(r != NULL, c);
  CHECK(mysqlx_error(c) == NULL); /* cleared by the call that succeeded */
  mysqlx_free(r);
  CHECK(mysqlx_collection_add(c, "{\"_id\": \"dup\"}", PARAM_END) == NULL);
  CHECK(mysqlx_error_num(c) == 5116 || mysqlx_error_num(c) == 1062);

  /* Only the one good document is there. */
  r = mysqlx_collection_find(c, NULL);
  CHECK_H(r != NULL, c);
  CHECK_H(mysqlx_store_result(r, &num) == RESULT_OK, r);
  CHECK(num == 1);
  mysqlx_session_close(s);
}

void xt_find_json(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_collection_t* c;
  mysqlx_result_t* r;
  mysqlx_result_t* sql;
  mysqlx_row_t* row;
  const char* doc;
  const char* first;
  size_t len = 0;
  size_t num = 0;
  int count;
  char buf[256];

  if (s == NULL) return;
  c = mysqlx_get_collection(mysqlx_get_schema(s, cfg->schema, 0), "docs", 0);
  CHECK(c != NULL);
  r = mysqlx_collection_add(c, "{\"_id\": \"a\", \"n\": 1}", "{\"_id\": \"b\", \"n\": 2}",
                            "{\"_id\": \"c\", \"n\": 3, \"s\": \"x\"}", PARAM_END);
  CHECK_H(r != NULL, c);
  mysqlx_free(r);

  /* Every document, with its size counting the NUL. */
  r = mysqlx_collection_find(c, NULL);
  CHECK_H(r != NULL, c);
  first = mysqlx_json_fetch_one(r, &len);
  CHECK_H(first != NULL, r);
  CHECK(len == strlen(first) + 1);
  CHECK(first[0] == '{' && strstr(first, "\"_id\"") != NULL);
  for (count = 1; (doc = mysqlx_json_fetch_one(r, &len)) != NULL; ++count)
    CHECK(len == strlen(doc) + 1);
  CHECK(mysqlx_error(r) == NULL);
  CHECK(count == 3);
  CHECK(first[0] == '{'); /* still valid */
  mysqlx_free(r);

  /* A condition; an empty one finds all. */
  r = mysqlx_collection_find(c, "n > 1");
  CHECK_H(r != NULL, c);
  CHECK_H(mysqlx_store_result(r, &num) == RESULT_OK, r);
  CHECK(num == 2);
  for (count = 0; mysqlx_json_fetch_one(r, NULL) != NULL; ++count) {
  }
  CHECK(count == 2);
  mysqlx_free(r);
  r = mysqlx_collection_find(c, "");
  CHECK_H(r != NULL, c);
  CHECK_H(mysqlx_store_result(r, &num) == RESULT_OK, r);
  CHECK(num == 3);
  mysqlx_free(r);
  r = mysqlx_collection_find(c, "s = 'x'");
  CHECK_H(r != NULL, c);
  doc = mysqlx_json_fetch_one(r, NULL);
  CHECK(doc != NULL && strstr(doc, "\"c\"") != NULL);
  CHECK(mysqlx_json_fetch_one(r, NULL) == NULL);
  mysqlx_free(r);

  /* Documents as rows: one JSON column, "doc". */
  r = mysqlx_collection_find(c, "n = 2");
  CHECK_H(r != NULL, c);
  CHECK(mysqlx_column_get_count(r) == 1);
  CHECK(strcmp(mysqlx_column_get_name(r, 0), "doc") == 0);
  row = mysqlx_row_fetch_one(r);
  CHECK_H(row != NULL, r);
  len = sizeof buf;
  CHECK_H(mysqlx_get_bytes(row, 0, 0, buf, &len) == RESULT_OK, row);
  CHECK(len == strlen(buf) + 1 && strstr(buf, "\"b\"") != NULL);
  CHECK(mysqlx_row_fetch_one(r) == NULL);
  mysqlx_free(r);

  /* A condition that does not parse, and JSON from a result that has none. */
  CHECK(mysqlx_collection_find(c, "n >") == NULL);
  CHECK(mysqlx_error_message(c) != NULL);
  sql = mysqlx_sql(s, "SELECT 1", MYSQLX_NULL_TERMINATED);
  CHECK_H(sql != NULL, s);
  CHECK(mysqlx_json_fetch_one(sql, &len) == NULL);
  CHECK(mysqlx_error_message(sql) != NULL);
  mysqlx_session_close(s);
}

void xt_close_frees_everything(const xt_config* cfg, xt_result* out) {
  /* Handles left open, as a program may leave them: closing the session
     frees them all. CI's ASan job runs this with detect_leaks=1 (./dev's
     sanitizer_env): a handle the session does not free fails it. */
  int round;
  for (round = 0; round < 3; ++round) {
    mysqlx_session_t* s = xt_open_session(cfg, out);
    mysqlx_collection_t* c;
    mysqlx_result_t* r;
    if (s == NULL) return;
    c = mysqlx_get_collection(mysqlx_get_schema(s, cfg->schema, 0), "docs", 0);
    CHECK(c != NULL);
    CHECK(mysqlx_collection_add(c, "{\"n\": 1}", "{\"n\": 2}", PARAM_END) != NULL);
    CHECK(mysqlx_collection_add(c, "{bad", PARAM_END) == NULL); /* an error on c */
    r = mysqlx_collection_find(c, NULL);
    CHECK(r != NULL && mysqlx_json_fetch_one(r, NULL) != NULL);
    r = mysqlx_sql(s, "SELECT 1, 'two'", MYSQLX_NULL_TERMINATED);
    CHECK(r != NULL && mysqlx_row_fetch_one(r) != NULL);
    r = mysqlx_sql(s, "SELECT 1", MYSQLX_NULL_TERMINATED); /* unread */
    CHECK(r != NULL);
    CHECK(mysqlx_sql(s, "SELEC", MYSQLX_NULL_TERMINATED) == NULL); /* an error on s */
    /* Statement handles, run or not, with their results; a listing. */
    {
      mysqlx_stmt_t* find = mysqlx_collection_find_new(c);
      mysqlx_stmt_t* sql = mysqlx_sql_new(s, "SELECT 2", MYSQLX_NULL_TERMINATED);
      CHECK(find != NULL && sql != NULL);
      CHECK_H(mysqlx_set_find_criteria(find, "n > 0") == RESULT_OK, find);
      CHECK_H(mysqlx_execute(find) != NULL, find);
      CHECK_H(mysqlx_execute(find) != NULL, find);    /* replaces the first result */
      CHECK(mysqlx_collection_modify_new(c) != NULL); /* never run */
      CHECK(mysqlx_get_collections(mysqlx_get_schema(s, cfg->schema, 0), NULL) != NULL);
    }
    mysqlx_session_close(s);
  }
  /* A session from a client, left with a result; the client is closed
     after it. */
  {
    mysqlx_error_t* err = NULL;
    mysqlx_client_t* cli = mysqlx_get_client_from_url(cfg->uri, NULL, &err);
    mysqlx_session_t* s;
    CHECK(cli != NULL && err == NULL);
    s = mysqlx_get_session_from_client(cli, &err);
    CHECK(s != NULL && err == NULL);
    CHECK(mysqlx_sql(s, "SELECT 1", MYSQLX_NULL_TERMINATED) != NULL);
    mysqlx_session_close(s);
    mysqlx_client_close(cli);
  }
}

/* Selects `sql` (one row expected) and returns that row, or NULL after
   recording why. */
static mysqlx_row_t* one_row(mysqlx_session_t* s, const char* sql, xt_result* out) {
  mysqlx_result_t* r = mysqlx_sql(s, sql, MYSQLX_NULL_TERMINATED);
  mysqlx_row_t* row;
  if (r == NULL) {
    xt_fail(out, __FILE__, __LINE__, "%s: %s", sql, mysqlx_error_message(s));
    return NULL;
  }
  row = mysqlx_row_fetch_one(r);
  if (row == NULL)
    xt_fail(out, __FILE__, __LINE__, "%s: no row (%s)", sql, mysqlx_error_message(r));
  return row;
}

void xt_sql_param(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_result_t* r;
  mysqlx_row_t* row;
  int64_t sv = 0;
  uint64_t uv = 0;
  double dv = 0;
  float fv = 0;
  char buf[32];
  size_t len;
  char sql[256];
  const unsigned char blob[3] = {0x01, 0x00, 0x02};

  if (s == NULL) return;
  snprintf(sql, sizeof sql, "USE `%s`", cfg->schema);
  if (!xt_run(s, sql, out)) return;
  if (!xt_run(s,
              "CREATE TABLE p (i BIGINT, u BIGINT UNSIGNED, d DOUBLE, f FLOAT, s VARCHAR(20),"
              " b VARBINARY(10), n INT, t TINYINT, big DOUBLE)",
              out))
    return;
  r = mysqlx_sql_param(s, "INSERT INTO p VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       MYSQLX_NULL_TERMINATED, PARAM_SINT(-9000000000LL),
                       PARAM_UINT(18000000000000000000ULL), PARAM_DOUBLE(0.25), PARAM_FLOAT(1.5f),
                       PARAM_STRING("it's"), PARAM_BYTES(blob, sizeof blob), PARAM_NULL(),
                       (void*)MYSQLX_TYPE_BOOL, 1, PARAM_DOUBLE(1e300), PARAM_END);
  CHECK_H(r != NULL, s);
  CHECK(mysqlx_get_affected_count(r) == 1);
  mysqlx_free(r);

  /* Placeholders in a condition; the values come back as they went. */
  r = mysqlx_sql_param(s, "SELECT i, u, d, f, s, b, n, t, big FROM p WHERE s = ? AND i < ?",
                       MYSQLX_NULL_TERMINATED, PARAM_STRING("it's"), PARAM_SINT(0), PARAM_END);
  CHECK_H(r != NULL, s);
  row = mysqlx_row_fetch_one(r);
  CHECK_H(row != NULL, r);
  CHECK_H(mysqlx_get_sint(row, 0, &sv) == RESULT_OK, row);
  CHECK(sv == -9000000000LL);
  CHECK_H(mysqlx_get_uint(row, 1, &uv) == RESULT_OK, row);
  CHECK(uv == 18000000000000000000ULL);
  CHECK_H(mysqlx_get_double(row, 2, &dv) == RESULT_OK, row);
  CHECK(dv == 0.25);
  CHECK_H(mysqlx_get_float(row, 3, &fv) == RESULT_OK, row);
  CHECK(fv == 1.5f);
  CHECK_H(mysqlx_get_float(row, 2, &fv) == RESULT_OK, row); /* a double that fits */
  CHECK(fv == 0.25f);
  CHECK(mysqlx_get_float(row, 8, &fv) == RESULT_ERROR); /* 1e300 does not */
  CHECK(mysqlx_error_message(row) != NULL);
  len = sizeof buf;
  CHECK_H(mysqlx_get_bytes(row, 4, 0, buf, &len) == RESULT_OK, row);
  CHECK(len == 5 && strcmp(buf, "it's") == 0);
  len = sizeof buf;
  CHECK_H(mysqlx_get_bytes(row, 5, 0, buf, &len) == RESULT_OK, row);
  CHECK(len == 4 && memcmp(buf, blob, 3) == 0);
  CHECK(mysqlx_get_float(row, 6, &fv) == RESULT_NULL);
  CHECK_H(mysqlx_get_sint(row, 7, &sv) == RESULT_OK, row);
  CHECK(sv == 1);
  mysqlx_free(r);

  /* No parameters at all, and a length that cuts the query. */
  r = mysqlx_sql_param(s, "SELECT 5 garbage", 8, PARAM_END);
  CHECK_H(r != NULL, s);
  mysqlx_free(r);

  /* Types the SQL cannot take: nothing runs, the error is the session's. */
  CHECK(mysqlx_sql_param(s, "SELECT ?", MYSQLX_NULL_TERMINATED, (void*)MYSQLX_TYPE_EXPR, "1 + 1",
                         PARAM_END) == NULL);
  CHECK(mysqlx_error_message(s) != NULL && strstr(mysqlx_error_message(s), "101") != NULL);
  CHECK(mysqlx_sql_param(s, "SELECT ?", MYSQLX_NULL_TERMINATED, (void*)12345, PARAM_END) == NULL);
  CHECK(mysqlx_error_message(s) != NULL);
  CHECK(mysqlx_sql_param(s, "SELECT ?", MYSQLX_NULL_TERMINATED, PARAM_STRING(NULL), PARAM_END) ==
        NULL);
  CHECK(mysqlx_error_message(s) != NULL);
  /* Too few values for the placeholders. */
  CHECK(mysqlx_sql_param(s, "SELECT ?, ?", MYSQLX_NULL_TERMINATED, PARAM_SINT(1), PARAM_END) ==
        NULL);
  CHECK(mysqlx_error_message(s) != NULL);
  row = one_row(s, "SELECT COUNT(*) FROM p", out);
  if (row == NULL) return;
  CHECK_H(mysqlx_get_sint(row, 0, &sv) == RESULT_OK, row);
  CHECK(sv == 1);
  mysqlx_session_close(s);
}

static int64_t count_t(mysqlx_session_t* s, xt_result* out) {
  int64_t v = -1;
  mysqlx_row_t* row = one_row(s, "SELECT COUNT(*) FROM t", out);
  if (row != NULL && mysqlx_get_sint(row, 0, &v) != RESULT_OK) v = -1;
  return v;
}

void xt_transactions(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  const char* sp;
  char sql[256];

  if (s == NULL) return;
  snprintf(sql, sizeof sql, "USE `%s`", cfg->schema);
  if (!xt_run(s, sql, out) || !xt_run(s, "CREATE TABLE t (i INT) ENGINE=InnoDB", out)) return;

  CHECK_H(mysqlx_transaction_begin(s) == RESULT_OK, s);
  if (!xt_run(s, "INSERT INTO t VALUES (1)", out)) return;
  CHECK_H(mysqlx_transaction_rollback(s) == RESULT_OK, s);
  CHECK(count_t(s, out) == 0);

  CHECK_H(mysqlx_transaction_begin(s) == RESULT_OK, s);
  if (!xt_run(s, "INSERT INTO t VALUES (1)", out)) return;
  sp = mysqlx_savepoint_set(s, NULL); /* a generated name */
  CHECK_H(sp != NULL && strlen(sp) > 0, s);
  if (!xt_run(s, "INSERT INTO t VALUES (2)", out)) return;
  CHECK_H(mysqlx_rollback_to(s, sp) == RESULT_OK, s);
  sp = mysqlx_savepoint_set(s, "named_sp");
  CHECK_H(sp != NULL && strcmp(sp, "named_sp") == 0, s);
  if (!xt_run(s, "INSERT INTO t VALUES (3)", out)) return;
  CHECK_H(mysqlx_savepoint_release(s, "named_sp") == RESULT_OK, s);
  CHECK(mysqlx_rollback_to(s, "named_sp") == RESULT_ERROR); /* released */
  CHECK(mysqlx_error_num(s) == 1305);
  CHECK(mysqlx_rollback_to(s, NULL) == RESULT_ERROR);
  CHECK(mysqlx_error_message(s) != NULL);
  CHECK(mysqlx_savepoint_release(s, "") == RESULT_ERROR);
  CHECK_H(mysqlx_transaction_commit(s) == RESULT_OK, s);
  CHECK(mysqlx_error(s) == NULL);
  CHECK(count_t(s, out) == 2); /* 1 and 3 */

  CHECK(mysqlx_transaction_begin(NULL) == RESULT_ERROR);
  mysqlx_session_close(s);
}

void xt_schema_collection_ddl(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_schema_t* sch;
  mysqlx_collection_t* c;
  mysqlx_result_t* r;
  uint64_t n = 99;
  char name[128];

  if (s == NULL) return;
  snprintf(name, sizeof name, "%s_2", cfg->schema);
  mysqlx_schema_drop(s, name);
  CHECK_H(mysqlx_schema_create(s, name) == RESULT_OK, s);
  CHECK_H(mysqlx_schema_create(s, name) == RESULT_OK, s); /* it exists: no error */
  CHECK(mysqlx_schema_create(s, NULL) == RESULT_ERROR);
  CHECK(strcmp(mysqlx_error_message(s), MYSQLX_ERROR_MISSING_SCHEMA_NAME_MSG) == 0);
  sch = mysqlx_get_schema(s, name, 1);
  CHECK_H(sch != NULL, s);

  CHECK_H(mysqlx_collection_create(sch, "c1") == RESULT_OK, sch);
  CHECK_H(mysqlx_collection_create(sch, "c1") == RESULT_OK, sch); /* kept */
  CHECK(mysqlx_collection_create(sch, "") == RESULT_ERROR);
  CHECK(strcmp(mysqlx_error_message(sch), MYSQLX_ERROR_MISSING_COLLECTION_NAME_MSG) == 0);
  c = mysqlx_get_collection(sch, "c1", 1);
  CHECK_H(c != NULL, sch);
  CHECK_H(mysqlx_collection_count(c, &n) == RESULT_OK, c);
  CHECK(n == 0);
  CHECK(mysqlx_collection_count(c, NULL) == RESULT_ERROR);
  CHECK(strcmp(mysqlx_error_message(c), MYSQLX_ERROR_OUTPUT_VARIABLE_NULL) == 0);

  r = mysqlx_collection_add(c, "{\"n\": 1}", "{\"n\": 2}", "{\"n\": 3}", PARAM_END);
  CHECK_H(r != NULL, c);
  CHECK(mysqlx_get_affected_count(r) == 3);
  mysqlx_free(r);
  CHECK_H(mysqlx_collection_count(c, &n) == RESULT_OK, c);
  CHECK(n == 3);
  r = mysqlx_collection_remove(c, "n > 1");
  CHECK_H(r != NULL, c);
  CHECK(mysqlx_get_affected_count(r) == 2);
  CHECK(mysqlx_fetch_generated_id(r) == NULL);
  mysqlx_free(r);
  CHECK(mysqlx_collection_remove(c, "n >") == NULL);
  CHECK(mysqlx_error_message(c) != NULL);
  r = mysqlx_collection_remove(c, NULL); /* all */
  CHECK_H(r != NULL, c);
  CHECK(mysqlx_get_affected_count(r) == 1);
  CHECK_H(mysqlx_collection_count(c, &n) == RESULT_OK, c);
  CHECK(n == 0);

  CHECK_H(mysqlx_collection_drop(sch, "c1") == RESULT_OK, sch);
  CHECK(mysqlx_get_collection(sch, "c1", 1) == NULL);
  CHECK_H(mysqlx_schema_drop(s, name) == RESULT_OK, s);
  CHECK_H(mysqlx_schema_drop(s, name) == RESULT_OK, s); /* a missing schema is no error */
  CHECK(mysqlx_get_schema(s, name, 1) == NULL);
  mysqlx_session_close(s);
}

void xt_result_sets_and_counts(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_result_t* r;
  mysqlx_row_t* row;
  const char* first_name;
  int64_t v = 0;
  size_t num = 7;
  char sql[256];

  if (s == NULL) return;
  snprintf(sql, sizeof sql, "USE `%s`", cfg->schema);
  if (!xt_run(s, sql, out)) return;
  if (!xt_run(s, "CREATE PROCEDURE two_sets() BEGIN SELECT 1 AS a; SELECT 2 AS b, 3 AS c; END",
              out))
    return;

  r = mysqlx_sql(s, "CALL two_sets()", MYSQLX_NULL_TERMINATED);
  CHECK_H(r != NULL, s);
  CHECK(mysqlx_column_get_count(r) == 1);
  first_name = mysqlx_column_get_name(r, 0);
  CHECK(first_name != NULL && strcmp(first_name, "a") == 0);
  row = mysqlx_row_fetch_one(r);
  CHECK_H(row != NULL, r);
  /* While a row set is current there is no auto-increment value yet. */
  CHECK(mysqlx_get_auto_increment_value(r) == 0);
  CHECK(mysqlx_error_message(r) != NULL);
  CHECK_H(mysqlx_next_result(r) == RESULT_OK, r);
  CHECK(mysqlx_column_get_count(r) == 2);
  CHECK(strcmp(mysqlx_column_get_name(r, 1), "c") == 0);
  CHECK(strcmp(first_name, "a") == 0);                    /* names of the set before stay valid */
  CHECK_H(mysqlx_get_sint(row, 0, &v) == RESULT_OK, row); /* and so do its rows */
  CHECK(v == 1);
  row = mysqlx_row_fetch_one(r);
  CHECK_H(row != NULL, r);
  CHECK_H(mysqlx_get_sint(row, 1, &v) == RESULT_OK, row);
  CHECK(v == 3);
  CHECK(mysqlx_next_result(r) == RESULT_NULL);
  CHECK(mysqlx_error(r) == NULL);
  CHECK(mysqlx_next_result(r) == RESULT_NULL);
  CHECK(mysqlx_column_get_count(r) == 0);
  mysqlx_free(r);

  /* Counts of statements without rows. */
  if (!xt_run(s, "CREATE TABLE ai (id INT AUTO_INCREMENT PRIMARY KEY, x INT)", out)) return;
  r = mysqlx_sql(s, "INSERT INTO ai (x) VALUES (1), (2), (3)", MYSQLX_NULL_TERMINATED);
  CHECK_H(r != NULL, s);
  CHECK(mysqlx_get_affected_count(r) == 3);
  CHECK(mysqlx_get_auto_increment_value(r) == 1);     /* the first row's */
  CHECK_H(mysqlx_get_count(r, &num) == RESULT_OK, r); /* no rows: no error */
  CHECK(num == 0);
  CHECK(mysqlx_next_result(r) == RESULT_NULL);
  mysqlx_free(r);
  r = mysqlx_sql(s, "UPDATE ai SET x = 0 WHERE x > 1", MYSQLX_NULL_TERMINATED);
  CHECK_H(r != NULL, s);
  CHECK(mysqlx_get_affected_count(r) == 2);
  CHECK(mysqlx_get_auto_increment_value(r) == 0);
  mysqlx_free(r);
  r = mysqlx_sql(s, "SELECT x FROM ai", MYSQLX_NULL_TERMINATED);
  CHECK_H(r != NULL, s);
  CHECK_H(mysqlx_get_count(r, &num) == RESULT_OK, r);
  CHECK(num == 3);
  mysqlx_session_close(s);
}

void xt_column_metadata(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_collection_t* c;
  mysqlx_result_t* r;
  char sql[512];

  if (s == NULL) return;
  snprintf(sql, sizeof sql, "USE `%s`", cfg->schema);
  if (!xt_run(s, sql, out)) return;
  if (!xt_run(s,
              "CREATE TABLE m (id INT UNSIGNED, s VARCHAR(10) CHARACTER SET utf8mb4 COLLATE"
              " utf8mb4_general_ci, flag TINYINT(1), d DECIMAL(6,2), dt DATETIME, b VARBINARY(4),"
              " e ENUM('a','b'), bits BIT(3), i BIGINT)",
              out))
    return;
  r = mysqlx_sql(s, "SELECT id AS ident, s, flag, d, dt, b, e, bits, i FROM m AS mt",
                 MYSQLX_NULL_TERMINATED);
  CHECK_H(r != NULL, s);
  CHECK(mysqlx_column_get_count(r) == 9);
  CHECK(mysqlx_column_get_type(r, 0) == MYSQLX_TYPE_UINT);
  CHECK(mysqlx_column_get_type(r, 1) == MYSQLX_TYPE_STRING);
  CHECK(mysqlx_column_get_type(r, 2) == MYSQLX_TYPE_BOOL);
  CHECK(mysqlx_column_get_type(r, 3) == MYSQLX_TYPE_DECIMAL);
  CHECK(mysqlx_column_get_type(r, 4) == MYSQLX_TYPE_DATETIME);
  CHECK(mysqlx_column_get_type(r, 5) == MYSQLX_TYPE_BYTES);
  CHECK(mysqlx_column_get_type(r, 6) == MYSQLX_TYPE_ENUM);
  CHECK(mysqlx_column_get_type(r, 7) == MYSQLX_TYPE_BIT);
  CHECK(mysqlx_column_get_type(r, 8) == MYSQLX_TYPE_SINT);
  CHECK(mysqlx_column_get_collation(r, 1) == 45); /* utf8mb4_general_ci */
  CHECK(mysqlx_column_get_collation(r, 0) == MYSQLX_COLLATION_UNDEFINED);
  CHECK(mysqlx_column_get_length(r, 1) == 40); /* bytes: 10 characters of 4 */
  CHECK(mysqlx_column_get_precision(r, 3) == 2);
  CHECK(strcmp(mysqlx_column_get_name(r, 0), "ident") == 0);
  CHECK(strcmp(mysqlx_column_get_original_name(r, 0), "id") == 0);
  CHECK(strcmp(mysqlx_column_get_table(r, 0), "mt") == 0);
  CHECK(strcmp(mysqlx_column_get_original_table(r, 0), "m") == 0);
  CHECK(strcmp(mysqlx_column_get_schema(r, 0), cfg->schema) == 0);
  CHECK(strcmp(mysqlx_column_get_catalog(r, 0), "def") == 0);
  CHECK(mysqlx_error(r) == NULL);
  /* Out of range: 0 or NULL, and the error. */
  CHECK(mysqlx_column_get_type(r, 9) == 0);
  CHECK(mysqlx_error_num(r) == MYSQLX_ERROR_INDEX_OUT_OF_RANGE);
  CHECK(mysqlx_column_get_catalog(r, 9) == NULL);
  CHECK(mysqlx_column_get_length(r, 99) == 0 && mysqlx_error(r) != NULL);
  mysqlx_free(r);

  /* A find: one JSON column. */
  c = mysqlx_get_collection(mysqlx_get_schema(s, cfg->schema, 0), "docs", 0);
  CHECK(c != NULL);
  r = mysqlx_collection_find(c, NULL);
  CHECK_H(r != NULL, c);
  CHECK(mysqlx_column_get_type(r, 0) == MYSQLX_TYPE_JSON);
  CHECK(strcmp(mysqlx_column_get_catalog(r, 0), "def") == 0);
  CHECK(mysqlx_column_get_type(r, 1) == 0 && mysqlx_error(r) != NULL);
  mysqlx_session_close(s);
}

void xt_warnings(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_result_t* r;
  mysqlx_error_t* w;
  mysqlx_error_t* w2;

  if (s == NULL) return;
  r = mysqlx_sql(s, "SELECT 1/0, CAST('x' AS SIGNED)", MYSQLX_NULL_TERMINATED);
  CHECK_H(r != NULL, s);
  CHECK(mysqlx_result_warning_count(r) == 2);
  CHECK(mysqlx_row_fetch_one(r) != NULL); /* the rows are still there */
  w = mysqlx_result_next_warning(r);
  CHECK(w != NULL);
  CHECK(mysqlx_error_num(w) == 1365); /* division by 0 */
  CHECK(mysqlx_error_message(w) != NULL);
  mysqlx_free(w); /* the result's: left alone */
  w2 = mysqlx_result_next_warning(r);
  CHECK(w2 != NULL && mysqlx_error_num(w2) == 1292); /* truncated INTEGER value */
  CHECK(mysqlx_result_next_warning(r) == NULL);
  CHECK(mysqlx_error(r) == NULL); /* the warnings are not the result's error */
  mysqlx_free(r);

  r = mysqlx_sql(s, "SELECT 1", MYSQLX_NULL_TERMINATED);
  CHECK_H(r != NULL, s);
  CHECK(mysqlx_result_warning_count(r) == 0);
  CHECK(mysqlx_result_next_warning(r) == NULL);
  mysqlx_session_close(s);
}

void xt_client_pool(const xt_config* cfg, xt_result* out) {
  mysqlx_error_t* err = NULL;
  mysqlx_client_t* cli;
  mysqlx_session_t* s1;
  mysqlx_session_t* s2;
  mysqlx_session_t* s3;
  mysqlx_result_t* r;

  /* Options that are not JSON, or not known: refused, the error the caller's. */
  cli = mysqlx_get_client_from_url(cfg->uri, "{\"pooling\": ", &err);
  CHECK(cli == NULL && err != NULL && mysqlx_error_message(err) != NULL);
  mysqlx_free(err);
  err = NULL;
  cli = mysqlx_get_client_from_url(cfg->uri, "{\"pooling\": {\"maxSize\": -1}}", &err);
  CHECK(cli == NULL && err != NULL && mysqlx_error_message(err) != NULL);
  mysqlx_free(err);
  err = NULL;
  CHECK(mysqlx_get_client_from_url(NULL, NULL, &err) == NULL && err != NULL);
  mysqlx_free(err);
  err = NULL;
  CHECK(mysqlx_get_session_from_client(NULL, &err) == NULL && err != NULL);
  CHECK(strcmp(mysqlx_error_message(err), MYSQLX_ERROR_HANDLE_NULL_MSG) == 0);
  mysqlx_free(err);

  /* Two sessions at most; a third waits 300 ms, then fails. */
  err = NULL;
  cli = mysqlx_get_client_from_url(
      cfg->uri, "{\"pooling\": {\"enabled\": true, \"maxSize\": 2, \"queueTimeout\": 300}}", &err);
  CHECK(cli != NULL && err == NULL);
  s1 = mysqlx_get_session_from_client(cli, &err);
  CHECK(s1 != NULL && err == NULL);
  s2 = mysqlx_get_session_from_client(cli, &err);
  CHECK(s2 != NULL && err == NULL);
  s3 = mysqlx_get_session_from_client(cli, &err);
  CHECK(s3 == NULL && err != NULL && mysqlx_error_message(err) != NULL);
  mysqlx_free(err);
  err = NULL;
  r = mysqlx_sql(s1, "SELECT 1", MYSQLX_NULL_TERMINATED);
  CHECK_H(r != NULL, s1);
  /* A session closed goes back to the pool: the third one gets it. */
  mysqlx_session_close(s1);
  s3 = mysqlx_get_session_from_client(cli, &err);
  CHECK(s3 != NULL && err == NULL);
  CHECK_H(mysqlx_sql(s3, "SELECT 1", MYSQLX_NULL_TERMINATED) != NULL, s3);
  mysqlx_session_close(s3);

  /* Closing the client ends the sessions in use: their next call fails
     cleanly; they are still closed (freed) by the caller. */
  mysqlx_client_close(cli);
  CHECK(mysqlx_sql(s2, "SELECT 1", MYSQLX_NULL_TERMINATED) == NULL);
  CHECK(mysqlx_error_message(s2) != NULL);
  mysqlx_session_close(s2);
  mysqlx_client_close(NULL);

  /* Without options: the defaults. */
  cli = mysqlx_get_client_from_url(cfg->uri, NULL, &err);
  CHECK(cli != NULL && err == NULL);
  s1 = mysqlx_get_session_from_client(cli, NULL);
  CHECK(s1 != NULL);
  mysqlx_session_close(s1);
  mysqlx_client_close(cli);
}

void xt_statements(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_collection_t* c;
  mysqlx_stmt_t* st;
  mysqlx_result_t* r;
  const char* doc;
  const char* id;
  char id_copy[64];
  size_t num = 0;
  uint64_t n = 0;

  if (s == NULL) return;
  c = mysqlx_get_collection(mysqlx_get_schema(s, cfg->schema, 0), "docs", 0);
  CHECK(c != NULL);

  /* An add built up document by document. */
  st = mysqlx_collection_add_new(c);
  CHECK_H(st != NULL, c);
  CHECK(mysqlx_execute(st) == NULL); /* no documents yet */
  CHECK(mysqlx_error_message(st) != NULL);
  CHECK_H(mysqlx_set_add_document(st, "{\"_id\": \"a\", \"n\": 1}") == RESULT_OK, st);
  CHECK_H(mysqlx_set_add_document(st, "{\"n\": 2}") == RESULT_OK, st);
  CHECK(mysqlx_set_add_document(st, "") == RESULT_ERROR);
  CHECK(strcmp(mysqlx_error_message(st), MYSQLX_ERROR_EMPTY_JSON) == 0);
  CHECK(mysqlx_set_where(st, "n > 1") == RESULT_ERROR); /* not for an add */
  CHECK(mysqlx_error_message(st) != NULL);
  r = mysqlx_execute(st);
  CHECK_H(r != NULL, st);
  id = mysqlx_fetch_generated_id(r);
  CHECK(id != NULL && strlen(id) == cfg->id_length && strlen(id) < sizeof id_copy);
  strcpy(id_copy, id); /* the id is the result's, which goes with the statement */
  CHECK(mysqlx_fetch_generated_id(r) == NULL);
  mysqlx_free(st); /* and its result */
  r = mysqlx_collection_add(c, "{\"_id\": \"c\", \"n\": 3}", "{\"_id\": \"d\", \"n\": 4}",
                            PARAM_END);
  CHECK_H(r != NULL, c);
  mysqlx_free(r);

  /* A find: condition with a named parameter, order, limit and offset. */
  st = mysqlx_collection_find_new(c);
  CHECK_H(st != NULL, c);
  /* (the per-statement names of the setters, as Connector/C++ 8 has them) */
  CHECK_H(mysqlx_set_find_criteria(st, "n > :min") == RESULT_OK, st);
  CHECK_H(mysqlx_stmt_bind(st, "min", PARAM_SINT(1), PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_find_order_by(st, PARAM_SORT_DESC("n"), PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_find_limit_and_offset(st, 2, 1) == RESULT_OK, st);
  r = mysqlx_execute(st);
  CHECK_H(r != NULL, st);
  doc = mysqlx_json_fetch_one(r, NULL); /* 4, 3, 2: skip one, take two */
  CHECK(doc != NULL && strstr(doc, "\"c\"") != NULL);
  doc = mysqlx_json_fetch_one(r, NULL);
  CHECK(doc != NULL && strstr(doc, id_copy) != NULL);
  CHECK(mysqlx_json_fetch_one(r, NULL) == NULL);

  /* Changed and run again: the previous result is replaced. */
  CHECK_H(mysqlx_stmt_bind(st, "min", PARAM_SINT(3), PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_limit_and_offset(st, 10, 0) == RESULT_OK, st);
  CHECK_H(mysqlx_set_find_projection(st, "{\"val\": n}") == RESULT_OK, st);
  r = mysqlx_execute(st);
  CHECK_H(r != NULL, st);
  doc = mysqlx_json_fetch_one(r, NULL);
  CHECK(doc != NULL && strstr(doc, "\"val\"") != NULL && strstr(doc, "_id") == NULL);
  CHECK(mysqlx_json_fetch_one(r, NULL) == NULL);
  mysqlx_free(r); /* freed early: the statement lives on */
  CHECK_H(mysqlx_set_where(st, NULL) == RESULT_OK, st);
  CHECK_H(mysqlx_stmt_bind(st, PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_find_projection(st, NULL) == RESULT_OK, st);
  r = mysqlx_execute(st);
  CHECK_H(r != NULL, st);
  CHECK_H(mysqlx_store_result(r, &num) == RESULT_OK, r);
  CHECK(num == 4);

  /* Setters a find does not take, and lists that are wrong. */
  CHECK(mysqlx_set_add_document(st, "{}") == RESULT_ERROR);
  CHECK(mysqlx_set_order_by(st, "n", 7, PARAM_END) == RESULT_ERROR);
  CHECK(mysqlx_error_message(st) != NULL);
  CHECK(mysqlx_stmt_bind(st, "min", PARAM_END) == RESULT_ERROR);
  CHECK(mysqlx_error_message(st) != NULL);
  CHECK_H(mysqlx_set_where(st, "n >") == RESULT_OK, st); /* parsed when run */
  CHECK(mysqlx_execute(st) == NULL);
  CHECK(mysqlx_error_message(st) != NULL);
  /* A statement left for the session to free. */

  /* A remove: condition, order and limit (no offset). */
  st = mysqlx_collection_remove_new(c);
  CHECK_H(st != NULL, c);
  CHECK_H(mysqlx_set_remove_criteria(st, "n >= :k") == RESULT_OK, st);
  CHECK_H(mysqlx_stmt_bind(st, "k", PARAM_SINT(2), PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_remove_order_by(st, PARAM_SORT_ASC("n"), PARAM_END) == RESULT_OK, st);
  CHECK(mysqlx_set_remove_limit_and_offset(st, 1, 5) == RESULT_ERROR);
  CHECK_H(mysqlx_set_remove_limit_and_offset(st, 1, 0) == RESULT_OK, st);
  CHECK(mysqlx_set_find_projection(st, "{\"a\": n}") == RESULT_ERROR);
  r = mysqlx_execute(st);
  CHECK_H(r != NULL, st);
  CHECK(mysqlx_get_affected_count(r) == 1); /* n = 2 only */
  CHECK_H(mysqlx_collection_count(c, &n) == RESULT_OK, c);
  CHECK(n == 3);
  doc = find_one(c, "n = 1");
  CHECK(doc != NULL && strstr(doc, "\"a\"") != NULL);
  mysqlx_session_close(s);
}

/* How many documents `criteria` finds (-1 on an error). */
static long count_where(mysqlx_collection_t* c, const char* criteria) {
  size_t num = 0;
  mysqlx_result_t* r = mysqlx_collection_find(c, criteria);
  if (r == NULL) return -1;
  if (mysqlx_get_count(r, &num) != RESULT_OK) return -1;
  mysqlx_free(r);
  return (long)num;
}

void xt_modify(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_collection_t* c;
  mysqlx_stmt_t* st;
  mysqlx_result_t* r;

  if (s == NULL) return;
  c = mysqlx_get_collection(mysqlx_get_schema(s, cfg->schema, 0), "docs", 0);
  CHECK(c != NULL);
  r = mysqlx_collection_add(c, "{\"_id\": \"a\", \"n\": 1, \"tags\": [\"x\"]}",
                            "{\"_id\": \"b\", \"n\": 2, \"tags\": [\"y\"]}", PARAM_END);
  CHECK_H(r != NULL, c);

  /* Values, an expression, array changes, in the order given. */
  st = mysqlx_collection_modify_new(c);
  CHECK_H(st != NULL, c);
  CHECK_H(mysqlx_set_modify_criteria(st, "_id = :id") == RESULT_OK, st);
  CHECK_H(mysqlx_stmt_bind(st, "id", PARAM_STRING("a"), PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_modify_set(st, "name", PARAM_STRING("alpha"), "n", PARAM_EXPR("n + 10"),
                                PARAM_END) == RESULT_OK,
          st);
  CHECK_H(mysqlx_set_modify_array_append(st, "tags", PARAM_STRING("z"), PARAM_END) == RESULT_OK,
          st);
  CHECK_H(mysqlx_set_modify_array_insert(st, "tags[0]", PARAM_SINT(0), PARAM_END) == RESULT_OK, st);
  CHECK(mysqlx_set_limit_and_offset(st, 1, 1) == RESULT_ERROR); /* no offset */
  r = mysqlx_execute(st);
  CHECK_H(r != NULL, st);
  CHECK(mysqlx_get_affected_count(r) == 1);
  CHECK(count_where(c, "n = 11 AND name = 'alpha' AND tags[0] = 0 AND tags[1] = 'x' AND "
                       "tags[2] = 'z'") == 1);
  mysqlx_free(st);

  /* Removing fields and array elements. */
  st = mysqlx_collection_modify_new(c);
  CHECK_H(st != NULL, c);
  CHECK_H(mysqlx_set_where(st, "_id = 'a'") == RESULT_OK, st);
  CHECK_H(mysqlx_set_modify_unset(st, "name", PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_set_modify_array_delete(st, "tags[0]", PARAM_END) == RESULT_OK, st);
  CHECK_H(mysqlx_execute(st) != NULL, st);
  CHECK(count_where(c, "name = 'alpha'") == 0);
  CHECK(count_where(c, "_id = 'a' AND tags[0] = 'x'") == 1);

  /* Errors: on the statement, or on the collection for one-shots. */
  CHECK(mysqlx_set_modify_set(st, PARAM_END) == RESULT_ERROR);
  CHECK(mysqlx_error_message(st) != NULL);
  CHECK(mysqlx_stmt_bind(st, "id", PARAM_EXPR("1"), PARAM_END) == RESULT_ERROR);
  CHECK(mysqlx_set_modify_patch(st, "") == RESULT_ERROR);
  CHECK(strcmp(mysqlx_error_message(st), MYSQLX_ERROR_EMPTY_JSON) == 0);
  mysqlx_free(st);
  st = mysqlx_collection_find_new(c);
  CHECK_H(st != NULL, c);
  CHECK(mysqlx_set_modify_set(st, "n", PARAM_SINT(1), PARAM_END) == RESULT_ERROR);
  CHECK(mysqlx_error_message(st) != NULL);
  st = mysqlx_collection_modify_new(c);
  CHECK_H(st != NULL, c);
  CHECK(mysqlx_execute(st) == NULL); /* no change */
  CHECK(mysqlx_error_message(st) != NULL);
  CHECK(mysqlx_collection_modify_set(c, "n >", "n", PARAM_SINT(1), PARAM_END) == NULL);
  CHECK(mysqlx_error_message(c) != NULL);
  CHECK(mysqlx_collection_modify_set(c, NULL, PARAM_END) == NULL);
  CHECK(mysqlx_error_message(c) != NULL);

  /* One-shots: patch, set, unset. MySQL 5.7 has no merge patch (5051),
     which comes back as the collection's error. */
  r = mysqlx_collection_modify_patch(c, "_id = 'b'", "{\"p\": 1, \"n\": null}");
  if (cfg->server_57) {
    CHECK(r == NULL && mysqlx_error_num(c) == 5051);
    r = mysqlx_collection_modify_set(c, "_id = 'b'", "p", PARAM_SINT(1), PARAM_END);
    CHECK_H(r != NULL, c);
    r = mysqlx_collection_modify_unset(c, "_id = 'b'", "n", PARAM_END);
  }
  CHECK_H(r != NULL, c);
  CHECK(mysqlx_get_affected_count(r) == 1);
  CHECK(count_where(c, "p = 1 AND _id = 'b'") == 1);
  CHECK(count_where(c, "n = 2") == 0);
  r = mysqlx_collection_modify_set(c, "_id = 'b'", "q", PARAM_SINT(5), PARAM_END);
  CHECK_H(r != NULL, c);
  CHECK(mysqlx_get_affected_count(r) == 1);
  CHECK(count_where(c, "q = 5") == 1);
  r = mysqlx_collection_modify_unset(c, NULL, "q", "p", PARAM_END);
  CHECK_H(r != NULL, c);
  CHECK(mysqlx_get_affected_count(r) == 1);
  CHECK(count_where(c, "q = 5") == 0);
  CHECK(mysqlx_error(c) == NULL);
  mysqlx_session_close(s);
}

void xt_sql_statement(const xt_config* cfg, xt_result* out) {
  mysqlx_session_t* s = xt_open_session(cfg, out);
  mysqlx_stmt_t* st;
  mysqlx_result_t* r;
  mysqlx_row_t* row;
  int64_t v = 0;
  char buf[16];
  size_t len;

  if (s == NULL) return;
  st = mysqlx_sql_new(s, "SELECT ? + 1, ? and the rest", 15);
  CHECK_H(st != NULL, s);
  CHECK_H(mysqlx_stmt_bind(st, PARAM_SINT(41), PARAM_STRING("x"), PARAM_END) == RESULT_OK, st);
  r = mysqlx_execute(st);
  CHECK_H(r != NULL, st);
  row = mysqlx_row_fetch_one(r);
  CHECK_H(row != NULL, r);
  CHECK_H(mysqlx_get_sint(row, 0, &v) == RESULT_OK, row);
  CHECK(v == 42);
  len = sizeof buf;
  CHECK_H(mysqlx_get_bytes(row, 1, 0, buf, &len) == RESULT_OK, row);
  CHECK(len == 2 && strcmp(buf, "x") == 0);

  /* New values, run again: a new result replaces the old one. */
  CHECK_H(mysqlx_stmt_bind(st, PARAM_SINT(1), PARAM_NULL(), PARAM_END) == RESULT_OK, st);
  r = mysqlx_execute(st);
  CHECK_H(r != NULL, st);
  row = mysqlx_row_fetch_one(r);
  CHECK_H(row != NULL, r);
  CHECK_H(mysqlx_get_sint(row, 0, &v) == RESULT_OK, row);
  CHECK(v == 2);
  CHECK(mysqlx_get_sint(row, 1, &v) == RESULT_NULL);

  /* What SQL does not take, and errors. */
  CHECK(mysqlx_set_where(st, "a = 1") == RESULT_ERROR);
  CHECK(mysqlx_set_limit_and_offset(st, 1, 0) == RESULT_ERROR);
  CHECK(mysqlx_stmt_bind(st, "name", PARAM_SINT(1), PARAM_END) == RESULT_ERROR); /* no names */
  CHECK(mysqlx_error_message(st) != NULL);
  mysqlx_free(st);
  CHECK(mysqlx_sql_new(s, "", MYSQLX_NULL_TERMINATED) == NULL);
  CHECK(mysqlx_error_message(s) != NULL);
  st = mysqlx_sql_new(s, "SELEC 1", MYSQLX_NULL_TERMINATED);
  CHECK_H(st != NULL, s);
  CHECK(mysqlx_execute(st) == NULL);
  CHECK(mysqlx_error_num(st) == 1064);
  CHECK(mysqlx_error(s) == NULL); /* the statement's error, not the session's */
  mysqlx_session_close(s);        /* frees the statement too */
}
