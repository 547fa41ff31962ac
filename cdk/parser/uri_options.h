// The option rules of a connection string, usable without a URI: the DevAPI's
// SessionSettings feeds options one at a time through the same checks.
//
//   connect_options_builder b(password);
//   b.set_hosts(...);  b.set_option(...) ...;  b.finish();  b.take();
//
// set_option() checks one option (name, value); an option given again
// replaces the earlier value, as in Connector/C++ 8. finish() checks the
// rules that involve several options.
// After an error the builder's state is unspecified: start a new one.
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/foundation/options.h"
#include "cdk/parser/uri_parser.h"
#include "cdk/parser/uri_text.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace cdk {

// Option names accepted in the query part (lower case; matching ignores case).
enum class uri_option_id : std::uint8_t {
  ssl_mode,
  ssl_ca,
  ssl_capath,
  ssl_crl,
  ssl_crlpath,
  tls_versions,
  tls_ciphersuites,
  auth,
  connect_timeout,
  connection_attributes,
  compression,
  compression_algorithms,
  docid_mode,
  max_message_size,
  read_timeout,
  write_timeout,
  max_in_flight,
  dead_peer_timeout,
  count_
};

std::string_view uri_option_name(uri_option_id id) noexcept;

// The option a query name stands for, matched case-insensitively; knows
// Connector/C++'s alias "tls-version" for tls-versions. count_ when unknown.
uri_option_id uri_option_of(std::string_view name) noexcept;

// Limits, with where they come from.
inline constexpr std::size_t max_attribute_name = 32;    // performance_schema ATTR_NAME
inline constexpr std::size_t max_attribute_value = 1024; // performance_schema ATTR_VALUE
// Largest timeout whose deadline still fits a nanosecond steady_clock.
inline constexpr std::uint64_t max_connect_timeout_ms = 9'223'372'036'854ull;
// An X Protocol frame length is a 32-bit field.
inline constexpr std::uint64_t max_message_size_limit = 0xffffffffull;
// max-in-flight: requests sent with executeAsync() and not yet answered.
inline constexpr std::uint64_t max_in_flight_limit = 100000;

class connect_options_builder {
public:
  // `secret` is the password: no error message quotes a value containing it.
  // It must outlive the builder.
  explicit connect_options_builder(std::string_view secret = {}) { m_quote.secret = secret; }

  // For options parsed from `uri`, which must outlive the builder: option
  // text that may hold a mistyped password is never quoted in errors.
  void guard_uri(std::string_view uri) noexcept { m_quote.uri = uri; }

  // Host rules: priorities 0..100, all or none; mysqlx+srv takes exactly one
  // host name, no port, no socket, no priority. Hosts with priorities are
  // ordered highest first (stable for equal priorities).
  status set_hosts(std::vector<uri_endpoint> hosts, bool dns_srv);

  // One option; `opt.name` is matched case-insensitively.
  status set_option(const uri_option& opt);

  // Rules across options; call once, after the last set_option().
  status finish();

  connect_options& options() noexcept { return m_opts; }
  connect_options take() { return std::move(m_opts); }

private:
  connect_options m_opts;
  uri_text::quoter m_quote;
  std::size_t m_pos = 0;    // of the option being set, for m_quote
  std::uint32_t m_seen = 0; // bit per uri_option_id
  bool m_empty_algorithms = false;
  std::string m_unknown_algorithms; // the names dropped from the list, quoted, for errors

  bool seen(uri_option_id id) const noexcept { return (m_seen >> static_cast<unsigned>(id)) & 1u; }
  status apply(uri_option_id id, const uri_option& opt);
  void set_tls_list(uri_option_id id, const std::vector<std::string>& values);
  status set_attributes(const uri_option& opt);
  status set_list(uri_option_id id, const std::vector<std::string>& values);
};

} // namespace cdk
