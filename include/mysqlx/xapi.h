/**
 * @file xapi.h
 * The X DevAPI for C: a plain C99 interface to MySQL's X Protocol, source
 * compatible with MySQL Connector/C++ 8's <mysqlx/xapi.h> for the functions
 * it declares. It is also valid C++17, and <mysqlx/xdevapi.h> does not
 * include it.
 *
 * Names, types, and the values of enum constants and macros are those of
 * Connector/C++ 8.3: programs compile them in, so they are part of the ABI.
 * Only what is implemented is declared; the rest of the official API is
 * not there yet (issue 37 lists it).
 *
 * Errors. No function throws or aborts on a failure. Every handle keeps the
 * error of the last call made on it, or none when that call succeeded:
 * mysqlx_error(), mysqlx_error_message() and mysqlx_error_num() take any
 * handle of this header (an error handle describes itself). A call that
 * fails on a handle records its error on the handle given as its first
 * argument (a session, schema, collection, result or row). A function that
 * creates a session and fails returns NULL and, if asked, an error handle
 * that the caller owns and must release with mysqlx_free().
 *
 * Ownership. The caller owns what it must close or free:
 *   - a session: mysqlx_session_close() (also for a session from a client), which also frees every
 * schema, collection, result, row and error that came from it;
 *   - a client: mysqlx_client_close();
 *   - an error returned by a failed mysqlx_get_session*() or
 *     mysqlx_get_client_from_url(): mysqlx_free();
 *   - a result: mysqlx_free() (or mysqlx_result_free()) when it is no longer
 *     needed, or at the latest by closing its session;
 *   - a statement handle: mysqlx_free(), or by closing its session. It owns
 *     the result of its last mysqlx_execute(), which the next one (or
 *     freeing the statement) frees.
 * Schema and collection handles are owned by their session: asking for the
 * same name again returns the same handle, mysqlx_free() leaves them alone,
 * and they live until the session is closed. Rows belong to their result.
 * A `const char*` that a function returns stays valid as long as the handle
 * it came from (the result for rows, documents, ids and column names; the
 * handle for its error message, until the next call on that handle).
 *
 * Threads: a session, and everything that came from it, is for one thread
 * at a time (it may be handed from one thread to another). Different
 * sessions may be used by different threads, and one client may give
 * sessions to several threads at once (mysqlx_get_session_from_client()).
 */
#ifndef MYSQLX_XAPI_H
#define MYSQLX_XAPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Marks the functions libmysqlx exports; everything else in the library is
   hidden (see devapi/libmysqlx.map). */
#if defined(__GNUC__) || defined(__clang__)
/** Marks the functions libmysqlx exports. */
#define MYSQLX_C_API __attribute__((visibility("default")))
#else
/** Marks the functions libmysqlx exports (no attribute for this compiler). */
#define MYSQLX_C_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** The X Protocol's default port. */
#define DEFAULT_MYSQLX_PORT 33060

/** @name Return codes of functions that return an int */
/**@{*/
#define RESULT_OK 0        /**< success */
#define RESULT_MORE_DATA 8 /**< mysqlx_get_bytes(): more bytes are left */
#define RESULT_NULL 16     /**< the value is NULL, or there is no more data */
#define RESULT_INFO 32     /**< the operation produced informational notes */
#define RESULT_WARNING 64  /**< the operation produced warnings */
#define RESULT_ERROR 128   /**< failure: see mysqlx_error() on the handle */
/**@}*/

/** Longest error message Connector/C++ 8 reports (kept for source compatibility). */
#define MYSQLX_MAX_ERROR_LEN 255
/** A length argument meaning "up to the terminating NUL". */
#define MYSQLX_NULL_TERMINATED 0xFFFFFFFF
/** mysqlx_column_get_collation() of a column without a (known) collation. */
#define MYSQLX_COLLATION_UNDEFINED 0
/** The error number of a failure that has no number of its own. */
#define MYSQLX_ERR_UNKNOWN 0xFFFF
/** Terminates the variable argument lists of this API. */
#define PARAM_END (void*)0

/** Type identifiers of values given to (and, later, read from) the API. */
typedef enum mysqlx_data_type_enum {
  MYSQLX_TYPE_UNDEFINED = 0,
  MYSQLX_TYPE_SINT = 1,       /**< int64_t */
  MYSQLX_TYPE_UINT = 2,       /**< uint64_t */
  MYSQLX_TYPE_DOUBLE = 5,     /**< double */
  MYSQLX_TYPE_FLOAT = 6,      /**< float (passed as a double through `...`) */
  MYSQLX_TYPE_BYTES = 7,      /**< bytes: a pointer and a size_t length */
  MYSQLX_TYPE_TIME = 10,      /**< TIME */
  MYSQLX_TYPE_DATETIME = 12,  /**< DATE, DATETIME */
  MYSQLX_TYPE_SET = 15,       /**< SET */
  MYSQLX_TYPE_ENUM = 16,      /**< ENUM */
  MYSQLX_TYPE_BIT = 17,       /**< BIT */
  MYSQLX_TYPE_DECIMAL = 18,   /**< DECIMAL */
  MYSQLX_TYPE_BOOL = 19,      /**< bool (passed as an int through `...`) */
  MYSQLX_TYPE_JSON = 20,      /**< JSON */
  MYSQLX_TYPE_STRING = 21,    /**< a NUL-terminated UTF-8 string */
  MYSQLX_TYPE_GEOMETRY = 22,  /**< a spatial type */
  MYSQLX_TYPE_TIMESTAMP = 23, /**< TIMESTAMP */
  MYSQLX_TYPE_NULL = 100,     /**< NULL (no value follows) */
  MYSQLX_TYPE_EXPR = 101      /**< an expression (not accepted by mysqlx_sql_param()) */
} mysqlx_data_type_t;

/** Sort directions for mysqlx_set_order_by(). */
typedef enum mysqlx_sort_direction_enum {
  SORT_ORDER_ASC = 1, /**< ascending */
  SORT_ORDER_DESC = 2 /**< descending */
} mysqlx_sort_direction_t;
/** An expression sorted in ascending order, for mysqlx_set_order_by(). */
#define PARAM_SORT_ASC(A) A, SORT_ORDER_ASC
/** An expression sorted in descending order, for mysqlx_set_order_by(). */
#define PARAM_SORT_DESC(A) A, SORT_ORDER_DESC

/** @name Typed values for the `...` lists of mysqlx_sql_param() and mysqlx_stmt_bind() */
/**@{*/
/** A signed integer (int64_t). */
#define PARAM_SINT(A) (void*)MYSQLX_TYPE_SINT, (int64_t)A
/** An unsigned integer (uint64_t). */
#define PARAM_UINT(A) (void*)MYSQLX_TYPE_UINT, (uint64_t)A
/** A float (passed as a double). */
#define PARAM_FLOAT(A) (void*)MYSQLX_TYPE_FLOAT, (double)A
/** A double. */
#define PARAM_DOUBLE(A) (void*)MYSQLX_TYPE_DOUBLE, (double)A
/** SIZE bytes at DATA, as a binary string. */
#define PARAM_BYTES(DATA, SIZE) (void*)MYSQLX_TYPE_BYTES, (void*)DATA, (size_t)SIZE
/** A NUL-terminated UTF-8 string. */
#define PARAM_STRING(A) (void*)MYSQLX_TYPE_STRING, A
/** NULL. */
#define PARAM_NULL() (void*)MYSQLX_TYPE_NULL
/** An expression, for the values of a modify only (e.g. "n + 1"). */
#define PARAM_EXPR(A) (void*)MYSQLX_TYPE_EXPR, A
/**@}*/

