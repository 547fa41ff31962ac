// Arbitrary bytes from "the server": the frame reader (with or without
// compression), then every decoder a client runs on server frames. Must
// never crash, hang or allocate beyond the frame limit.
#include "cdk/protocol/compression.h"
#include "cdk/protocol/message.h"
#include "cdk/protocol/messages.h"
#include "cdk/protocol/notice.h"
#include "cdk/protocol/pipeline.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace pr = cdk::protocol;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  // First byte: options (the low two bits pick no compression or one of the
  // three algorithms); second: how to split the input into feeds.
  static const char* const algorithms[] = {nullptr, "deflate_stream", "lz4_message", "zstd_stream"};
  const char* algorithm = algorithms[data[0] & 3];
  const std::size_t chunk = 1 + data[1];
  std::string_view input(reinterpret_cast<const char*>(data) + 2, size - 2);

  pr::frame_reader reader(1 << 20);
  if (algorithm != nullptr) (void)reader.enable_compression(algorithm);
  pr::pipeline pipe;
  for (int i = 0; i < 4; ++i) {
    pipe.expect(pr::replies::ok);
    pipe.expect(pr::replies::statement);
  }
  pr::statement_info info;

  while (!input.empty()) {
    const std::size_t n = input.size() < chunk ? input.size() : chunk;
    if (!reader.feed(input.substr(0, n))) return 0;
    input.remove_prefix(n);
    for (;;) {
      auto f = reader.next();
      if (!f || !f.value()) break;
      const pr::frame& fr = *f.value();
      switch (fr.type) {
      case 11: {
        auto n = pr::decode_notice(fr.payload);
        // The hand-written fast path must agree with libprotobuf.
        auto generic = pr::decode_notice_generic(fr.payload);
        if (n.ok() != generic.ok() ||
            (n.ok() && (n.value().param != generic.value().param ||
                        n.value().values.size() != generic.value().values.size())))
          std::abort();
        if (n) info.apply(n.value());
        // So must the in-place path of LOCAL SessionStateChanged notices.
        pr::statement_info in_place, through_notice;
        if (pr::apply_local_state_change(fr.payload, in_place)) {
          if (!generic.ok() || generic.value().scope != pr::notice_scope::local ||
              !generic.value().is(pr::notice_type::session_state_changed))
            std::abort();
          through_notice.apply(generic.value());
          if (in_place.rows_affected != through_notice.rows_affected ||
              in_place.generated_ids != through_notice.generated_ids ||
              in_place.messages != through_notice.messages)
            std::abort();
        }
        break;
      }
      case 1:
        (void)pr::decode_server_error(fr.payload);
        break;
      case 2:
        (void)pr::decode_capabilities(fr);
        break;
      case 3:
        (void)pr::decode_authenticate_continue(fr);
        break;
      case 0:
        (void)pr::decode_ok(fr);
        break;
      default:
        break;
      }
      if (!pipe.broken()) (void)pipe.on_frame(*f.value());
    }
  }
  return 0;
}
