// Error numbers and texts xserverd sends, as MySQL's X Plugin does
// (xprotocol-docid-facts.md sections 4, 5, 7). Texts are kept verbatim because
// clients (Connector/Node.js) parse some of them.
#pragma once

#include <cstdint>
#include <string>

namespace xserver {

namespace errc {
inline constexpr std::uint32_t x_bad_message = 5000; // "Invalid message"
inline constexpr std::uint32_t x_capabilities_prepare_failed = 5001;
inline constexpr std::uint32_t x_capability_not_found = 5002;
inline constexpr std::uint32_t x_capability_set_not_allowed = 5009;
inline constexpr std::uint32_t x_invalid_argument = 5012;
inline constexpr std::uint32_t x_missing_argument = 5013;
inline constexpr std::uint32_t x_bad_insert_data = 5014;
inline constexpr std::uint32_t x_cmd_num_arguments = 5015;
inline constexpr std::uint32_t x_cmd_argument_type = 5016;
inline constexpr std::uint32_t x_cmd_argument_value = 5017;
inline constexpr std::uint32_t x_duplicated_capabilities = 5019;
inline constexpr std::uint32_t x_argument_object_empty = 5020;
inline constexpr std::uint32_t x_cmd_invalid_argument = 5021; // "'<name>' is not a valid option"
inline constexpr std::uint32_t x_bad_statement_id = 5110;
inline constexpr std::uint32_t x_bad_cursor_id = 5111;
inline constexpr std::uint32_t x_cursor_reached_eof = 5123; // xpl_error.h
inline constexpr std::uint32_t x_bad_update_data = 5050;
inline constexpr std::uint32_t x_bad_schema = 5112;
inline constexpr std::uint32_t x_bad_table = 5113;
inline constexpr std::uint32_t x_bad_projection = 5114;
inline constexpr std::uint32_t x_doc_id_missing = 5115;
inline constexpr std::uint32_t x_doc_id_duplicate = 5116;
inline constexpr std::uint32_t x_doc_required_field_missing = 5117;
inline constexpr std::uint32_t x_bad_expression = 5154;
inline constexpr std::uint32_t x_invalid_collection = 5156;
inline constexpr std::uint32_t x_invalid_admin_command = 5157;
inline constexpr std::uint32_t x_expect_not_open = 5158;
inline constexpr std::uint32_t x_expect_no_error_failed = 5159;
inline constexpr std::uint32_t x_expect_bad_condition = 5160;
inline constexpr std::uint32_t x_expect_bad_condition_value = 5161;
inline constexpr std::uint32_t x_invalid_namespace = 5162;
inline constexpr std::uint32_t x_expect_field_exists_failed = 5168;
inline constexpr std::uint32_t x_frame_compression_disabled = 5170;
inline constexpr std::uint32_t x_decompression_failed = 5171;
inline constexpr std::uint32_t x_bad_compressed_frame = 5174;
inline constexpr std::uint32_t x_compression_invalid_algorithm = 5175;
inline constexpr std::uint32_t x_compression_invalid_option = 5178;
inline constexpr std::uint32_t x_compression_missing_algorithm = 5179;
inline constexpr std::uint32_t x_document_doesnt_match_schema = 5180;
inline constexpr std::uint32_t x_collection_option_doesnt_exist = 5181; // xpl_error.h
inline constexpr std::uint32_t x_invalid_validation_schema = 5182;
inline constexpr std::uint32_t unknown_com_error = 1047;
inline constexpr std::uint32_t access_denied = 1045;
inline constexpr std::uint32_t not_supported_auth_mode = 1251;
inline constexpr std::uint32_t wrong_value_for_var = 1231;
inline constexpr std::uint32_t wrong_type_for_var = 1232;
inline constexpr std::uint32_t incorrect_global_local_var = 1238;
inline constexpr std::uint32_t not_supported_yet = 1235;
inline constexpr std::uint32_t global_variable = 1229;
inline constexpr std::uint32_t truncated_wrong_value = 1292;
inline constexpr std::uint32_t bad_null = 1048;          // MariaDB ER_BAD_NULL_ERROR
inline constexpr std::uint32_t dup_entry = 1062;         // MariaDB ER_DUP_ENTRY
inline constexpr std::uint32_t bad_field = 1054;         // MariaDB ER_BAD_FIELD_ERROR
inline constexpr std::uint32_t json_syntax = 4038;       // MariaDB ER_JSON_SYNTAX
inline constexpr std::uint32_t constraint_failed = 4025; // MariaDB ER_CONSTRAINT_FAILED
inline constexpr std::uint32_t internal_error = 1815;
inline constexpr std::uint32_t no_such_thread = 1094;
// ER_IO_READ_ERROR, the code of the notice before a read-timeout disconnect
// (ngs::Client::on_read_timeout). mysqld_error.h is generated; 1810 is the
// number Connector/J's MysqlErrorNumbers gives it.
inline constexpr std::uint32_t io_read_error = 1810;
// ER_SESSION_WAS_KILLED: the notice before the X Plugin closes a session
// whose THD was killed (KILL <its id>, from itself or another session).
inline constexpr std::uint32_t session_was_killed = 3169;
// What MariaDB's client library reports once its session is gone: the
// killed statement's ER_CONNECTION_KILLED, then CR_SERVER_GONE_ERROR and
// CR_SERVER_LOST for every later statement.
inline constexpr std::uint32_t mariadb_connection_killed = 1927;
inline constexpr std::uint32_t mariadb_server_gone = 2006;
inline constexpr std::uint32_t mariadb_server_lost = 2013;
} // namespace errc

// One error reply. sql_state defaults to the X Plugin's "HY000"; errors passed
// through from MariaDB keep MariaDB's own SQLSTATE.
struct x_error {
  std::uint32_t code = 0;
  std::string message;
  std::string sql_state = "HY000";
  bool fatal = false;
};

inline x_error make_error(std::uint32_t code, std::string msg, bool fatal = false) {
  return x_error{code, std::move(msg), "HY000", fatal};
}

} // namespace xserver
