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
//
// The output goes to `buf`, which the decompressor keeps for its connection:
// its size stays at the largest output so far (up to keep_bytes), so a
// payload is not written twice, once as zeros by std::string's resize and
// then as data. The view returned points into buf until the next call.
inline constexpr std::size_t keep_bytes = std::size_t{1} << 20;

template <class Step>
result<std::string_view> bounded_decompress(std::string_view algorithm, bool& failed,
                                            std::size_t input_size, std::size_t expected_size,
                                            std::size_t max_size, std::string& buf, Step&& step) {
  auto fail = [&](error e) {
    failed = true;
    return e;
  };
  if (auto st = check_decompress_call(algorithm, failed, expected_size, max_size); !st)
    return fail(st.err());
  const std::size_t limit = expected_size != 0 ? expected_size : max_size;
  constexpr std::size_t min_alloc = 4096;
  if (buf.size() > keep_bytes) std::string().swap(buf); // a rare large message: not kept
  std::string& out = buf;
  const std::size_t first =
      std::min(limit, input_size > limit / 4 ? limit : std::max(input_size * 4, min_alloc));
  if (out.size() < first) out.resize(first);
  // Room beyond the limit is not offered to the decoder: past it, it probes.
  const std::size_t room_end = std::min(out.size(), limit);
  std::size_t produced = 0, end = room_end;
  char probe = 0;
  for (;;) {
    if (produced == end && end < limit) {
      end = std::min(limit, std::max(end * 2, min_alloc));
      if (out.size() < end) out.resize(end);
    }
    const bool probing = produced == end;
    result<decode_step> r =
        probing ? step(&probe, std::size_t{1}) : step(out.data() + produced, end - produced);
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
  return std::string_view(out.data(), produced);
}

// decompress() in terms of decompress_view(): the view's bytes, copied.
inline result<std::string> owned(result<std::string_view> v) {
  if (!v) return std::move(v).err();
  return std::string(v.value());
}

} // namespace cdk::detail
