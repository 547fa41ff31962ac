// Private to the decompressors (compression*.cc): the bounded output loop
// they share, so each library adapter only says how to decode one step.
#pragma once

#include "cdk/foundation/compression.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace cdk::detail {

// What one call into a decoding library did.
struct decode_step {
  std::size_t produced = 0; // bytes written to the output it was given
  // All input is consumed and everything it decodes to has been written:
  // the library returned with output room to spare.
  bool drained = false;
};

// Decodes one payload of input_size bytes with step(out, room), which
// decodes more of it into out[0, room) (room > 0) and returns
// result<decode_step>. Checks the call (check_decompress_call), then grows
// the output from a few times the input, doubling as the data proves
// itself, up to expected_size or, when that is 0 (unknown), max_size. A full
// output is probed with one spare byte: anything there is over the limit.
// Any error sets failed, so the stream refuses every later call.
template <class Step>
result<std::string> bounded_decompress(std::string_view algorithm, bool& failed,
                                       std::size_t input_size, std::size_t expected_size,
                                       std::size_t max_size, Step&& step) {
  auto fail = [&](error e) {
    failed = true;
    return e;
  };
  if (auto st = check_decompress_call(algorithm, failed, expected_size, max_size); !st)
    return fail(st.err());
  const std::size_t limit = expected_size != 0 ? expected_size : max_size;
  constexpr std::size_t min_alloc = 4096;
  std::string out;
  out.resize(std::min(limit, input_size > limit / 4 ? limit : std::max(input_size * 4, min_alloc)));
  std::size_t produced = 0;
  char probe = 0;
  for (;;) {
    if (produced == out.size() && out.size() < limit)
      out.resize(std::min(limit, std::max(out.size() * 2, min_alloc)));
    const bool probing = produced == out.size();
    result<decode_step> r =
        probing ? step(&probe, std::size_t{1}) : step(out.data() + produced, out.size() - produced);
    if (!r) return fail(std::move(r).err());
    if (probing && r.value().produced != 0) {
      return fail(decompress_error(
          algorithm, "payload decompresses to more than the " +
                         std::string(expected_size != 0 ? "declared " : "maximum of ") +
                         std::to_string(limit) + " bytes"));
    }
    produced += r.value().produced;
    if (r.value().drained) break;
  }
  if (expected_size != 0 && produced != expected_size) {
    return fail(decompress_error(algorithm, "payload decompresses to " + std::to_string(produced) +
                                                " bytes, declared " +
                                                std::to_string(expected_size)));
  }
  out.resize(produced);
  return out;
}

} // namespace cdk::detail