/** @name Error numbers and messages of the C layer's own checks */
/**@{*/
/** The error number of a column or row index out of range. */
#define MYSQLX_ERROR_INDEX_OUT_OF_RANGE 1
/** A column or row index out of range. */
#define MYSQLX_ERROR_INDEX_OUT_OF_RANGE_MSG "Index is out of range"
/** A schema name that is NULL or empty. */
#define MYSQLX_ERROR_MISSING_SCHEMA_NAME_MSG "Missing schema name"
/** A collection name that is NULL or empty. */
#define MYSQLX_ERROR_MISSING_COLLECTION_NAME_MSG "Missing collection name"
/** A NULL handle where one is needed. */
#define MYSQLX_ERROR_HANDLE_NULL_MSG "Handle cannot be NULL"
/** A NULL output buffer. */
#define MYSQLX_ERROR_OUTPUT_BUFFER_NULL "The output buffer cannot be NULL"
/** An output buffer of length 0. */
#define MYSQLX_ERROR_OUTPUT_BUFFER_ZERO "The output buffer cannot have zero length"
/** A JSON document that is NULL or empty. */
#define MYSQLX_ERROR_EMPTY_JSON "Empty JSON document string"
/** A NULL pointer for a value to be returned. */
#define MYSQLX_ERROR_OUTPUT_VARIABLE_NULL "The output variable cannot be NULL"
/** A table name that is NULL or empty. */
#define MYSQLX_ERROR_MISSING_TABLE_NAME_MSG "Missing table name"
/** NULL collection options. */
#define MYSQLX_ERROR_MISSING_COLLECTION_OPT_MSG "Missing collection options"
/** An option or parameter name that is NULL or empty. */
#define MYSQLX_ERROR_MISSING_KEY_NAME_MSG "Missing key name"
/** A setter or option the statement or function does not take. */
#define MYSQLX_ERROR_OP_NOT_SUPPORTED "The operation is not supported by the function"
/** Row locks asked of a statement other than a select or find. */
#define MYSQLX_ERROR_ROW_LOCKING "Row locking is supported only for SELECT and FIND"
/** A row lock or contention value out of range. */
#define MYSQLX_ERROR_WRONG_LOCKING_MODE "Wrong value for the row locking mode"
/**@}*/

/** An error: a message and a number (a server error number, or a client one). */
typedef struct mysqlx_error_struct mysqlx_error_t;
/** A client: a pool of sessions. */
typedef struct mysqlx_client_struct mysqlx_client_t;
/** A session: one connection to a server. */
typedef struct mysqlx_session_struct mysqlx_session_t;
/** A schema of a session. */
typedef struct mysqlx_schema_struct mysqlx_schema_t;
/** A collection of a schema. */
typedef struct mysqlx_collection_struct mysqlx_collection_t;
/** A table (or view) of a schema. */
typedef struct mysqlx_table_struct mysqlx_table_t;
/** Session (and client) options, set one by one, then given to mysqlx_get_session_from_options().
 */
typedef struct mysqlx_session_options_struct mysqlx_session_options_t;
/** Options of a collection to create or modify. */
typedef struct mysqlx_collection_options_struct mysqlx_collection_options_t;

/** @name Option numbers (Connector/C++ 8.3's values) */
/**@{*/
/** Client (pool) options of mysqlx_session_option_set(): negative, so they never clash with session
 * ones. */
typedef enum mysqlx_client_opt_type_enum {
  MYSQLX_CLIENT_OPT_POOLING = -1,            /**< int (bool): pooling on (default) or off */
  MYSQLX_CLIENT_OPT_POOL_MAX_SIZE = -2,      /**< uint64_t: sessions in the pool (default 25) */
  MYSQLX_CLIENT_OPT_POOL_QUEUE_TIMEOUT = -3, /**< uint64_t: ms to wait for a session (0: forever) */
  MYSQLX_CLIENT_OPT_POOL_MAX_IDLE_TIME =
      -4 /**< uint64_t: ms an idle session is kept (0: forever) */
} mysqlx_client_opt_type_t;

/** MYSQLX_CLIENT_OPT_POOLING: pooling on (1) or off (0). */
#define OPT_POOLING(A) MYSQLX_CLIENT_OPT_POOLING, (int)(bool)(A)
/** MYSQLX_CLIENT_OPT_POOL_MAX_SIZE: the most sessions the pool holds. */
#define OPT_POOL_MAX_SIZE(A) MYSQLX_CLIENT_OPT_POOL_MAX_SIZE, (uint64_t)(A)
/** MYSQLX_CLIENT_OPT_POOL_QUEUE_TIMEOUT: ms to wait for a free session. */
#define OPT_POOL_QUEUE_TIMEOUT(A) MYSQLX_CLIENT_OPT_POOL_QUEUE_TIMEOUT, (uint64_t)(A)
/** MYSQLX_CLIENT_OPT_POOL_MAX_IDLE_TIME: ms an idle session is kept. */
#define OPT_POOL_MAX_IDLE_TIME(A) MYSQLX_CLIENT_OPT_POOL_MAX_IDLE_TIME, (uint64_t)(A)

/** Session options: strings are `const char*`, the others `unsigned int`. */
typedef enum mysqlx_opt_type_enum {
  MYSQLX_OPT_URI = 1,                    /**< a connection string: sets what it names */
  MYSQLX_OPT_HOST = 2,                   /**< host; starts a fail-over entry */
  MYSQLX_OPT_PORT = 3,                   /**< port of the last host */
  MYSQLX_OPT_PRIORITY = 4,               /**< 0..100, of the last host */
  MYSQLX_OPT_USER = 5,                   /**< user name */
  MYSQLX_OPT_PWD = 6,                    /**< password */
  MYSQLX_OPT_DB = 7,                     /**< default schema */
  MYSQLX_OPT_SSL_MODE = 8,               /**< a mysqlx_ssl_mode_t */
  MYSQLX_OPT_SSL_CA = 9,                 /**< CA file (implies SSL_MODE_VERIFY_CA) */
  MYSQLX_OPT_AUTH = 10,                  /**< a mysqlx_auth_method_t */
  MYSQLX_OPT_SOCKET = 11,                /**< Unix socket path; starts a fail-over entry */
  MYSQLX_OPT_CONNECT_TIMEOUT = 12,       /**< milliseconds, 0: wait forever */
  MYSQLX_OPT_CONNECTION_ATTRIBUTES = 13, /**< JSON object of string values, "true" or "false" */
  MYSQLX_OPT_TLS_VERSIONS = 14,          /**< "TLSv1.2,TLSv1.3" */
  MYSQLX_OPT_TLS_CIPHERSUITES = 15,      /**< comma-separated cipher suite names */
  MYSQLX_OPT_DNS_SRV = 16,               /**< bool: HOST is a DNS SRV name */
  MYSQLX_OPT_COMPRESSION = 17,           /**< a mysqlx_compression_mode_t */
  /** "zstd_stream,lz4_message,deflate_stream"; names not known are dropped,
      and with MYSQLX_COMPRESSION_REQUIRED a list left empty makes the
      session fail to open */
  MYSQLX_OPT_COMPRESSION_ALGORITHMS = 18,
  MYSQLX_OPT_SSL_CAPATH = 19,  /**< directory of CA certificates */
  MYSQLX_OPT_SSL_CRL = 20,     /**< certificate revocation list file */
  MYSQLX_OPT_SSL_CRLPATH = 21, /**< directory of revocation lists */
  MYSQLX_OPT_LAST
} mysqlx_opt_type_t;

