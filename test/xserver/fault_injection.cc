#include "test/xserver/fault_injection.h"

#include "test/xserver/session.h"

#include <chrono>
#include <thread>

namespace xserver {

bool fault_plan::apply_to_reply(std::string& bytes) {
  if (bytes.empty()) return false;
  if (delay_ms > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    delay_ms = 0;
  }
  if (absurd_length) {
    absurd_length = false;
    bytes = std::string("\xff\xff\xff\x7f\x0b", 5) + "not that long";
    return true;
  }
  if (truncate) {
    truncate = false;
    bytes.resize(bytes.size() / 2);
    return true;
  }
  if (!prefix.empty()) {
    bytes.insert(0, prefix);
    prefix.clear();
  }
  return false;
}

bool fault_plan::message_done() {
  if (!close_after_messages) return false;
  if (*close_after_messages > 0) --*close_after_messages;
  return *close_after_messages == 0;
}

stmt_result
session::fault_command(const std::string& cmd,
                       const google::protobuf::RepeatedPtrField<Mysqlx::Datatypes::Any>& args) {
  using Mysqlx::Datatypes::Any;
  auto number = [&](const char* key) -> std::optional<std::uint64_t> {
    if (args.empty() || args[0].type() != Any::OBJECT) return std::nullopt;
    for (const auto& f : args[0].obj().fld()) {
      if (f.key() != key || f.value().type() != Any::SCALAR) continue;
      const auto& s = f.value().scalar();
      if (s.type() == Mysqlx::Datatypes::Scalar::V_UINT) return s.v_unsigned_int();
      if (s.type() == Mysqlx::Datatypes::Scalar::V_SINT && s.v_signed_int() >= 0)
        return static_cast<std::uint64_t>(s.v_signed_int());
    }
    return std::nullopt;
  };
  if (cmd == "close_after_messages") {
    auto n = number("count");
    if (!n || *n == 0) return make_error(errc::x_cmd_argument_value, "count: a positive integer");
    m_faults.close_after_messages = *n + 1; // this command's own reply is not counted
  } else if (cmd == "close_before_insert_ok") {
    m_faults.close_before_insert_ok = true;
  } else if (cmd == "close_before_commit_ok") {
    m_faults.close_before_commit_ok = true;
  } else if (cmd == "error_after_commit") {
    m_faults.error_after_commit = true;
  } else if (cmd == "delay_reply") {
    auto ms = number("ms");
    if (!ms || *ms > 600000) return make_error(errc::x_cmd_argument_value, "ms: 0..600000");
    // This command's own reply leaves first; the fault is for the next one.
    m_out.stmt_ok();
    flush();
    m_faults.delay_ms = static_cast<std::uint32_t>(*ms);
    return std::nullopt;
  } else if (cmd == "send_garbage_notice" || cmd == "send_wrong_type") {
    m_out.stmt_ok();
    flush();
    // Plain frames: a client takes them between compressed ones. 0xff bytes
    // are an unterminated protobuf tag; type 4 is Session.AuthenticateOk.
    m_faults.prefix = cmd == "send_garbage_notice"
                          ? std::string("\x05\0\0\0\x0b\xff\xff\xff\xff", 9)
                          : std::string("\x01\0\0\0\x04", 5);
    return std::nullopt;
  } else if (cmd == "send_absurd_length" || cmd == "send_truncated_frame") {
    m_out.stmt_ok();
    flush();
    (cmd == "send_absurd_length" ? m_faults.absurd_length : m_faults.truncate) = true;
    return std::nullopt;
  } else {
    return make_error(errc::x_invalid_admin_command, "Invalid xserver_test command " + cmd);
  }
  m_out.stmt_ok();
  return std::nullopt;
}

} // namespace xserver
