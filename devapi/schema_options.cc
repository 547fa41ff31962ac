// CollectionOptions and CollectionValidation (checked as they are set), and
// the admin-command arguments built from them; Schema::createCollection() with
// options and Schema::modifyCollection().
#include "devapi/schema_options.h"

#include "devapi/access.h"
#include "devapi/doc_impl.h"
#include "devapi/session_impl.h"
#include "devapi/throw_error.h"

#include <cctype>
#include <mysqlx/error.h>
#include <mysqlx/schema.h>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

namespace pr = cdk::protocol;

namespace {

[[noreturn]] void bad_option(const std::string& what) {
  throw_error(cdk::error::client(cdk::client_errc::usage, "collection options: " + what));
}

const field_list& fields_of(const DbDoc& doc) {
  static const field_list none;
  return doc.isNull() ? none : access::impl(doc)->fields(); // throws on invalid JSON
}

// A JSON value as an X Protocol Any (objects keep their member order).
pr::value to_any(const Value& v) {
  pr::value out;
  switch (v.getType()) {
  case Value::VNULL:
    return out;
  case Value::UINT64:
    return pr::value::of_uint(v.get<std::uint64_t>());
  case Value::INT64:
    out.type = pr::value::kind::sint;
    out.sint = v.get<std::int64_t>();
    return out;
  case Value::FLOAT:
  case Value::DOUBLE:
    out.type = pr::value::kind::dbl;
    out.dbl = v.get<double>();
    return out;
  case Value::BOOL:
    return pr::value::of_bool(static_cast<bool>(v));
  case Value::STRING:
    return pr::value::of_string(v.get<std::string>());
  case Value::ARRAY: {
    std::vector<pr::value> items;
    for (const Value& item : v) items.push_back(to_any(item));
    return pr::value::of_array(std::move(items));
  }
  case Value::DOCUMENT: {
    std::vector<pr::value_field> fields;
    for (const auto& [key, field] : access::doc_of(v)->fields())
      fields.push_back({key, to_any(field)});
    return pr::value::of_object(std::move(fields));
  }
  case Value::RAW:
    break;
  }
  return pr::value::of_string(v.get<std::string>());
}

std::vector<pr::value_field> validation_fields(const collection_options_impl& o) {
  std::vector<pr::value_field> out;
  if (o.schema) out.push_back({"schema", to_any(Value(*o.schema))});
  if (o.level) out.push_back({"level", pr::value::of_string(*o.level)});
  return out;
}

bool has_validation(const collection_options_impl& o) {
  return o.validation || o.level || o.schema;
}

} // namespace

std::vector<pr::value_field> create_collection_arguments(const std::string& schema,
                                                         const std::string& name,
                                                         const CollectionOptions& options) {
  std::vector<pr::value_field> args{{"schema", pr::value::of_string(schema)},
                                    {"name", pr::value::of_string(name)}};
  const auto& o = access::impl(options);
  std::vector<pr::value_field> opts;
  if (o.reuse) opts.push_back({"reuse_existing", pr::value::of_bool(*o.reuse)});
  if (has_validation(o)) opts.push_back({"validation", pr::value::of_object(validation_fields(o))});
  if (!opts.empty()) args.push_back({"options", pr::value::of_object(std::move(opts))});
  return args;
}

cdk::result<std::vector<pr::value_field>>
modify_collection_arguments(const std::string& schema, const std::string& name,
                            const CollectionOptions& options) {
  const auto& o = access::impl(options);
  if (o.reuse)
    return cdk::error::client(
        cdk::client_errc::usage,
        "modifyCollection(): REUSE (reuseExisting) is for createCollection()");
  if (!o.level && !o.schema)
    return cdk::error::client(cdk::client_errc::usage,
                              "modifyCollection(): no validation level or schema given");
  std::vector<pr::value_field> opts{{"validation", pr::value::of_object(validation_fields(o))}};
  return std::vector<pr::value_field>{{"schema", pr::value::of_string(schema)},
                                      {"name", pr::value::of_string(name)},
                                      {"options", pr::value::of_object(std::move(opts))}};
}

} // namespace detail

namespace detail {

collection_options_base::collection_options_base()
    : m_impl(std::make_unique<collection_options_impl>()) {}
collection_options_base::collection_options_base(const collection_options_base& other)
    : m_impl(std::make_unique<collection_options_impl>(*other.m_impl)) {}
collection_options_base& collection_options_base::operator=(const collection_options_base& other) {
  if (this != &other) m_impl = std::make_unique<collection_options_impl>(*other.m_impl);
  return *this;
}
collection_options_base::collection_options_base(collection_options_base&& other) noexcept =
    default;
collection_options_base&
collection_options_base::operator=(collection_options_base&& other) noexcept = default;
collection_options_base::~collection_options_base() = default;

} // namespace detail

using detail::access;
using detail::bad_option;
namespace pr = cdk::protocol;

// CollectionValidation

CollectionValidation::CollectionValidation() = default;
CollectionValidation::CollectionValidation(const char* json)
    : CollectionValidation(DbDoc(std::string(json ? json : ""))) {}
CollectionValidation::CollectionValidation(const std::string& json)
    : CollectionValidation(DbDoc(json)) {}
