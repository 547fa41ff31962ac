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
// entry is a JSON object. An input in UTF-16 or UTF-32 (a byte order mark,
// or the NULs of its first characters) is a fatal entry that says so.
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
  // and is skipped without being held in memory (the rest of its line, or
  // of its array element, is read and dropped): at most max_document and a
  // margin for white space are held. `interrupted` (set by a SIGINT or
  // SIGTERM handler) is looked at before every read, and a read it
  // interrupts (EINTR) is not retried.
  // `chunk`: bytes per read; 1 MiB makes few system calls and bounds the
  // buffer whatever the input (smaller only in tests, to split entries
  // across reads; 4 at least).
  json_input(int fd, std::string name, std::size_t max_document,
             input_format format = input_format::json_lines,
             const std::atomic<int>* interrupted = nullptr, std::size_t chunk = 1 << 20);

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
  // Replaces the buffer's bytes by the next read's; false at the end.
  bool fill();
  // Appends the next read's bytes to the buffer (while it has room).
  bool read_more();
  // Reads up to the first entry of the format; false (and `out` an error
  // entry, or untouched at the end of the input) when there is none.
  bool start(entry& out);
  bool next_line(entry& out);
  bool next_element(entry& out);
  void append(const char* from, const char* to, entry& out);
  // The entry ends: trailing white space goes, and one above m_max is an
  // error entry without its text.
  void finish(entry& out);

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
