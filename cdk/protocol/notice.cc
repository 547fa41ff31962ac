#include "cdk/protocol/notice.h"

#include "cdk/protocol/message.h"
#include "cdk/protocol/value_pb.h"
#include "mysqlx_notice.pb.h"

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

result<notice> decode_notice(std::string_view frame_payload) {
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
  const value* first = n.values.empty() ? nullptr : &n.values.front();
  std::uint64_t u = 0;
  switch (static_cast<state_param>(n.param)) {
  case state_param::rows_affected:
    if (first && first->get_uint(u)) rows_affected = u;
    break;
  case state_param::rows_found:
    if (first && first->get_uint(u)) rows_found = u;
    break;
  case state_param::rows_matched:
    if (first && first->get_uint(u)) rows_matched = u;
    break;
  case state_param::generated_insert_id:
    if (first && first->get_uint(u)) last_insert_id = u;
    break;
  case state_param::client_id_assigned:
    if (first && first->get_uint(u)) client_id = u;
    break;
  case state_param::generated_document_ids:
    for (const value& v : n.values)
      if (v.is_text()) generated_ids.push_back(v.bytes);
    break;
  case state_param::produced_message:
    if (first && first->is_text()) messages.push_back(first->bytes);
    break;
  case state_param::current_schema:
    if (first && first->is_text()) current_schema = first->bytes;
    break;
  case state_param::account_expired:
    account_expired = true;
    break;
  case state_param::trx_committed:
    trx_committed = true;
    break;
  case state_param::trx_rolledback:
    trx_rolledback = true;
    break;
  }
}

} // namespace cdk::protocol
