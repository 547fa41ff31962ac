#include "json_input.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace {

using mysqlx_import::entry;
using mysqlx_import::input_format;
using mysqlx_import::json_input;

// The input as json_input reads it from a file: an unlinked temporary file.
class temp_input {
public:
  explicit temp_input(const std::string& text) {
    char name[] = "/tmp/unit_import_XXXXXX";
    m_fd = ::mkstemp(name);
    if (m_fd < 0) throw std::runtime_error("mkstemp failed");
    ::unlink(name);
    if (::write(m_fd, text.data(), text.size()) != static_cast<ssize_t>(text.size()))
      throw std::runtime_error("write failed");
    ::lseek(m_fd, 0, SEEK_SET);
  }
  ~temp_input() { ::close(m_fd); }
  int fd() const { return m_fd; }

private:
  int m_fd = -1;
};

// A string literal's bytes, NULs included.
template <std::size_t N> std::string bytes(const char (&text)[N]) {
  return std::string(text, N - 1);
}

std::vector<entry> split(const std::string& text, std::size_t max = 1 << 20,
                         input_format format = input_format::json_lines) {
  temp_input file(text);
  json_input in(file.fd(), "t.json", max, format);
  std::vector<entry> out;
  entry e;
  while (in.next(e)) out.push_back(e);
  return out;
}

// The input read with --json-array.
std::vector<entry> split_array(const std::string& text, std::size_t max = 1 << 20) {
  return split(text, max, input_format::json_array);
}

TEST(JsonInput, LinesSkipEmptyLinesAndKeepLineNumbers) {
  const auto v = split("{\"a\":1}\n\n   \n{\"b\":2}\r\n\t\n{\"c\":3}");
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].text, "{\"a\":1}");
  EXPECT_EQ(v[0].line, 1u);
  EXPECT_EQ(v[1].text, "{\"b\":2}"); // the \r of \r\n is not part of it
  EXPECT_EQ(v[1].line, 4u);
  EXPECT_EQ(v[2].text, "{\"c\":3}"); // no newline at the end
  EXPECT_EQ(v[2].line, 6u);
  for (const auto& e : v) EXPECT_TRUE(e.error.empty());
}

TEST(JsonInput, EmptyInputHasNoEntries) {
  EXPECT_TRUE(split("").empty());
  EXPECT_TRUE(split("\n \n\r\n").empty());
  EXPECT_TRUE(split_array("[]").empty());
  EXPECT_TRUE(split_array(" \n [ \n ] \n").empty());
}

TEST(JsonInput, ByteOrderMarkIsSkipped) {
  const auto v = split_array("\xEF\xBB\xBF[{\"a\":1}]");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].text, "{\"a\":1}");
  const auto lines = split("\xEF\xBB\xBF{\"a\":1}\n{\"b\":2}\n");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].text, "{\"a\":1}");
}

TEST(JsonInput, ArrayElementsFollowStringsEscapesAndDepth) {
  const auto v =
      split_array("[\n {\"s\":\"x,]}\\\"[\"},\n {\"c\":[1,{\"d\":[2]}]} , 3,\n\"str\"\n]\n");
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0].text, "{\"s\":\"x,]}\\\"[\"}");
  EXPECT_EQ(v[0].line, 2u);
  EXPECT_EQ(v[1].text, "{\"c\":[1,{\"d\":[2]}]}");
  EXPECT_EQ(v[1].line, 3u);
  EXPECT_EQ(v[2].text, "3"); // split only: document_check refuses it
  EXPECT_EQ(v[3].text, "\"str\"");
  EXPECT_EQ(v[3].line, 4u);
  for (const auto& e : v) EXPECT_TRUE(e.error.empty()) << e.error;
}

TEST(JsonInput, ElementsAcrossReadChunks) {
  // 3 MiB of string with brackets and escaped quotes inside: the scanner's
  // state must survive the 1 MiB reads.
  std::string big;
  while (big.size() < (3u << 20)) big += "]}[{,\\\" ";
  const std::string doc = "{\"big\":\"" + big + "\",\"n\":[1,[2]]}";
  const auto v = split_array("[" + doc + ",{\"after\":1}]", 8u << 20);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].text, doc);
  EXPECT_EQ(v[1].text, "{\"after\":1}");
}

