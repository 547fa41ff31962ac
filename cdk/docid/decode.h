// Reading ids back: which kind an `_id` is, and what it says. For users
// debugging an ordering or uniqueness problem (examples/docid_explain.cc),
// and for tests. Public wrappers (mysqlx::DocId) build on this.
//
// Classification is by shape only: an application may supply ids that look
// like either format; nothing in an id proves who made it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cdk::docid {

enum class id_format : std::uint8_t {
  server, // 28 lower-case hex: MySQL 8.0.11+ X Plugin (WL#10955)
  local,  // 32 lower-case hex, an RFC 9562 version 7 UUID: this connector
  opaque, // anything else: user-supplied
};

// prefix(4 hex) | start_time(8 hex) | serial(16 hex)
struct server_id_fields {
  std::uint16_t prefix = 0;     // mysqlx_document_id_unique_prefix
  std::uint32_t start_time = 0; // the X Plugin's start, seconds since the epoch
  std::uint64_t serial = 0;     // per-server counter (auto_increment_offset/increment)
};

struct local_id_fields {
  unsigned version = 0;      // 7
  std::uint64_t unix_ms = 0; // when the id was made (to the clock's tick)
  std::uint32_t counter = 0; // our 26-bit counter; other v7 generators differ
  std::uint64_t random = 0;  // the 48-bit random tail
};

struct id_info {
  id_format format = id_format::opaque;
  server_id_fields server;          // valid for id_format::server
  local_id_fields local;            // valid for id_format::local
  const char* why_opaque = nullptr; // id_format::opaque: why neither format fits
};

id_info classify(std::string_view id) noexcept;

// Build ids from their fields: the inverse of classify(), for tests and tools.
std::string format_server_id(const server_id_fields& f);
std::string format_local_id(const local_id_fields& f);

// "2021-04-13T19:51:29Z", or with milliseconds "2021-04-13T19:51:29.123Z".
std::string iso8601_utc(std::uint64_t unix_ms, bool with_ms);

} // namespace cdk::docid
