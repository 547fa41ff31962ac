// Properties checked on every input:
//  - scan_for_id() never crashes, and its answer is self-consistent (spans
//    inside the text, stop_at_id agrees with validate on the first `_id`,
//    the in-place fallback agrees with the copying fast path and with the
//    hand scan of simple documents, the span of the `_id` value is itself
//    valid JSON);
//  - when the input is a valid object without `_id`, injection yields valid
//    JSON (RapidJSON's DOM agrees) whose `_id` is the injected id, and which
//    our scanner sees as having exactly one top-level `_id`.
#include "cdk/json/id_inject.h"
#include "cdk/json/id_scan.h"

#include <cstdint>
#include <cstdlib>
#include <rapidjson/document.h>
#include <string>
#include <string_view>

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cdk::json;
  const std::string_view doc(reinterpret_cast<const char*>(data), size);
  const id_scan full = scan_for_id(doc);
  const id_scan fast = scan_for_id(doc, scan_mode::stop_at_id);

  // The in-place fallback must agree with the copying fast path.
  const id_scan in_place = detail::scan_in_place(doc, scan_mode::validate);
  check(in_place.status == full.status && in_place.begin == full.begin &&
        in_place.end == full.end && in_place.error_offset == full.error_offset &&
        in_place.duplicate_id == full.duplicate_id);
  // So must the hand scan whenever it answers (scan_for_id() tries it first).
  if (const auto simple = detail::scan_simple(doc))
    check(simple->status == in_place.status && simple->type == in_place.type &&
          simple->begin == in_place.begin && simple->end == in_place.end &&
          simple->duplicate_id == in_place.duplicate_id);

  if (full.status == id_scan_status::has_id) {
    check(full.begin < full.end && full.end <= doc.size());
    rapidjson::Document value;
    value.Parse(doc.data() + full.begin, full.end - full.begin);
    check(!value.HasParseError());
    check(fast.status == id_scan_status::has_id);
    check(fast.begin == full.begin && fast.end == full.end && fast.type == full.type);
  }
  if (full.status == id_scan_status::invalid_json || full.status == id_scan_status::too_deep)
    check(full.error != nullptr && full.error_offset <= doc.size());
  if (full.status != id_scan_status::no_id) return 0;

  // An id that needs escaping, so the escaping is exercised too.
  const std::string id = "id-\"\\\n-0190a1b2";
  const auto injected = with_id(doc, id);
  check(injected.ok());
  const std::string& out = injected.value();
  rapidjson::Document dom;
  dom.Parse(out.data(), out.size());
  check(!dom.HasParseError() && dom.IsObject());
  const auto member = dom.FindMember("_id");
  check(member != dom.MemberEnd() && member->value.IsString());
  check(std::string_view(member->value.GetString(), member->value.GetStringLength()) == id);
  const id_scan again = scan_for_id(out);
  check(again.status == id_scan_status::has_id && !again.duplicate_id);
  return 0;
}
