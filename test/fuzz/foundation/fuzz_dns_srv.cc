// libFuzzer target for the DNS SRV answer parser (network input): any bytes
// give records or a cdk::error, never a crash, a hang or an out-of-bounds
// read (run under ASan/UBSan). Records that parse are ordered with a fixed
// random source, which must keep every record.
#include "cdk/foundation/dns_srv.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view msg(reinterpret_cast<const char*>(data), size);
  auto records = cdk::parse_srv_answer(msg, "_mysqlx._tcp.fuzz");
  if (!records) return 0;
  const std::size_t n = records.value().size();
  auto ordered =
      cdk::order_srv(std::move(records).value(), [](std::uint32_t bound) { return bound / 2; });
  if (ordered.size() != n) std::abort();
  return 0;
}
