#include "cdk/protocol/message.h"

#include "mysqlx.pb.h"

namespace cdk::protocol {

status append_message(std::string& out, std::uint8_t type,
                      const google::protobuf::MessageLite& msg) {
  const std::size_t size = msg.ByteSizeLong(); // caches sizes for the write below
  const std::size_t at = begin_frame(out, type);
  out.resize(out.size() + size);
  if (size > 0) {
    auto* dst = reinterpret_cast<std::uint8_t*>(&out[out.size() - size]);
    msg.SerializeWithCachedSizesToArray(dst);
  }
  return end_frame(out, at);
}

error malformed_message(std::string_view what, std::string_view problem) {
  return error::connection(client_errc::malformed_packet,
                           "malformed X Protocol message: " + std::string(what) + " " +
                               std::string(problem));
}

error unexpected_message(std::uint8_t got, std::string_view expected) {
  return error::connection(client_errc::malformed_packet,
                           "unexpected X Protocol message " + std::string(server_msg_name(got)) +
                               " (type " + std::to_string(got) + ") where " +
                               std::string(expected) + " was expected");
}

error decode_server_error(std::string_view payload) {
  auto parsed = parse_payload<Mysqlx::Error>(payload, "Mysqlx.Error");
  if (!parsed) return std::move(parsed).err();
  const Mysqlx::Error& e = parsed.value();
  error err;
  err.origin = error_origin::server;
  err.code = e.code();
  err.sql_state = e.has_sql_state() ? e.sql_state() : "HY000";
  err.message = e.msg();
  err.fatal = e.severity() == Mysqlx::Error::FATAL;
  return err;
}

} // namespace cdk::protocol
