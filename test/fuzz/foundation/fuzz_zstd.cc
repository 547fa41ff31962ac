// libFuzzer target for the zstd_stream decompressor; the checks are in
// fuzz_decompress.h.
#include "fuzz_decompress.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz_decompress::decode_records<cdk::zstd_stream_decompressor>(data, size);
  fuzz_decompress::round_trip<cdk::zstd_stream_compressor, cdk::zstd_stream_decompressor>(data,
                                                                                          size);
  return 0;
}