// Issue 26: the format is the user's word. A JSON-lines input whose first
// line is an array stays JSON lines (that line is one bad entry), and a
// pretty-printed array read as JSON lines is one bad entry per line, not
// a silent switch of format.
TEST(JsonInput, LinesAreNeverTakenForAnArray) {
  auto v = split("[{\"a\":0},{\"a\":1}]\n{\"b\":1}\n{\"b\":2}\n");
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].text, "[{\"a\":0},{\"a\":1}]");
  EXPECT_EQ(v[0].line, 1u);
  EXPECT_EQ(v[2].text, "{\"b\":2}");
  EXPECT_EQ(v[2].line, 3u);
  for (const auto& e : v) EXPECT_TRUE(e.error.empty() && !e.fatal) << e.error;
  v = split("\n[\n{\"a\":1}\n]\n");
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].text, "[");
  EXPECT_EQ(v[0].line, 2u);
}

TEST(JsonInput, JsonArrayMustBeginWithABracket) {
  auto v = split_array("\n\n{\"a\":1}\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_TRUE(v[0].fatal);
  EXPECT_EQ(v[0].line, 3u);
  EXPECT_NE(v[0].error.find("--json-array: the input begins with '{', not '['"), std::string::npos)
      << v[0].error;
  v = split_array(" \n ");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_TRUE(v[0].fatal);
  EXPECT_NE(v[0].error.find("empty"), std::string::npos) << v[0].error;
}

// With --json-array, JSON lines whose first line is an array: the array
// closes at the end of line 1, not at the input's end, so it is not one
// array, and that is an error the import cannot skip past.
TEST(JsonInput, JsonArrayMustCloseAtTheEnd) {
  const auto v = split_array("[{\"a\":0},{\"a\":1}]\n{\"b\":1}\n{\"b\":2}\n");
  ASSERT_EQ(v.size(), 3u);
  EXPECT_FALSE(v[1].fatal);
  EXPECT_TRUE(v[2].fatal);
  EXPECT_EQ(v[2].line, 2u);
  EXPECT_NE(v[2].error.find("text after the closing ']' (line 1) of the top-level array that"
                            " begins on line 1: the input is not one JSON array"),
            std::string::npos)
      << v[2].error;
}

TEST(JsonInput, MissingElementsAreEntriesWithAnError) {
  const auto v = split_array("[{\"a\":1},,{\"b\":2},]");
  ASSERT_EQ(v.size(), 4u);
  EXPECT_TRUE(v[0].error.empty());
  EXPECT_NE(v[1].error.find("missing before ','"), std::string::npos) << v[1].error;
  EXPECT_EQ(v[2].text, "{\"b\":2}");
  EXPECT_NE(v[3].error.find("missing before ']'"), std::string::npos) << v[3].error;
  // Bad elements of a well-formed array: --skip-invalid goes past them.
  for (const auto& e : v) EXPECT_FALSE(e.fatal);
}

TEST(JsonInput, UnclosedArrayEndsWithAnError) {
  // The last element is whole: it is an entry, the missing ']' another.
  auto v = split_array("[{\"a\":1},\n{\"b\":2}");
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[1].text, "{\"b\":2}");
  EXPECT_TRUE(v[1].error.empty());
  EXPECT_NE(v[2].error.find("before the closing ']'"), std::string::npos) << v[2].error;
  EXPECT_TRUE(v[2].fatal);
  // Cut inside an element.
  v = split_array("[{\"a\":1},{\"b\":\"xy");
  ASSERT_EQ(v.size(), 2u);
  EXPECT_NE(v[1].error.find("inside an element"), std::string::npos) << v[1].error;
  EXPECT_TRUE(v[1].fatal);
  EXPECT_EQ(v[1].line, 1u);
}

TEST(JsonInput, TextAfterTheArrayIsAnError) {
  const auto v = split_array("[{\"a\":1}]\n\n[{\"b\":2}]");
  ASSERT_EQ(v.size(), 2u);
  EXPECT_NE(v[1].error.find("after the closing ']'"), std::string::npos) << v[1].error;
  EXPECT_EQ(v[1].line, 3u);
  EXPECT_TRUE(v[1].fatal);
}

