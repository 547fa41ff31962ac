// Protobuf-free encoders and decoders for the messages of session set-up and
// expectations, for cdk/session and devapi. Encoders append one complete
// frame to `out`. Decoders take a server frame: a Mysqlx.Error frame becomes
// its cdk::error, another unexpected type a fatal protocol error.
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/protocol/frame.h"
#include "cdk/protocol/value.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cdk::protocol {

// Mysqlx.Connection
void encode_capabilities_get(std::string& out);
status encode_capabilities_set(std::string& out, const std::vector<value_field>& caps);
void encode_connection_close(std::string& out);
// Mysqlx.Connection.Capabilities (server 2): name -> value, in server order.
result<std::vector<value_field>> decode_capabilities(const frame& f);

// Mysqlx.Session
status encode_authenticate_start(std::string& out, std::string_view mech,
                                 std::string_view auth_data);
status encode_authenticate_continue(std::string& out, std::string_view auth_data);
void encode_session_reset(std::string& out, bool keep_open);
void encode_session_close(std::string& out);
// The server's AuthenticateContinue (3): its auth_data (the challenge).
result<std::string> decode_authenticate_continue(const frame& f);

// Mysqlx.Expect
inline constexpr std::uint32_t expect_no_error = 1;
inline constexpr std::uint32_t expect_field_exist = 2;
inline constexpr std::uint32_t expect_docid_generated = 3;
struct expect_condition {
  std::uint32_t key = 0;
  std::optional<std::string> value;
  bool unset = false; // EXPECT_OP_UNSET instead of EXPECT_OP_SET
};
// empty_context: EXPECT_CTX_EMPTY, else EXPECT_CTX_COPY_PREV.
status encode_expect_open(std::string& out, bool empty_context,
                          const std::vector<expect_condition>& conditions);
void encode_expect_close(std::string& out);

// Mysqlx.Sql.StmtExecute: SQL (namespace "sql") or an X Plugin admin command
// (namespace "mysqlx", e.g. "create_collection" with one object argument).
// Its reply ends with StmtExecuteOk (replies::statement).
status encode_stmt_execute(std::string& out, std::string_view stmt,
                           const std::vector<value>& args = {},
                           std::string_view name_space = "sql");

// Mysqlx.Ok (server 0): its optional message.
result<std::string> decode_ok(const frame& f);

} // namespace cdk::protocol
