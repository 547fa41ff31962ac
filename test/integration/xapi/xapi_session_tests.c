/* Sessions in C: options that are taken when set and refuse the session
   (as in Connector/C++ 8), handles used from two threads (run under TSan in
   CI: the case's name matches ./dev's TSAN_TESTS), and sessions closed
   with everything they own left unfreed (run under ASan's leak check). */
#include "xapi_tests.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* A session from `opt` must fail, with an error naming `cause`. */
static void refused(mysqlx_session_options_t* opt, unsigned num, const char* cause,
                    xt_result* out) {
  mysqlx_error_t* err = NULL;
  mysqlx_session_t* s = mysqlx_get_session_from_options(opt, &err);
  if (s != NULL) {
    mysqlx_session_close(s);
    xt_fail(out, __FILE__, __LINE__, "a session opened; expected '%s'", cause);
    return;
  }
  if (err == NULL || mysqlx_error_num(err) != num ||
      strstr(mysqlx_error_message(err), cause) == NULL) {
    xt_fail(out, __FILE__, __LINE__, "expected error %u '%s', got %u '%s'", num, cause,
            err ? mysqlx_error_num(err) : 0, err ? mysqlx_error_message(err) : "none");
  }
  mysqlx_free(err);
}

void xt_unconnectable_options(const xt_config* cfg, xt_result* out) {
  mysqlx_session_options_t* opt = xt_options(cfg, out);
  mysqlx_error_t* err = NULL;
  mysqlx_session_t* s;
  char url[600];
  unsigned int num = 0;

  if (opt == NULL) return;
  /* EXTERNAL: taken and read back; the session names why it cannot be. */
  CHECK_H(mysqlx_session_option_set(opt, OPT_SSL_MODE(SSL_MODE_REQUIRED),
                                    OPT_AUTH(MYSQLX_AUTH_EXTERNAL), PARAM_END) == RESULT_OK,
          opt);
  CHECK_H(mysqlx_session_option_get(opt, MYSQLX_OPT_AUTH, &num) == RESULT_OK, opt);
  CHECK(num == MYSQLX_AUTH_EXTERNAL);
  refused(opt, 2059, "EXTERNAL authentication is not supported by the X Protocol", out);
  if (out->message[0] != '\0') return;

  /* Compression REQUIRED with only names this connector does not know. */
  CHECK_H(mysqlx_session_option_set(opt, OPT_AUTH(MYSQLX_AUTH_SHA256_MEMORY),
                                    OPT_COMPRESSION(MYSQLX_COMPRESSION_REQUIRED),
                                    OPT_COMPRESSION_ALGORITHMS("BAD_Algorithm,snappy"),
                                    PARAM_END) == RESULT_OK,
          opt);
  CHECK_H(mysqlx_session_option_get(opt, MYSQLX_OPT_COMPRESSION, &num) == RESULT_OK, opt);
  CHECK(num == MYSQLX_COMPRESSION_REQUIRED);
  refused(opt, 4006, "'BAD_Algorithm', 'snappy'", out);
  if (out->message[0] != '\0') return;
  /* The same options with one known name connect (5.7 offers no
     compression: REQUIRED fails there, for that reason). */
  CHECK_H(mysqlx_session_option_set(opt, OPT_COMPRESSION_ALGORITHMS("BAD_Algorithm,zstd"),
                                    PARAM_END) == RESULT_OK,
          opt);
  if (cfg->server_57) {
    refused(opt, 4006, "compression is REQUIRED but the client and server have no algorithm", out);
    if (out->message[0] != '\0') return;
  } else {
    s = mysqlx_get_session_from_options(opt, &err);
    CHECK(err == NULL && s != NULL);
    mysqlx_session_close(s);
  }
  mysqlx_free_options(opt);

  /* The URL form: accepted as parsed, refused at connect. */
  snprintf(url, sizeof url, "%s%sauth=EXTERNAL", cfg->uri, strchr(cfg->uri, '?') ? "&" : "?");
  s = mysqlx_get_session_from_url(url, &err);
  CHECK(s == NULL && err != NULL && mysqlx_error_num(err) == 2059);
  mysqlx_free(err);
  err = NULL;
  snprintf(url, sizeof url, "%s%scompression=required&compression-algorithms=[BAD_Algorithm]",
           cfg->uri, strchr(cfg->uri, '?') ? "&" : "?");
  s = mysqlx_get_session_from_url(url, &err);
  CHECK(s == NULL && err != NULL && mysqlx_error_num(err) == 4006);
  CHECK(strstr(mysqlx_error_message(err), "'BAD_Algorithm'") != NULL);
  mysqlx_free(err);
}

