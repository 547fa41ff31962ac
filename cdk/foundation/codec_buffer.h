// Private to the compressors (compression*.cc): output room reused across
// messages. Growing a std::string with resize() zero-fills what it adds, and
// for a compressor's worst-case bound (about the input's size) that costs as
// much as copying the input once more; the compressed bytes, a fraction of
// that, are then appended to the caller's string.
#pragma once

#include <cstddef>
#include <string>

namespace cdk::detail {

class codec_buffer {
public:
  // At least n bytes to write into, valid until the next call.
  char* room(std::size_t n) {
    if (m_buf.size() < n) m_buf.resize(n);
    return m_buf.data();
  }
  // After a message: a buffer grown past `keep` by a rare large one is freed.
  void trim(std::size_t keep = std::size_t{8} << 20) {
    if (m_buf.size() > keep) std::string().swap(m_buf);
  }

private:
  std::string m_buf;
};

} // namespace cdk::detail
