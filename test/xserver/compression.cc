// The compression capability and its start, as MySQL's X Plugin does them
// (xprotocol-compression-facts.md §2-§5, §7): the fields of
// CapabilitiesSet{compression}, the algorithms offered in the order of
// mysqlx_compression_algorithms' labels, the level chosen from the server's
// variables, and the errors for compressed input that cannot be read.
#include "cdk/foundation/compression.h"

#include "test/xserver/session.h"

#include <algorithm>
#include <cctype>

namespace xserver {

namespace {

using Mysqlx::Datatypes::Any;
using Mysqlx::Datatypes::Scalar;

// In the X Plugin's order (the labels of mysqlx_compression_algorithms).
constexpr const char* k_algorithms[] = {"deflate_stream", "lz4_message", "zstd_stream"};

bool enabled(const compression_settings& s, std::string_view algorithm) {
  if (algorithm == "deflate_stream") return s.deflate;
  if (algorithm == "lz4_message") return s.lz4;
  if (algorithm == "zstd_stream") return s.zstd;
  return false;
}

x_error prepare_failed() {
  return make_error(errc::x_capabilities_prepare_failed,
                    "Capability prepare failed for 'compression'");
}

// A numeric scalar as the X Plugin's Getter_any reads one: bool, signed,
// unsigned, float or double; anything else is a type error (5001).
std::optional<std::int64_t> numeric(const Any& a) {
  if (a.type() != Any::SCALAR) return std::nullopt;
  const Scalar& s = a.scalar();
  switch (s.type()) {
  case Scalar::V_BOOL:
    return s.v_bool() ? 1 : 0;
  case Scalar::V_SINT:
    return s.v_signed_int();
  case Scalar::V_UINT:
    return static_cast<std::int64_t>(s.v_unsigned_int());
  case Scalar::V_FLOAT:
    return static_cast<std::int64_t>(s.v_float());
  case Scalar::V_DOUBLE:
    return static_cast<std::int64_t>(s.v_double());
  default:
    return std::nullopt;
  }
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The level the X Plugin uses (Client::get_adjusted_compression_level):
// without a request its default, capped at the client maximum; a request
// below the algorithm's minimum takes the minimum, above the client maximum
// the maximum; zstd never runs at 0.
int adjusted_level(std::string_view algorithm, std::optional<std::int64_t> requested,
                   const compression_settings& s) {
  int def = s.deflate_default, max = s.deflate_max;
  if (algorithm == "lz4_message") def = s.lz4_default, max = s.lz4_max;
  if (algorithm == "zstd_stream") def = s.zstd_default, max = s.zstd_max;
  const std::int64_t min = cdk::compression_level_min(algorithm);
  std::int64_t level = requested.value_or(std::min(def, max));
  level = std::clamp<std::int64_t>(level, min, max);
  if (algorithm == "zstd_stream" && level == 0) level = 1;
  return static_cast<int>(level);
}

} // namespace

std::vector<std::string> session::offered_compression() const {
  const compression_settings s = m_state.compression();
  std::vector<std::string> out;
  const auto& ours = cdk::protocol::supported_compression();
  for (const char* a : k_algorithms)
    if (enabled(s, a) && std::find(ours.begin(), ours.end(), a) != ours.end()) out.emplace_back(a);
  return out;
}

std::optional<x_error> session::check_compression(const Any& value,
                                                  compression_request& req) const {
  if (value.type() != Any::OBJECT) return prepare_failed();
  req = compression_request{};
  for (const auto& f : value.obj().fld()) {
    const std::string key = lower(f.key());
    const Any& v = f.value();
    if (key == "algorithm") {
      if (v.type() != Any::SCALAR) return prepare_failed();
      const Scalar& s = v.scalar();
      if (s.type() == Scalar::V_STRING)
        req.algorithm = lower(s.v_string().value());
      else if (s.type() == Scalar::V_OCTETS)
        req.algorithm = lower(s.v_octets().value());
      else
        return prepare_failed();
    } else if (key == "server_combine_mixed_messages" || key == "server_max_combine_messages" ||
               key == "level") {
      auto n = numeric(v);
      if (!n) return prepare_failed();
      if (key == "level")
        req.level = *n;
      else if (key == "server_max_combine_messages")
        req.max_messages = static_cast<int>(*n);
      else
        req.combine_mixed = *n != 0;
    } else {
      return make_error(errc::x_compression_invalid_option,
                        "Invalid or unsupported option 'compression." + key + "'");
    }
  }
  if (req.algorithm.empty())
    return make_error(errc::x_compression_missing_algorithm,
                      "The algorithm is required for 'compression'");
  const auto offered = offered_compression();
  if (std::find(offered.begin(), offered.end(), req.algorithm) == offered.end())
    return make_error(errc::x_compression_invalid_algorithm,
                      "Invalid or unsupported value for 'compression.algorithm'");
  return std::nullopt;
}

void session::start_compression() {
  // Set once per connection: a second authentication (after Session.Reset)
  // keeps what the first one started, as the X Plugin's flusher does.
  if (!m_compression_request || !m_compression.empty()) return;
  const compression_request& req = *m_compression_request;
  const int level = adjusted_level(req.algorithm, req.level, m_state.compression());
  compression_style style = style_of(req.combine_mixed, req.max_messages);
  const std::string& forced = m_state.config().compression_style; // tests only
  if (forced == "group") style = compression_style::group;
  if (forced == "multiple") style = compression_style::multiple;
  if (forced == "single") style = compression_style::single;
  if (!m_reader.enable_compression(req.algorithm).ok() ||
      !m_compressor.enable(req.algorithm, level, style, req.max_messages).ok())
    return fatal(make_error(errc::internal_error, "cannot start compression"));
  m_compression = req.algorithm;
  m_compression_level = level;
}

void session::on_bad_compressed_input() {
  using cdk::protocol::compression_fault;
  switch (m_reader.fault()) {
  case compression_fault::not_enabled:
    return fatal(
        make_error(errc::x_frame_compression_disabled, "Client didn't enable the compression."));
  case compression_fault::bad_frame:
    return fatal(make_error(errc::x_bad_compressed_frame, "Invalid compressed frame."));
  case compression_fault::decompression:
    return fatal(make_error(errc::x_decompression_failed, "Payload decompression failed"));
  case compression_fault::bad_inner_frames:
    return fatal(make_error(errc::x_bad_message, "Invalid message-frame."));
  case compression_fault::too_large:
  case compression_fault::none:
    // Sizes above mysqlx_max_allowed_packet: the X Plugin drops the
    // connection without a word.
    m_closing = true;
    return;
  }
}

} // namespace xserver
