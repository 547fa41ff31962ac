// DbDoc and its shared state: text kept as given, fields parsed on first use.
#include "cdk/foundation/error.h"
#include "cdk/json/member_scan.h"
#include "devapi/doc_impl.h"
#include "devapi/json_parse.h"
#include "devapi/throw_error.h"

#include <algorithm>
#include <mysqlx/value.h>
#include <ostream>
#include <stdexcept>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

doc_impl::doc_impl(std::string json)
    : m_text(std::make_shared<const std::string>(std::move(json))), m_end(m_text->size()) {}

doc_impl::doc_impl(std::string json, from_server_t) : doc_impl(std::move(json)) {
  m_scan = true;
}

doc_impl::doc_impl(std::shared_ptr<const std::string> text, std::size_t begin, std::size_t end,
                   field_list&& fields)
    : m_text(std::move(text)), m_begin(begin), m_end(end), m_fields(std::move(fields)) {
  std::call_once(m_parsed, [this] { index(); });
  m_fields_ready.store(true, std::memory_order_release);
}

const field_list& doc_impl::fields() const {
  std::call_once(m_parsed, [this] { parse(); });
  m_fields_ready.store(true, std::memory_order_release);
  return m_fields;
}

void doc_impl::parse() const {
  m_fields = parse_json_object(m_text, m_begin, m_end);
  index();
}

// Sorts field indexes by name for lookups, and drops all but the last of
// duplicated names: MySQL stores {"a":1,"a":2} as {"a": 2}.
void doc_impl::index() const {
  if (m_fields.size() > UINT32_MAX) {
    throw_error(cdk::error::client(cdk::client_errc::bad_document, "DbDoc: too many fields"));
  }
  std::vector<std::uint32_t> order(m_fields.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  auto by_name = [this](std::uint32_t a, std::uint32_t b) {
    return m_fields[a].first < m_fields[b].first;
  };
  std::stable_sort(order.begin(), order.end(), by_name);
  std::vector<bool> dropped(m_fields.size(), false);
  bool any_dropped = false;
  for (std::size_t i = 0; i + 1 < order.size(); ++i) {
    if (m_fields[order[i]].first == m_fields[order[i + 1]].first) {
      dropped[order[i]] = true; // stable sort: the later one follows
      any_dropped = true;
    }
  }
  if (any_dropped) {
    field_list kept;
    for (std::size_t i = 0; i < m_fields.size(); ++i) {
      if (!dropped[i]) kept.push_back(std::move(m_fields[i]));
    }
    m_fields = std::move(kept);
    order.resize(m_fields.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), by_name);
  }
  m_by_name = std::move(order);
}

// One field of a server's document without parsing the others (issue 13:
// the full parse was two thirds of the client's CPU in a fetch that reads
// one field per document). The field, nullptr when there is no such member,
// nothing when the scan cannot tell: then the caller parses it all.
std::optional<const Value*> doc_impl::scan_for(std::string_view name) const {
  const std::lock_guard<std::mutex> lock(m_scan_mutex);
  for (const auto& [key, value] : m_scanned)
    if (key == name) return &value;
  const auto m = cdk::json::find_member(json(), name);
  if (m.status == cdk::json::member_status::absent) return nullptr;
  if (m.status != cdk::json::member_status::found) return std::nullopt;
  auto v = parse_json_value(m_text, m_begin + m.begin, m_begin + m.end);
  if (!v) return std::nullopt; // the full parse reports what is wrong with it
  m_scanned.emplace_front(std::string(name), std::move(*v));
  return &m_scanned.front().second;
}

const Value* doc_impl::find(std::string_view name) const {
  if (m_scan && !m_fields_ready.load(std::memory_order_acquire)) {
    if (const auto found = scan_for(name)) return *found;
  }
  fields();
  auto it = std::lower_bound(m_by_name.begin(), m_by_name.end(), name,
                             [this](std::uint32_t i, std::string_view n) {
                               return std::string_view(m_fields[i].first) < n;
                             });
  if (it == m_by_name.end() || m_fields[*it].first != name) return nullptr;
  return &m_fields[*it].second;
}

} // namespace detail

DbDoc::DbDoc(const std::string& json) : m_impl(std::make_shared<const detail::doc_impl>(json)) {}
DbDoc::DbDoc(std::string&& json)
    : m_impl(std::make_shared<const detail::doc_impl>(std::move(json))) {}
DbDoc::DbDoc(std::shared_ptr<const detail::doc_impl> impl) noexcept : m_impl(std::move(impl)) {}

bool DbDoc::hasField(const Field& name) const {
  return m_impl && m_impl->find(name) != nullptr;
}

Value::Type DbDoc::fieldType(const Field& name) const {
  return (*this)[name].getType();
}

const Value& DbDoc::operator[](const Field& name) const {
  if (!m_impl) {
    detail::throw_error(
        cdk::error::client(cdk::client_errc::usage, "DbDoc: field access on a null document"));
  }
  const Value* v = m_impl->find(name);
  // A lookup of what is not there is std::out_of_range, as std::map::at()
  // throws and as Connector/C++ 8 does: programs (and Oracle's own tests)
  // catch it by that type. It is the one error of the API that is not a
  // mysqlx::Error; a class deriving from both would make `catch (const
  // std::exception&)` ambiguous, so that it caught neither.
  if (!v) throw std::out_of_range("DbDoc: no field named '" + name + "'");
  return *v;
}

const Value& DbDoc::operator[](const char* name) const {
  return (*this)[Field(name ? name : "")];
}

// The document's own text, without the white space around it.
void DbDoc::print(std::ostream& out) const {
  if (!m_impl) {
    out << "null";
    return;
  }
  std::string_view text = m_impl->json();
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return;
  text = text.substr(first, text.find_last_not_of(" \t\r\n") + 1 - first);
  out << text;
}

DbDoc::Iterator DbDoc::begin() const {
  if (m_impl) m_impl->fields(); // parse now: iterators must not throw
  return Iterator(m_impl.get(), 0);
}

DbDoc::Iterator DbDoc::end() const {
  return Iterator(m_impl.get(), m_impl ? m_impl->fields().size() : 0);
}

const Field& DbDoc::Iterator::operator*() const {
  return m_doc->fields()[m_pos].first;
}

MYSQLX_NAMESPACE_END
