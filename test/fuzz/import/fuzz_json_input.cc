// libFuzzer target for mysqlx-import's reader (json_input): any bytes are
// split into entries without a crash, and the split makes sense:
//   - no entry holds more than the size cap (an oversize one holds nothing
//     and says so), and no JSON-lines entry holds a line break;
//   - line numbers never go back and never pass the input's lines;
//   - a fatal entry is the last one, and the whole input is read otherwise;
//   - the same entries come out whatever the size of the reads (1 MiB, or
//     a few bytes, which splits entries, escapes and byte order marks across
//     reads).
// The first byte picks the format and the cap, the rest is the input.
#include "json_input.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace {

using mysqlx_import::entry;
using mysqlx_import::input_format;
using mysqlx_import::json_input;

void check(bool ok) {
  if (!ok) std::abort();
}

// The input as a file descriptor (a memfd: no disk, no name).
class memory_file {
public:
  explicit memory_file(const std::uint8_t* data, std::size_t size)
      : m_fd(::memfd_create("fuzz_json_input", MFD_CLOEXEC)) {
    check(m_fd >= 0);
    for (std::size_t off = 0; off < size;) {
      const ssize_t n = ::write(m_fd, data + off, size - off);
      check(n > 0);
      off += static_cast<std::size_t>(n);
    }
  }
  memory_file(const memory_file&) = delete;
  memory_file& operator=(const memory_file&) = delete;
  ~memory_file() { ::close(m_fd); }
  int rewound() const {
    check(::lseek(m_fd, 0, SEEK_SET) == 0);
    return m_fd;
  }

private:
  int m_fd;
};

struct split_result {
  std::vector<entry> entries;
  std::uint64_t bytes_read = 0;
};

split_result split(const memory_file& file, std::size_t max, input_format format,
                   std::size_t chunk) {
  json_input in(file.rewound(), "fuzz", max, format, nullptr, chunk);
  split_result r;
  entry e;
  while (in.next(e)) {
    check(in.consumed() <= in.bytes_read());
    r.entries.push_back(e);
    check(r.entries.size() < 1000000); // next() always moves on
  }
  r.bytes_read = in.bytes_read();
  return r;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t config = data[0];
  const input_format format = config & 1 ? input_format::json_array : input_format::json_lines;
  // Small caps, so that oversize entries (and the white space margin
  // before them) are reached by small inputs.
  const std::size_t max = 2 + ((config >> 1) & 63);
  const std::size_t small_chunk = 4 + ((config >> 7) & 1) * 3;
  ++data;
  --size;
  const memory_file file(data, size);

  // One read for the whole input (a buffer of 1 MiB, as the tool's, would
  // cost more than the split), then reads of a few bytes.
  const split_result whole = split(file, max, format, size + 1);
  std::uint64_t lines = 1;
  for (std::size_t i = 0; i < size; ++i) lines += data[i] == '\n' ? 1 : 0;
  std::uint64_t last_line = 0;
  bool fatal = false;
  for (const entry& e : whole.entries) {
    check(!fatal); // a fatal entry is the last
    fatal = e.fatal;
    check(e.line >= 1 && e.line <= lines);
    check(e.line >= last_line);
    last_line = e.line;
    // An entry holds at most the cap (with its white space, an input
    // that breaks off inside one); one above it, nothing.
    check(e.text.size() <= (e.fatal ? max + (64 << 10) : max));
    if (e.error.find("larger than") != std::string::npos) check(e.text.empty());
    if (e.error.empty()) check(!e.text.empty());
    if (format == input_format::json_lines) check(e.text.find('\n') == std::string::npos);
  }
  if (!fatal) check(whole.bytes_read == size);

  const split_result pieces = split(file, max, format, small_chunk);
  check(pieces.entries.size() == whole.entries.size());
  for (std::size_t i = 0; i < whole.entries.size(); ++i) {
    const entry& a = whole.entries[i];
    const entry& b = pieces.entries[i];
    check(a.text == b.text && a.line == b.line && a.error == b.error && a.fatal == b.fatal);
  }
  return 0;
}
