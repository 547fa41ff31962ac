// libFuzzer target for the deflate_stream decompressor, the one piece of
// foundation that parses bytes from the network; the checks are in
// fuzz_decompress.h.
#include "fuzz_decompress.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz_decompress::decode_records<cdk::deflate_stream_decompressor>(data, size);
  fuzz_decompress::round_trip<cdk::deflate_stream_decompressor>(cdk::deflate_stream_compressor(),
                                                                data, size);
  return 0;
}
