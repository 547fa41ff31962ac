#include "cdk/protocol/pipeline.h"

#include "cdk/protocol/message.h"

#include <utility>

namespace cdk::protocol {

std::string pipeline::take_output() {
  std::string out;
  out.swap(m_out);
  return out;
}

namespace {

// Result-set messages come before StmtExecuteOk (and a suspended fetch);
// every other reply is its terminator alone. Anything else is a server out
// of step with us: failing at once beats waiting for an end that never comes.
bool may_precede_end(reply_end end, std::uint8_t type) {
  if (!(end & replies::statement)) return false;
  switch (static_cast<server_msg>(type)) {
  case server_msg::resultset_column_meta_data:
  case server_msg::resultset_row:
  case server_msg::resultset_fetch_done:
  case server_msg::resultset_fetch_done_more_resultsets:
  case server_msg::resultset_fetch_done_more_out_params:
    return true;
  default:
    return false;
  }
}

// "Mysqlx.Ok or Mysqlx.Error": what may come next in the reply being read
// (result-set messages aside).
std::string end_names(reply_end end) {
  std::string out;
  for (std::uint8_t t = 0; t < 32; ++t) {
    if (!(end & (reply_end{1} << t))) continue;
    out += server_msg_name(t);
    out += " or ";
  }
  return out + server_msg_name(type_byte(server_msg::error));
}

} // namespace

error pipeline::fail(error e) {
  e.fatal = true;
  m_broken = e;
  m_pending.clear();
  m_current = reply{};
  m_stream_front = false;
  return e;
}

bool pipeline::take_state_notice(const frame_view& f) {
  return f.type == type_byte(server_msg::notice) && !m_broken && !m_pending.empty() &&
         apply_local_state_change(f.payload, m_current.info);
}

result<std::optional<reply>> pipeline::on_frame(frame f) {
  if (m_broken) return *m_broken;
  if (f.type == type_byte(server_msg::notice)) {
    if (take_state_notice(frame_view{f.type, f.payload})) return std::optional<reply>{};
    auto n = decode_notice(f.payload);
    if (!n) return fail(std::move(n).err());
    if (n.value().scope == notice_scope::global) {
      m_global.push_back(std::move(n.value()));
    } else if (!m_pending.empty()) {
      m_current.info.apply(n.value());
    }
    // A LOCAL notice with no request in flight belongs to nothing: the
    // protocol says to ignore it.
    return std::optional<reply>{};
  }
  if (m_pending.empty())
    return fail(error::connection(client_errc::malformed_packet,
                                  "unexpected X Protocol message " +
                                      std::string(server_msg_name(f.type)) + " (type " +
                                      std::to_string(f.type) + ") with no request pending"));
  const bool is_error = f.type == type_byte(server_msg::error);
  const bool ends =
      is_error || (f.type < 32 && (m_pending.front() & ends_with(static_cast<server_msg>(f.type))));
  if (!ends && !may_precede_end(m_pending.front(), f.type))
    return fail(unexpected_message(f.type, end_names(m_pending.front())));
  if (is_error) {
    m_current.error = decode_server_error(f.payload);
    if (m_current.error->fatal) m_broken = *m_current.error;
  }
  if (m_stream_front && !ends) {
    reply part;
    part.frames.push_back(std::move(f));
    part.more = true;
    return std::optional<reply>{std::move(part)};
  }
  m_current.frames.push_back(std::move(f));
  if (!ends) return std::optional<reply>{};
  m_stream_front = false;
  m_pending.pop_front();
  if (m_broken) m_pending.clear();
  return std::optional<reply>{std::exchange(m_current, reply{})};
}

} // namespace cdk::protocol