TEST(JsonInput, OversizeDocumentIsAnEntryWithAnErrorAndTheNextOneIsRead) {
  const std::string big(5000, 'x');
  auto v = split("{\"a\":\"" + big + "\"}\n{\"b\":1}\n", 1000);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_NE(v[0].error.find("larger than 1000 bytes"), std::string::npos) << v[0].error;
  EXPECT_TRUE(v[0].text.empty()); // not held
  EXPECT_EQ(v[1].text, "{\"b\":1}");
  EXPECT_EQ(v[1].line, 2u);
  v = split_array("[{\"a\":\"" + big + "\"},{\"b\":1}]", 1000);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_NE(v[0].error.find("larger than 1000 bytes"), std::string::npos) << v[0].error;
  EXPECT_EQ(v[1].text, "{\"b\":1}");
}

// Issue 33, item 7: the cap is on the document, not on the white space or
// \r that ends its line: a document of exactly the maximum size is read.
TEST(JsonInput, TheCapIsOnTheDocumentNotItsLineEnd) {
  const std::string doc = "{\"a\":\"" + std::string(1000 - 8, 'x') + "\"}";
  ASSERT_EQ(doc.size(), 1000u);
  auto v = split(doc + "   \r\n" + doc + "\r\n{\"b\":1}\n", 1000);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].error, "");
  EXPECT_EQ(v[0].text, doc);
  EXPECT_EQ(v[1].text, doc);
  v = split_array("[" + doc + "   \r\n, " + doc + "]", 1000);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].error, "");
  EXPECT_EQ(v[1].text, doc);
  // One byte more is an invalid entry, named by its line.
  v = split("{\"n\":0}\n" + doc + " x\n{\"b\":1}\n", 1000);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_NE(v[1].error.find("larger than 1000 bytes"), std::string::npos) << v[1].error;
  EXPECT_EQ(v[1].line, 2u);
}

// Issue 33, item 7: an endless line (/dev/zero, a huge line of a regular
// file) is read and dropped past the cap, and a SIGINT or SIGTERM (the flag
// its handler sets) stops the reading between two reads, not only when a
// read() is interrupted: reads that always return data never are.
TEST(JsonInput, StopFlagIsCheckedBetweenReads) {
  std::signal(SIGPIPE, SIG_IGN); // the reader closes the pipe first
  for (const input_format format : {input_format::json_lines, input_format::json_array}) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    // 64 MiB of zeros, then the end: without the check, the reader drops
    // them all and returns the oversize entry instead of stopping.
    std::thread writer([&] {
      const std::string zeros(1 << 16, format == input_format::json_array ? ' ' : '\0');
      if (format == input_format::json_array) (void)!::write(fds[1], "[\"", 2);
      for (int i = 0; i < 1024; ++i)
        if (::write(fds[1], zeros.data(), zeros.size()) <= 0) break;
      ::close(fds[1]);
    });
    std::atomic<int> stop{0};
    json_input in(fds[0], "<pipe>", 1000, format, &stop);
    entry e;
    bool interrupted = false;
    try {
      stop = 2; // as the handler of SIGINT sets it, while the reader is busy
      in.next(e);
    } catch (const mysqlx_import::read_interrupted&) {
      interrupted = true;
    }
    ::close(fds[0]); // the writer gets EPIPE (ignored below) and ends
    writer.join();
    EXPECT_TRUE(interrupted) << (format == input_format::json_array ? "array" : "lines");
    EXPECT_LT(in.bytes_read(), std::uint64_t{8} << 20);
  }
}

