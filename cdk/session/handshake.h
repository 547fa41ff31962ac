// Session set-up as a sans-I/O state machine (no sockets, no protobuf):
//
//   1. CapabilitiesGet, then CapabilitiesSet{tls} and the TLS upgrade;
//   2. CapabilitiesSet{compression} and CapabilitiesSet{session_connect_attrs}
//      (separate, because 5.7 rejects the latter with 5002 and a Set is
//      all-or-nothing), pipelined in one write;
//   3. authentication (PLAIN / MYSQL41 / SHA256_MEMORY / AUTO);
//   4. the document-id probe: Expect.Open{EXPECT_CTX_EMPTY, [key 3]}, pipelined
//      with the last authentication message when no fallback mechanism is
//      left to try. Ok -> Expect.Close, read its Ok: the server generates ids.
//      5160 -> no Close (the block was never opened): the client generates ids.
//      (With handshake_env::defer_probe_close the Close is the driver's.)
//
// The driver loop: call start(), then act on each next_action:
//   write              write bytes(), then call resume()
//   read               read frames; give each one to on_frame()
//   start_tls          upgrade the transport; call on_tls() with the outcome
//   enable_compression install algorithm() on the connection; call resume()
//   done               finished: error() is set on failure, else info() is valid
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/foundation/options.h"
#include "cdk/protocol/frame.h"
#include "cdk/protocol/pipeline.h"
#include "cdk/protocol/value.h"
#include "cdk/session/negotiate.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cdk::session {

struct next_action {
  enum class kind : std::uint8_t { write, read, start_tls, enable_compression, done };
  kind what = kind::read;
  std::string bytes;        // write: may hold a password; the driver wipes it after writing
  std::string algorithm;    // enable_compression
  std::optional<error> err; // done: the failure, if any
};

// What set-up learned about the connection.
struct session_info {
  bool tls = false;
  std::string compression;    // negotiated algorithm; empty: none
  std::string auth_mechanism; // the one that succeeded
  std::optional<std::uint64_t> client_id;
  bool probed = false;               // the docid probe ran (not with docid_mode::client)
  bool server_generates_ids = false; // the probe's answer
  bool probe_close_pending = false;  // defer_probe_close: the driver owes Expect.Close
  std::vector<protocol::value_field> server_capabilities; // CapabilitiesGet's answer
  std::vector<protocol::notice> global_notices;           // e.g. ServerHello
};

// Facts about the transport and the driver, fixed before set-up starts.
struct handshake_env {
  bool local_transport = false;                   // a Unix socket
  std::vector<std::string> compression_supported; // algorithms the driver can run
  attribute_list client_attributes = default_client_attributes();
  // After the probe's Ok, finish at once and leave Expect.Close to the driver,
  // which sends it with its first request: the probe then costs no round
  // trip of its own (see session_info::probe_close_pending).
  bool defer_probe_close = false;
};

class handshake {
public:
  handshake(const connect_options& opts, handshake_env env);
  ~handshake();
  handshake(const handshake&) = delete;
  handshake& operator=(const handshake&) = delete;

  next_action start();
  next_action resume();
  next_action on_frame(protocol::frame f);
  next_action on_tls(const status& outcome);

  const session_info& info() const noexcept { return m_info; }
  // Global notices received so far (also kept in info() at the end).
  protocol::pipeline& pipeline() noexcept { return m_pipe; }

private:
  enum class state : std::uint8_t {
    idle,
    caps_get,
    tls_set,
    tls_wait,
    caps_set,
    compression_wait,
    auth_start,
    auth_continue,
    probe_open,
    probe_close,
    done
  };

  next_action on_reply(protocol::reply r);
  next_action after_capabilities(protocol::reply& r);
  next_action after_tls();
  next_action after_caps_set(protocol::reply& r);
  next_action start_auth();
  next_action after_auth_reply(protocol::reply& r);
  next_action after_probe_open(protocol::reply& r);
  next_action after_probe_close(protocol::reply& r);
  next_action auth_failed(error e);
  next_action write_out();
  next_action finish();
  next_action fail(error e);
  void queue_probe();
  bool want_probe() const noexcept;

  connect_options m_opts;
  handshake_env m_env;
  session_info m_info;
  protocol::pipeline m_pipe;
  state m_state = state::idle;
  std::vector<std::string> m_mechanisms; // left to try, front is current
  std::optional<error> m_first_auth_error;
  std::string m_pending_compression; // asked for, not yet confirmed
  int m_caps_set_replies = 0;        // replies of step 2 still to read
  bool m_compression_requested = false;
  bool m_probe_queued = false;
  std::optional<error> m_error; // once done: the failure, repeated to late callers
};

} // namespace cdk::session
