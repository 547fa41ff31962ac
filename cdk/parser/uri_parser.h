// The mysqlx connection-string parser.
//
//   [mysqlx:// | mysqlx+srv://] [user[:password]@] host-part [/schema] [?options]
//
// Two levels: parse_uri_parts() gives the decoded pieces exactly as written
// (for the DevAPI's SessionSettings, which also accepts options one by one);
// parse_uri() validates them and fills cdk::connect_options. The option rules
// themselves live in uri_options.h, shared by both paths.
//
// Errors: client_errc::parse for text that does not follow the grammar,
// client_errc::bad_option for well-formed text with a bad value. Messages
// give a 0-based byte position and never quote text of the host part or the
// user info, so a mistyped password cannot end up in an error (see
// uri_parser.cc, "Passwords and error text").
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/foundation/options.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cdk {

// Longest accepted connection string. Bounds every allocation the parser makes.
inline constexpr std::size_t max_uri_length = std::size_t{64} * 1024;

enum class uri_scheme : std::uint8_t { none, mysqlx, mysqlx_srv };

// One entry of the host part, percent-decoded.
struct uri_endpoint {
  std::string host;                  // without IPv6 brackets; empty for a socket
  std::optional<std::uint16_t> port; // only when written
  std::string socket;                // Unix socket path, when the entry is one
  std::optional<int> priority;       // from (address=...,priority=N)
  std::size_t pos = 0;               // offset of the entry in the URI
};

// One query option, as written: the name lower-cased, values decoded.
struct uri_option {
  std::string name;
  std::vector<std::string> values; // one for "k=v", any number for "k=[a,b]"
  bool has_value = false;          // false for a bare "k"
  bool is_list = false;            // the value was written as [ ... ]
  std::size_t pos = 0;             // offset of the name in the URI
};

struct uri_parts {
  uri_scheme scheme = uri_scheme::none;
  std::optional<std::string> user;
  std::optional<std::string> password;
  std::vector<uri_endpoint> hosts; // at least one
  bool host_list = false;          // written as [ ... ]
  std::optional<std::string> schema;
  std::vector<uri_option> options; // in URI order; duplicates are kept here
};

// Grammar only: splits and decodes, checks characters, escapes, ports,
// priorities 0..100 and IPv6 literals. Does not look at option names.
result<uri_parts> parse_uri_parts(std::string_view uri);

// Everything: grammar, option names and values, and the cross-option rules.
result<connect_options> parse_uri(std::string_view uri);

} // namespace cdk
