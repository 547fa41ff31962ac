// An in-memory cdk::stream whose other end is a small scripted X Protocol
// server (8.0-like, or 5.7-like with emulate_57), for driver tests without
// sockets. TLS is simulated: start_tls() only flips a flag.
#pragma once

#include "cdk/foundation/stream.h"
#include "cdk/protocol/compression.h"
#include "cdk/protocol/frame.h"
#include "cdk/session/scramble.h"
#include "script.h"

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cdk::session::test {

class fake_server final : public stream {
public:
  std::string password = "S3cr3t-pa55";
  bool emulate_57 = false;
  bool offer_tls = true;
  bool local = false;
  // A caching_sha2_password account: MYSQL41 fails (1045), SHA256_MEMORY works.
  bool refuse_mysql41 = false;
  std::vector<int> received; // client message types, in order (inner frames when compressed)
  std::size_t compressed_writes = 0;
  // As MySQL: a message longer than this closes the connection, no reply.
  std::size_t max_message = SIZE_MAX;
  // Set after the handshake: the next message gets no reply, only this
  // disconnection notice, and the connection closes (an idle timeout).
  std::optional<frame> closing_notice;
  // Set after the handshake: the next message is answered with these raw
  // bytes (a malformed or unexpected reply), and the connection stays open.
  std::optional<std::string> raw_reply;
  // Set after the handshake: reads fail as a socket's do when read-timeout
  // passes (a server that stopped answering).
  bool silent = false;
  // connection::close() destroys its stream; a test that checks what came
  // last (the Close) reads it here once the server is gone.
  std::shared_ptr<std::vector<int>> received_at_end;

  ~fake_server() override {
    if (received_at_end) *received_at_end = received;
  }

  // Round trips the client waited for: flights it wrote after reading (or
  // first), and each TLS handshake (TLS 1.3: one round trip, the client's
  // Finished then leaves with its next flight).
  int round_trips = 0;

  status write(std::string_view bytes) override {
    if (m_closed) return error::connection(client_errc::lost_connection, "closed");
    if (m_client_read) ++round_trips;
    m_client_read = false;
    if (bytes.size() > 4 && bytes[4] == 46) ++compressed_writes;
    auto st = m_in.feed(bytes);
    if (!st) return st;
    for (;;) {
      auto f = m_in.next();
      if (!f.ok() || !f.value()) break;
      on_client(*f.value());
    }
    return ok();
  }

  result<std::size_t> read_some(char* buf, std::size_t n) override {
    if (silent) return error::connection(client_errc::timeout, "Timed out waiting for db.example");
    if (m_out.empty())
      return error::connection(client_errc::lost_connection, "server sent nothing");
    m_client_read = true;
    const std::size_t k = std::min<std::size_t>({n, m_out.size(), 7}); // small reads on purpose
    m_out.copy(buf, k);
    m_out.erase(0, k);
    return k;
  }

  result<bool> readable(std::chrono::milliseconds) override { return silent || !m_out.empty(); }

  status start_tls(const tls_options&, std::string_view) override {
    ++round_trips;
    m_client_read = true;
    m_tls = true;
    return ok();
  }
  bool is_tls() const override { return m_tls; }
  bool is_local() const override { return local; }
  std::string tls_version() const override { return m_tls ? "TLSv1.3" : ""; }
  std::string tls_cipher() const override { return m_tls ? "TLS_AES_256_GCM_SHA384" : ""; }
  void close() noexcept override { m_closed = true; }
  status set_timeouts(std::chrono::milliseconds read, std::chrono::milliseconds write) override {
    timeouts.emplace_back(read, write);
    return ok();
  }
  // Every set_timeouts() call, in order.
  std::vector<std::pair<std::chrono::milliseconds, std::chrono::milliseconds>> timeouts;

private:
  static std::string protocol_frame_bytes(const frame& f) {
    std::string out;
    protocol::append_frame(out, f.type, f.payload);
    return out;
  }
  bool m_client_read = true;
  bool m_auth_started = false;
  bool m_authenticated = false;
  void send(const frame& f) { protocol::append_frame(m_pending, f.type, f.payload); }

  void flush() {
    (void)m_compress.wrap(m_pending);
    m_out += m_pending;
    m_pending.clear();
  }

  void on_client(const frame& f) {
    if (m_closed) return;
    received.push_back(f.type);
    if (f.payload.size() + 1 > max_message) {
      m_closed = true;
      return;
    }
    if (closing_notice) {
      m_out += protocol_frame_bytes(*closing_notice);
      m_closed = true;
      return;
    }
    if (raw_reply) {
      m_out += *raw_reply;
      raw_reply.reset();
      return;
    }
    // After the first AuthenticateStart only authentication is read: the
    // X Plugin's session takes anything else as FATAL (README.md here).
    if (m_auth_started && (f.type == 1 || f.type == 2) && !m_authenticated) {
      send(error_frame(5000, "Invalid message", true));
      flush();
      m_closed = true;
      return;
    }
    switch (f.type) {
    case 1:
      send(capabilities_frame(offer_tls, emulate_57 ? std::vector<std::string>{}
                                                    : std::vector<std::string>{"deflate_stream"}));
      break;
    case 2:
      on_caps_set(parse<Mysqlx::Connection::CapabilitiesSet>(f));
      break;
    case 4:
      on_auth_start(parse<Mysqlx::Session::AuthenticateStart>(f));
      break;
    case 5:
      on_auth_continue(parse<Mysqlx::Session::AuthenticateContinue>(f));
      break;
    case 24:
      send(emulate_57 ? error_frame(5160, "Unknown condition key") : ok_frame());
      break;
    case 25:
      send(ok_frame());
      break;
    case 17: // FATAL, for tests of the driver's reaction
      send(error_frame(5000, "Invalid message", true));
      break;
    case 12: {
      send(client_id_notice(1)); // any LOCAL notice: attributed to this reply
      send(frame{17, ""});
      break;
    }
    case 3: {
      Mysqlx::Ok bye;
      bye.set_msg("bye!");
      send(server(protocol::server_msg::ok, bye));
      break;
    }
    default:
      send(error_frame(1047, "Unexpected message received"));
      break;
    }
    flush();
  }

  void on_caps_set(const Mysqlx::Connection::CapabilitiesSet& m) {
    const auto& cap = m.capabilities().capabilities(0);
    if ((cap.name() == "session_connect_attrs" || cap.name() == "compression") && emulate_57) {
      send(error_frame(5002, "Capability '" + cap.name() + "' doesn't exist"));
      return;
    }
    // As the X Plugin: not fatal, and what follows is read (README.md here).
    if (cap.name() == "tls" && !offer_tls) {
      send(error_frame(5001, "Capability prepare failed for 'tls'"));
      return;
    }
    if (cap.name() == "compression" &&
        cap.value().obj().fld(0).value().scalar().v_string().value() != "deflate_stream") {
      send(error_frame(5175, "Invalid or unsupported value for 'compression.algorithm'"));
      return;
    }
    send(ok_frame());
    if (cap.name() == "compression") m_compression_pending = true;
  }

  void on_auth_start(const Mysqlx::Session::AuthenticateStart& m) {
    m_auth_started = true;
    m_mech = m.mech_name();
    if (m_mech == "PLAIN") {
      auth_result(m.auth_data() == std::string("\0app\0", 5) + password);
      return;
    }
    send(challenge_frame(salt20()));
  }

  void on_auth_continue(const Mysqlx::Session::AuthenticateContinue& m) {
    const std::string expected = m_mech == "MYSQL41" ? mysql41_response(password, salt20())
                                                     : sha256_memory_response(password, salt20());
    auth_result(!(refuse_mysql41 && m_mech == "MYSQL41") &&
                m.auth_data() == std::string("\0app\0", 5) + expected);
  }

  void auth_result(bool good) {
    if (!good) {
      send(error_frame(1045, "Access denied for user 'app'@'localhost' (using password: YES)"));
      return;
    }
    m_authenticated = true;
    send(client_id_notice(42));
    send(auth_ok_frame());
    if (m_compression_pending) {
      (void)m_in.enable_compression("deflate_stream");
      (void)m_compress.enable("deflate_stream");
      m_compression_pending = false;
      m_out += m_pending; // AuthenticateOk itself goes out uncompressed
      m_pending.clear();
    }
  }

  protocol::frame_reader m_in{protocol::default_max_frame_size, 46};
  protocol::frame_compressor m_compress{19};
  std::string m_pending, m_out, m_mech;
  bool m_tls = false, m_closed = false, m_compression_pending = false;
};

} // namespace cdk::session::test
