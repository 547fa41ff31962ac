// Results: a statement reply turned into Columns, Rows, counts, ids and
// warnings, and the Result / RowResult / SqlResult / DocResult methods.
#include "cdk/protocol/resultset.h"
#include "devapi/access.h"
#include "devapi/doc_impl.h"
#include "devapi/result_convert.h"
#include "devapi/session_impl.h"
#include "devapi/throw_error.h"

#include <mysqlx/result.h>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

namespace pr = cdk::protocol;

std::unique_ptr<result_impl> make_result(std::shared_ptr<session_impl> sess, const pr::reply& r) {
  auto out = std::make_unique<result_impl>();
  out->sess = std::move(sess);
  auto sets = value_or_throw(pr::decode_result_sets(r));
  for (const pr::result_set& s : sets) {
    result_impl::set set;
    for (const auto& c : s.columns) set.columns.push_back(make_column(c));
    set.rows.reserve(s.rows.size());
    for (const auto& row : s.rows) {
      Row out_row;
      for (std::size_t i = 0; i < row.size(); ++i)
        out_row.set(static_cast<col_count_t>(i), to_value(row[i], s.columns[i]));
      set.rows.push_back(std::move(out_row));
    }
    out->sets.push_back(std::move(set));
  }
  out->affected = r.info.rows_affected;
  out->auto_increment = r.info.last_insert_id.value_or(0);
  for (const auto& w : r.info.warnings)
    out->warnings.emplace_back(static_cast<Warning::Level>(static_cast<int>(w.level)),
                               static_cast<std::uint16_t>(w.code), w.message);
  return out;
}

cdk::protocol::value to_protocol(const Value& v) {
  pr::value out;
  switch (v.getType()) {
  case Value::VNULL:
    break;
  case Value::INT64:
    out.type = pr::value::kind::sint;
    out.sint = v.get<std::int64_t>();
    break;
  case Value::UINT64:
    return pr::value::of_uint(v.get<std::uint64_t>());
  case Value::FLOAT:
  case Value::DOUBLE:
    out.type = pr::value::kind::dbl;
    out.dbl = v.get<double>();
    break;
  case Value::BOOL:
    return pr::value::of_bool(static_cast<bool>(v));
  case Value::STRING:
    return pr::value::of_string(v.get<std::string>());
  case Value::RAW: {
    const bytes b = v.getRawBytes();
    out.type = pr::value::kind::octets;
    out.bytes.assign(reinterpret_cast<const char*>(b.data()), b.size());
    break;
  }
  case Value::DOCUMENT:
    out.type = pr::value::kind::octets;
    out.bytes = std::string(access::impl(static_cast<DbDoc>(v))->json());
    out.content_type = 2;
    break;
  case Value::ARRAY: {
    std::vector<pr::value> items;
    for (const Value& i : v) items.push_back(to_protocol(i));
    return pr::value::of_array(std::move(items));
  }
  }
  return out;
}

} // namespace detail

using detail::access;

detail::result_base::result_base() noexcept = default;
detail::result_base::result_base(std::unique_ptr<result_impl> impl) noexcept
    : m_impl(std::move(impl)) {}
detail::result_base::result_base(result_base&&) noexcept = default;
detail::result_base& detail::result_base::operator=(result_base&&) noexcept = default;
detail::result_base::~result_base() = default;

unsigned detail::result_base::getWarningsCount() const {
  return static_cast<unsigned>(access::impl(*this).warnings.size());
}
WarningList detail::result_base::getWarnings() const {
  return access::impl(*this).warnings;
}
Warning detail::result_base::getWarning(unsigned pos) const {
  const auto& w = access::impl(*this).warnings;
  if (pos >= w.size())
    detail::throw_error(cdk::error::client(cdk::client_errc::usage,
                                           "getWarning(" + std::to_string(pos) + "): there are " +
                                               std::to_string(w.size()) + " warnings"));
  return w[pos];
}
std::uint64_t detail::result_base::getAffectedItemsCount() const {
  return access::impl(*this).affected;
}

Result::Result() noexcept = default;
Result::Result(Result&&) noexcept = default;
Result& Result::operator=(Result&&) noexcept = default;
Result::~Result() = default;
std::uint64_t Result::getAutoIncrementValue() const {
  return access::impl(*this).auto_increment;
}
DocIdList Result::getGeneratedIds() const {
  return access::impl(*this).generated_ids;
}

namespace {
detail::result_impl::set* current_set(const detail::result_base& r) {
  auto& impl = access::impl(r);
  return impl.current < impl.sets.size() ? &impl.sets[impl.current] : nullptr;
}
const Columns no_columns;
} // namespace

RowResult::RowResult() noexcept = default;
RowResult::RowResult(RowResult&&) noexcept = default;
RowResult& RowResult::operator=(RowResult&&) noexcept = default;
RowResult::~RowResult() = default;

col_count_t RowResult::getColumnCount() const {
  return static_cast<col_count_t>(getColumns().size());
}
const Column& RowResult::getColumn(col_count_t pos) const {
  const Columns& c = getColumns();
  if (pos >= c.size())
    detail::throw_error(cdk::error::client(
        cdk::client_errc::usage, "getColumn(" + std::to_string(pos) + "): the result has " +
                                     std::to_string(c.size()) + " columns"));
  return c[pos];
}
const Columns& RowResult::getColumns() const {
  auto* s = current_set(*this);
  return s ? s->columns : no_columns;
}
Row RowResult::fetchOne() {
  auto* s = current_set(*this);
  if (!s || s->pos >= s->rows.size()) return Row();
  return std::move(s->rows[s->pos++]);
}
RowList RowResult::fetchAll() {
  std::vector<Row> out;
  auto* s = current_set(*this);
  if (!s) return out;
  for (; s->pos < s->rows.size(); ++s->pos) out.push_back(std::move(s->rows[s->pos]));
  return out;
}
row_count_t RowResult::count() {
  auto* s = current_set(*this);
  return s ? s->rows.size() - s->pos : 0;
}

SqlResult::SqlResult() noexcept = default;
SqlResult::SqlResult(SqlResult&&) noexcept = default;
SqlResult& SqlResult::operator=(SqlResult&&) noexcept = default;
SqlResult::~SqlResult() = default;
bool SqlResult::hasData() const {
  return current_set(*this) != nullptr;
}
bool SqlResult::nextResult() {
  auto& impl = access::impl(*this);
  if (impl.current >= impl.sets.size()) return false;
  ++impl.current;
  return impl.current < impl.sets.size();
}
std::uint64_t SqlResult::getAutoIncrementValue() const {
  return access::impl(*this).auto_increment;
}

DocResult::DocResult() noexcept = default;
DocResult::DocResult(DocResult&&) noexcept = default;
DocResult& DocResult::operator=(DocResult&&) noexcept = default;
DocResult::~DocResult() = default;
DbDoc DocResult::fetchOne() {
  auto* s = current_set(*this);
  while (s && s->pos < s->rows.size()) {
    Row& row = s->rows[s->pos++];
    const Value& v = row[0];
    if (v.getType() == Value::DOCUMENT) return static_cast<DbDoc>(v);
    if (v.getType() == Value::STRING) return DbDoc(v.get<std::string>());
  }
  return DbDoc();
}
DocList DocResult::fetchAll() {
  std::vector<DbDoc> out;
  for (DbDoc d = fetchOne(); !d.isNull(); d = fetchOne()) out.push_back(std::move(d));
  return out;
}
row_count_t DocResult::count() {
  auto* s = current_set(*this);
  return s ? s->rows.size() - s->pos : 0;
}

MYSQLX_NAMESPACE_END
