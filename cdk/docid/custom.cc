#include "cdk/docid/custom.h"

#include "cdk/json/json_string.h"

#include <exception>

namespace cdk::docid {

namespace {

cdk::error bad_id(std::string why) {
  return cdk::error::client(cdk::client_errc::usage,
                            "The document id generator returned " + std::move(why));
}

} // namespace

cdk::status check_custom_id(std::string_view id) {
  if (id.empty()) return bad_id("an empty id; an id needs 1 to 32 bytes");
  if (id.size() > max_custom_id_bytes)
    return bad_id("an id of " + std::to_string(id.size()) +
                  " bytes; the _id column holds at most 32");
  if (!cdk::json::is_valid_utf8(id)) return bad_id("an id that is not valid UTF-8");
  for (std::size_t i = 0; i < id.size(); ++i) {
    const auto c = static_cast<unsigned char>(id[i]);
    if (c < 0x20 || c == 0x7f)
      return bad_id("an id with a control character (byte " + std::to_string(c) + ") at offset " +
                    std::to_string(i));
  }
  return cdk::ok();
}

cdk::result<std::string> call_custom_generator(const custom_id_generator& fn) {
  if (!fn) return bad_id("nothing: no generator is set");
  std::string id;
  try {
    id = fn();
  } catch (const std::exception& e) {
    return cdk::error::client(cdk::client_errc::usage,
                              std::string("The document id generator threw: ") + e.what());
  } catch (...) {
    return cdk::error::client(cdk::client_errc::usage,
                              "The document id generator threw an unknown exception");
  }
  cdk::status st = check_custom_id(id);
  if (!st) return std::move(st).err();
  return id;
}

} // namespace cdk::docid
