#include "cdk/protocol/notice.h"

#include "cdk/protocol/message.h"
#include "cdk/protocol/value_pb.h"
#include "cdk/protocol/wire_reader.h"
#include "mysqlx_datatypes.pb.h"
#include "mysqlx_notice.pb.h"

#include <cstring>

namespace cdk::protocol {

namespace pb = Mysqlx::Notice;

#define CDK_CHECK(ours, theirs)                                                                    \
  static_assert(static_cast<int>(ours) == static_cast<int>(theirs), #ours " != " #theirs)
CDK_CHECK(notice_scope::global, pb::Frame::GLOBAL);
CDK_CHECK(notice_scope::local, pb::Frame::LOCAL);
CDK_CHECK(notice_type::warning, pb::Frame::WARNING);
CDK_CHECK(notice_type::session_variable_changed, pb::Frame::SESSION_VARIABLE_CHANGED);
CDK_CHECK(notice_type::session_state_changed, pb::Frame::SESSION_STATE_CHANGED);
CDK_CHECK(notice_type::group_replication_state_changed, pb::Frame::GROUP_REPLICATION_STATE_CHANGED);
CDK_CHECK(notice_type::server_hello, pb::Frame::SERVER_HELLO);
CDK_CHECK(state_param::current_schema, pb::SessionStateChanged::CURRENT_SCHEMA);
CDK_CHECK(state_param::account_expired, pb::SessionStateChanged::ACCOUNT_EXPIRED);
CDK_CHECK(state_param::generated_insert_id, pb::SessionStateChanged::GENERATED_INSERT_ID);
CDK_CHECK(state_param::rows_affected, pb::SessionStateChanged::ROWS_AFFECTED);
CDK_CHECK(state_param::rows_found, pb::SessionStateChanged::ROWS_FOUND);
CDK_CHECK(state_param::rows_matched, pb::SessionStateChanged::ROWS_MATCHED);
CDK_CHECK(state_param::trx_committed, pb::SessionStateChanged::TRX_COMMITTED);
CDK_CHECK(state_param::trx_rolledback, pb::SessionStateChanged::TRX_ROLLEDBACK);
CDK_CHECK(state_param::produced_message, pb::SessionStateChanged::PRODUCED_MESSAGE);
CDK_CHECK(state_param::client_id_assigned, pb::SessionStateChanged::CLIENT_ID_ASSIGNED);
CDK_CHECK(state_param::generated_document_ids, pb::SessionStateChanged::GENERATED_DOCUMENT_IDS);
CDK_CHECK(warning::level_t::note, pb::Warning::NOTE);
CDK_CHECK(warning::level_t::warning, pb::Warning::WARNING);
CDK_CHECK(warning::level_t::error, pb::Warning::ERROR);
#undef CDK_CHECK

namespace {

using wire::wire_type;

// The fast path below reads Frame, SessionStateChanged and Scalar by hand:
// libprotobuf allocates a Scalar, its Octets and a string per generated
// document id, which made this notice the largest client cost of a bulk
// add(). It gives up (false) on anything it does not fully understand -- an
// unknown field, a repeated singular field, an unknown enum value, a missing
// required field -- and decode_notice() then asks libprotobuf, so both paths
// accept and reject exactly the same payloads.

// Mysqlx.Datatypes.Octets (1: value, 2: content_type) or String (1: value,
// 2: collation): the text; the second field goes to `extra`.
bool fast_text(std::string_view in, std::string_view& text, std::uint64_t& extra) {
  wire::reader r(in);
  bool has_text = false, has_extra = false;
  while (!r.done()) {
    std::uint32_t field = 0;
    wire_type type{};
    if (!r.tag(field, type)) return false;
    if (field == 1 && type == wire_type::bytes && !has_text) {
      if (!r.bytes(text)) return false;
      has_text = true;
    } else if (field == 2 && type == wire_type::varint && !has_extra) {
      if (!r.varint(extra)) return false;
      has_extra = true;
    } else {
      return false;
    }
  }
  return has_text; // value is required in both
}

// One Mysqlx.Datatypes.Scalar as read from the wire: its text is a view
// into the payload, so reading it allocates nothing.
struct scalar_view {
  value::kind type = value::kind::null;
  std::int64_t sint = 0;
  std::uint64_t uint = 0;
  double dbl = 0;
  bool boolean = false;
  std::string_view text;
  std::uint32_t content_type = 0;
};

// libprotobuf's Type_IsValid(), Scope_IsValid() and Parameter_IsValid() for
// the hand reader, here: the generated ones are out of line in other
// translation units, code a single add() would touch for nothing but them
// (issue 13). Unit tests compare them over every value.
using scalar_type = Mysqlx::Datatypes::Scalar;
static_assert(scalar_type::V_SINT == 1 && scalar_type::V_UINT == 2 && scalar_type::V_NULL == 3 &&
              scalar_type::V_OCTETS == 4 && scalar_type::V_DOUBLE == 5 &&
              scalar_type::V_FLOAT == 6 && scalar_type::V_BOOL == 7 && scalar_type::V_STRING == 8 &&
              scalar_type::Type_MAX == 8);
constexpr bool valid_scalar_type(std::uint64_t t) noexcept {
  return t >= 1 && t <= 8;
}
constexpr bool valid_scope(std::uint64_t s) noexcept {
  return s == pb::Frame::GLOBAL || s == pb::Frame::LOCAL;
}
constexpr bool valid_param(std::uint64_t p) noexcept {
  switch (static_cast<state_param>(p)) { // every value is checked against the .proto above
  case state_param::current_schema:
  case state_param::account_expired:
  case state_param::generated_insert_id:
  case state_param::rows_affected:
  case state_param::rows_found:
  case state_param::rows_matched:
  case state_param::trx_committed:
  case state_param::trx_rolledback:
  case state_param::produced_message:
  case state_param::client_id_assigned:
  case state_param::generated_document_ids:
    return p <= 0xffffffffu;
  }
  return false;
}
static_assert(pb::SessionStateChanged::Parameter_MAX == 12);

bool fast_scalar(std::string_view in, scalar_view& v) {
  wire::reader r(in);
  std::uint64_t kind = 0, sint = 0, uint = 0, dbl = 0, b = 0, extra = 0;
  std::uint32_t flt = 0;
  std::string_view text;
  std::uint32_t seen = 0; // bit per field number: no repeats
  while (!r.done()) {
    std::uint32_t field = 0;
    wire_type type{};
    if (!r.tag(field, type) || field > 9 || (seen & (1u << field)) != 0) return false;
    seen |= 1u << field;
    bool ok = false;
    switch (field) {
    case 1:
      ok = type == wire_type::varint && r.varint(kind);
      break;
    case 2:
      ok = type == wire_type::varint && r.varint(sint);
      break;
    case 3:
      ok = type == wire_type::varint && r.varint(uint);
      break;
    case 5:
    case 9: {
      std::string_view sub;
      ok = type == wire_type::bytes && r.bytes(sub) && fast_text(sub, text, extra);
      break;
    }
    case 6:
      ok = type == wire_type::fixed64 && r.fixed64(dbl);
      break;
    case 7:
      ok = type == wire_type::fixed32 && r.fixed32(flt);
      break;
    case 8:
      ok = type == wire_type::varint && r.varint(b);
      break;
    default:
      break;
    }
    if (!ok) return false;
  }
  using S = Mysqlx::Datatypes::Scalar;
  if ((seen & 2u) == 0 || !valid_scalar_type(kind)) return false;
  switch (static_cast<S::Type>(kind)) {
  case S::V_SINT: // zigzag
    v.type = value::kind::sint;
    v.sint = static_cast<std::int64_t>((sint >> 1) ^ (~(sint & 1) + 1));
    break;
  case S::V_UINT:
    v.type = value::kind::uint, v.uint = uint;
    break;
  case S::V_DOUBLE:
    v.type = value::kind::dbl;
    std::memcpy(&v.dbl, &dbl, sizeof dbl);
    break;
  case S::V_FLOAT: {
    float f = 0;
    std::memcpy(&f, &flt, sizeof f);
    v.type = value::kind::dbl, v.dbl = f;
    break;
  }
  case S::V_BOOL:
    v.type = value::kind::boolean, v.boolean = b != 0;
    break;
  case S::V_OCTETS:
    if ((seen & (1u << 9)) != 0) return false; // text came from v_string
    v.type = value::kind::octets;
    v.text = text;
    v.content_type = static_cast<std::uint32_t>(extra);
    if (extra > 0xffffffffu) return false;
    break;
  case S::V_STRING:
    if ((seen & (1u << 5)) != 0) return false; // text came from v_octets
    v.type = value::kind::string;
    v.text = text;
    break;
  case S::V_NULL:
    break;
  }
  return true;
}

value to_value(const scalar_view& s) {
  value v;
  v.type = s.type;
  v.sint = s.sint;
  v.uint = s.uint;
  v.dbl = s.dbl;
  v.boolean = s.boolean;
  v.bytes.assign(s.text);
  v.content_type = s.content_type;
  return v;
}

// A Mysqlx.Notice.Frame of type SESSION_STATE_CHANGED, every part of it
// checked by the hand reader; `inner` is the SessionStateChanged payload.
struct state_change {
  std::uint64_t scope = pb::Frame::GLOBAL;
  std::uint32_t param = 0;
  std::size_t count = 0; // values
  scalar_view first;     // the first value, when count > 0
  std::string_view inner;
};

// Calls f(scalar_view) for each value of a SessionStateChanged payload, in
// order, and reads its parameter (which may come after the values); false at
// the first thing the hand reader does not accept.
template <class F>
bool each_scalar(std::string_view inner, F&& f, std::uint64_t& param, bool& has_param) {
  wire::reader in(inner);
  has_param = false;
  while (!in.done()) {
    std::uint32_t field = 0;
    wire_type wt{};
    if (!in.tag(field, wt)) return false;
    if (field == 1 && wt == wire_type::varint && !has_param) {
      if (!in.varint(param)) return false;
      has_param = true;
    } else if (field == 2 && wt == wire_type::bytes) {
      std::string_view sc;
      scalar_view v;
      if (!in.bytes(sc) || !fast_scalar(sc, v)) return false;
      f(v);
    } else {
      return false;
    }
  }
  return true;
}

// The values of a payload read_state_change() accepted, again.
template <class F> void each_value(const state_change& sc, F&& f) {
  if (sc.count == 1) {
    f(sc.first);
    return;
  }
  std::uint64_t param = 0;
  bool has_param = false;
  each_scalar(sc.inner, f, param, has_param);
}

bool read_state_change(std::string_view frame_payload, state_change& out) {
  wire::reader r(frame_payload);
  std::uint64_t type = 0;
  std::uint32_t seen = 0;
  while (!r.done()) {
    std::uint32_t field = 0;
    wire_type wt{};
    if (!r.tag(field, wt) || field > 3 || (seen & (1u << field)) != 0) return false;
    seen |= 1u << field;
    const bool ok = field == 1   ? wt == wire_type::varint && r.varint(type)
                    : field == 2 ? wt == wire_type::varint && r.varint(out.scope)
                                 : wt == wire_type::bytes && r.bytes(out.inner);
    if (!ok) return false;
  }
  if (type != pb::Frame::SESSION_STATE_CHANGED || (seen & 2u) == 0 || !valid_scope(out.scope))
    return false;
  std::uint64_t param = 0;
  bool has_param = false;
  const bool read = each_scalar(
      out.inner,
      [&](const scalar_view& v) {
        if (out.count++ == 0) out.first = v;
      },
      param, has_param);
  if (!read || !has_param || !valid_param(param)) return false;
  out.param = static_cast<std::uint32_t>(param);
  return true;
}

// Mysqlx.Notice.Frame of type SESSION_STATE_CHANGED, with its payload.
bool fast_state_changed(std::string_view frame_payload, notice& n) {
  state_change sc;
  if (!read_state_change(frame_payload, sc)) return false;
  n.type = static_cast<std::uint32_t>(pb::Frame::SESSION_STATE_CHANGED);
  n.scope = sc.scope == pb::Frame::LOCAL ? notice_scope::local : notice_scope::global;
  n.param = sc.param;
  n.values.reserve(sc.count);
  each_value(sc, [&](const scalar_view& v) { n.values.push_back(to_value(v)); });
  return true;
}

// value's is_text() and get_uint(), for a value or a scalar_view.
template <class Scalar> bool is_text(const Scalar& v) {
  return v.type == value::kind::string || v.type == value::kind::octets;
}
template <class Scalar> bool get_uint(const Scalar* v, std::uint64_t& out) {
  if (v == nullptr) return false;
  if (v->type == value::kind::uint) {
    out = v->uint;
    return true;
  }
  if (v->type == value::kind::sint && v->sint >= 0) {
    out = static_cast<std::uint64_t>(v->sint);
    return true;
  }
  return false;
}
std::string_view text_of(const value& v) {
  return v.bytes;
}
std::string_view text_of(const scalar_view& v) {
  return v.text;
}

// What a SessionStateChanged notice says about its statement, from decoded
// values or from views into the wire alike: `first` is the first value (or
// null), each(f) calls f for every value.
template <class Scalar, class Each>
void apply_state(statement_info& info, std::uint32_t param, const Scalar* first, std::size_t count,
                 Each&& each) {
  std::uint64_t u = 0;
  switch (static_cast<state_param>(param)) {
  case state_param::rows_affected:
    if (get_uint(first, u)) info.rows_affected = u;
    break;
  case state_param::rows_found:
    if (get_uint(first, u)) info.rows_found = u;
    break;
  case state_param::rows_matched:
    if (get_uint(first, u)) info.rows_matched = u;
    break;
  case state_param::generated_insert_id:
    if (get_uint(first, u)) info.last_insert_id = u;
    break;
  case state_param::client_id_assigned:
    if (get_uint(first, u)) info.client_id = u;
    break;
  case state_param::generated_document_ids:
    if (info.generated_ids.empty()) info.generated_ids.reserve(count); // one notice per reply
    each([&](const Scalar& v) {
      if (is_text(v)) info.generated_ids.emplace_back(text_of(v));
    });
    break;
  case state_param::produced_message:
    if (first && is_text(*first)) info.messages.emplace_back(text_of(*first));
    break;
  case state_param::current_schema:
    if (first && is_text(*first)) info.current_schema = std::string(text_of(*first));
    break;
  case state_param::account_expired:
    info.account_expired = true;
    break;
  case state_param::trx_committed:
    info.trx_committed = true;
    break;
  case state_param::trx_rolledback:
    info.trx_rolledback = true;
    break;
  }
}

} // namespace

result<notice> decode_notice(std::string_view frame_payload) {
  if (notice fast; fast_state_changed(frame_payload, fast)) return fast;
  return decode_notice_generic(frame_payload);
}

namespace {

// The two notices of nearly every reply, matched byte for byte as MySQL
// (and libprotobuf) write them: fields in number order, one-byte lengths,
// one value. Frame{type SESSION_STATE_CHANGED, scope LOCAL, payload
// SessionStateChanged{param, value}} with ROWS_AFFECTED of a V_UINT, or
// GENERATED_DOCUMENT_IDS of one V_OCTETS id without content type. Anything
// else, however valid, goes to the field-by-field reader below: this only
// skips its work for the common shapes (issue 13).
bool apply_common_state_change(std::string_view p, statement_info& info) {
  constexpr std::string_view frame_head("\x08\x03\x10\x02\x1a", 5);
  constexpr std::string_view rows_head("\x08\x04\x12", 3), rows_value("\x08\x02\x18", 3);
  constexpr std::string_view ids_head("\x08\x0c\x12", 3), ids_value("\x08\x04\x2a", 3);
  // A one-byte length (below 0x80) at s[i] that covers exactly the rest.
  const auto rest_length_at = [](std::string_view s, std::size_t i) {
    const auto n = static_cast<std::uint8_t>(s[i]);
    return n < 0x80 && n == s.size() - i - 1;
  };
  if (p.size() < 6 || p.substr(0, 5) != frame_head || !rest_length_at(p, 5)) return false;
  const std::string_view inner = p.substr(6);
  if (inner.size() < 7 || !rest_length_at(inner, 3)) return false;
  const std::string_view head = inner.substr(0, 3), value = inner.substr(4);
  if (head == rows_head && value.substr(0, 3) == rows_value) {
    std::size_t pos = 3;
    std::uint64_t rows = 0;
    if (!wire::read_varint(value, pos, rows) || pos != value.size()) return false;
    info.rows_affected = rows;
    return true;
  }
  if (head == ids_head && value.size() >= 6 && value.substr(0, 3) == ids_value &&
      rest_length_at(value, 3) && value[4] == '\x0a' && rest_length_at(value, 5)) {
    if (info.generated_ids.empty()) info.generated_ids.reserve(1);
    info.generated_ids.emplace_back(value.substr(6));
    return true;
  }
  return false;
}

} // namespace

bool apply_local_state_change(std::string_view frame_payload, statement_info& info) {
  if (apply_common_state_change(frame_payload, info)) return true;
  state_change sc;
  if (!read_state_change(frame_payload, sc) || sc.scope != pb::Frame::LOCAL) return false;
  apply_state(info, sc.param, sc.count > 0 ? &sc.first : nullptr, sc.count,
              [&](auto&& f) { each_value(sc, f); });
  return true;
}

result<notice> decode_notice_generic(std::string_view frame_payload) {
  auto frame = parse_payload<pb::Frame>(frame_payload, "Mysqlx.Notice.Frame");
  if (!frame) return std::move(frame).err();
  const pb::Frame& f = frame.value();
  if (!f.has_type()) return malformed_message("Mysqlx.Notice.Frame", "has no type");
  notice n;
  n.type = f.type();
  n.scope = f.scope() == pb::Frame::LOCAL ? notice_scope::local : notice_scope::global;
  const std::string& inner = f.payload();
  switch (static_cast<notice_type>(n.type)) {
  case notice_type::warning: {
    auto w = parse_payload<pb::Warning>(inner, "Mysqlx.Notice.Warning");
    if (!w) return std::move(w).err();
    n.warn.level = static_cast<warning::level_t>(w.value().level());
    n.warn.code = w.value().code();
    n.warn.message = w.value().msg();
    break;
  }
  case notice_type::session_variable_changed: {
    auto v =
        parse_payload<pb::SessionVariableChanged>(inner, "Mysqlx.Notice.SessionVariableChanged");
    if (!v) return std::move(v).err();
    n.variable = v.value().param();
    if (v.value().has_value()) n.variable_value = from_scalar(v.value().value());
    break;
  }
  case notice_type::session_state_changed: {
    auto s = parse_payload<pb::SessionStateChanged>(inner, "Mysqlx.Notice.SessionStateChanged");
    if (!s) return std::move(s).err();
    // A parameter newer than our .proto reads as absent: keep it generic (param
    // 0 and the raw payload) rather than failing the connection over it.
    if (!s.value().has_param()) {
      n.payload = inner;
      break;
    }
    n.param = static_cast<std::uint32_t>(s.value().param());
    n.values.reserve(static_cast<std::size_t>(s.value().value_size()));
    for (const auto& sc : s.value().value()) n.values.push_back(from_scalar(sc));
    break;
  }
  case notice_type::server_hello:
  case notice_type::group_replication_state_changed:
  default:
    n.payload = inner;
    break; // generic: callers that care parse it themselves
  }
  return n;
}

void statement_info::apply(const notice& n) {
  if (n.is(notice_type::warning)) {
    warnings.push_back(n.warn);
    return;
  }
  if (!n.is(notice_type::session_state_changed)) return;
  apply_state(*this, n.param, n.values.empty() ? nullptr : &n.values.front(), n.values.size(),
              [&](auto&& f) {
                for (const value& v : n.values) f(v);
              });
}

} // namespace cdk::protocol