// Issue 33, item 11: a UTF-16 or UTF-32 input is named as such (its byte
// order mark, or the NULs of its first ASCII characters), instead of
// "Invalid value at offset 0" on every line.
TEST(JsonInput, Utf16AndUtf32AreNamed) {
  const std::pair<std::string, std::string> cases[] = {
      {bytes("\xFF\xFE{\0\"\0a\0\"\0:\0"
             "1\0}\0\n\0"),
       "UTF-16LE (byte order mark FF FE)"},
      {bytes("\xFE\xFF\0{\0\"\0a\0\"\0:\0"
             "1\0}\0\n"),
       "UTF-16BE (byte order mark FE FF)"},
      {bytes("\xFF\xFE\0\0{\0\0\0}\0\0\0"), "UTF-32LE (byte order mark FF FE 00 00)"},
      {bytes("\0\0\xFE\xFF\0\0\0{\0\0\0}"), "UTF-32BE (byte order mark 00 00 FE FF)"},
      {bytes("{\0\"\0a\0\"\0:\0"
             "1\0}\0\n\0"),
       "UTF-16LE (NUL bytes between its first characters)"},
      {bytes("\0{\0}\0\n"), "UTF-16BE (NUL bytes between its first characters)"},
  };
  for (const auto& [text, named] : cases) {
    for (const input_format format : {input_format::json_lines, input_format::json_array}) {
      const auto v = split(text, 1 << 20, format);
      ASSERT_EQ(v.size(), 1u) << named;
      EXPECT_TRUE(v[0].fatal) << named;
      EXPECT_EQ(v[0].line, 1u);
      EXPECT_NE(v[0].error.find("the input is " + named), std::string::npos) << v[0].error;
      EXPECT_NE(v[0].error.find("mysqlx-import reads UTF-8"), std::string::npos) << v[0].error;
    }
  }
  // A NUL later in a line is that line's fault, not the input's encoding.
  const auto v = split(bytes("{\"a\":1}\n{\"b\":\"\0\"}\n"));
  ASSERT_EQ(v.size(), 2u);
  EXPECT_FALSE(v[1].fatal);
}

TEST(JsonInput, CountsBytesRead) {
  temp_input file("{\"a\":1}\n{\"b\":2}\n");
  json_input in(file.fd(), "t", 100);
  entry e;
  while (in.next(e)) {
  }
  EXPECT_EQ(in.bytes_read(), 16u);
  EXPECT_FALSE(in.is_array());
}

// Peak resident memory of this process so far, in bytes.
std::size_t peak_rss() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<std::size_t>(u.ru_maxrss) * 1024;
}

// 256 MiB of input through a pipe (the way standard input arrives): the
// reader holds one chunk and one document, never the input.
void streams_in_bounded_memory(bool array) {
  constexpr std::size_t total = std::size_t{256} << 20;
  const std::string doc = R"({"customer":"c-000000001","city":"Springfield","tags":["new","web"]})";
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::size_t written_docs = 0;
  std::thread writer([&] {
    auto write_all = [&](const std::string& bytes) {
      std::size_t off = 0;
      while (off < bytes.size()) {
        const ssize_t n = ::write(fds[1], bytes.data() + off, bytes.size() - off);
        if (n <= 0) return false;
        off += static_cast<std::size_t>(n);
      }
      return true;
    };
    std::string chunk = array ? "[" : "";
    std::size_t sent = 0;
    bool first = true;
    while (sent < total) {
      while (chunk.size() < (1u << 16)) {
        if (array && !first) chunk += ",";
        chunk += doc;
        chunk += "\n";
        first = false;
        ++written_docs;
      }
      if (!write_all(chunk)) break;
      sent += chunk.size();
      chunk.clear();
    }
    if (array) write_all("]");
    ::close(fds[1]);
  });
  const std::size_t before = peak_rss();
  json_input in(fds[0], "<pipe>", 1 << 20,
                array ? input_format::json_array : input_format::json_lines);
  entry e;
  std::size_t docs = 0;
  bool all_same = true;
  while (in.next(e)) {
    ++docs;
    all_same = all_same && e.error.empty() && e.text == doc;
  }
  writer.join();
  ::close(fds[0]);
  EXPECT_EQ(docs, written_docs);
  EXPECT_TRUE(all_same);
  EXPECT_GE(in.bytes_read(), total);
  // A 1 MiB buffer and one document; 16 MiB leaves room for the allocator.
  EXPECT_LT(peak_rss() - before, std::size_t{16} << 20) << "peak grew by " << peak_rss() - before;
}

TEST(JsonInput, LinesStreamInBoundedMemory) {
  streams_in_bounded_memory(false);
}
TEST(JsonInput, ArrayStreamsInBoundedMemory) {
  streams_in_bounded_memory(true);
}

} // namespace