/* One thread's work: a session (its own, or one handed to it), documents
   added without _id, their ids fetched and found again. */
typedef struct xt_worker {
  const xt_config* cfg;
  mysqlx_client_t* client;  /* the thread opens its session from it, or */
  mysqlx_session_t* handed; /* uses this one, opened by another thread */
  char ids[3][40];
  xt_result result;
} xt_worker;

static void work(xt_worker* w) {
  xt_result* out = &w->result;
  mysqlx_error_t* err = NULL;
  mysqlx_session_t* s =
      w->handed != NULL ? w->handed : mysqlx_get_session_from_client(w->client, &err);
  mysqlx_collection_t* c;
  mysqlx_result_t* r;
  const char* id;
  int round, n = 0;
  if (s == NULL) {
    xt_fail(out, __FILE__, __LINE__, "session from client: %s",
            err ? mysqlx_error_message(err) : "no error");
    mysqlx_free(err);
    return;
  }
  c = mysqlx_get_collection(mysqlx_get_schema(s, w->cfg->schema, 1), "docs", 1);
  CHECK_H(c != NULL, s);
  for (round = 0; round < 3; ++round) {
    r = mysqlx_collection_add(c, "{\"by\": \"thread\"}", PARAM_END);
    CHECK_H(r != NULL, c);
    id = mysqlx_fetch_generated_id(r);
    CHECK(id != NULL && strlen(id) == w->cfg->id_length);
    snprintf(w->ids[n++], sizeof w->ids[0], "%s", id);
    CHECK(mysqlx_fetch_generated_id(r) == NULL);
    mysqlx_free(r);
  }
  for (round = 0; round < n; ++round) {
    char cond[80];
    snprintf(cond, sizeof cond, "_id = '%s'", w->ids[round]);
    r = mysqlx_collection_find(c, cond);
    CHECK_H(r != NULL, c);
    CHECK_H(mysqlx_json_fetch_one(r, NULL) != NULL, r);
    mysqlx_free(r);
  }
  mysqlx_session_close(s);
}

static void* run_worker(void* arg) {
  work((xt_worker*)arg);
  return NULL;
}

void xt_several_threads(const xt_config* cfg, xt_result* out) {
  mysqlx_error_t* err = NULL;
  mysqlx_client_t* cli =
      mysqlx_get_client_from_url(cfg->uri, "{\"pooling\": {\"maxSize\": 2}}", &err);
  xt_worker w[3];
  pthread_t t[3];
  int i, j, k;
  CHECK(cli != NULL && err == NULL);
  memset(w, 0, sizeof w);
  for (i = 0; i < 3; ++i) {
    w[i].cfg = cfg;
    w[i].client = cli;
  }
  /* The third thread's session is opened here and handed over: a session
     may move between threads, used by one at a time. */
  w[2].handed = xt_open_session(cfg, out);
  if (w[2].handed == NULL) {
    mysqlx_client_close(cli);
    return;
  }
  for (i = 0; i < 3; ++i) CHECK(pthread_create(&t[i], NULL, run_worker, &w[i]) == 0);
  for (i = 0; i < 3; ++i) CHECK(pthread_join(t[i], NULL) == 0);
  mysqlx_client_close(cli);
  for (i = 0; i < 3; ++i) {
    if (w[i].result.message[0] != '\0') {
      snprintf(out->message, sizeof out->message, "thread %d: %s", i, w[i].result.message);
      return;
    }
  }
  /* Nine ids, all different. */
  for (i = 0; i < 9; ++i)
    for (j = i + 1; j < 9; ++j) {
      k = strcmp(w[i / 3].ids[i % 3], w[j / 3].ids[j % 3]);
      CHECK(k != 0);
    }
}
