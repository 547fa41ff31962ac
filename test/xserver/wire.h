// The server frames of one request, collected so that they leave in one
// write and in order. Framing itself is cdk/protocol's.
#pragma once

#include "cdk/protocol/msg_types.h"
#include "test/xserver/errors.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace google::protobuf {
class MessageLite;
}

namespace xserver {

using cdk::protocol::client_msg;
using cdk::protocol::server_msg;

// Mysqlx.Notice.SessionStateChanged parameters used here.
namespace state_param {
inline constexpr int generated_insert_id = 3, rows_affected = 4, produced_message = 10,
                     client_id_assigned = 11, generated_document_ids = 12;
}

class reply {
public:
  void add(server_msg type, const google::protobuf::MessageLite& msg);
  void add_empty(server_msg type);
  void add_raw(server_msg type, std::string_view payload);
  void ok(std::string_view msg = {});
  void error(const x_error& err);
  void stmt_ok() { add_empty(server_msg::sql_stmt_execute_ok); }

  // Notices. Per-statement notices are LOCAL; ServerHello and the warning
  // sent before a disconnection are GLOBAL and carry no scope field, as
  // MySQL encodes them (encode_global_notice).
  void notice_hello();
  void notice_warning(unsigned level, std::uint32_t code, std::string_view msg, bool local = true);
  void notice_uint(int param, std::uint64_t value);
  void notice_message(std::string_view text);
  void notice_document_ids(const std::vector<std::string>& ids);

  std::string& bytes() { return m_buf; }
  bool empty() const { return m_buf.empty(); }
  void clear() { m_buf.clear(); }

private:
  void notice(std::uint32_t frame_type, bool local, const std::string& payload);
  std::string m_buf;
};

} // namespace xserver
