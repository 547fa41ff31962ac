// Server notices (Mysqlx.Notice.Frame, server message 11) as plain structs:
// no protobuf in this header, so devapi can use them.
//
// Scope matters: LOCAL notices belong to the statement whose reply is being
// read (rows affected, generated ids, warnings); GLOBAL ones (ServerHello,
// group replication changes) belong to the connection. The pipeline keeps
// them apart; statement_info accumulates the local ones of one reply.
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/protocol/value.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cdk::protocol {

enum class notice_scope : std::uint8_t { global = 1, local = 2 };

enum class notice_type : std::uint32_t {
  warning = 1,
  session_variable_changed = 2,
  session_state_changed = 3,
  group_replication_state_changed = 4,
  server_hello = 5,
};

enum class state_param : std::uint32_t {
  current_schema = 1,
  account_expired = 2,
  generated_insert_id = 3,
  rows_affected = 4,
  rows_found = 5,
  rows_matched = 6,
  trx_committed = 7,
  trx_rolledback = 9,
  produced_message = 10,
  client_id_assigned = 11,
  generated_document_ids = 12,
};

struct warning {
  enum class level_t : std::uint8_t { note = 1, warning = 2, error = 3 };
  level_t level = level_t::warning;
  std::uint32_t code = 0;
  std::string message;
};

struct notice {
  std::uint32_t type = 0; // a notice_type value, or another number the server sent
  notice_scope scope = notice_scope::global;
  warning warn;              // type warning
  std::string variable;      // type session_variable_changed: name ...
  value variable_value;      // ... and new value (null when absent)
  std::uint32_t param = 0;   // type session_state_changed: a state_param value ...
  std::vector<value> values; // ... and its (repeated) values
  std::string payload;       // the raw inner payload, for types decoded as generic

  bool is(notice_type t) const noexcept { return type == static_cast<std::uint32_t>(t); }
  bool is(state_param p) const noexcept {
    return is(notice_type::session_state_changed) && param == static_cast<std::uint32_t>(p);
  }
};

// Decodes the payload of a server message 11. A payload (or inner payload of
// a known type) that does not parse is a fatal malformed_packet error.
result<notice> decode_notice(std::string_view frame_payload);
// The same through libprotobuf only. decode_notice() reads the frequent
// SessionStateChanged notices by hand and falls back to this for anything
// unusual; tests and the fuzzer check that the two always agree.
result<notice> decode_notice_generic(std::string_view frame_payload);

// What the local notices of one reply said about its statement.
struct statement_info {
  std::uint64_t rows_affected = 0;
  std::optional<std::uint64_t> rows_found, rows_matched;
  std::optional<std::uint64_t> last_insert_id; // GENERATED_INSERT_ID
  std::vector<std::string> generated_ids;      // GENERATED_DOCUMENT_IDS, in row order
  std::vector<warning> warnings;
  std::vector<std::string> messages;      // PRODUCED_MESSAGE texts
  std::optional<std::uint64_t> client_id; // CLIENT_ID_ASSIGNED
  std::optional<std::string> current_schema;
  bool account_expired = false;
  bool trx_committed = false, trx_rolledback = false;

  // Records what n says; other notice kinds are ignored.
  void apply(const notice& n);
};

// The path of nearly every notice a client gets (each statement's
// ROWS_AFFECTED, an add()'s GENERATED_DOCUMENT_IDS): a LOCAL
// SessionStateChanged notice applied to `info` straight from the wire, with
// no notice object (issue 13). False, with `info` unchanged, for any other
// notice or scope and for anything decode_notice()'s hand reader would leave
// to libprotobuf; the caller then decodes it and calls apply(). Tests check
// that both ways leave the same statement_info.
bool apply_local_state_change(std::string_view frame_payload, statement_info& info);

} // namespace cdk::protocol
