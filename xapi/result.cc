// Results and rows: fetching, buffering, values, column metadata, ids.
#include "devapi/json_print.h"
#include "xapi/handles.h"

#include <cmath>
#include <cstring>
#include <limits>

using mysqlx::xapi::c_error;
using mysqlx::xapi::guarded;
using mysqlx::xapi::require;

void mysqlx_result_struct::free_by_user() noexcept {
  // Destroys *this: its statement, or else the session, holds the only owner.
  if (m_stmt != nullptr)
    m_stmt->m_result.reset();
  else
    m_owner.drop(this);
}

void mysqlx_result_struct::load_columns() {
  if (m_columns_loaded) return;
  if (mysqlx::RowResult* rows = row_set()) {
    for (const mysqlx::Column& c : rows->getColumns()) {
      m_column_names.push_back(m_name_store.emplace_back(c.getColumnLabel()).c_str());
      m_column_types.push_back(c.getType());
      m_columns.push_back(c);
    }
  } else if (m_docs) {
    // A find's rows are one JSON column, named as MySQL's X Plugin names it.
    m_column_names.push_back("doc");
    m_column_types.push_back(mysqlx::Type::JSON);
  }
  m_columns_loaded = true;
}

const mysqlx::Value& mysqlx_row_struct::value(uint32_t col) const {
  if (col >= m_row.colCount())
    throw c_error(MYSQLX_ERROR_INDEX_OUT_OF_RANGE, MYSQLX_ERROR_INDEX_OUT_OF_RANGE_MSG);
  return m_row.get(col);
}

namespace {

// The value's bytes as Connector/C++ 8 gives them (see mysqlx_get_bytes()).
std::string bytes_of(const mysqlx::Value& v, mysqlx::Type column_type) {
  using mysqlx::Type;
  using mysqlx::Value;
  std::string out;
  if (column_type == Type::JSON || v.getType() == Value::DOCUMENT) {
    mysqlx::detail::append_json(out, v);
    out.push_back('\0');
    return out;
  }
  switch (column_type) {
  case Type::STRING:
  case Type::BYTES:
  case Type::ENUM:
  case Type::SET:
  case Type::GEOMETRY: {
    const mysqlx::bytes b = v.getRawBytes();
    out.assign(reinterpret_cast<const char*>(b.begin()), b.size());
    out.push_back('\0'); // what tells an empty value from NULL on the wire
    return out;
  }
  case Type::DATE:
  case Type::DATETIME:
  case Type::TIMESTAMP:
  case Type::TIME: {
    const mysqlx::bytes b = v.getRawBytes();
    out.assign(reinterpret_cast<const char*>(b.begin()), b.size());
    return out;
  }
  default:
    throw c_error(0, "mysqlx_get_bytes() does not read numeric columns: use mysqlx_get_sint(), "
                     "mysqlx_get_uint() or mysqlx_get_double()");
  }
}

template <typename T> int get_number(mysqlx_row_t* row, uint32_t col, T* val) {
  return guarded(row, RESULT_ERROR, [&] {
    require(val, MYSQLX_ERROR_OUTPUT_BUFFER_NULL);
    const mysqlx::Value& v = row->value(col);
    if (v.isNull()) return RESULT_NULL;
    *val = v.get<T>(); // checked: a value that is not a number or does not fit throws
    return RESULT_OK;
  });
}

} // namespace

extern "C" {

MYSQLX_C_API mysqlx_row_t* mysqlx_row_fetch_one(mysqlx_result_t* res) {
  return guarded(res, static_cast<mysqlx_row_t*>(nullptr), [&]() -> mysqlx_row_t* {
    res->load_columns();
    if (mysqlx::RowResult* rows = res->row_set()) {
      mysqlx::Row r = rows->fetchOne();
      if (r.isNull()) return nullptr;
      return &res->m_rows.emplace_back(*res, std::move(r));
    }
    if (res->m_docs) {
      mysqlx::DbDoc d = res->m_docs->fetchOne();
      if (d.isNull()) return nullptr;
      return &res->m_rows.emplace_back(*res, mysqlx::Row(mysqlx::Value(std::move(d))));
    }
    return nullptr; // an add's result has no rows
  });
}

MYSQLX_C_API const char* mysqlx_json_fetch_one(mysqlx_result_t* res, size_t* out_length) {
  return guarded(res, static_cast<const char*>(nullptr), [&]() -> const char* {
    if (!res->m_docs) throw c_error(0, "The result holds no documents (it is not a find's)");
    mysqlx::DbDoc d = res->m_docs->fetchOne();
    if (d.isNull()) return nullptr;
    std::string& text = res->m_json.emplace_back();
    mysqlx::detail::append_json(text, mysqlx::Value(std::move(d)));
    if (out_length) *out_length = text.size() + 1; // the NUL counts, as in Connector/C++ 8
    return text.c_str();
  });
}

} // extern "C"