/** MYSQLX_OPT_HOST: a host name or address. */
#define OPT_HOST(A) MYSQLX_OPT_HOST, (A)
/** MYSQLX_OPT_PORT: the port of the host before it. */
#define OPT_PORT(A) MYSQLX_OPT_PORT, (unsigned int)(A)
/** MYSQLX_OPT_SOCKET: a Unix socket path. */
#define OPT_SOCKET(A) MYSQLX_OPT_SOCKET, (A)
/** MYSQLX_OPT_DNS_SRV: the host is a DNS SRV name. */
#define OPT_DNS_SRV(A) MYSQLX_OPT_DNS_SRV, (A)
/** MYSQLX_OPT_USER: the user name. */
#define OPT_USER(A) MYSQLX_OPT_USER, (A)
/** MYSQLX_OPT_PWD: the password (NULL unsets it). */
#define OPT_PWD(A) MYSQLX_OPT_PWD, (A)
/** MYSQLX_OPT_DB: the default schema. */
#define OPT_DB(A) MYSQLX_OPT_DB, (A)
/** MYSQLX_OPT_SSL_MODE: a mysqlx_ssl_mode_t. */
#define OPT_SSL_MODE(A) MYSQLX_OPT_SSL_MODE, (A)
/** MYSQLX_OPT_SSL_CA: a CA file. */
#define OPT_SSL_CA(A) MYSQLX_OPT_SSL_CA, (A)
/** MYSQLX_OPT_SSL_CAPATH: a directory of CA certificates. */
#define OPT_SSL_CAPATH(A) MYSQLX_OPT_SSL_CAPATH, (A)
/** MYSQLX_OPT_SSL_CRL: a certificate revocation list file. */
#define OPT_SSL_CRL(A) MYSQLX_OPT_SSL_CRL, (A)
/** MYSQLX_OPT_SSL_CRLPATH: a directory of revocation lists. */
#define OPT_SSL_CRLPATH(A) MYSQLX_OPT_SSL_CRLPATH, (A)
/** MYSQLX_OPT_PRIORITY: 0..100, of the host before it. */
#define OPT_PRIORITY(A) MYSQLX_OPT_PRIORITY, (unsigned int)(A)
/** MYSQLX_OPT_AUTH: a mysqlx_auth_method_t. */
#define OPT_AUTH(A) MYSQLX_OPT_AUTH, (unsigned int)(A)
/** MYSQLX_OPT_CONNECT_TIMEOUT: milliseconds, 0: wait forever. */
#define OPT_CONNECT_TIMEOUT(A) MYSQLX_OPT_CONNECT_TIMEOUT, (unsigned int)(A)
/** MYSQLX_OPT_CONNECTION_ATTRIBUTES: a JSON object, "true" or "false". */
#define OPT_CONNECTION_ATTRIBUTES(A) MYSQLX_OPT_CONNECTION_ATTRIBUTES, (A)
/** MYSQLX_OPT_TLS_VERSIONS: "TLSv1.2,TLSv1.3" or one of them. */
#define OPT_TLS_VERSIONS(A) MYSQLX_OPT_TLS_VERSIONS, (A)
/** MYSQLX_OPT_TLS_CIPHERSUITES: comma-separated cipher suite names. */
#define OPT_TLS_CIPHERSUITES(A) MYSQLX_OPT_TLS_CIPHERSUITES, (A)
/** MYSQLX_OPT_COMPRESSION: a mysqlx_compression_mode_t. */
#define OPT_COMPRESSION(A) MYSQLX_OPT_COMPRESSION, (unsigned int)(A)
/** MYSQLX_OPT_COMPRESSION_ALGORITHMS: comma-separated names. */
#define OPT_COMPRESSION_ALGORITHMS(A) MYSQLX_OPT_COMPRESSION_ALGORITHMS, (const char*)(A)

/** Values of MYSQLX_OPT_SSL_MODE. */
typedef enum mysqlx_ssl_mode_enum {
  SSL_MODE_DISABLED = 1,
  SSL_MODE_REQUIRED = 2, /**< the default */
  SSL_MODE_VERIFY_CA = 3,
  SSL_MODE_VERIFY_IDENTITY = 4
} mysqlx_ssl_mode_t;

/** Values of MYSQLX_OPT_AUTH. */
typedef enum mysqlx_auth_method_enum {
  MYSQLX_AUTH_PLAIN = 1,
  MYSQLX_AUTH_MYSQL41 = 2,
  /** taken when set; a session with it fails to open (the X Plugin has none) */
  MYSQLX_AUTH_EXTERNAL = 3,
  MYSQLX_AUTH_SHA256_MEMORY = 4
} mysqlx_auth_method_t;

/** Values of MYSQLX_OPT_COMPRESSION. */
typedef enum mysqlx_compression_mode_enum {
  MYSQLX_COMPRESSION_DISABLED = 1,
  MYSQLX_COMPRESSION_PREFERRED = 2, /**< the default */
  MYSQLX_COMPRESSION_REQUIRED = 3
} mysqlx_compression_mode_t;

/** Options of mysqlx_collection_options_set(). */
typedef enum mysqlx_collection_opt_enum {
  MYSQLX_OPT_COLLECTION_REUSE = 1, /**< unsigned int (bool): an existing collection is no error */
  MYSQLX_OPT_COLLECTION_VALIDATION = 2, /**< JSON text: {"level": ..., "schema": {...}} */
  MYSQLX_OPT_COLLECTION_LAST
} mysqlx_collection_opt_t;

/** The parts of a collection's validation, as options of mysqlx_collection_options_set(). */
typedef enum mysqlx_collection_validation_opt_enum {
  MYSQLX_OPT_COLLECTION_VALIDATION_SCHEMA = 1025, /**< JSON text of a JSON schema */
  MYSQLX_OPT_COLLECTION_VALIDATION_LEVEL = 1026,  /**< a mysqlx_collection_validation_level_t */
  MYSQLX_OPT_COLLECTION_VALIDATION_LAST
} mysqlx_collection_validation_opt_t;

/** Values of MYSQLX_OPT_COLLECTION_VALIDATION_LEVEL. */
typedef enum mysqlx_collection_validation_level_enum {
  MYSQLX_OPT_COLLECTION_VALIDATION_LEVEL_OFF = 2049,    /**< documents are not checked */
  MYSQLX_OPT_COLLECTION_VALIDATION_LEVEL_STRICT = 2050, /**< every document must match */
  MYSQLX_OPT_COLLECTION_VALIDATION_LEVEL_LAST
} mysqlx_collection_validation_level_t;

/** MYSQLX_OPT_COLLECTION_VALIDATION_LEVEL_OFF. */
#define VALIDATION_OFF MYSQLX_OPT_COLLECTION_VALIDATION_LEVEL_OFF
/** MYSQLX_OPT_COLLECTION_VALIDATION_LEVEL_STRICT. */
#define VALIDATION_STRICT MYSQLX_OPT_COLLECTION_VALIDATION_LEVEL_STRICT

