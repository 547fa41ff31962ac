#include "json_input.h"

#include "printable.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <unistd.h>

namespace mysqlx_import {

namespace {

// What an entry may hold beyond the maximum document before it is called
// too large: the white space around a document (and the \r of \r\n) is
// not part of it, and is trimmed only once the entry ends.
constexpr std::size_t white_space_margin = 64 << 10;

// The input's first bytes when they are UTF-16 or UTF-32: its byte order
// mark, or the NUL bytes JSON's first (ASCII) characters have in those
// encodings (RFC 4627, section 3). Empty for anything else.
std::string other_encoding(const unsigned char* b, std::size_t n) {
  const auto starts = [&](const char* bytes, std::size_t k) {
    return n >= k && std::memcmp(b, bytes, k) == 0;
  };
  if (starts("\0\0\xFE\xFF", 4)) return "UTF-32BE (byte order mark 00 00 FE FF)";
  if (starts("\xFF\xFE\0\0", 4)) return "UTF-32LE (byte order mark FF FE 00 00)";
  if (starts("\xFE\xFF", 2)) return "UTF-16BE (byte order mark FE FF)";
  if (starts("\xFF\xFE", 2)) return "UTF-16LE (byte order mark FF FE)";
  const char* const nuls = " (NUL bytes between its first characters)";
  if (n >= 4 && !b[0] && !b[1] && !b[2] && b[3]) return std::string("UTF-32BE") + nuls;
  if (n >= 4 && b[0] && !b[1] && !b[2] && !b[3]) return std::string("UTF-32LE") + nuls;
  if (n >= 2 && !b[0] && b[1] && (n < 4 || (!b[2] && b[3]))) return std::string("UTF-16BE") + nuls;
  if (n >= 2 && b[0] && !b[1] && (n < 4 || (b[2] && !b[3]))) return std::string("UTF-16LE") + nuls;
  return {};
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

void trim_right(std::string& s) {
  while (!s.empty() && is_space(s.back())) s.pop_back();
}

} // namespace

json_input::json_input(int fd, std::string name, std::size_t max_document, input_format format,
                       const std::atomic<int>* interrupted, std::size_t chunk)
    : m_fd(fd), m_name(std::move(name)), m_max(max_document),
      m_buf(std::max<std::size_t>(chunk, 4)), m_format(format), m_interrupted(interrupted) {}

bool json_input::start(entry& out) {
  // A UTF-8 byte-order mark is skipped, whatever the format.
  bool first = true;
  for (;;) {
    if (m_pos == m_end && !fill()) {
      m_mode = mode::done;
      if (m_format == input_format::json_array) {
        out.line = m_line;
        out.error = "--json-array: the input is empty, not a JSON array";
        out.fatal = true;
      }
      return false;
    }
    if (first) {
      // The first 4 bytes tell the encoding, however the reads split them
      // (the buffer holds at least 4).
      while (m_end - m_pos < 4 && read_more()) {
      }
      const auto* b = reinterpret_cast<const unsigned char*>(m_buf.data() + m_pos);
      const std::string encoding = other_encoding(b, m_end - m_pos);
      if (!encoding.empty()) {
        // Every entry would be "invalid": say why once, and stop.
        m_mode = mode::done;
        out.line = m_line;
        out.error = "the input is " + encoding +
                    "; mysqlx-import reads UTF-8 (convert it first, e.g. with iconv -t UTF-8)";
        out.fatal = true;
        return false;
      }
      if (m_end - m_pos >= 3 && std::memcmp(b, "\xEF\xBB\xBF", 3) == 0) m_pos += 3;
    }
    first = false;
    if (m_format == input_format::json_lines) {
      // Whatever its first line holds: an array there is a bad line, not a
      // reason to read the whole input another way.
      m_mode = mode::lines;
      return true;
    }
    if (m_pos == m_end) continue;
    const char c = m_buf[m_pos];
    if (c == '[') {
      m_mode = mode::array;
      m_array_line = m_line;
      ++m_pos;
      return true;
    }
    if (!is_space(c)) {
      m_mode = mode::done;
      out.line = m_line;
      out.error = "--json-array: the input begins with '" + printable(std::string_view(&c, 1)) +
                  "', not '[': it is not one JSON array (JSON lines are read without --json-array)";
      out.fatal = true;
      return false;
    }
    if (c == '\n') ++m_line;
    ++m_pos;
  }
}

bool json_input::fill() {
  m_pos = m_end = 0;
  return read_more();
}

bool json_input::read_more() {
  if (m_eof || m_end == m_buf.size()) return false;
  for (;;) {
    // Looked at before every read, not only when one is interrupted: an
    // input that always has data (/dev/zero, a huge line of a file being
    // dropped) never blocks, so no signal ever interrupts its read().
    if (m_interrupted != nullptr && m_interrupted->load() != 0) throw read_interrupted{};
    const ssize_t n = ::read(m_fd, m_buf.data() + m_end, m_buf.size() - m_end);
    if (n > 0) {
      m_end += static_cast<std::size_t>(n);
      m_bytes_read += static_cast<std::uint64_t>(n);
      return true;
    }
    if (n == 0) {
      m_eof = true;
      return false;
    }
    if (errno != EINTR) throw std::runtime_error(m_name + ": cannot read: " + std::strerror(errno));
    if (m_interrupted != nullptr && m_interrupted->load() != 0) throw read_interrupted{};
  }
}

void json_input::finish(entry& out) {
  trim_right(out.text);
  if (!m_oversize && out.text.size() > m_max) {
    m_oversize = true;
    out.text.clear();
    out.text.shrink_to_fit();
  }
  if (m_oversize) out.error = "the document is larger than " + std::to_string(m_max) + " bytes";
}

void json_input::append(const char* from, const char* to, entry& out) {
  if (m_oversize) return;
  const auto n = static_cast<std::size_t>(to - from);
  if (out.text.size() + n > m_max + white_space_margin) {
    // Counted, reported, never held: the rest of it is read and dropped.
    m_oversize = true;
    out.text.clear();
    out.text.shrink_to_fit();
    return;
  }
  out.text.append(from, n);
}

bool json_input::next(entry& out) {
  out.text.clear();
  out.error.clear();
  out.fatal = false;
  out.line = 0;
  m_oversize = false;
  if (m_mode == mode::start && !start(out)) return !out.error.empty();
  switch (m_mode) {
  case mode::lines:
    return next_line(out);
  case mode::array:
    return next_element(out);
  default:
    return false;
  }
}

bool json_input::next_line(entry& out) {
  for (;;) {
    if (m_pos == m_end && !fill()) {
      m_mode = mode::done;
      trim_right(out.text);
      if (out.text.empty() && !m_oversize) return false;
      out.line = m_line;
      finish(out);
      return true;
    }
    const char* begin = m_buf.data() + m_pos;
    const char* end = m_buf.data() + m_end;
    const auto* nl = static_cast<const char*>(std::memchr(begin, '\n', end - begin));
    append(begin, nl ? nl : end, out);
    m_pos = nl ? static_cast<std::size_t>(nl - m_buf.data()) + 1 : m_end;
    if (!nl) continue;
    const std::uint64_t line = m_line++;
    trim_right(out.text);
    if (out.text.empty() && !m_oversize) continue; // an empty line is no entry
    out.line = line;
    finish(out);
    return true;
  }
}

bool json_input::next_element(entry& out) {
  // Between elements: whitespace, then an element, ',' or ']'.
  bool after_comma = m_elements > 0;
  for (;;) {
    if (m_pos == m_end && !fill()) {
      m_mode = mode::done;
      if (m_array_closed) return false;
      out.line = m_line;
      out.error = "the input ends before the closing ']' of the top-level array that begins on"
                  " line " +
                  std::to_string(m_array_line) + ": it is not one JSON array";
      out.fatal = true;
      return true;
    }
    const char c = m_buf[m_pos];
    if (m_array_closed) {
      if (is_space(c)) {
        if (c == '\n') ++m_line;
        ++m_pos;
        continue;
      }
      m_mode = mode::done;
      out.line = m_line;
      out.error = "text after the closing ']' (line " + std::to_string(m_close_line) +
                  ") of the top-level array that begins on line " + std::to_string(m_array_line) +
                  ": the input is not one JSON array (JSON lines are read without --json-array)";
      out.fatal = true;
      return true;
    }
    if (is_space(c)) {
      if (c == '\n') ++m_line;
      ++m_pos;
      continue;
    }
    if (c == ']' && !after_comma) {
      ++m_pos;
      m_array_closed = true;
      m_close_line = m_line;
      continue;
    }
    if (c == ',' || c == ']') {
      // "[a,,b]" or "[a,]": an element is missing.
      out.line = m_line;
      out.error = "an element of the array is missing before '" + std::string(1, c) + "'";
      if (c == ']') {
        m_array_closed = true;
        m_close_line = m_line;
      }
      ++m_pos;
      ++m_elements;
      return true;
    }
    break;
  }

  // One element: up to the ',' or ']' at depth 0, outside strings.
  out.line = m_line;
  ++m_elements;
  int depth = 0;
  bool in_string = false, escape = false;
  for (;;) {
    if (m_pos == m_end && !fill()) {
      trim_right(out.text);
      if (depth == 0 && !in_string && !out.text.empty() && !m_oversize) {
        // A whole element: it is returned as one, and the missing ']' is
        // reported by the next call.
        finish(out);
        return true;
      }
      m_mode = mode::done;
      out.error = "the input ends inside an element of the top-level array that begins on line " +
                  std::to_string(m_array_line) + " (no closing ']'): it is not one JSON array";
      out.fatal = true;
      return true;
    }
    const char* begin = m_buf.data() + m_pos;
    const char* end = m_buf.data() + m_end;
    const char* p = begin;
    bool finished = false;
    for (; p != end; ++p) {
      const char c = *p;
      if (c == '\n') ++m_line;
      if (in_string) {
        if (escape)
          escape = false;
        else if (c == '\\')
          escape = true;
        else if (c == '"')
          in_string = false;
        continue;
      }
      if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if ((c == '}' || c == ']') && depth > 0) {
        --depth;
      } else if (depth == 0 && (c == ',' || c == ']')) {
        m_array_closed = c == ']';
        m_close_line = m_line;
        finished = true;
        break;
      }
    }
    append(begin, p, out);
    m_pos = static_cast<std::size_t>(p - m_buf.data()) + (finished ? 1 : 0);
    if (finished) {
      finish(out);
      return true;
    }
  }
}

} // namespace mysqlx_import
