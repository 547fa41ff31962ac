// Splits one input (a file or standard input) into JSON documents as it is
// read, in fixed-size chunks, so memory stays bounded by the largest document
// whatever the size of the input. The user says which format it is, never a
// guess from its first bytes: a JSON-lines file whose first line happens to be
// an array is still JSON lines.
//   - JSON lines (the default): one document per line; empty (all-whitespace)
//     lines are skipped; a line may end in \r\n;
//   - one JSON array (--json-array): the input's first non-whitespace byte must
//     be '[' and the array must close at its end; its elements are the
//     documents, split by a scanner that follows strings, escapes and nesting
//     depth (the elements are not parsed here).
// Nothing is validated beyond that split: document_check says whether an
// entry is a JSON object.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mysqlx_import {

// One document as read, or a piece of input that cannot be one.
struct entry {
  std::string text;
  std::uint64_t line = 0; // 1-based line where the entry starts
  // Non-empty when the split itself failed (a document above the size
  // limit, a broken array); the entry is then invalid whatever its text.
  std::string error;
  // The input is not in the format it was said to be (not an array, or the
  // array does not close at its end): nothing after this entry can be read
  // as documents, so the import stops here even with --skip-invalid.
  bool fatal = false;
};

enum class input_format { json_lines, json_array };

// Thrown by json_input::next() when a read was interrupted by a signal whose
// handler set the `interrupted` flag: the import stops where it is.
struct read_interrupted {};

class json_input {
public:
  // Reads from `fd` (not closed here); `name` is what messages call it.
  // A document above `max_document` bytes becomes an entry with an error
  // and is skipped without being held in memory. A read that a signal
  // interrupts (EINTR) is retried unless `interrupted` is set.
  json_input(int fd, std::string name, std::size_t max_document,
             input_format format = input_format::json_lines,
             const std::atomic<int>* interrupted = nullptr);

  // The next entry; false at the end of the input. Throws std::runtime_error
  // when reading fails (the message names the input), read_interrupted (above).
  bool next(entry& out);

  const std::string& name() const { return m_name; }
  std::uint64_t bytes_read() const { return m_bytes_read; }
  // Bytes of the input up to the end of the entry last returned.
  std::uint64_t consumed() const { return m_bytes_read - (m_end - m_pos); }
  bool is_array() const { return m_mode == mode::array; }

private:
  enum class mode { start, lines, array, done };
  bool fill();
  // Reads up to the first entry of the format; false (and `out` an error
  // entry, or untouched at the end of the input) when there is none.
  bool start(entry& out);
  bool next_line(entry& out);
  bool next_element(entry& out);
  void append(const char* from, const char* to, entry& out);

  int m_fd;
  std::string m_name;
  std::size_t m_max;
  std::vector<char> m_buf;
  std::size_t m_pos = 0, m_end = 0;
  bool m_eof = false;
  std::uint64_t m_bytes_read = 0;
  std::uint64_t m_line = 1;
  input_format m_format;
  const std::atomic<int>* m_interrupted;
  mode m_mode = mode::start;
  bool m_oversize = false; // the entry being read passed m_max: dropping its text
  bool m_array_closed = false;
  std::uint64_t m_array_line = 0, m_close_line = 0; // where the top-level '[' and ']' are
  std::uint64_t m_elements = 0; // array elements (or missing ones) returned so far
};

} // namespace mysqlx_import
