#include "document_check.h"

#include <cstdint>
#include <rapidjson/encodings.h>
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>
#include <string>

namespace mysqlx_import {

namespace {

// SAX events: the root's kind and its top-level "_id", without building a DOM.
struct handler : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, handler> {
  int depth = 0;
  bool root_seen = false, root_object = false;
  bool next_is_id = false;
  bool duplicate_id = false; // a second top-level "_id"
  check_result* out = nullptr;

  bool value() {
    if (!root_seen) root_seen = true; // a scalar root
    if (next_is_id) {
      next_is_id = false;
      out->has_id = true;
    }
    return true;
  }
  bool Default() { return value(); }
  bool integer(std::string digits) {
    if (next_is_id) out->id_key = std::move(digits);
    return value();
  }
  bool Int(int i) { return integer(std::to_string(i)); }
  bool Uint(unsigned u) { return integer(std::to_string(u)); }
  bool Int64(std::int64_t i) { return integer(std::to_string(i)); }
  bool Uint64(std::uint64_t u) { return integer(std::to_string(u)); }
  bool String(const char* s, rapidjson::SizeType n, bool) {
    if (next_is_id) {
      out->id.assign(s, n);
      out->id_is_string = true;
      out->id_key = out->id;
    }
    return value();
  }
  bool Key(const char* s, rapidjson::SizeType n, bool) {
    next_is_id = depth == 1 && n == 3 && s[0] == '_' && s[1] == 'i' && s[2] == 'd';
    if (next_is_id && out->has_id) {
      // The library refuses it too, but naming the document by its place in
      // the batch; here it gets its own file and line.
      duplicate_id = true;
      return false;
    }
    return true;
  }
  bool open(bool object) {
    if (!root_seen) {
      root_seen = true;
      root_object = object;
      if (!object) return false; // no need to read an array through
    }
    if (next_is_id) {
      next_is_id = false;
      out->has_id = true;
    }
    ++depth;
    return true;
  }
  bool StartObject() { return open(true); }
  bool StartArray() { return open(false); }
  bool EndObject(rapidjson::SizeType) {
    --depth;
    return true;
  }
  bool EndArray(rapidjson::SizeType) {
    --depth;
    return true;
  }
};

const char* kind_of(char c) {
  switch (c) {
  case '[':
    return "an array";
  case '"':
    return "a string";
  case 't':
  case 'f':
    return "a boolean";
  case 'n':
    return "null";
  default:
    return "a number";
  }
}

} // namespace

check_result check_document(const std::string& text) {
  check_result r;
  // The parser reads a NUL as the end of the text ("Missing a closing
  // quotation mark", "The document is empty"): named as what it is.
  if (const auto nul = text.find('\0'); nul != std::string::npos) {
    r.reason = "not valid JSON: a NUL byte at offset " + std::to_string(nul);
    return r;
  }
  handler h;
  h.out = &r;
  rapidjson::Reader reader;
  rapidjson::StringStream in(text.c_str());
  // MySQL stores JSON as utf8mb4: invalid UTF-8 is refused here too.
  const auto res = reader.Parse<rapidjson::kParseValidateEncodingFlag>(in, h);
  if (h.root_seen && !h.root_object) {
    const auto first = text.find_first_not_of(" \t\r\n");
    r.reason = std::string("not a JSON object (") + kind_of(text[first]) + ")";
    return r;
  }
  if (h.duplicate_id) {
    r.reason = "more than one top-level _id (the server would test the first and store the last)";
    return r;
  }
  if (res.IsError()) {
    std::string what = rapidjson::GetParseError_En(res.Code());
    if (!what.empty() && what.back() == '.') what.pop_back();
    r.reason = "not valid JSON: " + what + " at offset " + std::to_string(res.Offset());
    return r;
  }
  r.ok = true;
  return r;
}

} // namespace mysqlx_import
