// Faults a reliability test can switch on for its own connection, with
// Sql.StmtExecute in namespace "xserver_test" (object arguments):
//
//   close_after_messages {count: N}  close the connection once N more client
//                                    messages have been answered
//   close_before_insert_ok {}        the next Crud.Insert commits, then the
//                                    connection closes before any reply
//   close_before_commit_ok {}        the next SQL COMMIT is applied, then the
//                                    connection closes before any reply
//   error_after_commit {}            the next SQL COMMIT is applied, then
//                                    answered with error 2013, as xserverd
//                                    does when its MariaDB dies meanwhile
//   delay_reply {ms: M}              the next reply leaves M ms late
//   send_absurd_length {}            the next reply is a frame header that
//                                    announces 2 GiB, then the connection closes
//   send_truncated_frame {}          the next reply stops halfway, then closes
//   send_garbage_notice {}           the next reply comes after a Notice frame
//                                    whose payload does not decode; stays open
//   send_wrong_type {}               the next reply comes after an unasked-for
//                                    Session.AuthenticateOk; stays open
//
// The faults apply to the bytes on the wire, after compression: a truncated
// reply may be a cut Compression frame.
// Each command itself is answered with StmtExecuteOk. MySQL has no such
// namespace: this is a test server only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace xserver {

struct fault_plan {
  std::optional<std::uint64_t> close_after_messages;
  bool close_before_insert_ok = false;
  bool close_before_commit_ok = false;
  bool error_after_commit = false;
  std::uint32_t delay_ms = 0;
  bool absurd_length = false;
  bool truncate = false;
  // Frames sent in front of the next reply (garbage notice, wrong type).
  std::string prefix;

  // What the next flush of `bytes` must do; returns true if the connection
  // must close after it. Clears the one-shot faults it applied.
  bool apply_to_reply(std::string& bytes);
  // After one client message was answered: true if the connection must close.
  bool message_done();
};

} // namespace xserver