/** MYSQLX_OPT_COLLECTION_REUSE: 1 to take an existing collection. */
#define OPT_COLLECTION_REUSE(X) MYSQLX_OPT_COLLECTION_REUSE, (unsigned int)X
/** MYSQLX_OPT_COLLECTION_VALIDATION: level and schema as one JSON object. */
#define OPT_COLLECTION_VALIDATION(X) MYSQLX_OPT_COLLECTION_VALIDATION, (const char*)X
/** MYSQLX_OPT_COLLECTION_VALIDATION_LEVEL: a mysqlx_collection_validation_level_t. */
#define OPT_COLLECTION_VALIDATION_LEVEL(X) MYSQLX_OPT_COLLECTION_VALIDATION_LEVEL, (unsigned int)X
/** MYSQLX_OPT_COLLECTION_VALIDATION_SCHEMA: a JSON schema. */
#define OPT_COLLECTION_VALIDATION_SCHEMA(X) MYSQLX_OPT_COLLECTION_VALIDATION_SCHEMA, (const char*)X

/** Row locks of mysqlx_set_row_locking(). */
typedef enum mysqlx_row_locking_enum {
  ROW_LOCK_NONE = 0,     /**< no lock */
  ROW_LOCK_SHARED = 1,   /**< others may read the rows, not change them */
  ROW_LOCK_EXCLUSIVE = 2 /**< as an UPDATE of the rows would lock them */
} mysqlx_row_locking_t;

/** What a locking read does when a row is locked by another transaction. */
typedef enum mysqlx_lock_contention_enum {
  LOCK_CONTENTION_DEFAULT = 0,    /**< wait for the lock */
  LOCK_CONTENTION_NOWAIT = 1,     /**< fail at once */
  LOCK_CONTENTION_SKIP_LOCKED = 2 /**< leave the locked rows out */
} mysqlx_lock_contention_t;
/**@}*/
/** A statement built step by step, then run by mysqlx_execute(). */
typedef struct mysqlx_stmt_struct mysqlx_stmt_t;
/** The result of a statement: row sets, documents, generated ids. */
typedef struct mysqlx_result_struct mysqlx_result_t;
/** A row of a result. */
typedef struct mysqlx_row_struct mysqlx_row_t;

/* ---------------------------------------------------------------------------
 * Sessions
 */

/**
  Connects to `host`:`port` as `user` (TLS required, as with the URL form's
  default). `host` NULL means "localhost", `port` 0 means 33060, `user` NULL
  means "root", `password` NULL means none, `database` NULL means no default
  schema.

  Returns the session, or NULL on failure; then, if `error` is not NULL,
  `*error` receives an error handle the caller frees with mysqlx_free().
  Close the session with mysqlx_session_close().
*/
MYSQLX_C_API mysqlx_session_t* mysqlx_get_session(const char* host, int port, const char* user,
                                                  const char* password, const char* database,
                                                  mysqlx_error_t** error);

/**
  Connects with a connection string, `[mysqlx://]user:password@host:port/db?options`,
  the same as the C++ API's (README.md lists the options). Failure as for
  mysqlx_get_session().
*/
MYSQLX_C_API mysqlx_session_t* mysqlx_get_session_from_url(const char* conn_string,
                                                           mysqlx_error_t** error);

/**
  Creates a pool of sessions to the server of `conn_string` (a connection
  string as for mysqlx_get_session_from_url()). `client_opts`, NULL for the
  defaults, is a JSON document:
  `{"pooling": {"enabled": true, "maxSize": 25, "queueTimeout": 0, "maxIdleTime": 0}}`
  (times in milliseconds, 0 for none; pooling disabled: each session is a
  connection of its own). Connects nothing yet. Returns the client, or NULL
  and, if `error` is not NULL, an error the caller frees with mysqlx_free().
*/
MYSQLX_C_API mysqlx_client_t* mysqlx_get_client_from_url(const char* conn_string,
                                                         const char* client_opts,
                                                         mysqlx_error_t** error);

/**
  A session from the pool: an idle one, reset, or a new connection; waits up
  to "queueTimeout" while "maxSize" sessions are in use. NULL on failure, as
  for mysqlx_get_session(). Close it with mysqlx_session_close(), which
  gives the connection back to the pool.
*/
MYSQLX_C_API mysqlx_session_t* mysqlx_get_session_from_client(mysqlx_client_t* cli,
                                                              mysqlx_error_t** error);

/**
  Closes the pool and frees the client: idle sessions are closed, a session
  in use fails its next call (it must still be closed with
  mysqlx_session_close()). NULL is ignored.
*/
MYSQLX_C_API void mysqlx_client_close(mysqlx_client_t* client);

/**
  Closes the session and frees everything that came from it (schemas,
  collections, results, rows, their errors). The handle is invalid afterwards.
  NULL is ignored.
*/
MYSQLX_C_API void mysqlx_session_close(mysqlx_session_t* session);

/** Starts a transaction. RESULT_OK, or RESULT_ERROR with the error on the session. */
MYSQLX_C_API int mysqlx_transaction_begin(mysqlx_session_t* sess);
/** Commits the transaction. RESULT_OK or RESULT_ERROR. */
MYSQLX_C_API int mysqlx_transaction_commit(mysqlx_session_t* sess);
/** Rolls the transaction back. RESULT_OK or RESULT_ERROR. */
MYSQLX_C_API int mysqlx_transaction_rollback(mysqlx_session_t* sess);
/**
  Sets a savepoint named `name`, or one with a generated name when `name` is
  NULL or empty. Returns its name (valid until the next mysqlx_savepoint_set()
  on the session, or its closing), or NULL with the error on the session.
*/
MYSQLX_C_API const char* mysqlx_savepoint_set(mysqlx_session_t* sess, const char* name);
/** Releases savepoint `name`. RESULT_OK or RESULT_ERROR. */
MYSQLX_C_API int mysqlx_savepoint_release(mysqlx_session_t* sess, const char* name);
/** Rolls back to savepoint `name` (required). RESULT_OK or RESULT_ERROR. */
MYSQLX_C_API int mysqlx_rollback_to(mysqlx_session_t* sess, const char* name);

/** Creates schema `schema` (one that exists is no error). RESULT_OK or RESULT_ERROR (on the
 * session). */
MYSQLX_C_API int mysqlx_schema_create(mysqlx_session_t* sess, const char* schema);
/** Drops schema `schema` if it exists. RESULT_OK or RESULT_ERROR (on the session). */
MYSQLX_C_API int mysqlx_schema_drop(mysqlx_session_t* sess, const char* schema);

/**
  The schema `schema_name` of the session; with `check` not 0, NULL (and an
  error on the session) if the server does not have it. The handle belongs
  to the session: the same name gives the same handle.
*/
MYSQLX_C_API mysqlx_schema_t* mysqlx_get_schema(mysqlx_session_t* sess, const char* schema_name,
                                                unsigned int check);

/**
  The collection `col_name` of the schema; with `check` not 0, NULL (and an
  error on the schema) if it does not exist. The handle belongs to the
  session: the same name gives the same handle.
*/
MYSQLX_C_API mysqlx_collection_t* mysqlx_get_collection(mysqlx_schema_t* schema,
                                                        const char* col_name, unsigned int check);

/**
  Creates collection `collection` in the schema; an existing one is kept.
  RESULT_OK, or RESULT_ERROR with the error on the schema.
*/
MYSQLX_C_API int mysqlx_collection_create(mysqlx_schema_t* schema, const char* collection);
/** Drops collection `collection` if it exists. RESULT_OK or RESULT_ERROR (on the schema). */
MYSQLX_C_API int mysqlx_collection_drop(mysqlx_schema_t* schema, const char* collection);

/* ---------------------------------------------------------------------------
 * SQL
 */

