#include "test/xserver/docid_generator.h"

#include <cstdio>

namespace xserver {

std::string docid_generator::generate(std::uint16_t prefix, std::uint64_t offset,
                                      std::uint64_t increment) {
  std::lock_guard<std::mutex> lock(m_mutex);
  const std::uint64_t old = m_serial;
  std::uint64_t next = 0;
  if (increment > 1) {
    // Unsigned arithmetic on purpose: this is the documented formula,
    // including its wrap when offset > increment.
    next = (old + increment - offset) / increment * increment + offset;
  } else {
    next = old + 1;
  }
  if (next <= old) { // 64-bit wrap: a new "second" keeps ids increasing
    ++m_timestamp;
    next = offset;
  }
  m_serial = next;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%04x%08llx%016llx", static_cast<unsigned>(prefix),
                static_cast<unsigned long long>(m_timestamp),
                static_cast<unsigned long long>(next));
  return buf;
}

void docid_generator::set_serial_for_test(std::uint64_t serial) {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_serial = serial;
}

std::uint64_t docid_generator::timestamp() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_timestamp;
}

} // namespace xserver
