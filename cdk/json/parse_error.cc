#include "cdk/json/parse_error.h"

#include <rapidjson/error/en.h>
#include <rapidjson/error/error.h>

namespace cdk::json {

namespace {

// What a text that starts like this is, when it is not UTF-8 JSON.
const char* encoding_of(std::string_view text) noexcept {
  const auto at = [&](std::size_t i) {
    return i < text.size() ? static_cast<unsigned char>(text[i]) : 0x100U;
  };
  if (at(0) == 0xEF && at(1) == 0xBB && at(2) == 0xBF)
    return "a UTF-8 byte order mark, which JSON does not allow: remove the first 3 bytes";
  if (at(0) == 0xFF && at(1) == 0xFE && at(2) == 0 && at(3) == 0)
    return "a UTF-32 byte order mark: the text is UTF-32; JSON here must be UTF-8";
  if ((at(0) == 0xFF && at(1) == 0xFE) || (at(0) == 0xFE && at(1) == 0xFF))
    return "a UTF-16 byte order mark: the text is UTF-16; JSON here must be UTF-8";
  if (at(0) == 0 || at(1) == 0)
    return "a NUL byte among the first bytes: the text looks like UTF-16 or UTF-32; JSON here "
           "must be UTF-8";
  return nullptr;
}

} // namespace

const char* parse_error_text(int code, std::string_view text, std::size_t offset) noexcept {
  const auto rj = static_cast<rapidjson::ParseErrorCode>(code);
  if (offset < 2 &&
      (rj == rapidjson::kParseErrorValueInvalid || rj == rapidjson::kParseErrorDocumentEmpty ||
       rj == rapidjson::kParseErrorStringInvalidEncoding)) {
    if (const char* what = encoding_of(text)) return what;
  }
  if (offset < text.size()) {
    const auto c = static_cast<unsigned char>(text[offset]);
    if (c == 0) return "a NUL byte (in JSON text it must be written \\u0000, inside a string)";
    if (c < 0x20 && rj == rapidjson::kParseErrorStringEscapeInvalid)
      return "a control character (a tab, a line break or another byte below 0x20) inside a "
             "string: JSON needs it escaped (\\t, \\n, \\u001f)";
  }
  return rapidjson::GetParseError_En(rj);
}

} // namespace cdk::json
