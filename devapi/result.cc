// Results: a statement reply turned into Columns, Rows, counts, ids and
// warnings, read whole or streamed as rows are fetched, and the Result /
// RowResult / SqlResult / DocResult methods.
#include "cdk/protocol/resultset.h"
#include "devapi/access.h"
#include "devapi/doc_impl.h"
#include "devapi/result_convert.h"
#include "devapi/session_impl.h"
#include "devapi/throw_error.h"

#include <algorithm>
#include <mysqlx/result.h>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

namespace pr = cdk::protocol;

namespace {

cdk::result<Row> to_row(const std::vector<std::string_view>& fields,
                        const std::vector<pr::column_meta>& cols) {
  Row row;
  auto& values = access::values(row);
  values.reserve(fields.size());
  for (std::size_t i = 0; i < fields.size(); ++i) {
    auto v = to_value(fields[i], cols[i]);
    if (!v) return std::move(v).err();
    values.push_back(std::move(v.value()));
  }
  return row;
}

// The wire's levels (Mysqlx.Notice.Warning: NOTE 1, WARNING 2, ERROR 3) run
// the other way from Warning::Level (LEVEL_ERROR 0 ... LEVEL_INFO 2).
Warning::Level warning_level(pr::warning::level_t level) noexcept {
  switch (level) {
  case pr::warning::level_t::note:
    return Warning::LEVEL_INFO;
  case pr::warning::level_t::error:
    return Warning::LEVEL_ERROR;
  case pr::warning::level_t::warning:
    break;
  }
  return Warning::LEVEL_WARNING;
}

} // namespace

result_impl::~result_impl() {
  // A destructor does no I/O: the session skips the rest of the reply
  // before its next request. A complete result is never the one streaming,
  // and reads nothing of the session: another thread may be reading
  // replies into futures (TSan: ~result_impl read `streaming` while a
  // future's get() wrote it).
  if (!sess || complete) return;
  const std::lock_guard<std::recursive_mutex> lock(sess->wire);
  if (sess->streaming == this) {
    sess->streaming = nullptr;
    sess->orphan_reply = true;
  }
}

void result_impl::apply(const pr::reply& part) {
  using event = pr::result_decoder::event;
  for (const pr::frame& f : part.frames) {
    if (failure) break; // after a malformed message the rest is only skipped
    auto e = decoder.on_frame(f);
    if (!e) {
      failure = std::move(e).err();
      break;
    }
    if (e.value() == event::none) continue;
    if (decoder.starts_set()) {
      auto s = std::make_unique<set>();
      for (const auto& c : decoder.columns()) s->columns.push_back(make_column(c));
      sets.push_back(std::move(s));
    }
    set& s = *sets.back();
    if (e.value() == event::set_end) {
      s.done = true;
      s.last = f.type == pr::type_byte(pr::server_msg::resultset_fetch_done);
      continue;
    }
    auto row = to_row(decoder.raw_row(), decoder.columns());
    if (!row) {
      failure = std::move(row).err();
      break;
    }
    s.rows.push_back(std::move(row.value()));
    stats.peak_buffered = std::max(stats.peak_buffered, ++stats.buffered);
  }
  if (part.more) return;
  complete = true;
  if (sess && sess->streaming == this) sess->streaming = nullptr;
  if (!failure && decoder.unstarted_set()) {
    auto s = std::make_unique<set>();
    for (const auto& c : decoder.columns()) s->columns.push_back(make_column(c));
    sets.push_back(std::move(s));
  }
  for (auto& s : sets) {
    s->cut = !s->done;
    s->done = true;
  }
  if (part.error && !failure) failure = *part.error;
  affected = part.info.rows_affected;
  auto_increment = part.info.last_insert_id.value_or(0);
  for (const auto& w : part.info.warnings)
    warnings.emplace_back(warning_level(w.level), static_cast<std::uint16_t>(w.code), w.message);
}