namespace {

int store(mysqlx_result_t* result, size_t* num, bool none_is_error) {
  return guarded(result, RESULT_ERROR, [&] {
    std::size_t n = 0;
    if (mysqlx::RowResult* rows = result->row_set())
      n = rows->count();
    else if (result->m_docs)
      n = result->m_docs->count();
    else if (none_is_error)
      throw c_error(0, "The result has no rows or documents to store");
    if (num) *num = n;
    return RESULT_OK;
  });
}

// The devapi result behind `r`, whatever its kind.
const mysqlx::detail::result_base& base_of(const mysqlx_result_t& r) {
  if (r.m_sql) return *r.m_sql;
  if (r.m_docs) return *r.m_docs;
  if (r.m_table_rows) return *r.m_table_rows;
  return *r.m_plain;
}

} // namespace

extern "C" {

MYSQLX_C_API int mysqlx_store_result(mysqlx_result_t* result, size_t* num) {
  return store(result, num, true);
}

MYSQLX_C_API int mysqlx_get_count(mysqlx_result_t* result, size_t* num) {
  return store(result, num, false);
}

MYSQLX_C_API int mysqlx_next_result(mysqlx_result_t* res) {
  return guarded(res, RESULT_ERROR, [&] {
    if (!res->m_sql) return RESULT_NULL; // CRUD results have one set at most
    const bool more = res->m_sql->nextResult();
    res->next_set();
    return more ? RESULT_OK : RESULT_NULL;
  });
}

MYSQLX_C_API uint64_t mysqlx_get_affected_count(mysqlx_result_t* res) {
  return guarded(res, uint64_t{0}, [&] { return base_of(*res).getAffectedItemsCount(); });
}

MYSQLX_C_API uint64_t mysqlx_get_auto_increment_value(mysqlx_result_t* res) {
  return guarded(res, uint64_t{0}, [&]() -> uint64_t {
    if (res->m_sql) return res->m_sql->getAutoIncrementValue();
    if (res->m_plain) return res->m_plain->getAutoIncrementValue();
    return 0; // a find generates nothing
  });
}

MYSQLX_C_API const char* mysqlx_fetch_generated_id(mysqlx_result_t* result) {
  return guarded(result, static_cast<const char*>(nullptr), [&]() -> const char* {
    if (result->m_next_id >= result->m_ids.size()) return nullptr;
    return result->m_ids[result->m_next_id++].c_str();
  });
}

MYSQLX_C_API void mysqlx_result_free(mysqlx_result_t* res) {
  if (res != nullptr) res->free_by_user();
}

MYSQLX_C_API int mysqlx_get_bytes(mysqlx_row_t* row, uint32_t col, uint64_t offset, void* buf,
                                  size_t* buf_len) {
  return guarded(row, RESULT_ERROR, [&] {
    require(buf_len, MYSQLX_ERROR_OUTPUT_BUFFER_ZERO);
    if (*buf_len == 0) throw c_error(0, MYSQLX_ERROR_OUTPUT_BUFFER_ZERO);
    require(buf, MYSQLX_ERROR_OUTPUT_BUFFER_NULL);
    const mysqlx::Value& v = row->value(col);
    if (v.isNull()) return RESULT_NULL;
    row->m_owner.load_columns();
    const auto& types = row->m_owner.m_column_types;
    const std::string b = bytes_of(v, col < types.size() ? types[col] : mysqlx::Type::BYTES);
    if (offset >= b.size()) {
      *buf_len = 0;
      return RESULT_OK;
    }
    const std::size_t left = b.size() - static_cast<std::size_t>(offset);
    const int rc = left > *buf_len ? RESULT_MORE_DATA : RESULT_OK;
    if (left < *buf_len) *buf_len = left;
    std::memcpy(buf, b.data() + offset, *buf_len);
    return rc;
  });
}

MYSQLX_C_API int mysqlx_get_uint(mysqlx_row_t* row, uint32_t col, uint64_t* val) {
  return get_number(row, col, val);
}

MYSQLX_C_API int mysqlx_get_float(mysqlx_row_t* row, uint32_t col, float* val) {
  return guarded(row, RESULT_ERROR, [&] {
    require(val, MYSQLX_ERROR_OUTPUT_BUFFER_NULL);
    const mysqlx::Value& v = row->value(col);
    if (v.isNull()) return RESULT_NULL;
    if (v.getType() == mysqlx::Value::FLOAT) {
      *val = v.get<float>();
      return RESULT_OK;
    }
    const double d = v.get<double>();
    if (!(d >= -std::numeric_limits<float>::max() && d <= std::numeric_limits<float>::max()) &&
        !std::isnan(d))
      throw c_error(0, "Numeric overflow: the value does not fit in a float");
    *val = static_cast<float>(d);
    return RESULT_OK;
  });
}

MYSQLX_C_API int mysqlx_get_sint(mysqlx_row_t* row, uint32_t col, int64_t* val) {
  return get_number(row, col, val);
}

MYSQLX_C_API int mysqlx_get_double(mysqlx_row_t* row, uint32_t col, double* val) {
  return get_number(row, col, val);
}

MYSQLX_C_API uint32_t mysqlx_column_get_count(mysqlx_result_t* res) {
  return guarded(res, uint32_t{0}, [&] {
    res->load_columns();
    return static_cast<uint32_t>(res->m_column_names.size());
  });
}

MYSQLX_C_API const char* mysqlx_column_get_name(mysqlx_result_t* res, uint32_t pos) {
  return guarded(res, static_cast<const char*>(nullptr), [&] {
    res->load_columns();
    if (pos >= res->m_column_names.size())
      throw c_error(MYSQLX_ERROR_INDEX_OUT_OF_RANGE, MYSQLX_ERROR_INDEX_OUT_OF_RANGE_MSG);
    return res->m_column_names[pos];
  });
}

} // extern "C"