/**
  Runs one SQL statement of `query_len` bytes (MYSQLX_NULL_TERMINATED: up to
  the NUL). Returns its result, or NULL with the error on the session.
*/
MYSQLX_C_API mysqlx_result_t* mysqlx_sql(mysqlx_session_t* sess, const char* query,
                                         size_t query_len);

/**
  As mysqlx_sql(), with values for the query's `?` placeholders, in order,
  each given by a PARAM_*() macro, the list ended by PARAM_END:
  `mysqlx_sql_param(s, "SELECT ?, ?", MYSQLX_NULL_TERMINATED, PARAM_SINT(1),
  PARAM_STRING("a"), PARAM_END)`. The type given must be the type passed
  (a C variable argument list cannot be checked). Also accepted:
  MYSQLX_TYPE_BOOL followed by an int.
*/
MYSQLX_C_API mysqlx_result_t* mysqlx_sql_param(mysqlx_session_t* sess, const char* query,
                                               size_t query_len, ...);

/**
  An SQL statement handle, to run with mysqlx_execute(), again if wanted,
  with values for its `?` placeholders from mysqlx_stmt_bind() (as
  (type, value) pairs). `length` as for mysqlx_sql(). NULL with the error on
  the session.
*/
MYSQLX_C_API mysqlx_stmt_t* mysqlx_sql_new(mysqlx_session_t* sess, const char* query,
                                           uint32_t length);

/* ---------------------------------------------------------------------------
 * Collections
 */

/**
  Adds the documents given as JSON strings, terminated by PARAM_END:
  `mysqlx_collection_add(c, "{\"a\":1}", "{\"a\":2}", PARAM_END)`.
  A document without `_id` gets one: from the server on MySQL 8.0, from the
  connector on MySQL 5.7 or with `docid-mode=client`; mysqlx_fetch_generated_id()
  returns them. Returns the result, or NULL with the error on the collection
  (nothing is added then).
*/
MYSQLX_C_API mysqlx_result_t* mysqlx_collection_add(mysqlx_collection_t* collection, ...);

/**
  The number of documents in the collection through `*count`. RESULT_OK, or
  RESULT_ERROR with the error on the collection.
*/
MYSQLX_C_API int mysqlx_collection_count(mysqlx_collection_t* collection, uint64_t* count);

/**
  Removes the documents matching `criteria` (NULL or empty: all). Returns the
  result (see mysqlx_get_affected_count()), or NULL with the error on the
  collection.
*/
MYSQLX_C_API mysqlx_result_t* mysqlx_collection_remove(mysqlx_collection_t* collection,
                                                       const char* criteria);

/**
  Finds the documents matching `criteria` (an X DevAPI expression such as
  "price > 2"; NULL finds all). Read them with mysqlx_json_fetch_one().
  Returns the result, or NULL with the error on the collection.
*/
MYSQLX_C_API mysqlx_result_t* mysqlx_collection_find(mysqlx_collection_t* collection,
                                                     const char* criteria);

/**
  One-shot modify of the documents matching `criteria` (NULL: all): sets
  fields, as mysqlx_set_modify_set() does. Returns the result (see
  mysqlx_get_affected_count()), or NULL with the error on the collection.
*/
MYSQLX_C_API mysqlx_result_t* mysqlx_collection_modify_set(mysqlx_collection_t* collection,
                                                           const char* criteria, ...);
/** One-shot modify that removes fields, as mysqlx_set_modify_unset() does; otherwise as
    mysqlx_collection_modify_set(). */
MYSQLX_C_API mysqlx_result_t* mysqlx_collection_modify_unset(mysqlx_collection_t* collection,
                                                             const char* criteria, ...);
/** One-shot modify that applies a JSON merge patch, as mysqlx_set_modify_patch() does; otherwise
    as mysqlx_collection_modify_set(). */
MYSQLX_C_API mysqlx_result_t* mysqlx_collection_modify_patch(mysqlx_collection_t* collection,
                                                             const char* criteria,
                                                             const char* patch_spec);

/* ---------------------------------------------------------------------------
 * Statement handles (collections: find, add, remove, modify)
 */

/** A find on the collection, to set up and run with mysqlx_execute(). NULL with the error on the
 * collection. */
MYSQLX_C_API mysqlx_stmt_t* mysqlx_collection_find_new(mysqlx_collection_t* collection);
/** An add: documents come from mysqlx_set_add_document(). */
MYSQLX_C_API mysqlx_stmt_t* mysqlx_collection_add_new(mysqlx_collection_t* collection);
/** A remove: of every document, unless mysqlx_set_where() says which. */
MYSQLX_C_API mysqlx_stmt_t* mysqlx_collection_remove_new(mysqlx_collection_t* collection);
/**
  A modify: of every document unless mysqlx_set_where() says which; its
  changes come from the mysqlx_set_modify_*() calls, applied in the order
  given (each call adds to the ones before).
*/
MYSQLX_C_API mysqlx_stmt_t* mysqlx_collection_modify_new(mysqlx_collection_t* collection);

/*
  The setters below return RESULT_OK, or RESULT_ERROR with the error on the
  statement (also for a setter the statement does not take, such as a
  condition for an add). Each replaces what the same setter set before,
  except mysqlx_set_add_document(), which appends.
*/

/** The condition of a find, remove or modify ("n > :min"); NULL or empty: every document. */
MYSQLX_C_API int mysqlx_set_where(mysqlx_stmt_t* stmt, const char* where_expr);
/**
  The order of a find or remove: (expression, direction) pairs ended by
  PARAM_END, e.g. `mysqlx_set_order_by(st, PARAM_SORT_DESC("n"), PARAM_END)`.
*/
MYSQLX_C_API int mysqlx_set_order_by(mysqlx_stmt_t* stmt, ...);
/** At most `row_count` documents, skipping `offset` first (find; remove and modify take offset 0
 * only). */
MYSQLX_C_API int mysqlx_set_limit_and_offset(mysqlx_stmt_t* stmt, uint64_t row_count,
                                             uint64_t offset);
/** A find's projection, a document expression: "{\"a\": n, \"b\": $.x.y}"; NULL or empty: none. */
MYSQLX_C_API int mysqlx_set_find_projection(mysqlx_stmt_t* stmt, const char* proj);
/**
  A modify's new field values: (path, value) triplets ended by PARAM_END,
  the value given by a PARAM_*() macro, PARAM_EXPR() included:
  `mysqlx_set_modify_set(st, "name", PARAM_STRING("x"), "n", PARAM_EXPR("n + 1"), PARAM_END)`.
*/
MYSQLX_C_API int mysqlx_set_modify_set(mysqlx_stmt_t* stmt, ...);
/** Fields a modify removes: paths ended by PARAM_END. */
MYSQLX_C_API int mysqlx_set_modify_unset(mysqlx_stmt_t* stmt, ...);
/** Values a modify inserts into arrays, at the positions the paths name ("tags[0]"): triplets as
 * for mysqlx_set_modify_set(). */
MYSQLX_C_API int mysqlx_set_modify_array_insert(mysqlx_stmt_t* stmt, ...);
/** Values a modify appends to the arrays the paths name: triplets as for mysqlx_set_modify_set().
 */
