// Session set-up as a sans-I/O state machine (no sockets, no protobuf).
// Every request whose content does not depend on a reply is sent before the
// client waits (what MySQL's X Plugin reads in order is in README.md here):
//
//   TLS:     CapabilitiesGet + CapabilitiesSet{tls}            -> 1 round trip
//            the TLS handshake                                 -> 1 (TLS 1.3)
//            CapabilitiesSet{compression} + CapabilitiesSet{session_connect_attrs}
//            + AuthenticateStart(PLAIN) + the probe's Expect.Open -> 1
//   no TLS:  CapabilitiesGet + CapabilitiesSet{compression} (the algorithm we
//            would pick from a server offering all ours: a refusal leaves the
//            session uncompressed, as a server without it does)
//            + CapabilitiesSet{session_connect_attrs} + AuthenticateStart -> 1
//            MYSQL41/SHA256_MEMORY: AuthenticateContinue + Expect.Open -> 1
//   The Sets are separate because 5.7 rejects session_connect_attrs with 5002
//   and a Set is all-or-nothing. Nothing follows CapabilitiesSet{tls} before
//   its Ok (the X Plugin would read those bytes as plaintext), and with
//   compression REQUIRED and no TLS the algorithm waits for CapabilitiesGet.
//   The probe is Expect.Open{EXPECT_CTX_EMPTY, [key 3]}, sent with the last
//   authentication message unless a fallback mechanism is left to try (after
//   a failed attempt the X Plugin takes any message but AuthenticateStart as
//   fatal). Ok -> Expect.Close, read its Ok: the server generates ids.
//   5160 -> no Close (the block was never opened): the client generates ids.
//   (With handshake_env::defer_probe_close the Close is the driver's.)
//
// The driver loop: call start(), then act on each next_action:
//   write              write bytes(), then call resume()
//   read               read frames; give each one to on_frame()
//   start_tls          upgrade the transport; call on_tls() with the outcome
//   enable_compression decompress incoming frames with algorithm(); call resume()
//   done               finished: error() is set on failure, else info() is valid
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/foundation/options.h"
#include "cdk/protocol/frame.h"
#include "cdk/protocol/pipeline.h"
#include "cdk/protocol/value.h"
#include "cdk/session/negotiate.h"

#include <cstdint>
#include <deque>
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
  // What each reply still to come answers, in request order.
  enum class step : std::uint8_t {
    caps_get,
    tls_set,
    compression_set,
    attrs_set,
    auth,
    probe_open,
    probe_close
  };

  next_action on_reply(step s, protocol::reply& r);
  next_action after_capabilities(protocol::reply& r);
  next_action after_tls();
  // The Sets, authentication's first message and (PLAIN) the probe, in one
  // write; `algorithm` empty: no compression asked for.
  next_action send_setup(const std::string& algorithm);
  next_action after_compression_set(protocol::reply& r);
  status queue_auth_start();
  next_action after_auth_reply(protocol::reply& r);
  next_action after_probe_open(protocol::reply& r);
  next_action after_probe_close(protocol::reply& r);
  next_action auth_failed(error e);
  next_action write_out();
  next_action read_on();
  next_action finish();
  next_action fail(error e);
  void queue(step s, protocol::reply_end ends);
  void queue_probe();
  bool want_probe() const noexcept;

  connect_options m_opts;
  handshake_env m_env;
  session_info m_info;
  protocol::pipeline m_pipe;
  std::deque<step> m_waiting;
  bool m_started = false;
  bool m_tls_asked = false;        // CapabilitiesSet{tls} went out
  bool m_awaiting_tls = false;     // start_tls was returned, on_tls() is due
  bool m_setup_after_caps = false; // REQUIRED compression without TLS
  bool m_challenge_due = false;    // the auth reply due is a challenge
  bool m_done = false;
  std::vector<std::string> m_mechanisms; // left to try, front is current
  std::optional<error> m_first_auth_error;
  std::string m_pending_compression; // asked for, not yet confirmed
  bool m_probe_queued = false;
  std::optional<error> m_error; // once done: the failure, repeated to late callers
};

} // namespace cdk::session
