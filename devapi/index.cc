// Collection::createIndex / dropIndex: admin commands create_collection_index
// and drop_collection_index (MySQL 8.0's X Plugin argument names).
#include "devapi/index.h"

#include "devapi/access.h"
#include "devapi/doc_impl.h"
#include "devapi/session_impl.h"
#include "devapi/throw_error.h"

#include <mysqlx/collection.h>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

namespace pr = cdk::protocol;

namespace {

cdk::error bad_spec(const std::string& what) {
  return cdk::error::client(cdk::client_errc::bad_document,
                            "createIndex(): bad index definition: " + what);
}

// The definition's keys are matched without regard to case ("Fields",
// "TyPe"), as Connector/C++ 8 matches them.
std::string key_name(const std::string& key) {
  std::string k = key;
  for (char& c : k)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return k;
}

// One of the definition's scalars as a protocol value of the expected kind.
cdk::result<pr::value> member_value(const std::string& key, const Value& v) {
  if (key == "field" || key == "type" || key == "collation") {
    if (v.getType() != Value::STRING) return bad_spec("\"" + key + "\" must be a string");
    return pr::value::of_string(v.get<std::string>());
  }
  if (key == "required" || key == "array") {
    if (v.getType() != Value::BOOL) return bad_spec("\"" + key + "\" must be true or false");
    return pr::value::of_bool(static_cast<bool>(v));
  }
  if (key == "options" || key == "srid") {
    if (v.getType() != Value::INT64 && v.getType() != Value::UINT64)
      return bad_spec("\"" + key + "\" must be a whole number");
    if (v.getType() == Value::INT64 && v.get<std::int64_t>() < 0)
      return bad_spec("\"" + key + "\" must not be negative");
    return pr::value::of_uint(v.get<std::uint64_t>());
  }
  return bad_spec("unknown key \"" + key + "\" in a field");
}

} // namespace

cdk::result<std::vector<pr::value_field>> index_arguments(const std::string& schema,
                                                          const std::string& collection,
                                                          const std::string& name,
                                                          const std::string& spec) {
  std::vector<pr::value_field> args{{"schema", pr::value::of_string(schema)},
                                    {"collection", pr::value::of_string(collection)},
                                    {"name", pr::value::of_string(name)},
                                    {"unique", pr::value::of_bool(false)}};
  const DbDoc doc(spec);
  std::string type = "INDEX";
  std::vector<pr::value> members;
  bool has_fields = false;
  for (const auto& [given_key, v] : access::impl(doc)->fields()) { // throws on invalid JSON
    const std::string key = key_name(given_key);
    if (key == "type") {
      if (v.getType() != Value::STRING) return bad_spec("\"type\" must be a string");
      type = v.get<std::string>();
    } else if (key == "fields") {
      if (v.getType() != Value::ARRAY) return bad_spec("\"fields\" must be an array");
      has_fields = true;
      for (const Value& f : v) {
        if (f.getType() != Value::DOCUMENT) return bad_spec("each field must be an object");
        std::vector<pr::value_field> m;
        for (const auto& [given, fv] : access::doc_of(f)->fields()) {
          const std::string k = key_name(given);
          auto mv = member_value(k, fv);
          if (!mv) return std::move(mv).err();
          m.push_back({k == "field" ? "member" : k, std::move(mv.value())});
        }
        if (!pr::value::of_object(m).find("member")) return bad_spec("a field has no \"field\"");
        if (!pr::value::of_object(m).find("type")) return bad_spec("a field has no \"type\"");
        members.push_back(pr::value::of_object(std::move(m)));
      }
    } else {
      return bad_spec("unknown key \"" + given_key + "\"");
    }
  }
  if (!has_fields || members.empty()) return bad_spec("\"fields\" lists no field");
  args.push_back({"type", pr::value::of_string(type)});
  args.push_back({"constraint", pr::value::of_array(std::move(members))});
  return args;
}

} // namespace detail

void Collection::createIndex(const string& name, const string& spec) {
  auto args =
      detail::value_or_throw(detail::index_arguments(m_ref->schema, m_ref->name, name, spec));
  m_ref->sess->admin("create_collection_index", std::move(args));
  m_ref->sess->implicit_commit();
}

void Collection::dropIndex(const string& name) {
  namespace pr = cdk::protocol;
  // A missing index is not an error (1091 tolerated), as the X DevAPI has
  // it and like dropCollection().
  m_ref->sess->admin("drop_collection_index",
                     {{"schema", pr::value::of_string(m_ref->schema)},
                      {"collection", pr::value::of_string(m_ref->name)},
                      {"name", pr::value::of_string(name)}},
                     {1091});
  m_ref->sess->implicit_commit();
}

MYSQLX_NAMESPACE_END
