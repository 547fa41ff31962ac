// See json_schema_check.h. MySQL builds RapidJSON with std::regex for
// "pattern" (json_schema.cc), so this file does too.
#define RAPIDJSON_SCHEMA_USE_INTERNALREGEX 0
#define RAPIDJSON_SCHEMA_USE_STDREGEX 1
#include "test/xserver/json_schema_check.h"

#include <rapidjson/document.h>
#include <rapidjson/pointer.h>
#include <rapidjson/schema.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace xserver {

namespace {

using Mysqlx::Datatypes::Any;
using Mysqlx::Datatypes::Scalar;

// The X Plugin wraps its reason in this text (as MySQL 8.0 sends 5182).
x_error invalid_schema(const std::string& reason) {
  return make_error(errc::x_invalid_validation_schema,
                    "The provided validation schema is invalid (" + reason + ").");
}

// The draft-04 meta-schema (json-schema.org/draft-04/schema).
constexpr const char* draft4_meta_schema = R"JSON({
 "id":"http://json-schema.org/draft-04/schema#",
 "$schema":"http://json-schema.org/draft-04/schema#",
 "description":"Core schema meta-schema",
 "definitions":{
  "schemaArray":{"type":"array","minItems":1,"items":{"$ref":"#"}},
  "positiveInteger":{"type":"integer","minimum":0},
  "positiveIntegerDefault0":{"allOf":[{"$ref":"#/definitions/positiveInteger"},{"default":0}]},
  "simpleTypes":{"enum":["array","boolean","integer","null","number","object","string"]},
  "stringArray":{"type":"array","items":{"type":"string"},"minItems":1,"uniqueItems":true}},
 "type":"object",
 "properties":{
  "id":{"type":"string"},
  "$schema":{"type":"string"},
  "title":{"type":"string"},
  "description":{"type":"string"},
  "default":{},
  "multipleOf":{"type":"number","minimum":0,"exclusiveMinimum":true},
  "maximum":{"type":"number"},
  "exclusiveMaximum":{"type":"boolean","default":false},
  "minimum":{"type":"number"},
  "exclusiveMinimum":{"type":"boolean","default":false},
  "maxLength":{"$ref":"#/definitions/positiveInteger"},
  "minLength":{"$ref":"#/definitions/positiveIntegerDefault0"},
  "pattern":{"type":"string","format":"regex"},
  "additionalItems":{"anyOf":[{"type":"boolean"},{"$ref":"#"}],"default":{}},
  "items":{"anyOf":[{"$ref":"#"},{"$ref":"#/definitions/schemaArray"}],"default":{}},
  "maxItems":{"$ref":"#/definitions/positiveInteger"},
  "minItems":{"$ref":"#/definitions/positiveIntegerDefault0"},
  "uniqueItems":{"type":"boolean","default":false},
  "maxProperties":{"$ref":"#/definitions/positiveInteger"},
  "minProperties":{"$ref":"#/definitions/positiveIntegerDefault0"},
  "required":{"$ref":"#/definitions/stringArray"},
  "additionalProperties":{"anyOf":[{"type":"boolean"},{"$ref":"#"}],"default":{}},
  "definitions":{"type":"object","additionalProperties":{"$ref":"#"},"default":{}},
  "properties":{"type":"object","additionalProperties":{"$ref":"#"},"default":{}},
  "patternProperties":{"type":"object","additionalProperties":{"$ref":"#"},"default":{}},
  "dependencies":{"type":"object","additionalProperties":
    {"anyOf":[{"$ref":"#"},{"$ref":"#/definitions/stringArray"}]}},
  "enum":{"type":"array","minItems":1,"uniqueItems":true},
  "type":{"anyOf":[{"$ref":"#/definitions/simpleTypes"},
    {"type":"array","items":{"$ref":"#/definitions/simpleTypes"},"minItems":1,"uniqueItems":true}]},
  "format":{"type":"string"},
  "allOf":{"$ref":"#/definitions/schemaArray"},
  "anyOf":{"$ref":"#/definitions/schemaArray"},
  "oneOf":{"$ref":"#/definitions/schemaArray"},
  "not":{"$ref":"#"}},
 "dependencies":{"exclusiveMaximum":["maximum"],"exclusiveMinimum":["minimum"]},
 "default":{}
})JSON";

