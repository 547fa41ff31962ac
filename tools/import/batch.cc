#include "batch.h"

#include <iterator>

namespace mysqlx_import {

std::string where(const position& p) {
  return p.file + ":" + std::to_string(p.line);
}

std::string count(std::uint64_t n, const std::string& noun, const std::string& nouns) {
  return std::to_string(n) + " " + (n == 1 ? noun : nouns.empty() ? noun + "s" : nouns);
}

std::string quoted(const std::string& id) {
  std::string q = "\"";
  for (const unsigned char c : id) {
    if (c == '"' || c == '\\') {
      q += '\\';
      q += static_cast<char>(c);
    } else if (c < 0x20) {
      static const char hex[] = "0123456789abcdef";
      q += "\\u00";
      q += hex[c >> 4];
      q += hex[c & 15];
    } else {
      q += static_cast<char>(c);
    }
  }
  return q + "\"";
}

position batch::at(std::size_t i) const {
  auto f = files.begin();
  while (std::next(f) != files.end() && std::next(f)->first <= i) ++f;
  return {f->second, lines[i]};
}

std::string batch::range() const {
  if (docs.empty()) {
    // Skipped entries only.
    if (skipped.empty()) return {};
    const position& first = skipped.front().at;
    const position& last = skipped.back().at;
    if (skipped.size() == 1) return where(first);
    return first.file == last.file ? where(first) + "-" + std::to_string(last.line)
                                   : where(first) + " to " + where(last);
  }
  const position first = at(0), last = at(docs.size() - 1);
  if (first.file == last.file)
    return first.line == last.line ? where(first) : where(first) + "-" + std::to_string(last.line);
  return where(first) + " to " + where(last);
}

} // namespace mysqlx_import
