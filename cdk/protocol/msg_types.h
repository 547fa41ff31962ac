// X Protocol message type numbers (the frame's type byte), without protobuf.
// Checked against the generated Mysqlx::ClientMessages / ServerMessages enums
// by static_asserts in msg_types.cc.
#pragma once

#include <cstdint>

namespace cdk::protocol {

// Client -> server.
enum class client_msg : std::uint8_t {
  con_capabilities_get = 1,
  con_capabilities_set = 2,
  con_close = 3,
  sess_authenticate_start = 4,
  sess_authenticate_continue = 5,
  sess_reset = 6,
  sess_close = 7,
  sql_stmt_execute = 12,
  crud_find = 17,
  crud_insert = 18,
  crud_update = 19,
  crud_delete = 20,
  expect_open = 24,
  expect_close = 25,
  crud_create_view = 30,
  crud_modify_view = 31,
  crud_drop_view = 32,
  prepare_prepare = 40,
  prepare_execute = 41,
  prepare_deallocate = 42,
  cursor_open = 43,
  cursor_close = 44,
  cursor_fetch = 45,
  compression = 46,
};

// Server -> client.
enum class server_msg : std::uint8_t {
  ok = 0,
  error = 1,
  conn_capabilities = 2,
  sess_authenticate_continue = 3,
  sess_authenticate_ok = 4,
  notice = 11,
  resultset_column_meta_data = 12,
  resultset_row = 13,
  resultset_fetch_done = 14,
  resultset_fetch_suspended = 15,
  resultset_fetch_done_more_resultsets = 16,
  sql_stmt_execute_ok = 17,
  resultset_fetch_done_more_out_params = 18,
  compression = 19,
};

constexpr std::uint8_t type_byte(client_msg t) noexcept {
  return static_cast<std::uint8_t>(t);
}
constexpr std::uint8_t type_byte(server_msg t) noexcept {
  return static_cast<std::uint8_t>(t);
}

// "Mysqlx.Ok (0)"-style names for error messages; "unknown" when not a known type.
const char* server_msg_name(std::uint8_t type) noexcept;
const char* client_msg_name(std::uint8_t type) noexcept;

} // namespace cdk::protocol
