// libFuzzer target for tls13_records (network input). Each input is a run
// of records a server could send: chunks of [content type][length][padding]
// [bytes] that a second tls13_records, holding the server's keys, seals.
// The client opens them in order: any content gives data, a handled message
// or a cdk::error, never a crash or an out-of-bounds access (ASan/UBSan),
// and application data sealed before the first error comes back unchanged.
// The raw input is also opened as wire bytes, so headers and
// authentication failures are covered too.
#include "cdk/foundation/tls13_records.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

using cdk::tls13_records;

struct opened_all {
  std::string data;
  bool failed = false;
};

opened_all open_all(tls13_records& r, std::string wire) {
  opened_all out;
  std::size_t pos = 0;
  while (pos < wire.size()) {
    auto size = r.record_size(std::string_view(wire).substr(pos));
    if (!size || size.value() == 0 || size.value() > wire.size() - pos) {
      out.failed = !size;
      break;
    }
    char* rec = wire.data() + pos;
    auto o = r.open(std::string_view(rec, size.value()), rec + tls13_records::header_size);
    pos += size.value();
    if (!o) {
      out.failed = true;
      break;
    }
    if (o.value().what == tls13_records::opened::kind::closed) break;
    if (o.value().what == tls13_records::opened::kind::data) {
      out.data.append(rec + tls13_records::header_size, o.value().size);
    }
  }
  return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string a(32, '\x11');
  const std::string b(32, '\x22');
  auto suite = tls13_records::suite::aes_128_gcm_sha256;
  auto client = tls13_records::make(suite, a, b);
  auto server = tls13_records::make(suite, b, a);
  if (!client || !server) std::abort();

  const std::string_view in(reinterpret_cast<const char*>(data), size);
  std::string wire;
  std::string sent; // application data sealed before anything else could break the stream
  bool only_data = true;
  for (std::size_t pos = 0; pos + 3 <= in.size();) {
    const auto type = static_cast<std::uint8_t>(in[pos]);
    const std::size_t len = static_cast<std::uint8_t>(in[pos + 1]);
    const std::size_t padding = static_cast<std::uint8_t>(in[pos + 2]);
    std::string_view bytes = in.substr(pos + 3, len);
    pos += 3 + bytes.size();
    if (!server.value()->seal(type, bytes, wire, padding)) std::abort();
    if (type != tls13_records::application_data) only_data = false;
    if (only_data) sent.append(bytes.data(), bytes.size());
  }
  opened_all got = open_all(*client.value(), wire);
  if (only_data && (got.failed || got.data != sent)) std::abort();
  if (!only_data && got.data.compare(0, sent.size(), sent) != 0) std::abort();

  auto raw_reader = tls13_records::make(suite, a, b);
  if (!raw_reader) std::abort();
  (void)open_all(*raw_reader.value(), std::string(in));
  return 0;
}
