#include "test/xserver/session.h"

#include "cdk/protocol/message.h"
#include "mysqlx_expect.pb.h"
#include "mysqlx_session.pb.h"

namespace xserver {

namespace {

// The host part of "1.2.3.4:port" / "[::1]:port"; loopback is "localhost",
// as MySQL names such clients in account matching and error texts.
std::string host_of(const std::string& peer) {
  std::string host = peer.substr(0, peer.rfind(':'));
  if (!host.empty() && host.front() == '[') host = host.substr(1, host.size() - 2);
  if (host.rfind("127.", 0) == 0 || host == "::1" || host == "local client") return "localhost";
  return host;
}

} // namespace

session::session(server_state& state, std::unique_ptr<cdk::socket_stream> io)
    : m_state(state), m_io(std::move(io)), m_peer_host(host_of(m_io->peer())),
      m_reader(max_message_size(), type_byte(client_msg::compression)),
      m_input_meter(type_byte(client_msg::compression)), m_expect(state.config().emulate_57),
      m_vars(state.xvars()) {
  if (!emulate_57()) { // 5.7's X Plugin has no such timeouts
    m_wait_timeout = static_cast<std::uint32_t>(value_of(m_vars, xvar_id::wait_timeout));
    m_read_timeout = static_cast<std::uint32_t>(value_of(m_vars, xvar_id::read_timeout));
    m_write_timeout = static_cast<std::uint32_t>(value_of(m_vars, xvar_id::write_timeout));
  }
}

bool session::flush() {
  if (m_out.empty()) return true;
  if (m_write_failed) { // the rest of a statement's replies go nowhere
    m_out.clear();
    return false;
  }
  cdk::status st = m_compressor.wrap(m_out.bytes());
  // Faults act on the bytes as they go on the wire: compressing a cut or
  // absurd frame would fail, and the client would only see a close.
  const bool close_after = st && m_faults.apply_to_reply(m_out.bytes());
  if (st) st = m_io->write(m_out.bytes());
  m_out.clear();
  if (!st && st.err().code == cdk::client_errc::timeout)
    m_close_reason = close_reason::write_timeout;
  m_write_failed = !st;
  if (!st || close_after) m_closing = true;
  return st.ok();
}

session::~session() {
  // Before the socket closes: kill_client may be shutting it down meanwhile.
  if (m_authenticated) m_state.unregister_client(m_client_id);
}

void session::end_authenticated_session() {
  drop_all_statements();
  m_state.unregister_client(m_client_id);
  m_db.reset();
  m_authenticated = false;
  m_auth_started = false; // after Session.Reset/Close: the rules of m_after_reset
}

void session::fatal(const x_error& err) {
  x_error e = err;
  e.fatal = true;
  m_out.error(e);
  m_closing = true;
}

void session::dispatch(std::uint8_t type, const std::string& payload) {
  if (m_authenticated) return dispatch_authenticated(type, payload);
  if (m_auth_started) {
    // Session::handle_auth_message(): AuthenticateStart when no mechanism
    // runs, AuthenticateContinue when one does; anything else (a
    // CapabilitiesSet, Close, Reset, an Expect pipelined after a failed
    // attempt) is FATAL.
    const auto t = static_cast<client_msg>(type);
    if (t == client_msg::sess_authenticate_start && m_auth_mech.empty())
      return on_auth_start(payload);
    if (t == client_msg::sess_authenticate_continue && !m_auth_mech.empty())
      return on_auth_continue(payload);
    return fatal(make_error(errc::x_bad_message, "Invalid message"));
  }
  switch (static_cast<client_msg>(type)) {
  case client_msg::con_capabilities_get:
    return on_capabilities_get();
  case client_msg::con_capabilities_set:
    return on_capabilities_set(payload);
  case client_msg::con_close:
    m_out.ok("bye!");
    m_closing = true;
    return;
  case client_msg::sess_authenticate_start:
    return on_auth_start(payload);
  case client_msg::sess_authenticate_continue:
    if (!m_auth_mech.empty()) return on_auth_continue(payload);
    break;
  case client_msg::sess_reset:
    return m_out.ok();
  default:
    break;
  }
  fatal(make_error(errc::x_bad_message, "Invalid message"));
}

void session::dispatch_authenticated(std::uint8_t type, const std::string& payload) {
  const auto msg_type = static_cast<client_msg>(type);
  if (msg_type == client_msg::expect_open || msg_type == client_msg::expect_close) {
    std::optional<x_error> err;
    if (msg_type == client_msg::expect_open) {
      Mysqlx::Expect::Open msg;
      if (!msg.ParseFromString(payload))
        return fatal(make_error(errc::x_bad_message, "Invalid message"));
      err = m_expect.open(msg);
    } else {
      err = m_expect.close();
    }
    return err ? m_out.error(*err) : m_out.ok();
  }
  if (msg_type == client_msg::con_close) {
    drop_all_statements();
    m_out.ok("bye!");
    m_closing = true;
    return;
  }
  if (auto blocked = m_expect.blocked()) return m_out.error(*blocked);

  // MySQL 5.7's X Plugin has no prepared statements (Prepare arrived in
  // 8.0.14): it answers them as unknown messages, and connectors fall back.
  const bool prepare_msg =
      msg_type == client_msg::prepare_prepare || msg_type == client_msg::prepare_execute ||
      msg_type == client_msg::prepare_deallocate || msg_type == client_msg::cursor_open ||
      msg_type == client_msg::cursor_fetch || msg_type == client_msg::cursor_close;
  // After SQL of the client's own (a StmtExecute, or the Execute or cursor
  // of a prepared one: they set m_ran_own_sql) and a session reset, what any
  // session cached of MariaDB's state is to be read again.
  m_ran_own_sql = msg_type == client_msg::sess_reset || msg_type == client_msg::sess_close;
  struct after_own_sql {
    server_state& state;
    const bool& ran;
    ~after_own_sql() {
      if (ran) state.sql_ran();
    }
  } const bump{m_state, m_ran_own_sql};
  stmt_result result;
  switch (emulate_57() && prepare_msg ? client_msg{} : msg_type) {
  case client_msg::con_capabilities_get:
    return on_capabilities_get();
  case client_msg::sql_stmt_execute:
    result = on_stmt_execute(payload);
    break;
  case client_msg::crud_insert:
    result = on_crud_insert(payload);
    break;
  case client_msg::crud_find:
    result = on_crud_find(payload);
    break;
  case client_msg::crud_update:
    result = on_crud_update(payload);
    break;
  case client_msg::crud_delete:
    result = on_crud_delete(payload);
    break;
  case client_msg::prepare_prepare:
    result = on_prepare(payload);
    break;
  case client_msg::prepare_execute:
    result = on_execute(payload);
    break;
  case client_msg::prepare_deallocate:
    result = on_deallocate(payload);
    break;
  case client_msg::cursor_open:
    result = on_cursor_open(payload);
    break;
  case client_msg::cursor_fetch:
    result = on_cursor_fetch(payload);
    break;
  case client_msg::cursor_close:
    result = on_cursor_close(payload);
    break;
  case client_msg::sess_reset: {
    Mysqlx::Session::Reset msg;
    msg.ParseFromString(payload);
    // A new THD, or a reset one (THD::cleanup_connection -> init()): the
    // session values start again from the GLOBAL ones; the timeouts the
    // connection runs with stay.
    m_vars = m_state.xvars();
    m_expect.clear();
    if (msg.keep_open()) {
      // Keep the authenticated user; give the MariaDB session a clean state
      // (COM_RESET_CONNECTION also deallocates its statements).
      m_prepared.clear();
      m_cursors.clear();
      if (m_db->reset()) return m_out.ok();
      return fatal(m_db->last_error());
    }
    end_authenticated_session();
    m_after_reset = true;
    return m_out.ok();
  }
  case client_msg::sess_close:
    m_expect.clear();
    end_authenticated_session();
    return m_out.ok();
  default:
    // Views, and Prepare / cursors in 5.7 mode get what MySQL answers to a
    // message it does not handle.
    result = make_error(errc::unknown_com_error, "Unexpected message received");
    break;
  }
  if (result) {
    m_out.error(*result);
    m_expect.statement_failed();
  }
}

} // namespace xserver