MYSQLX_C_API int mysqlx_set_modify_array_append(mysqlx_stmt_t* stmt, ...);
/** Array elements a modify removes ("tags[1]"): paths ended by PARAM_END. */
MYSQLX_C_API int mysqlx_set_modify_array_delete(mysqlx_stmt_t* stmt, ...);
/** A JSON merge patch a modify applies (as the C++ API's patch(): null removes a field). */
MYSQLX_C_API int mysqlx_set_modify_patch(mysqlx_stmt_t* stmt, const char* patch_spec);
/** Appends a document (JSON text) to an add. */
MYSQLX_C_API int mysqlx_set_add_document(mysqlx_stmt_t* stmt, const char* json_doc);
/**
  Values of the condition's named parameters (find, remove, modify): (name,
  value) triplets ended by PARAM_END, e.g.
  `mysqlx_stmt_bind(st, "min", PARAM_SINT(2), PARAM_END)`; for SQL, the
  values of the `?` placeholders in order, as for mysqlx_sql_param(). Replaces
  the previous call's values.
*/
MYSQLX_C_API int mysqlx_stmt_bind(mysqlx_stmt_t* stmt, ...);
/** @name The setters under the names Connector/C++ 8 also gives them per statement */
/**@{*/
/** mysqlx_set_where() of a find. */
#define mysqlx_set_find_criteria mysqlx_set_where
/** mysqlx_set_order_by() of a find. */
#define mysqlx_set_find_order_by mysqlx_set_order_by
/** mysqlx_set_limit_and_offset() of a find. */
#define mysqlx_set_find_limit_and_offset(STMT, LIM, OFFS)                                          \
  mysqlx_set_limit_and_offset(STMT, LIM, OFFS)
/** mysqlx_set_where() of a remove. */
#define mysqlx_set_remove_criteria mysqlx_set_where
/** mysqlx_set_order_by() of a remove. */
#define mysqlx_set_remove_order_by mysqlx_set_order_by
/** mysqlx_set_limit_and_offset() of a remove (offset 0). */
#define mysqlx_set_remove_limit_and_offset mysqlx_set_limit_and_offset
/** mysqlx_set_where() of a modify. */
#define mysqlx_set_modify_criteria mysqlx_set_where
/**@}*/

/**
  Runs the statement as set up so far (it can be changed and run again).
  Returns its result, which the statement owns (freed by the next
  mysqlx_execute() or with the statement; mysqlx_free() frees it earlier),
  or NULL with the error on the statement.
*/
MYSQLX_C_API mysqlx_result_t* mysqlx_execute(mysqlx_stmt_t* stmt);

/* ---------------------------------------------------------------------------
 * Results
 */

/**
  The next row of the result, or NULL at the end or on an error (then on
  the result). The row stays valid until the result is freed.
*/
MYSQLX_C_API mysqlx_row_t* mysqlx_row_fetch_one(mysqlx_result_t* res);

/**
  The next document of a find's result as JSON text, NUL-terminated, or NULL
  at the end or on an error (then on the result). `out_length`, if not NULL,
  receives its size in bytes counting the terminating NUL (as Connector/C++ 8
  counts it). The text stays valid until the result is freed.
*/
MYSQLX_C_API const char* mysqlx_json_fetch_one(mysqlx_result_t* res, size_t* out_length);

/**
  Reads the rest of the current row set into memory, so that it can be
  fetched later even after other statements ran on the session. `*num`, if
  `num` is not NULL, receives the number of rows (or documents) not fetched yet.
  RESULT_ERROR (with the error on the result) for a result with no row set.
  Called again, it reads nothing and gives the number left.
*/
MYSQLX_C_API int mysqlx_store_result(mysqlx_result_t* result, size_t* num);

/**
  As mysqlx_store_result(), but a result without rows is no error: `*num` is 0.
*/
MYSQLX_C_API int mysqlx_get_count(mysqlx_result_t* result, size_t* num);

/**
  Moves to the next row set of a reply with several (SQL calling a
  procedure): RESULT_OK, RESULT_NULL when there is none (any rows not
  fetched from the current set are dropped), RESULT_ERROR with the error on
  the result. Rows, documents and names returned before stay valid.
*/
MYSQLX_C_API int mysqlx_next_result(mysqlx_result_t* res);

/**
  The number of rows or documents the statement changed (0 on an error,
  then on the result).
*/
MYSQLX_C_API uint64_t mysqlx_get_affected_count(mysqlx_result_t* res);

/**
  The AUTO_INCREMENT value the statement generated (the first row's), or 0.
  0 with an error on the result while a row set is current: move past the
  row sets first (mysqlx_next_result()), as with the C++ API.
*/
MYSQLX_C_API uint64_t mysqlx_get_auto_increment_value(mysqlx_result_t* res);

/**
  The ids the add that made this result generated for documents without
  `_id`, one per call in document order, then NULL. Documents that had their
  own `_id` have none here. The text stays valid until the result is freed.
*/
MYSQLX_C_API const char* mysqlx_fetch_generated_id(mysqlx_result_t* result);

/**
  Frees a result (the same as mysqlx_free()); its rows and texts go with it.
*/
MYSQLX_C_API void mysqlx_result_free(mysqlx_result_t* res);

/**
  Copies the bytes of column `col` (from 0) of the row, skipping `offset`
  bytes, into `buf`, whose size is `*buf_len`; `*buf_len` receives the
  number of bytes copied. Text, ENUM and SET values, BLOB-like values and
  JSON text end with one 0x00 byte that is not part of the value (as in
  Connector/C++ 8, so that an empty value is told from NULL); DATE, DATETIME,
  TIMESTAMP and TIME give their X Protocol encoding. Numeric columns are
  refused (RESULT_ERROR): read them with mysqlx_get_sint(), mysqlx_get_uint()
  or mysqlx_get_double().

  Returns RESULT_OK, RESULT_MORE_DATA when bytes are left past what was
  copied, RESULT_NULL for NULL, RESULT_ERROR with the error on the row.
*/
MYSQLX_C_API int mysqlx_get_bytes(mysqlx_row_t* row, uint32_t col, uint64_t offset, void* buf,
                                  size_t* buf_len);

/**
  The value of column `col` as an unsigned 64-bit integer. RESULT_OK,
  RESULT_NULL for NULL, RESULT_ERROR (error on the row) for a value that is
  not an integer or does not fit.
*/
MYSQLX_C_API int mysqlx_get_uint(mysqlx_row_t* row, uint32_t col, uint64_t* val);

/**
  As mysqlx_get_double(), for a float: RESULT_ERROR for a value outside the
  range of float.
*/
MYSQLX_C_API int mysqlx_get_float(mysqlx_row_t* row, uint32_t col, float* val);

/** As mysqlx_get_uint(), for a signed 64-bit integer. */
MYSQLX_C_API int mysqlx_get_sint(mysqlx_row_t* row, uint32_t col, int64_t* val);

/**
  As mysqlx_get_uint(), for a double: FLOAT, DOUBLE and DECIMAL columns
  (DECIMAL rounded to the nearest double) and integers.
*/
MYSQLX_C_API int mysqlx_get_double(mysqlx_row_t* row, uint32_t col, double* val);

/** The number of columns of the result's current row set; 0 when it has none. */
MYSQLX_C_API uint32_t mysqlx_column_get_count(mysqlx_result_t* res);

/**
  The name (label) of column `pos` (from 0), or NULL with an error on the
  result when there is no such column. Valid until the result is freed.
*/
MYSQLX_C_API const char* mysqlx_column_get_name(mysqlx_result_t* res, uint32_t pos);

/*
  Column metadata of the result's current row set; `pos` counts from 0. A
  position out of range gives 0 or NULL, with the error on the result. The
  strings stay valid until the result is freed.
*/