// MySQL's meta-schema is draft 4 made strict: an unknown top-level keyword
// (a typo) fails `additionalProperties`, and `$ref` is a known keyword.
const rapidjson::SchemaDocument& meta_schema() {
  static const rapidjson::SchemaDocument doc = [] {
    rapidjson::Document d;
    d.Parse(draft4_meta_schema);
    auto& a = d.GetAllocator();
    d.AddMember("additionalProperties", false, a);
    rapidjson::Value ref(rapidjson::kObjectType);
    ref.AddMember("type", "string", a);
    ref.AddMember("pattern", "^#(/(.+))*$", a);
    d["properties"].AddMember("$ref", ref, a);
    return rapidjson::SchemaDocument(d);
  }();
  return doc;
}

std::string uri_fragment(const rapidjson::Pointer& p) {
  rapidjson::StringBuffer b;
  p.StringifyUriFragment(b);
  return {b.GetString(), b.GetSize()};
}

bool to_json(const Any& a, rapidjson::Value& out, rapidjson::Document::AllocatorType& alloc) {
  switch (a.type()) {
  case Any::OBJECT:
    out.SetObject();
    for (const auto& f : a.obj().fld()) {
      rapidjson::Value v;
      if (!to_json(f.value(), v, alloc)) return false;
      out.AddMember(rapidjson::Value(f.key().c_str(), alloc), v, alloc);
    }
    return true;
  case Any::ARRAY:
    out.SetArray();
    for (const auto& e : a.array().value()) {
      rapidjson::Value v;
      if (!to_json(e, v, alloc)) return false;
      out.PushBack(v, alloc);
    }
    return true;
  case Any::SCALAR:
    break;
  }
  const Scalar& s = a.scalar();
  switch (s.type()) {
  case Scalar::V_SINT:
    out.SetInt64(s.v_signed_int());
    return true;
  case Scalar::V_UINT:
    out.SetUint64(s.v_unsigned_int());
    return true;
  case Scalar::V_DOUBLE:
    out.SetDouble(s.v_double());
    return true;
  case Scalar::V_FLOAT:
    out.SetDouble(s.v_float());
    return true;
  case Scalar::V_BOOL:
    out.SetBool(s.v_bool());
    return true;
  case Scalar::V_NULL:
    out.SetNull();
    return true;
  case Scalar::V_STRING:
    out.SetString(s.v_string().value().data(),
                  static_cast<rapidjson::SizeType>(s.v_string().value().size()), alloc);
    return true;
  case Scalar::V_OCTETS:
    out.SetString(s.v_octets().value().data(),
                  static_cast<rapidjson::SizeType>(s.v_octets().value().size()), alloc);
    return true;
  }
  return false;
}

// Every `$ref` object must name a place inside the schema: RapidJSON would
// otherwise look for a remote document, which MySQL never fetches.
std::optional<x_error> check_refs(const rapidjson::Document& root, const rapidjson::Value& v,
                                  const rapidjson::Pointer& at) {
  if (v.IsArray()) {
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i)
      if (auto e = check_refs(root, v[i], at.Append(i))) return e;
    return std::nullopt;
  }
  if (!v.IsObject()) return std::nullopt;
  auto ref = v.FindMember("$ref");
  if (ref == v.MemberEnd()) {
    for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m)
      if (auto e =
              check_refs(root, m->value, at.Append(m->name.GetString(), m->name.GetStringLength())))
        return e;
    return std::nullopt;
  }
  bool ok = ref->value.IsString();
  if (ok) {
    rapidjson::Pointer p(ref->value.GetString(), ref->value.GetStringLength());
    ok = p.IsValid() && p.Get(root) != nullptr;
  }
  if (!ok)
    return make_error(errc::x_invalid_validation_schema,
                      "Validation schema reference '" + uri_fragment(at) + "' is not valid");
  return std::nullopt;
}