bool result_impl::read_part() {
  if (complete) return false;
  std::unique_lock<std::recursive_mutex> lock;
  if (sess) lock = std::unique_lock<std::recursive_mutex>(sess->wire);
  auto r = sess->conn ? sess->conn->read_part()
                      : cdk::result<pr::reply>(
                            cdk::error::client(cdk::client_errc::usage, "the session is closed"));
  if (r) {
    apply(r.value());
  } else {
    // The connection failed: nothing more of this reply will come.
    pr::reply end;
    end.error = std::move(r).err();
    apply(end);
  }
  return !complete;
}

void result_impl::finish() {
  read_to_end();
  if (failure) throw_error(*failure);
}

result_impl::set* result_impl::current_set() {
  while (sets.size() <= current && read_part()) {
  }
  return current < sets.size() ? sets[current].get() : nullptr;
}

result_impl::set* result_impl::read_current_set() {
  set* s = current_set();
  if (!s) return nullptr;
  while (!s->done) read_part();
  if (s->cut && failure) throw_error(*failure);
  return s;
}

bool result_impl::fetch(Row& out) {
  set* s = current_set();
  if (!s) return false;
  while (s->rows.empty() && !s->done) read_part();
  if (s->rows.empty()) {
    if (s->cut && failure) throw_error(*failure); // the error cut this set short
    // After the last set only notices and StmtExecuteOk remain: read them,
    // so the session need not before its next request.
    if (s->last) read_to_end();
    return false;
  }
  out = std::move(s->rows.front());
  s->rows.pop_front();
  --stats.buffered;
  return true;
}

void result_impl::drop_rows(set& s) noexcept {
  stats.buffered -= s.rows.size();
  s.rows.clear();
}

std::unique_ptr<result_impl> make_result(std::shared_ptr<session_impl> sess, const pr::reply& r) {
  auto out = std::make_unique<result_impl>();
  out->sess = std::move(sess);
  out->complete = false;
  out->apply(r);
  if (out->failure) throw_error(*out->failure);
  return out;
}

std::unique_ptr<result_impl> stream_result(const std::shared_ptr<session_impl>& sess,
                                           const encoder& encode) {
  const std::lock_guard<std::recursive_mutex> lock(sess->wire);
  sess->send(encode, pr::replies::statement);
  auto out = std::make_unique<result_impl>();
  out->sess = sess;
  out->complete = false;
  sess->streaming = out.get();
  // Up to the first result set's metadata, or the end: a statement the
  // server refuses throws from execute(), and the rows come as fetched.
  while (out->sets.empty() && out->read_part()) {
  }
  if (out->complete && out->failure) throw_error(*out->failure);
  return out;
}