/**
  The column's type, a mysqlx_data_type_t: integers are MYSQLX_TYPE_SINT or
  MYSQLX_TYPE_UINT (MYSQLX_TYPE_BOOL when one digit wide, as TINYINT(1);
  MYSQLX_TYPE_BIT for BIT), DATE and DATETIME are MYSQLX_TYPE_DATETIME, text
  MYSQLX_TYPE_STRING, binary strings MYSQLX_TYPE_BYTES; a find's column is
  MYSQLX_TYPE_JSON.
*/
MYSQLX_C_API uint16_t mysqlx_column_get_type(mysqlx_result_t* res, uint32_t pos);
/**
  The collation id of a text column (as in INFORMATION_SCHEMA.COLLATIONS);
  MYSQLX_COLLATION_UNDEFINED for other columns, or a collation this library
  does not know.
*/
MYSQLX_C_API uint16_t mysqlx_column_get_collation(mysqlx_result_t* res, uint32_t pos);
/** The column's length as the server reports it (bytes for text: VARCHAR(10) in utf8mb4 is 40). */
MYSQLX_C_API uint32_t mysqlx_column_get_length(mysqlx_result_t* res, uint32_t pos);
/** The column's number of fractional digits (DECIMAL, DOUBLE, temporal). */
MYSQLX_C_API uint16_t mysqlx_column_get_precision(mysqlx_result_t* res, uint32_t pos);
/** The column's name in its table (not its alias). */
MYSQLX_C_API const char* mysqlx_column_get_original_name(mysqlx_result_t* res, uint32_t pos);
/** The table's name (its alias, if the query gave one); empty for an expression. */
MYSQLX_C_API const char* mysqlx_column_get_table(mysqlx_result_t* res, uint32_t pos);
/** The table's own name (not its alias). */
MYSQLX_C_API const char* mysqlx_column_get_original_table(mysqlx_result_t* res, uint32_t pos);
/** The schema of the column's table. */
MYSQLX_C_API const char* mysqlx_column_get_schema(mysqlx_result_t* res, uint32_t pos);
/** The catalog: always "def" with MySQL. */
MYSQLX_C_API const char* mysqlx_column_get_catalog(mysqlx_result_t* res, uint32_t pos);

/* ---------------------------------------------------------------------------
 * Warnings
 */

/**
  The number of warnings (and notes) the statement produced; reads the rest
  of the reply (rows not fetched yet are kept). 0 on an error, then on the result.
*/
MYSQLX_C_API unsigned int mysqlx_result_warning_count(mysqlx_result_t* res);

/**
  The next warning of the result, as an error handle (mysqlx_error_num():
  the server's code, mysqlx_error_message(): its text), or NULL after the
  last one. The handle belongs to the result and is replaced by the next
  call; mysqlx_free() leaves it alone.
*/
MYSQLX_C_API mysqlx_error_t* mysqlx_result_next_warning(mysqlx_result_t* res);

/* ---------------------------------------------------------------------------
 * Session options
 */

/** A new, empty set of session options; free it with mysqlx_free_options(). NULL when out of
 * memory. */
MYSQLX_C_API mysqlx_session_options_t* mysqlx_session_options_new(void);
/** Frees options made by mysqlx_session_options_new(); NULL is ignored. */
MYSQLX_C_API void mysqlx_free_options(mysqlx_session_options_t* opt);
/**
  Sets options: (option, value) pairs ended by PARAM_END, as the OPT_*()
  macros write them (`OPT_HOST("h"), OPT_PORT(33060), PARAM_END`): session
  options (mysqlx_opt_type_t) and client options (mysqlx_client_opt_type_t).
  All or nothing: on an error (an unknown option, a bad value, a port without
  a host, an option given twice where only one is allowed) no option of the
  call is set. RESULT_OK or RESULT_ERROR (mysqlx_error() on `opth`).
*/
MYSQLX_C_API int mysqlx_session_option_set(mysqlx_session_options_t* opth, ...);
/**
  Reads session option `opt` into the one pointer that follows: a `char*`
  buffer for a string option (large enough: it is not checked), an
  `unsigned int*` for the others. For several hosts, the last one's host,
  port or priority. RESULT_ERROR for an option that is not set.
*/
MYSQLX_C_API int mysqlx_session_option_get(mysqlx_session_options_t* opth, int opt, ...);
/** Connects with the options; failure as for mysqlx_get_session(). The options stay the caller's.
 */
MYSQLX_C_API mysqlx_session_t* mysqlx_get_session_from_options(mysqlx_session_options_t* opt,
                                                               mysqlx_error_t** error);
/** A client (pool) with the options' session and client options; failure as for
 * mysqlx_get_client_from_url(). */
MYSQLX_C_API mysqlx_client_t* mysqlx_get_client_from_options(mysqlx_session_options_t* opt,
                                                             mysqlx_error_t** error);
/** 1 while the session is usable, 0 once its connection failed (no round trip). */
MYSQLX_C_API int mysqlx_session_valid(mysqlx_session_t* sess);

/* ---------------------------------------------------------------------------
 * Listings, collection options and indexes
 */

/**
  The schemas whose names match `schema_pattern` (LIKE: `%` and `_` are
  wildcards; NULL: all) as rows of one column, the name. The result belongs
  to the session, as mysqlx_sql()'s.
*/
MYSQLX_C_API mysqlx_result_t* mysqlx_get_schemas(mysqlx_session_t* sess,
                                                 const char* schema_pattern);
/**
  The tables of the schema matching `table_pattern` (NULL: all), and the views too when
  `get_views` is not 0, as rows (name, "TABLE" or "VIEW"); collections are left out.
*/
MYSQLX_C_API mysqlx_result_t* mysqlx_get_tables(mysqlx_schema_t* schema, const char* table_pattern,
                                                int get_views);
/** The collections of the schema matching `col_pattern` (NULL: all) as rows (name, "COLLECTION").
 */
MYSQLX_C_API mysqlx_result_t* mysqlx_get_collections(mysqlx_schema_t* schema,
                                                     const char* col_pattern);
/** New, empty collection options; free them with mysqlx_free(). NULL when out of memory. */
MYSQLX_C_API mysqlx_collection_options_t* mysqlx_collection_options_new(void);
/**
  Sets collection options: (option, value) pairs ended by PARAM_END, as the
  OPT_COLLECTION_*() macros write them. An option given twice is an error
  (VALIDATION and its parts count as one); nothing of the call is set then.
*/
MYSQLX_C_API int mysqlx_collection_options_set(mysqlx_collection_options_t* options, ...);
/** Creates the collection with these options (REUSE: an existing one is no error). */
MYSQLX_C_API int mysqlx_collection_create_with_options(mysqlx_schema_t* schema,
                                                       const char* collection,
                                                       mysqlx_collection_options_t* options);
/** The same with the options as JSON: `{"reuseExisting": true, "validation": {...}}`. */
MYSQLX_C_API int mysqlx_collection_create_with_json_options(mysqlx_schema_t* schema,
                                                            const char* collection,
                                                            const char* json_options);
/** Changes an existing collection's validation (REUSE is refused here). */
MYSQLX_C_API int mysqlx_collection_modify_with_options(mysqlx_schema_t* schema,
                                                       const char* collection,
                                                       mysqlx_collection_options_t* options);
/** The same with the options as JSON: `{"validation": {...}}`. */
MYSQLX_C_API int mysqlx_collection_modify_with_json_options(mysqlx_schema_t* schema,
                                                            const char* collection,
                                                            const char* json_options);
/** Creates index `name` from a JSON index definition: `{"fields": [{"field": "$.n", "type":
 * "INT"}]}`. */
