// A minimal reader of the protobuf wire format, for the few messages the
// client decodes so often that libprotobuf's per-message allocations show up
// in profiles (the GENERATED_DOCUMENT_IDS notice carries one Scalar per
// document). Every length is checked against the bytes left; nothing is
// allocated. Callers fall back to libprotobuf for anything unusual, so this
// reader only has to be right on well-formed input and safe on the rest.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace cdk::protocol::wire {

enum class wire_type : std::uint8_t { varint = 0, fixed64 = 1, bytes = 2, fixed32 = 5 };

// A varint at `pos` (advanced past it); false at the end of the input or on
// one longer than 64 bits. Also used for the varints inside row fields.
inline bool read_varint(std::string_view in, std::size_t& pos, std::uint64_t& out) noexcept {
  // Tags, small numbers and short lengths take one byte: most varints.
  if (pos < in.size() && static_cast<std::uint8_t>(in[pos]) < 0x80) {
    out = static_cast<std::uint8_t>(in[pos++]);
    return true;
  }
  out = 0;
  for (unsigned shift = 0; shift < 64 && pos < in.size(); shift += 7) {
    const auto b = static_cast<std::uint8_t>(in[pos++]);
    if (shift == 63 && b > 1) return false; // more than 64 bits
    out |= static_cast<std::uint64_t>(b & 0x7fu) << shift;
    if ((b & 0x80u) == 0) return true;
  }
  return false;
}

class reader {
public:
  explicit reader(std::string_view in) noexcept : m_in(in) {}

  bool done() const noexcept { return m_in.empty(); }

  // The next field's number and wire type; false at a malformed tag.
  bool tag(std::uint32_t& field, wire_type& type) noexcept {
    std::uint64_t t = 0;
    if (!varint(t) || t > 0xffffffffu || (t >> 3) == 0) return false;
    field = static_cast<std::uint32_t>(t >> 3);
    const auto wt = static_cast<std::uint8_t>(t & 7u);
    if (wt != 0 && wt != 1 && wt != 2 && wt != 5) return false;
    type = static_cast<wire_type>(wt);
    return true;
  }

  bool varint(std::uint64_t& out) noexcept {
    std::size_t pos = 0;
    if (!read_varint(m_in, pos, out)) return false;
    m_in.remove_prefix(pos);
    return true;
  }

  bool bytes(std::string_view& out) noexcept {
    std::uint64_t n = 0;
    if (!varint(n) || n > m_in.size()) return false;
    out = m_in.substr(0, static_cast<std::size_t>(n));
    m_in.remove_prefix(static_cast<std::size_t>(n));
    return true;
  }

  bool fixed64(std::uint64_t& out) noexcept { return fixed(out); }
  bool fixed32(std::uint32_t& out) noexcept { return fixed(out); }

  // Skips a field's value of the given wire type.
  bool skip(wire_type type) noexcept {
    std::uint64_t u64 = 0;
    std::uint32_t u32 = 0;
    std::string_view b;
    switch (type) {
    case wire_type::varint:
      return varint(u64);
    case wire_type::fixed64:
      return fixed64(u64);
    case wire_type::bytes:
      return bytes(b);
    case wire_type::fixed32:
      return fixed32(u32);
    }
    return false;
  }

private:
  // Little-endian, as the wire format is; x86 and ARM Linux are too, and the
  // unit tests would catch a big-endian host.
  template <typename T> bool fixed(T& out) noexcept {
    if (m_in.size() < sizeof(T)) return false;
    std::memcpy(&out, m_in.data(), sizeof(T));
    m_in.remove_prefix(sizeof(T));
    return true;
  }

  std::string_view m_in;
};

} // namespace cdk::protocol::wire
