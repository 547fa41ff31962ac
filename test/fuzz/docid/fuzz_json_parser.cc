// libFuzzer target for cdk::json::parse, which reads documents that come
// back from the server (DbDoc). Any bytes give events or an error, never a
// crash; and the events always make sense: containers balanced and at most
// 100 deep, every start/end offset inside the text on the right bracket,
// strings valid UTF-8.
#include "cdk/json/json_parser.h"
#include "cdk/json/json_string.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

class checker final : public cdk::json::sax_handler {
public:
  explicit checker(std::string_view text) : m_text(text) {}
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool int64(std::int64_t) override { return true; }
  bool uint64(std::uint64_t u) override {
    check(u > static_cast<std::uint64_t>(INT64_MAX));
    return true;
  }
  bool dbl(double) override { return true; }
  bool string(std::string_view s) override {
    check(cdk::json::is_valid_utf8(s));
    return true;
  }
  bool key(std::string_view k) override {
    check(!m_open.empty() && m_text[m_open.back()] == '{');
    check(cdk::json::is_valid_utf8(k));
    return true;
  }
  bool start_object(std::size_t offset) override { return open(offset, '{'); }
  bool start_array(std::size_t offset) override { return open(offset, '['); }
  bool end_object(std::size_t end) override { return close(end, '{', '}'); }
  bool end_array(std::size_t end) override { return close(end, '[', ']'); }
  bool balanced() const { return m_open.empty(); }

private:
  bool open(std::size_t offset, char c) {
    check(offset < m_text.size() && m_text[offset] == c);
    m_open.push_back(offset);
    check(m_open.size() <= 100);
    return true;
  }
  bool close(std::size_t end, char open_c, char close_c) {
    check(!m_open.empty() && m_text[m_open.back()] == open_c);
    check(end > m_open.back() && end <= m_text.size() && m_text[end - 1] == close_c);
    m_open.pop_back();
    return true;
  }

  std::string_view m_text;
  std::vector<std::size_t> m_open;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  checker events(text);
  const cdk::json::parse_result r = cdk::json::parse(text, events);
  if (r.ok())
    check(events.balanced());
  else
    check(r.offset <= size && !r.describe().empty());
  return 0;
}