MYSQLX_C_API int mysqlx_collection_create_index(mysqlx_collection_t* coll, const char* name,
                                                const char* idx_spec);
/** Drops index `name`; an index that does not exist is no error. */
MYSQLX_C_API int mysqlx_collection_drop_index(mysqlx_collection_t* coll, const char* name);

/* ---------------------------------------------------------------------------
 * Tables
 */

/**
  The table (or view) `tab_name` of the schema; with `check` not 0, NULL
  and an error on the schema if it does not exist. The handle belongs to the
  schema's session, as a collection's.
*/
MYSQLX_C_API mysqlx_table_t* mysqlx_get_table(mysqlx_schema_t* schema, const char* tab_name,
                                              unsigned int check);
/** The number of rows of the table into `*count`. */
MYSQLX_C_API int mysqlx_table_count(mysqlx_table_t* table, uint64_t* count);
/** Rows matching `criteria` (NULL or "": all), every column. The result belongs to the session. */
MYSQLX_C_API mysqlx_result_t* mysqlx_table_select(mysqlx_table_t* table, const char* criteria);
/**
  The same with a limit, an offset and an order: (expression, SORT_ORDER_*)
  pairs ended by PARAM_END.
*/
MYSQLX_C_API mysqlx_result_t* mysqlx_table_select_limit(mysqlx_table_t* table, const char* criteria,
                                                        uint64_t row_count, uint64_t offset, ...);
/** Inserts one row: (column, type, value) triplets ended by PARAM_END, e.g. `"id", PARAM_SINT(1)`.
 */
MYSQLX_C_API mysqlx_result_t* mysqlx_table_insert(mysqlx_table_t* table, ...);
/** Deletes the rows matching `criteria` (NULL or "": all). */
MYSQLX_C_API mysqlx_result_t* mysqlx_table_delete(mysqlx_table_t* table, const char* criteria);
/**
  Updates the rows matching `criteria` (NULL or "": all): (column, type,
  value) triplets ended by PARAM_END; PARAM_EXPR("n + 1") computes a value.
*/
MYSQLX_C_API mysqlx_result_t* mysqlx_table_update(mysqlx_table_t* table, const char* criteria, ...);
/** A select statement handle (owned as mysqlx_sql_new()'s). */
MYSQLX_C_API mysqlx_stmt_t* mysqlx_table_select_new(mysqlx_table_t* table);
/** An insert statement handle. */
MYSQLX_C_API mysqlx_stmt_t* mysqlx_table_insert_new(mysqlx_table_t* table);
/** A delete statement handle. */
MYSQLX_C_API mysqlx_stmt_t* mysqlx_table_delete_new(mysqlx_table_t* table);
/** An update statement handle. */
MYSQLX_C_API mysqlx_stmt_t* mysqlx_table_update_new(mysqlx_table_t* table);
/** An insert's columns: names ended by PARAM_END; replaces the previous list (none: every column).
 */
MYSQLX_C_API int mysqlx_set_insert_columns(mysqlx_stmt_t* stmt, ...);
/** Adds a row to an insert: (type, value) pairs ended by PARAM_END, in column order. */
MYSQLX_C_API int mysqlx_set_insert_row(mysqlx_stmt_t* stmt, ...);
/**
  An update's values: (column, type, value) triplets ended by PARAM_END
  (PARAM_EXPR for an expression); replaces the previous call's.
*/
MYSQLX_C_API int mysqlx_set_update_values(mysqlx_stmt_t* stmt, ...);
/** A select's projection: expressions ("a", "b + 1 AS c") ended by PARAM_END. */
MYSQLX_C_API int mysqlx_set_items(mysqlx_stmt_t* stmt, ...);
/** The HAVING condition of a select or find. */
MYSQLX_C_API int mysqlx_set_having(mysqlx_stmt_t* stmt, const char* having_expr);
/** The grouping of a select or find: expressions ended by PARAM_END. */
MYSQLX_C_API int mysqlx_set_group_by(mysqlx_stmt_t* stmt, ...);
/**
  Locks the rows a select or find reads until the transaction ends:
  `locking` a mysqlx_row_locking_t, `contention` a mysqlx_lock_contention_t.
*/
MYSQLX_C_API int mysqlx_set_row_locking(mysqlx_stmt_t* stmt, int locking, int contention);

/** @name Per-statement names of the setters, as Connector/C++ 8 gives them */
/**@{*/
/** mysqlx_set_having() of a find. */
#define mysqlx_set_find_having mysqlx_set_having
/** mysqlx_set_group_by() of a find. */
#define mysqlx_set_find_group_by mysqlx_set_group_by
/** mysqlx_set_row_locking() of a find. */
#define mysqlx_set_find_row_locking mysqlx_set_row_locking
/** mysqlx_set_items() of a select. */
#define mysqlx_set_select_items mysqlx_set_items
/** mysqlx_set_where() of a select. */
#define mysqlx_set_select_where mysqlx_set_where
/** mysqlx_set_order_by() of a select. */
#define mysqlx_set_select_order_by mysqlx_set_order_by
/** mysqlx_set_having() of a select. */
#define mysqlx_set_select_having mysqlx_set_having
/** mysqlx_set_group_by() of a select. */
#define mysqlx_set_select_group_by mysqlx_set_group_by
/** mysqlx_set_limit_and_offset() of a select. */
#define mysqlx_set_select_limit_and_offset mysqlx_set_limit_and_offset
/** mysqlx_set_row_locking() of a select. */
#define mysqlx_set_select_row_locking mysqlx_set_row_locking
/** mysqlx_set_where() of a table delete. */
#define mysqlx_set_delete_where mysqlx_set_where
/** At most LIM rows deleted (mysqlx_set_limit_and_offset() with offset 0). */
#define mysqlx_set_delete_limit(STMT, LIM) mysqlx_set_limit_and_offset(STMT, LIM, 0)
/** mysqlx_set_order_by() of a table delete. */
#define mysqlx_set_delete_order_by mysqlx_set_order_by
/** mysqlx_set_where() of a table update. */
#define mysqlx_set_update_where mysqlx_set_where
/** At most LIM rows updated (mysqlx_set_limit_and_offset() with offset 0). */
#define mysqlx_set_update_limit(STMT, LIM) mysqlx_set_limit_and_offset(STMT, LIM, 0)
/** mysqlx_set_order_by() of a table update. */
#define mysqlx_set_update_order_by mysqlx_set_order_by
/**@}*/

/* ---------------------------------------------------------------------------
 * Errors and freeing
 */

/**
  The error of the last call on handle `obj` (any handle of this header), or
  NULL when it succeeded. An error handle gives itself. The error belongs to
  `obj`: it is replaced by the next call on `obj`.
*/
MYSQLX_C_API mysqlx_error_t* mysqlx_error(void* obj);

/** The message of mysqlx_error(obj), or NULL when there is no error. */
MYSQLX_C_API const char* mysqlx_error_message(void* obj);

/** The number of mysqlx_error(obj), or 0 when there is no error. */
MYSQLX_C_API unsigned int mysqlx_error_num(void* obj);

/**
  Frees a result, a statement handle (and its result), or an error returned
  by a failed mysqlx_get_session*() or mysqlx_get_client_from_url().
  Schemas, collections, rows and errors that belong to another handle are
  left alone (they go with their session); use mysqlx_session_close() for a
  session. NULL is ignored.
*/
MYSQLX_C_API void mysqlx_free(void* obj);

#ifdef __cplusplus
}
#endif

#endif /* MYSQLX_XAPI_H */
