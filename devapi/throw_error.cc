#include "devapi/throw_error.h"

#include "devapi/access.h"

#include <mysqlx/error.h>

MYSQLX_NAMESPACE_BEGIN

// The public error codes are cdk's, re-declared so that no public header
// includes cdk; each pair is checked here, where both are visible.
static_assert(errc::UNKNOWN == cdk::client_errc::unknown);
static_assert(errc::CONNECTION_ERROR == cdk::client_errc::connection_error);
static_assert(errc::CONN_HOST_ERROR == cdk::client_errc::conn_host_error);
static_assert(errc::UNKNOWN_HOST == cdk::client_errc::unknown_host);
static_assert(errc::SERVER_GONE == cdk::client_errc::server_gone);
static_assert(errc::LOST_CONNECTION == cdk::client_errc::lost_connection);
static_assert(errc::SSL_CONNECTION == cdk::client_errc::ssl_connection);
static_assert(errc::MALFORMED_PACKET == cdk::client_errc::malformed_packet);
static_assert(errc::AUTH_PLUGIN == cdk::client_errc::auth_plugin);
static_assert(errc::BAD_OPTION == cdk::client_errc::bad_option);
static_assert(errc::BAD_DOCUMENT == cdk::client_errc::bad_document);
static_assert(errc::DOCID_UNSUPPORTED == cdk::client_errc::docid_unsupported);
static_assert(errc::USAGE == cdk::client_errc::usage);
static_assert(errc::PARSE == cdk::client_errc::parse);
static_assert(errc::COMPRESSION == cdk::client_errc::compression);
static_assert(errc::TIMEOUT == cdk::client_errc::timeout);

namespace detail {

void throw_error(const cdk::error& err) {
  switch (err.origin) {
  case cdk::error_origin::server:
    throw ServerError(err.code, err.sql_state, err.message, err.fatal);
  case cdk::error_origin::connection: {
    ConnectionError e(err.code, err.message, err.sql_state);
    access::set_maybe_applied(e, err.maybe_applied);
    throw e;
  }
  case cdk::error_origin::client:
    break;
  }
  throw ClientError(err.code, err.message, err.sql_state, err.fatal);
}

} // namespace detail
MYSQLX_NAMESPACE_END
