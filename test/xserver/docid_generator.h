// The server half of WL#10955: one document id generator per xserverd,
// shared by every session (xprotocol-docid-facts.md section 1).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

namespace xserver {

class docid_generator {
public:
  // start_timestamp: epoch seconds taken when the server starts.
  explicit docid_generator(std::uint64_t start_timestamp) : m_timestamp(start_timestamp) {}

  // 4 hex digits of prefix, at least 8 of timestamp, 16 of serial, lower case.
  // The serial is the next value of the form k*increment + offset (increment
  // > 1) or old + 1 (increment 0 or 1, offset ignored); on 64-bit wrap the
  // timestamp moves on by one and the serial restarts at offset.
  std::string generate(std::uint16_t prefix, std::uint64_t offset, std::uint64_t increment);

  // For tests: the state the next generate() starts from.
  void set_serial_for_test(std::uint64_t serial);
  std::uint64_t timestamp() const;

private:
  mutable std::mutex m_mutex;
  std::uint64_t m_serial = 0;
  std::uint64_t m_timestamp;
};

} // namespace xserver
