#include "cdk/docid/decode.h"

#include "cdk/docid/layout.h"

#include <cstdio>
#include <time.h>

namespace cdk::docid {

namespace {

constexpr std::size_t server_length = 28;
constexpr std::size_t local_length = 32;

bool all_lower_hex(std::string_view s) noexcept {
  for (const char c : s)
    if (hex::lower_digit(c) < 0) return false;
  return true;
}

} // namespace

id_info classify(std::string_view id) noexcept {
  id_info info;
  if (id.size() != server_length && id.size() != local_length) {
    info.why_opaque = "neither 28 characters (server format) nor 32 (local format)";
    return info;
  }
  if (!all_lower_hex(id)) {
    info.why_opaque = "not all lower-case hexadecimal digits";
    return info;
  }
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  std::uint64_t c = 0;
  if (id.size() == server_length) {
    hex::parse(id.substr(0, 4), a);
    hex::parse(id.substr(4, 8), b);
    hex::parse(id.substr(12, 16), c);
    info.format = id_format::server;
    info.server = {static_cast<std::uint16_t>(a), static_cast<std::uint32_t>(b), c};
    return info;
  }
  hex::parse(id.substr(0, 16), a);
  hex::parse(id.substr(16, 16), b);
  if (layout::version(a) != 7) {
    info.why_opaque = "32 hex digits, but not a version 7 UUID";
    return info;
  }
  if (layout::variant(b) != 2) {
    info.why_opaque = "32 hex digits, but the UUID variant bits are not 10";
    return info;
  }
  info.format = id_format::local;
  info.local = {7, layout::unix_ms(a), layout::counter(a, b), layout::tail(b)};
  return info;
}

std::string format_server_id(const server_id_fields& f) {
  std::string out(server_length, '0');
  hex::put4(out.data(), f.prefix);
  hex::put(out.data() + 4, f.start_time, 8);
  hex::put(out.data() + 12, f.serial, 16);
  return out;
}

std::string format_local_id(const local_id_fields& f) {
  std::string out(local_length, '0');
  layout::encode(out.data(), f.unix_ms, f.counter, f.random);
  return out;
}

std::string iso8601_utc(std::uint64_t unix_ms, bool with_ms) {
  const auto secs = static_cast<time_t>(unix_ms / 1000);
  tm t{};
  if (gmtime_r(&secs, &t) == nullptr) return "(out of range)";
  char buf[40];
  std::size_t n = strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &t);
  if (with_ms)
    n += static_cast<std::size_t>(
        std::snprintf(buf + n, sizeof buf - n, ".%03u", static_cast<unsigned>(unix_ms % 1000)));
  return std::string(buf, n) + 'Z';
}

} // namespace cdk::docid
