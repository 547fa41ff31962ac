#include "cdk/json/id_inject.h"

#include "cdk/json/json_string.h"

namespace cdk::json {

namespace {

constexpr std::string_view json_space = " \t\n\r";

} // namespace

cdk::status append_with_id(std::string& out, std::string_view doc, std::string_view id) {
  const std::size_t brace = doc.find_first_not_of(json_space);
  if (brace == std::string_view::npos || doc[brace] != '{') {
    return cdk::error::client(cdk::client_errc::bad_document,
                              "Cannot add an _id to a document that is not a JSON object");
  }
  // `{}` and `{ }` get no comma after the id; anything else is a member list.
  const std::size_t next = doc.find_first_not_of(json_space, brace + 1);
  const bool empty = next == std::string_view::npos || doc[next] == '}';

  static constexpr std::string_view key = "\"_id\":";
  out.reserve(out.size() + doc.size() + key.size() + json_string_size(id) + 1);
  out.append(doc.substr(0, brace + 1));
  out.append(key);
  append_json_string(out, id);
  if (!empty) out += ',';
  out.append(doc.substr(brace + 1));
  return cdk::ok();
}

cdk::result<std::string> with_id(std::string_view doc, std::string_view id) {
  std::string out;
  cdk::status st = append_with_id(out, doc, id);
  if (!st) return std::move(st).err();
  return out;
}

} // namespace cdk::json
