/* docstore-c: the document store from C, through <mysqlx/xapi.h>.
 *
 *   docstore-c mysqlx://user:pw@host:33060
 *
 * Creates a collection, adds documents without `_id`, prints the ids the add
 * generated (the server's on MySQL 8.0, the connector's on 5.7 or with
 * docid-mode=client), then finds them. Plain C99. */
#include <mysqlx/xapi.h>
#include <stdio.h>

#define SCHEMA "docstore_c_demo"

/* Prints what went wrong on `handle` and returns 1 (main's exit status). */
static int failed(const char* what, void* handle) {
  fprintf(stderr, "%s: error %u: %s\n", what, mysqlx_error_num(handle),
          mysqlx_error_message(handle) ? mysqlx_error_message(handle) : "unknown");
  return 1;
}

static int tour(mysqlx_session_t* s) {
  mysqlx_schema_t* db;
  mysqlx_collection_t* products;
  mysqlx_result_t* res;
  const char* id;
  const char* doc;

  if (mysqlx_schema_create(s, SCHEMA) != RESULT_OK) return failed("create schema", s);
  db = mysqlx_get_schema(s, SCHEMA, 1);
  if (db == NULL) return failed("get schema", s);
  mysqlx_collection_drop(db, "products"); /* left by an earlier run, if any */
  if (mysqlx_collection_create(db, "products") != RESULT_OK) return failed("create collection", db);
  products = mysqlx_get_collection(db, "products", 1);
  if (products == NULL) return failed("get collection", db);

  /* Three documents, none with an _id: each gets a generated one. */
  res = mysqlx_collection_add(products, "{\"name\": \"pen\", \"price\": 2}",
                              "{\"name\": \"ink\", \"price\": 5}",
                              "{\"name\": \"pad\", \"price\": 9}", PARAM_END);
  if (res == NULL) return failed("add", products);
  printf("added %llu documents\n", (unsigned long long)mysqlx_get_affected_count(res));
  while ((id = mysqlx_fetch_generated_id(res)) != NULL) printf("generated id %s\n", id);
  mysqlx_free(res); /* optional: closing the session frees it too */

  printf("find price > 3:\n");
  res = mysqlx_collection_find(products, "price > 3");
  if (res == NULL) return failed("find", products);
  while ((doc = mysqlx_json_fetch_one(res, NULL)) != NULL) printf("  %s\n", doc);
  mysqlx_free(res);

  if (mysqlx_schema_drop(s, SCHEMA) != RESULT_OK) return failed("drop schema", s);
  return 0;
}

int main(int argc, char** argv) {
  mysqlx_error_t* err = NULL;
  mysqlx_session_t* s;
  int status;

  if (argc != 2) {
    fprintf(stderr, "usage: docstore-c mysqlx://user:password@host[:port][?options]\n");
    return 2;
  }
  s = mysqlx_get_session_from_url(argv[1], &err);
  if (s == NULL) {
    /* A failed connect hands its error to the caller, who frees it. */
    status = failed("connect", err);
    mysqlx_free(err);
    return status;
  }
  status = tour(s);
  mysqlx_session_close(s); /* frees the schema, collection and results too */
  return status;
}
