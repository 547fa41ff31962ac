// The decisions of session set-up, as pure functions of the options, the
// transport and what the server offered, so each one is testable alone.
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/foundation/options.h"
#include "cdk/protocol/value.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cdk::session {

using attribute_list = std::vector<std::pair<std::string, std::string>>;

// Upgrade to TLS? Never on a Unix socket (already private, and what the
// official connectors do) nor with ssl-mode DISABLED. Otherwise TLS is
// required: a server that does not offer the tls capability is an error.
result<bool> decide_tls(const tls_options& tls, bool local_transport,
                        const std::vector<protocol::value_field>& server_caps);

// The compression algorithm to ask for: the first of the user's list (or of
// `supported` when the list is empty) that the server offers and we support;
// names are case-insensitive and "deflate"/"lz4"/"zstd" are accepted for
// the full names. Empty string: no compression. REQUIRED without a common
// algorithm is an error naming both sides' lists.
result<std::string> decide_compression(compression_mode mode,
                                       const std::vector<std::string>& wanted,
                                       const std::vector<std::string>& supported,
                                       const std::vector<protocol::value_field>& server_caps);

// The algorithm decide_compression() would pick from a server that offers
// every one we support: asked for before the server's list is known (no TLS,
// PREFERRED), so that no round trip waits for CapabilitiesGet. Empty: none.
std::string speculative_compression(compression_mode mode, const std::vector<std::string>& wanted,
                                    const std::vector<std::string>& supported);

// Settings that are accepted when set, as Connector/C++ 8 accepts them, but
// can never give a session: auth EXTERNAL (the X Plugin has no such
// mechanism) and compression REQUIRED with a compression-algorithms list
// that named no algorithm we know. Checked before any socket is opened; the
// error names the cause (client_errc::auth_plugin, client_errc::compression).
status check_connectable(const connect_options& opts);

// Which mechanisms to try, in order. PLAIN needs TLS or a Unix socket and is
// refused here, before any password leaves the client. AUTO is PLAIN on a
// secure transport, else MYSQL41 then SHA256_MEMORY (as Connector/C++ does).
// EXTERNAL is check_connectable()'s error.
result<std::vector<std::string>> auth_plan(auth_method method, bool secure_transport);

// The connector's own attributes: _client_name, _client_version, _os,
// _platform, _pid (from the running process).
attribute_list default_client_attributes();

// Checks the user's attributes (non-empty names that do not start with '_')
// and returns ours followed by theirs.
result<attribute_list> connection_attributes(const attribute_list& client_defaults,
                                             const attribute_list& user);

// The session_connect_attrs capability value.
protocol::value attributes_value(const attribute_list& attrs);

} // namespace cdk::session