CollectionValidation::CollectionValidation(const DbDoc& doc) : CollectionValidation() {
  for (const auto& [key, v] : detail::fields_of(doc)) {
    if (key == "level") {
      if (v.getType() != Value::STRING) bad_option("validation \"level\" must be a string");
      set_one(LEVEL, v.get<std::string>());
    } else if (key == "schema") {
      if (v.getType() != Value::DOCUMENT) bad_option("validation \"schema\" must be a JSON object");
      set_one(SCHEMA, access::make_doc(access::doc_of(v)));
    } else {
      bad_option("unknown validation key \"" + key + "\" (known: \"level\", \"schema\")");
    }
  }
}

void CollectionValidation::set_one(Option opt, Level level) {
  if (opt != LEVEL) bad_option("CollectionValidation::SCHEMA takes a JSON object, not a Level");
  if (level != OFF && level != STRICT) bad_option("unknown validation level");
  set_one(LEVEL, std::string(level == STRICT ? "STRICT" : "OFF"));
}

void CollectionValidation::set_one(Option opt, const char* text) {
  set_one(opt, std::string(text ? text : ""));
}

void CollectionValidation::set_one(Option opt, const std::string& text) {
  if (opt == SCHEMA) return set_one(SCHEMA, DbDoc(text));
  if (opt != LEVEL) bad_option("unknown CollectionValidation option");
  if (m_impl->level) bad_option("validation level given twice");
  std::string upper;
  for (char c : text) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper != "STRICT" && upper != "OFF")
    bad_option("validation level \"" + text + "\" is neither \"strict\" nor \"off\"");
  m_impl->level = upper;
}

void CollectionValidation::set_one(Option opt, const DbDoc& schema) {
  if (opt != SCHEMA) bad_option("CollectionValidation::LEVEL takes a Level or a string");
  if (m_impl->schema) bad_option("validation schema given twice");
  if (schema.isNull()) bad_option("validation schema is a null document");
  try {
    (void)detail::fields_of(schema); // a JSON object, or a clear error now
  } catch (const Error& e) {
    bad_option(std::string("validation schema is not a JSON object: ") + e.what());
  }
  m_impl->schema = schema;
}

// CollectionOptions

CollectionOptions::CollectionOptions() = default;
CollectionOptions::CollectionOptions(const char* json)
    : CollectionOptions(DbDoc(std::string(json ? json : ""))) {}
CollectionOptions::CollectionOptions(const std::string& json) : CollectionOptions(DbDoc(json)) {}
CollectionOptions::CollectionOptions(const DbDoc& doc) : CollectionOptions() {
  for (const auto& [key, v] : detail::fields_of(doc)) {
    if (key == "reuseExisting") {
      if (v.getType() != Value::BOOL) bad_option("\"reuseExisting\" must be true or false");
      set_one(REUSE, static_cast<bool>(v));
    } else if (key == "validation") {
      if (v.getType() != Value::DOCUMENT) bad_option("\"validation\" must be a JSON object");
      set_one(VALIDATION, CollectionValidation(access::make_doc(access::doc_of(v))));
    } else {
      bad_option("unknown key \"" + key + "\" (known: \"reuseExisting\", \"validation\")");
    }
  }
}
CollectionOptions::CollectionOptions(const CollectionValidation& validation) : CollectionOptions() {
  set_one(VALIDATION, validation);
}

void CollectionOptions::set_one(Option opt, bool reuse) {
  if (opt != REUSE) bad_option("CollectionOptions::VALIDATION takes a CollectionValidation");
  if (m_impl->reuse) bad_option("REUSE given twice");
  m_impl->reuse = reuse;
}

void CollectionOptions::set_one(Option opt, const char* validation) {
  if (opt != VALIDATION) bad_option("CollectionOptions::REUSE takes a bool");
  set_one(VALIDATION, CollectionValidation(validation));
}

void CollectionOptions::set_one(Option opt, const CollectionValidation& validation) {
  if (opt != VALIDATION) bad_option("CollectionOptions::REUSE takes a bool");
  if (detail::has_validation(*m_impl)) bad_option("validation given twice");
  merge(validation);
  m_impl->validation = true;
}

void CollectionOptions::merge(const CollectionValidation& part) {
  if (m_impl->validation) bad_option("validation given twice");
  const auto& p = *part.m_impl;
  if (p.level) {
    if (m_impl->level) bad_option("validation level given twice");
    m_impl->level = p.level;
  }
  if (p.schema) {
    if (m_impl->schema) bad_option("validation schema given twice");
    m_impl->schema = p.schema;
  }
}

// Schema

Collection Schema::createCollection(const string& name, const CollectionOptions& options) {
  const bool reuse = access::impl(options).reuse.value_or(false);
  // 1050 tolerated with reuse, as createCollection(name, true) does.
  m_ref->sess->admin("create_collection",
                     detail::create_collection_arguments(m_ref->name, name, options),
                     reuse ? std::vector<std::uint32_t>{1050} : std::vector<std::uint32_t>{});
  m_ref->sess->implicit_commit();
  return getCollection(name, false);
}

void Schema::modifyCollection(const string& name, const CollectionOptions& options) {
  m_ref->sess->admin(
      "modify_collection_options",
      detail::value_or_throw(detail::modify_collection_arguments(m_ref->name, name, options)));
  m_ref->sess->implicit_commit();
}

MYSQLX_NAMESPACE_END
