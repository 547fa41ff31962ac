#include "cdk/protocol/pipeline.h"

#include "cdk/protocol/message.h"

namespace cdk::protocol {

std::string pipeline::take_output() {
  std::string out;
  out.swap(m_out);
  return out;
}

error pipeline::fail(error e) {
  e.fatal = true;
  m_broken = e;
  m_pending.clear();
  m_current = reply{};
  m_stream_front = false;
  return e;
}

result<std::optional<reply>> pipeline::on_frame(frame f) {
  if (m_broken) return *m_broken;
  if (f.type == type_byte(server_msg::notice)) {
    auto n = decode_notice(f.payload);
    if (!n) return fail(std::move(n).err());
    if (n.value().scope == notice_scope::global) {
      m_global.push_back(std::move(n.value()));
    } else if (!m_pending.empty()) {
      m_current.info.apply(n.value());
      m_current.notices.push_back(std::move(n.value()));
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
  reply done = std::move(m_current);
  m_current = reply{};
  m_stream_front = false;
  m_pending.pop_front();
  if (m_broken) m_pending.clear();
  return std::optional<reply>{std::move(done)};
}

} // namespace cdk::protocol
