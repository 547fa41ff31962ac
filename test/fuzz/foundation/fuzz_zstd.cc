// libFuzzer target for the zstd_stream decompressor; the checks are in
// fuzz_decompress.h. Round trips go through both forms of the compressor.
#include "fuzz_decompress.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using cdk::zstd_stream_compressor;
  using cdk::zstd_stream_decompressor;
  fuzz_decompress::decode_records<zstd_stream_decompressor>(data, size);
  fuzz_decompress::round_trip<zstd_stream_decompressor>(zstd_stream_compressor(), data, size);
  fuzz_decompress::round_trip<zstd_stream_decompressor>(
      zstd_stream_compressor(3, cdk::zstd_form::frame_per_message), data, size);
  return 0;
}
