// The state behind SessionSettings and ClientSettings, and its conversion to
// cdk::connect_options. Private header; the session layer uses
// connect_options_of() and pool_options_of().
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/foundation/options.h"

#include <mysqlx/settings.h>
#include <string>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

/// Options in the order they were set. HOST, PORT, SOCKET and PRIORITY may
/// repeat (they build the fail-over list); every other option appears at
/// most once. Client options have negative numbers (ClientOption::Enum).
struct settings_impl {
  option_list options;
};

/// "SessionOption::HOST", "ClientOption::POOL_MAX_SIZE": for messages.
std::string option_label(int opt);

/// Adds `changes` to `target`: expands URI options, checks each value's type,
/// replaces earlier values of non-repeating options. `allow_client` says
/// whether ClientOption values are accepted. On error `target` may be
/// partly changed: callers apply to a copy.
cdk::status apply_options(option_list& target, option_list&& changes, bool allow_client);

/// The session options as cdk::connect_options, checked as a whole (host
/// list rules, TLS options against ssl-mode, ...), with the same rules and
/// messages as a connection string.
cdk::result<cdk::connect_options> to_connect_options(const option_list& options);

/// The pool options, defaults filled in.
PoolOptions to_pool_options(const option_list& options);

/// `{"pooling": {"enabled": ..., "maxSize": ..., "queueTimeout": ...,
/// "maxIdleTime": ...}}` as ClientOption values.
cdk::result<option_list> client_options_from_json(const DbDoc& doc);

/// For the session layer: throw mysqlx::Error on failure.
cdk::connect_options connect_options_of(const SessionSettings& settings);
cdk::connect_options connect_options_of(const ClientSettings& settings);
PoolOptions pool_options_of(const ClientSettings& settings);

} // namespace detail
MYSQLX_NAMESPACE_END
