// The query part of the grammar, and parse_uri(): the grammar's pieces run
// through the option rules of uri_options.cc.
//
//   query ::= pair ("&" pair)*
//   pair  ::= name ["=" ( "[" [value ("," value)*] "]" | value )]
//
// A value that starts with '[' is a list up to the next ']' (Connector/C++
// parse_val_list); inside it ',' separates items, and '&' or '[' before the
// ']' means the list was not closed. Any other value runs to the next '&'.
#include "cdk/parser/uri_query.h"

#include "cdk/parser/uri_options.h"

#include <string>
#include <utility>

namespace cdk {
namespace {

using namespace uri_text;

class query_reader {
public:
  query_reader(std::string_view uri, std::size_t& pos, const quoter& quote, error& err)
      : m_uri(uri), m_pos(pos), m_quote(quote), m_error(err) {}

  bool pair(std::vector<uri_option>& out) {
    uri_option opt;
    opt.pos = m_pos;
    const std::size_t start = m_pos;
    while (!at_end() && peek() != '=' && peek() != '&') ++m_pos;
    if (m_pos == start) return fail("empty option name", start);
    if (!decode(start, m_pos, opt.name)) return false;
    for (char& c : opt.name) c = to_lower(c);
    if (peek() == '=') {
      ++m_pos;
      opt.has_value = true;
      if (peek() == '[') {
        if (!list_value(opt)) return false;
      } else {
        const std::size_t vstart = m_pos;
        while (!at_end() && peek() != '&') ++m_pos;
        if (!decode(vstart, m_pos, opt.values.emplace_back())) return false;
      }
    }
    out.push_back(std::move(opt));
    return true;
  }

  char peek() const noexcept { return at_end() ? '\0' : m_uri[m_pos]; }
  void skip() noexcept { ++m_pos; }

private:
  std::string_view m_uri;
  std::size_t& m_pos;
  const quoter& m_quote;
  error& m_error;

  bool at_end() const noexcept { return m_pos >= m_uri.size(); }
  bool fail(const std::string& what, std::size_t pos) {
    m_error = parse_error(what, pos);
    return false;
  }
  bool decode(std::size_t from, std::size_t to, std::string& out) {
    return pct_decode(m_uri.substr(from, to - from), from, out, m_error);
  }

  bool list_value(uri_option& opt) {
    const std::size_t open = m_pos++;
    opt.is_list = true;
    if (peek() == ']') { // "[]": an empty list
      ++m_pos;
    } else {
      for (;;) {
        const std::size_t start = m_pos;
        while (!at_end() && peek() != ',' && peek() != ']' && peek() != '&' && peek() != '[')
          ++m_pos;
        if (at_end() || peek() == '&' || peek() == '[') {
          return fail("unclosed '[' in the value of option " + m_quote(opt.name, opt.pos), open);
        }
        if (!decode(start, m_pos, opt.values.emplace_back())) return false;
        if (m_uri[m_pos++] == ']') break;
      }
    }
    if (!at_end() && peek() != '&') {
      return fail("unexpected text after ']' in the value of option " + m_quote(opt.name, opt.pos),
                  m_pos);
    }
    return true;
  }
};

} // namespace

bool parse_query(std::string_view uri, std::size_t& pos, std::vector<uri_option>& out,
                 const uri_text::quoter& quote, error& err) {
  std::size_t pairs = 1;
  for (std::size_t amp = uri.find('&', pos); amp != std::string_view::npos;
       amp = uri.find('&', amp + 1))
    ++pairs;
  out.reserve(out.size() + pairs);
  query_reader reader(uri, pos, quote, err);
  for (;;) {
    if (!reader.pair(out)) return false;
    if (reader.peek() != '&') return true;
    reader.skip();
  }
}

result<connect_options> parse_uri(std::string_view uri) {
  auto parts = parse_uri_parts(uri);
  if (!parts) return std::move(parts).err();
  uri_parts& p = parts.value();
  connect_options_builder builder(p.password ? std::string_view(*p.password) : std::string_view());
  builder.guard_uri(uri);
  if (auto st = builder.set_hosts(std::move(p.hosts), p.scheme == uri_scheme::mysqlx_srv); !st) {
    return std::move(st).err();
  }
  for (const uri_option& opt : p.options) {
    if (auto st = builder.set_option(opt); !st) return std::move(st).err();
  }
  if (auto st = builder.finish(); !st) return std::move(st).err();
  connect_options& out = builder.options();
  if (p.user) out.user = std::move(*p.user);
  if (p.password) out.password = std::move(*p.password);
  if (p.schema) out.schema = std::move(*p.schema);
  return builder.take();
}

} // namespace cdk