std::optional<x_error> check_document(const rapidjson::Document& d) {
  if (!d.IsObject())
    return make_error(errc::x_invalid_validation_schema,
                      "Validation schema is not a valid JSON object");
  if (auto e = check_refs(d, d, rapidjson::Pointer())) return e;
  rapidjson::SchemaValidator v(meta_schema());
  if (d.Accept(v)) return std::nullopt;
  return invalid_schema("JSON validation schema location " +
                        uri_fragment(v.GetInvalidDocumentPointer()) + " failed requirement: '" +
                        v.GetInvalidSchemaKeyword() + "' at meta schema location '" +
                        uri_fragment(v.GetInvalidSchemaPointer()) + "'");
}

const char* const not_json = "Validation schema is not a valid JSON document";

} // namespace

std::optional<x_error> check_validation_schema(const Any& schema, std::string& json) {
  rapidjson::Document d;
  if (schema.type() == Any::SCALAR && schema.scalar().type() == Scalar::V_STRING) {
    const std::string& text = schema.scalar().v_string().value();
    if (d.Parse(text.data(), text.size()).HasParseError())
      return make_error(errc::x_invalid_validation_schema, not_json);
  } else if (schema.type() != Any::OBJECT || !to_json(schema, d, d.GetAllocator())) {
    return make_error(errc::x_invalid_validation_schema, not_json);
  }
  if (auto e = check_document(d)) return e;
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  d.Accept(w);
  json.assign(b.GetString(), b.GetSize());
  return std::nullopt;
}

std::optional<x_error> check_validation_schema_text(std::string_view text) {
  rapidjson::Document d;
  if (d.Parse(text.data(), text.size()).HasParseError())
    return make_error(errc::x_invalid_validation_schema, not_json);
  return check_document(d);
}

struct document_validator::impl {
  rapidjson::Document source;
  std::unique_ptr<rapidjson::SchemaDocument> schema;
};

document_validator::document_validator(const std::string& schema_json) : m_impl(new impl) {
  m_impl->source.Parse(schema_json.data(), schema_json.size());
  if (m_impl->source.HasParseError()) m_impl->source.SetObject(); // accepts everything
  m_impl->schema = std::make_unique<rapidjson::SchemaDocument>(m_impl->source);
}

document_validator::~document_validator() = default;

std::optional<std::string> document_validator::check(std::string_view doc) const {
  rapidjson::Document d;
  // Not JSON (NULL doc): JSON_SCHEMA_VALID gives NULL, which a CHECK passes.
  if (d.Parse(doc.data(), doc.size()).HasParseError()) return std::nullopt;
  rapidjson::SchemaValidator v(*m_impl->schema);
  if (d.Accept(v)) return std::nullopt;
  // The wording of sql/json_schema.cc's human_readable_reason().
  return "The JSON document location '" + uri_fragment(v.GetInvalidDocumentPointer()) +
         "' failed requirement '" + v.GetInvalidSchemaKeyword() + "' at JSON Schema location '" +
         uri_fragment(v.GetInvalidSchemaPointer()) + "'";
}

x_error schema_mismatch(const std::string& reason) {
  // ER_JSON_SCHEMA_VALIDATION_ERROR_WITH_DETAILED_REPORT ("%s.") read back
  // by the X Plugin (get_detailed_validation_error.h) and wrapped in 5180.
  return make_error(errc::x_document_doesnt_match_schema,
                    "Document is not valid according to the schema assigned to collection. " +
                        reason + ".");
}

} // namespace xserver
