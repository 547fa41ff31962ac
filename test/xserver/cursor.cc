// Mysqlx.Cursor.Open / Fetch / Close (MySQL 8.0's X Plugin,
// prepare_command_handler.cc). A cursor runs a prepared statement and hands
// its rows out in portions. MySQL keeps a server-side cursor; xserverd runs
// the statement at Open, keeps the encoded rows and sends them as asked:
// - Open{cursor_id, Execute, fetch_rows}: ColumnMetaData, then up to
//   fetch_rows rows (none when fetch_rows is 0), then FetchSuspended if rows
//   remain, else FetchDone and the statement's notices; StmtExecuteOk. An
//   Open on a cursor id or a statement that has a cursor replaces it.
// - Fetch{cursor_id, fetch_rows}: the next rows (all that remain when
//   fetch_rows is 0), FetchSuspended or FetchDone + notices, StmtExecuteOk.
// - Close{cursor_id}: Ok. Unknown ids: 5110 (statement), 5111 (cursor);
//   Fetch after the end: ER_X_CURSOR_REACHED_EOF.
#include "mysqlx_cursor.pb.h"
#include "test/xserver/session.h"

#include <cstring>

namespace xserver {

namespace {

// The frames of an encoded reply (4-byte little-endian length, type, body).
struct frame_view {
  std::uint8_t type;
  std::string bytes; // the whole frame, header included
};

std::vector<frame_view> split_frames(std::string_view out) {
  std::vector<frame_view> frames;
  while (out.size() >= 5) {
    std::uint32_t len = 0;
    std::memcpy(&len, out.data(), 4); // little-endian hosts only, as the rest of xserverd
    const std::size_t total = 4 + static_cast<std::size_t>(len);
    if (len == 0 || total > out.size()) break;
    frames.push_back({static_cast<std::uint8_t>(out[4]), std::string(out.substr(0, total))});
    out.remove_prefix(total);
  }
  return frames;
}

bool is_type(const frame_view& f, server_msg t) {
  return f.type == static_cast<std::uint8_t>(t);
}

} // namespace

stmt_result session::on_cursor_open(const std::string& payload) {
  Mysqlx::Cursor::Open msg;
  if (!msg.ParseFromString(payload) || !msg.has_stmt() || !msg.stmt().has_prepare_execute())
    return make_error(errc::x_bad_message, "Invalid message");
  const std::uint32_t id = msg.cursor_id();
  const std::uint32_t stmt_id = msg.stmt().prepare_execute().stmt_id();
  m_cursors.erase(id);
  if (m_prepared.find(stmt_id) == m_prepared.end())
    return make_error(errc::x_bad_statement_id,
                      "Statement with ID=" + std::to_string(stmt_id) + " was not prepared.");
  close_cursors_of(stmt_id); // a new Open replaces the statement's cursor

  // Run the statement with its reply kept in the buffer (no flush), then
  // take the reply apart: metadata, rows, and what follows the rows.
  const std::size_t mark = m_out.bytes().size();
  m_hold_output = true;
  stmt_result r = on_execute(msg.stmt().prepare_execute().SerializeAsString());
  m_hold_output = false;
  if (r) {
    m_out.bytes().resize(mark);
    return r;
  }
  auto frames = split_frames(std::string_view(m_out.bytes()).substr(mark));
  m_out.bytes().resize(mark);
  cursor c;
  c.stmt_id = stmt_id;
  std::string head;
  std::size_t i = 0;
  for (; i < frames.size() && is_type(frames[i], server_msg::resultset_column_meta_data); ++i)
    head += frames[i].bytes;
  for (; i < frames.size() && is_type(frames[i], server_msg::resultset_row); ++i)
    c.rows.push_back(std::move(frames[i].bytes));
  // The rest: FetchDone and the statement's notices, without StmtExecuteOk
  // (each Open / Fetch sends its own).
  for (; i < frames.size(); ++i)
    if (!is_type(frames[i], server_msg::sql_stmt_execute_ok)) c.tail += frames[i].bytes;
  m_out.bytes() += head;
  cursor& stored = m_cursors[id] = std::move(c);
  send_cursor_rows(stored, msg.fetch_rows(), msg.fetch_rows() == 0);
  m_out.stmt_ok();
  return std::nullopt;
}

// Sends up to `limit` rows (all when 0) unless `suspend_only`, then
// FetchSuspended while rows remain, else the statement's tail once.
void session::send_cursor_rows(cursor& c, std::uint64_t limit, bool suspend_only) {
  if (!suspend_only) {
    std::uint64_t sent = 0;
    while (c.next < c.rows.size() && (limit == 0 || sent < limit)) {
      m_out.bytes() += c.rows[c.next];
      c.rows[c.next++].clear(); // sent rows are no longer kept
      ++sent;
    }
  }
  if (c.next < c.rows.size()) {
    m_out.add_empty(server_msg::resultset_fetch_suspended);
    return;
  }
  m_out.bytes() += c.tail;
  c.eof = true;
}

void session::close_cursors_of(std::uint32_t stmt_id) {
  for (auto it = m_cursors.begin(); it != m_cursors.end();)
    it = it->second.stmt_id == stmt_id ? m_cursors.erase(it) : std::next(it);
}

stmt_result session::on_cursor_fetch(const std::string& payload) {
  Mysqlx::Cursor::Fetch msg;
  if (!msg.ParseFromString(payload)) return make_error(errc::x_bad_message, "Invalid message");
  auto it = m_cursors.find(msg.cursor_id());
  if (it == m_cursors.end())
    return make_error(errc::x_bad_cursor_id,
                      "Cursor with ID=" + std::to_string(msg.cursor_id()) + " was not opened.");
  if (it->second.eof)
    return make_error(errc::x_cursor_reached_eof,
                      "No more data in cursor (cursor id:" + std::to_string(msg.cursor_id()) + ")");
  send_cursor_rows(it->second, msg.fetch_rows(), false);
  m_out.stmt_ok();
  return std::nullopt;
}

stmt_result session::on_cursor_close(const std::string& payload) {
  Mysqlx::Cursor::Close msg;
  if (!msg.ParseFromString(payload)) return make_error(errc::x_bad_message, "Invalid message");
  if (m_cursors.erase(msg.cursor_id()) == 0)
    return make_error(errc::x_bad_cursor_id,
                      "Cursor with ID=" + std::to_string(msg.cursor_id()) + " was not opened.");
  m_out.ok();
  return std::nullopt;
}

} // namespace xserver