namespace {

// The column at `pos` of the current set. A find's one column has no
// server metadata here: nullptr, and the caller gives its fixed answers.
const mysqlx::Column* column_at(mysqlx_result_t& res, uint32_t pos) {
  res.load_columns();
  if (pos >= res.m_column_names.size())
    throw c_error(MYSQLX_ERROR_INDEX_OUT_OF_RANGE, MYSQLX_ERROR_INDEX_OUT_OF_RANGE_MSG);
  return pos < res.m_columns.size() ? &res.m_columns[pos] : nullptr;
}

uint16_t c_type_of(const mysqlx::Column& c) {
  using mysqlx::Type;
  switch (c.getType()) {
  case Type::BIT:
    return MYSQLX_TYPE_BIT;
  case Type::TINYINT:
  case Type::SMALLINT:
  case Type::MEDIUMINT:
  case Type::INT:
  case Type::BIGINT:
    if (c.getLength() == 1) return MYSQLX_TYPE_BOOL;
    return c.isNumberSigned() ? MYSQLX_TYPE_SINT : MYSQLX_TYPE_UINT;
  case Type::FLOAT:
    return MYSQLX_TYPE_FLOAT;
  case Type::DECIMAL:
    return MYSQLX_TYPE_DECIMAL;
  case Type::DOUBLE:
    return MYSQLX_TYPE_DOUBLE;
  case Type::JSON:
    return MYSQLX_TYPE_JSON;
  case Type::STRING:
    return MYSQLX_TYPE_STRING;
  case Type::BYTES:
    return MYSQLX_TYPE_BYTES;
  case Type::TIME:
    return MYSQLX_TYPE_TIME;
  case Type::DATE:
  case Type::DATETIME:
    return MYSQLX_TYPE_DATETIME;
  case Type::TIMESTAMP:
    return MYSQLX_TYPE_TIMESTAMP;
  case Type::SET:
    return MYSQLX_TYPE_SET;
  case Type::ENUM:
    return MYSQLX_TYPE_ENUM;
  case Type::GEOMETRY:
    return MYSQLX_TYPE_GEOMETRY;
  }
  return MYSQLX_TYPE_UNDEFINED;
}

// A metadata string, kept with the result's names so it outlives the call.
const char* keep(mysqlx_result_t& res, std::string s) {
  return res.m_name_store.emplace_back(std::move(s)).c_str();
}

template <typename F> const char* column_text(mysqlx_result_t* res, uint32_t pos, F&& get) {
  return guarded(res, static_cast<const char*>(nullptr), [&] {
    const mysqlx::Column* c = column_at(*res, pos);
    return keep(*res, c ? get(*c) : std::string());
  });
}

} // namespace

