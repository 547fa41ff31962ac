// libFuzzer target for the lz4_message decompressor; the checks are in
// fuzz_decompress.h.
#include "fuzz_decompress.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz_decompress::decode_records<cdk::lz4_message_decompressor>(data, size);
  fuzz_decompress::round_trip<cdk::lz4_message_decompressor>(cdk::lz4_message_compressor(), data,
                                                             size);
  return 0;
}