stream_stats stream_stats_of(const result_base& r) {
  const result_impl& impl = access::impl(r);
  stream_stats out = impl.stats;
  out.complete = impl.complete;
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
    // A DECIMAL read from a row goes back as its exact text, as the server
    // takes it, rather than as the nearest double.
    if (value_access::is_decimal(v))
      return pr::value::of_string(std::string(value_access::text_of(v)));
    out.type = pr::value::kind::dbl;
    out.dbl = v.get<double>();
    break;
  case Value::BOOL:
    return pr::value::of_bool(static_cast<bool>(v));
  case Value::STRING:
    return pr::value::of_string(v.get<std::string>());
  case Value::RAW: {
    // A date, time or SET read from a row: its SQL text, which the server parses;
    // the X Protocol's binary form is only for the server's replies.
    if (value_access::has_text(v))
      return pr::value::of_string(std::string(value_access::text_of(v)));
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
  auto& impl = access::impl(*this);
  impl.finish();
  return static_cast<unsigned>(impl.warnings.size());
}
WarningList detail::result_base::getWarnings() const {
  auto& impl = access::impl(*this);
  impl.finish();
  return impl.warnings;
}
Warning detail::result_base::getWarning(unsigned pos) const {
  auto& impl = access::impl(*this);
  impl.finish();
  const auto& w = impl.warnings;
  if (pos >= w.size())
    detail::throw_error(cdk::error::client(cdk::client_errc::usage,
                                           "getWarning(" + std::to_string(pos) + "): there are " +
                                               std::to_string(w.size()) + " warnings"));
  return w[pos];
}
std::uint64_t detail::result_base::getAffectedItemsCount() const {
  auto& impl = access::impl(*this);
  impl.finish();
  return impl.affected;
}

Result::Result() noexcept = default;
Result::Result(Result&&) noexcept = default;
Result& Result::operator=(Result&&) noexcept = default;
Result::~Result() = default;
std::uint64_t Result::getAutoIncrementValue() const {
  auto& impl = access::impl(*this);
  impl.finish();
  return impl.auto_increment;
}
DocIdList Result::getGeneratedIds() const {
  auto& impl = access::impl(*this);
  impl.finish();
  return impl.generated_ids;
}

namespace {
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
  auto* s = access::impl(*this).current_set();
  return s ? s->columns : no_columns;
}
Row RowResult::fetchOne() {
  Row row;
  access::impl(*this).fetch(row);
  return row;
}
RowList RowResult::fetchAll() {
  std::vector<Row> out;
  auto& impl = access::impl(*this);
  auto* s = impl.read_current_set();
  if (!s) return out;
  out.reserve(s->rows.size());
  for (Row& r : s->rows) out.push_back(std::move(r));
  impl.drop_rows(*s);
  return out;
}
row_count_t RowResult::count() {
  auto* s = access::impl(*this).read_current_set();
  return s ? s->rows.size() : 0;
}
RowResult::iterator RowResult::begin() {
  return iterator(*this);
}
RowResult::iterator RowResult::end() const noexcept {
  return iterator();
}

SqlResult::SqlResult() noexcept = default;
SqlResult::SqlResult(SqlResult&&) noexcept = default;
SqlResult& SqlResult::operator=(SqlResult&&) noexcept = default;
SqlResult::~SqlResult() = default;
bool SqlResult::hasData() const {
  return access::impl(*this).current_set() != nullptr;
}
bool SqlResult::nextResult() {
  auto& impl = access::impl(*this);
  auto* s = impl.current_set();
  if (!s) return false;
  // The rows of this set nobody fetched are dropped as they arrive.
  for (impl.drop_rows(*s); !s->done; impl.drop_rows(*s)) impl.read_part();
  if (s->cut && impl.failure) detail::throw_error(*impl.failure);
  ++impl.current;
  if (impl.current_set()) return true;
  if (impl.failure) detail::throw_error(*impl.failure); // it came after the last set
  return false;
}
namespace {
// Counts describe a statement that changed rows; while a result set is
// current there is nothing they could count yet (Connector/C++ 8 throws too).
void no_current_set(const SqlResult& r, const char* what) {
  if (r.hasData()) {
    detail::throw_error(cdk::error::client(
        cdk::client_errc::usage, std::string(what) +
                                     ": the statement returned rows; call nextResult() until it "
                                     "returns false first"));
  }
}
} // namespace

std::uint64_t SqlResult::getAutoIncrementValue() const {
  no_current_set(*this, "getAutoIncrementValue()");
  auto& impl = access::impl(*this);
  impl.finish();
  return impl.auto_increment;
}
std::uint64_t SqlResult::getAffectedItemsCount() const {
  no_current_set(*this, "getAffectedItemsCount()");
  return result_base::getAffectedItemsCount();
}

DocResult::DocResult() noexcept = default;
DocResult::DocResult(DocResult&&) noexcept = default;
DocResult& DocResult::operator=(DocResult&&) noexcept = default;
DocResult::~DocResult() = default;
DbDoc DocResult::fetchOne() {
  auto& impl = access::impl(*this);
  for (Row row; impl.fetch(row);) {
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
  auto* s = access::impl(*this).read_current_set();
  return s ? s->rows.size() : 0;
}
DocResult::iterator DocResult::begin() {
  return iterator(*this);
}
DocResult::iterator DocResult::end() const noexcept {
  return iterator();
}

MYSQLX_NAMESPACE_END