extern "C" {

MYSQLX_C_API uint16_t mysqlx_column_get_type(mysqlx_result_t* res, uint32_t pos) {
  return guarded(res, uint16_t{0}, [&]() -> uint16_t {
    const mysqlx::Column* c = column_at(*res, pos);
    return c ? c_type_of(*c) : uint16_t{MYSQLX_TYPE_JSON};
  });
}

MYSQLX_C_API uint16_t mysqlx_column_get_collation(mysqlx_result_t* res, uint32_t pos) {
  return guarded(res, uint16_t{0}, [&]() -> uint16_t {
    const mysqlx::Column* c = column_at(*res, pos);
    if (c == nullptr) return MYSQLX_COLLATION_UNDEFINED;
    try {
      return static_cast<uint16_t>(c->getCollation().id());
    } catch (const mysqlx::Error&) {
      return MYSQLX_COLLATION_UNDEFINED; // no collation, or one we do not know
    }
  });
}

MYSQLX_C_API uint32_t mysqlx_column_get_length(mysqlx_result_t* res, uint32_t pos) {
  return guarded(res, uint32_t{0}, [&]() -> uint32_t {
    const mysqlx::Column* c = column_at(*res, pos);
    return c ? static_cast<uint32_t>(c->getLength()) : 0;
  });
}

MYSQLX_C_API uint16_t mysqlx_column_get_precision(mysqlx_result_t* res, uint32_t pos) {
  return guarded(res, uint16_t{0}, [&]() -> uint16_t {
    const mysqlx::Column* c = column_at(*res, pos);
    return c ? c->getFractionalDigits() : 0;
  });
}

MYSQLX_C_API const char* mysqlx_column_get_original_name(mysqlx_result_t* res, uint32_t pos) {
  return column_text(res, pos, [](const mysqlx::Column& c) { return c.getColumnName(); });
}

MYSQLX_C_API const char* mysqlx_column_get_table(mysqlx_result_t* res, uint32_t pos) {
  return column_text(res, pos, [](const mysqlx::Column& c) { return c.getTableLabel(); });
}

MYSQLX_C_API const char* mysqlx_column_get_original_table(mysqlx_result_t* res, uint32_t pos) {
  return column_text(res, pos, [](const mysqlx::Column& c) { return c.getTableName(); });
}

MYSQLX_C_API const char* mysqlx_column_get_schema(mysqlx_result_t* res, uint32_t pos) {
  return column_text(res, pos, [](const mysqlx::Column& c) { return c.getSchemaName(); });
}

MYSQLX_C_API const char* mysqlx_column_get_catalog(mysqlx_result_t* res, uint32_t pos) {
  return guarded(res, static_cast<const char*>(nullptr), [&] {
    column_at(*res, pos); // the range check
    return "def";
  });
}

MYSQLX_C_API unsigned int mysqlx_result_warning_count(mysqlx_result_t* res) {
  return guarded(res, 0u, [&] { return base_of(*res).getWarningsCount(); });
}

MYSQLX_C_API mysqlx_error_t* mysqlx_result_next_warning(mysqlx_result_t* res) {
  return guarded(res, static_cast<mysqlx_error_t*>(nullptr), [&]() -> mysqlx_error_t* {
    if (!res->m_warnings) res->m_warnings = base_of(*res).getWarnings();
    if (res->m_next_warning >= res->m_warnings->size()) return nullptr;
    const mysqlx::Warning& w = (*res->m_warnings)[res->m_next_warning++];
    res->m_warning.set(w.getCode(), w.getMessage().c_str());
    return &res->m_warning;
  });
}

} // extern "C"
