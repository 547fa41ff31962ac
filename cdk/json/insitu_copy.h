// A private, NUL-padded copy of a JSON text for RapidJSON's in-situ parsing,
// in which strings are unescaped in place instead of pushed character by
// character onto the reader's stack: on our stack up to 4 KB, on the heap
// above. Shared by id_scan.cc and json_parser.cc.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace cdk::json::detail {

class insitu_copy {
public:
  // Throws std::bad_alloc, only for a text above the local buffer.
  explicit insitu_copy(std::string_view text) {
    if (text.size() + padding > sizeof m_local) {
      m_heap.reserve(text.size() + padding);
      m_heap.append(text).append(padding, '\0');
      m_copy = m_heap.data();
    } else {
      std::memcpy(m_local, text.data(), text.size());
      std::memset(m_local + text.size(), 0, padding);
    }
  }
  insitu_copy(const insitu_copy&) = delete;
  insitu_copy& operator=(const insitu_copy&) = delete;

  char* data() noexcept { return m_copy; }

private:
  static constexpr std::size_t padding = 16; // the NUL, with room to spare
  alignas(16) char m_local[4096];
  std::string m_heap;
  char* m_copy = m_local;
};

} // namespace cdk::json::detail
