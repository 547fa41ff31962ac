#include "cdk/session/handshake.h"

#include "cdk/docid/policy.h"
#include "cdk/protocol/messages.h"
#include "cdk/protocol/msg_types.h"
#include "cdk/session/scramble.h"

namespace cdk::session {

namespace pr = cdk::protocol;

namespace {

// X Plugin error codes this exchange branches on (facts §4, §7).
constexpr std::uint32_t er_x_capability_not_found = 5002; // 5.7: no session_connect_attrs
constexpr std::uint32_t er_x_expect_bad_condition = 5160; // unknown Expect condition key
constexpr std::size_t challenge_size = 20;

next_action action(next_action::kind k) {
  next_action a;
  a.what = k;
  return a;
}

error unexpected(std::uint8_t got, std::string_view expected) {
  return error::connection(
      client_errc::malformed_packet,
      "unexpected X Protocol message " + std::string(pr::server_msg_name(got)) + " (type " +
          std::to_string(got) + ") where " + std::string(expected) + " was expected");
}

} // namespace

handshake::handshake(const connect_options& opts, handshake_env env)
    : m_opts(opts), m_env(std::move(env)) {}

handshake::~handshake() {
  secure_wipe(m_opts.password);
}

next_action handshake::start() {
  if (m_started) return fail(error::client(client_errc::usage, "handshake restarted"));
  m_started = true;
  // Bad options fail here, before a single byte is sent.
  if (m_opts.send_connection_attributes) {
    auto attrs = connection_attributes(m_env.client_attributes, m_opts.connection_attributes);
    if (!attrs) return fail(std::move(attrs).err());
    m_env.client_attributes = std::move(attrs.value());
  }
  // The server's list rides in the first flight: it answers what a refusal
  // would not (the algorithms to pick from, whether TLS is offered at all).
  pr::encode_capabilities_get(m_pipe.output());
  queue(step::caps_get, pr::replies::capabilities);
  if (m_opts.tls.mode != ssl_mode::disabled && !m_env.local_transport) {
    // Nothing after it: the X Plugin reads the bytes that follow a
    // CapabilitiesSet{tls} as plaintext X messages once TLS is up.
    auto st = pr::encode_capabilities_set(m_pipe.output(), {{"tls", pr::value::of_bool(true)}});
    if (!st) return fail(st.err());
    queue(step::tls_set, pr::replies::ok);
    m_tls_asked = true;
    return write_out();
  }
  if (m_opts.compression == compression_mode::required) {
    // The algorithm must be one the server offers: wait for its list.
    m_setup_after_caps = true;
    return write_out();
  }
  return send_setup(speculative_compression(m_opts.compression, m_opts.compression_algorithms,
                                            m_env.compression_supported));
}

next_action handshake::resume() {
  if (m_done) return finish();
  if (!m_pipe.output().empty()) return write_out();
  return read_on();
}

next_action handshake::on_frame(pr::frame f) {
  if (m_done) return finish();
  auto r = m_pipe.on_frame(std::move(f));
  if (!r) return fail(std::move(r).err());
  if (!r.value()) return read_on();
  if (m_waiting.empty())
    return fail(error::client(client_errc::usage, "handshake received a reply it did not ask for"));
  const step s = m_waiting.front();
  m_waiting.pop_front();
  return on_reply(s, *r.value());
}

next_action handshake::on_tls(const status& outcome) {
  if (!m_awaiting_tls)
    return fail(error::client(client_errc::usage, "on_tls() without a start_tls action"));
  m_awaiting_tls = false;
  if (!outcome) return fail(outcome.err());
  m_info.tls = true;
  return after_tls();
}

next_action handshake::on_reply(step s, pr::reply& r) {
  switch (s) {
  case step::caps_get:
    return after_capabilities(r);
  case step::tls_set:
    if (!r.ok()) return fail(*r.error);
    m_awaiting_tls = true;
    return action(next_action::kind::start_tls);
  case step::compression_set:
    return after_compression_set(r);
  case step::attrs_set:
    if (r.error && r.error->fatal) return fail(*r.error);
    // Refused for another reason than "unknown" (5.7): an error.
    if (!r.ok() && r.error->code != er_x_capability_not_found) return fail(*r.error);
    return read_on();
  case step::auth:
    return after_auth_reply(r);
  case step::probe_open:
    return after_probe_open(r);
  case step::probe_close:
    return after_probe_close(r);
  }
  return fail(error::client(client_errc::usage, "handshake received an unknown reply"));
}

next_action handshake::after_capabilities(pr::reply& r) {
  if (!r.ok()) return fail(*r.error);
  auto caps = pr::decode_capabilities(r.last());
  if (!caps) return fail(std::move(caps).err());
  m_info.server_capabilities = std::move(caps.value());
  if (m_tls_asked) {
    // A server without the tls capability refuses the Set too; its list
    // says why in our words.
    auto tls = decide_tls(m_opts.tls, m_env.local_transport, m_info.server_capabilities);
    if (!tls) return fail(std::move(tls).err());
    return read_on();
  }
  if (m_setup_after_caps) return after_tls();
  return read_on();
}

next_action handshake::after_tls() {
  auto comp = decide_compression(m_opts.compression, m_opts.compression_algorithms,
                                 m_env.compression_supported, m_info.server_capabilities);
  if (!comp) return fail(std::move(comp).err());
  return send_setup(comp.value());
}

next_action handshake::send_setup(const std::string& algorithm) {
  // PLAIN on an insecure transport fails here, before anything is sent.
  auto plan = auth_plan(m_opts.auth, m_info.tls || m_env.local_transport);
  if (!plan) return fail(std::move(plan).err());
  m_mechanisms = std::move(plan.value());
  if (!algorithm.empty()) {
    m_pending_compression = algorithm;
    auto algo = pr::value::of_object({{"algorithm", pr::value::of_string(algorithm)}});
    auto st = pr::encode_capabilities_set(m_pipe.output(), {{"compression", std::move(algo)}});
    if (!st) return fail(st.err());
    queue(step::compression_set, pr::replies::ok);
  }
  if (m_opts.send_connection_attributes) {
    auto st = pr::encode_capabilities_set(
        m_pipe.output(), {{"session_connect_attrs", attributes_value(m_env.client_attributes)}});
    if (!st) return fail(st.err());
    queue(step::attrs_set, pr::replies::ok);
  }
  if (auto st = queue_auth_start(); !st) return fail(st.err());
  return write_out();
}

next_action handshake::after_compression_set(pr::reply& r) {
  if (r.error && r.error->fatal) return fail(*r.error);
  if (!r.ok()) {
    if (m_opts.compression == compression_mode::required)
      return fail(error::client(client_errc::compression,
                                "compression is REQUIRED but the server refused algorithm '" +
                                    m_pending_compression + "' (server error " +
                                    std::to_string(r.error->code) + ")"));
    return read_on(); // PREFERRED: the session goes on uncompressed
  }
  // The server compresses from its AuthenticateOk on, which comes after
  // this: incoming frames are decompressed from here.
  m_info.compression = m_pending_compression;
  next_action a = action(next_action::kind::enable_compression);
  a.algorithm = m_info.compression;
  return a;
}

status handshake::queue_auth_start() {
  const std::string& mech = m_mechanisms.front();
  status st = ok();
  if (mech == "PLAIN") {
    std::string data = auth_payload(m_opts.schema, m_opts.user, m_opts.password);
    st = pr::encode_authenticate_start(m_pipe.output(), mech, data);
    secure_wipe(data);
    m_challenge_due = false; // the next reply is the final one
  } else {
    st = pr::encode_authenticate_start(m_pipe.output(), mech, {});
    m_challenge_due = true;
  }
  if (!st) return st;
  queue(step::auth, pr::replies::auth);
  if (!m_challenge_due && m_mechanisms.size() == 1) queue_probe();
  return ok();
}

next_action handshake::after_auth_reply(pr::reply& r) {
  if (!r.ok()) return auth_failed(*r.error);
  if (r.info.client_id) m_info.client_id = r.info.client_id;
  const pr::frame& last = r.last();
  if (m_challenge_due) {
    auto challenge = pr::decode_authenticate_continue(last);
    if (!challenge) return fail(std::move(challenge).err());
    std::string salt = std::move(challenge.value());
    if (salt.size() == challenge_size + 1 && salt.back() == '\0') salt.pop_back();
    if (salt.size() != challenge_size)
      return fail(error::connection(client_errc::malformed_packet,
                                    "authentication challenge of " + std::to_string(salt.size()) +
                                        " bytes; expected " + std::to_string(challenge_size)));
    const std::string& mech = m_mechanisms.front();
    std::string response = mech == "MYSQL41" ? mysql41_response(m_opts.password, salt)
                                             : sha256_memory_response(m_opts.password, salt);
    std::string data = auth_payload(m_opts.schema, m_opts.user, response);
    auto st = pr::encode_authenticate_continue(m_pipe.output(), data);
    secure_wipe(response);
    secure_wipe(data);
    if (!st) return fail(st.err());
    queue(step::auth, pr::replies::auth);
    m_challenge_due = false;
    if (m_mechanisms.size() == 1) queue_probe();
    return write_out();
  }
  if (last.type != pr::type_byte(pr::server_msg::sess_authenticate_ok))
    return fail(unexpected(last.type, "Mysqlx.Session.AuthenticateOk"));
  m_info.auth_mechanism = m_mechanisms.front();
  if (m_probe_queued) return read_on(); // its reply is already on the way
  if (!want_probe()) return finish();
  queue_probe();
  return write_out();
}

namespace {
// Errors the server gives after the credentials were accepted, or whatever
// they are: another mechanism cannot change them, and calling them an
// authentication failure would send the user after the password (a URI's
// missing schema is 1049).
bool beyond_the_credentials(std::uint32_t code) {
  switch (code) {
  case 1044: // ER_DBACCESS_DENIED_ERROR: the URI's schema is not the user's
  case 1049: // ER_BAD_DB_ERROR: the URI's schema does not exist
  case 1820: // ER_MUST_CHANGE_PASSWORD
  case 1862: // ER_MUST_CHANGE_PASSWORD_LOGIN: the password expired
  case 3118: // ER_ACCOUNT_HAS_BEEN_LOCKED
    return true;
  default:
    return false;
  }
}
} // namespace

next_action handshake::auth_failed(error e) {
  const bool can_retry = !e.fatal && e.origin == error_origin::server && m_mechanisms.size() > 1 &&
                         !beyond_the_credentials(e.code);
  if (can_retry) {
    m_first_auth_error = e;
    m_mechanisms.erase(m_mechanisms.begin());
    if (auto st = queue_auth_start(); !st) return fail(st.err());
    return write_out();
  }
  if (m_first_auth_error && e.origin == error_origin::server) {
    // A server without SHA256_MEMORY (5.7: 1251) says nothing about the
    // credentials; MYSQL41's answer (1045) is the one that matters then.
    if (e.code != m_first_auth_error->code) {
      const bool fatal = e.fatal;
      e = *m_first_auth_error;
      e.fatal = fatal;
    }
    e.message = "authentication failed using MYSQL41 and SHA256_MEMORY (check the user name and "
                "password, or connect over TLS or a Unix socket): " +
                e.message;
  }
  return fail(std::move(e));
}

void handshake::queue_probe() {
  if (!want_probe()) return;
  // Cannot fail: a fixed, tiny message.
  (void)pr::encode_expect_open(m_pipe.output(), true, {{pr::expect_docid_generated, {}, false}});
  queue(step::probe_open, pr::replies::ok);
  m_probe_queued = true;
}

bool handshake::want_probe() const noexcept {
  return m_opts.docids != docid_mode::client;
}

next_action handshake::after_probe_open(pr::reply& r) {
  m_info.probed = true;
  if (r.ok() && m_env.defer_probe_close) {
    m_info.server_generates_ids = true;
    m_info.probe_close_pending = true;
    return finish();
  }
  if (r.ok()) {
    // The block is open: close it (the docid condition has served its purpose).
    pr::encode_expect_close(m_pipe.output());
    queue(step::probe_close, pr::replies::ok);
    return write_out();
  }
  if (r.error->code == er_x_expect_bad_condition && r.error->origin == error_origin::server &&
      !r.error->fatal) {
    // Nothing was opened, so nothing is closed.
    m_info.server_generates_ids = false;
    if (m_opts.docids == docid_mode::server) return fail(docid::server_ids_unsupported());
    return finish();
  }
  return fail(*r.error);
}

next_action handshake::after_probe_close(pr::reply& r) {
  if (!r.ok()) return fail(*r.error);
  m_info.server_generates_ids = true;
  return finish();
}

void handshake::queue(step s, pr::reply_end ends) {
  m_pipe.expect(ends);
  m_waiting.push_back(s);
}

next_action handshake::read_on() {
  if (m_waiting.empty())
    return fail(error::client(client_errc::usage, "handshake waits for no reply"));
  return action(next_action::kind::read);
}

next_action handshake::write_out() {
  next_action a = action(next_action::kind::write);
  a.bytes = m_pipe.take_output();
  return a;
}

next_action handshake::finish() {
  if (m_error) return fail(*m_error);
  m_done = true;
  auto& notices = m_pipe.global_notices();
  for (auto& n : notices) m_info.global_notices.push_back(std::move(n));
  notices.clear();
  return action(next_action::kind::done);
}

next_action handshake::fail(error e) {
  m_done = true;
  m_error = e;
  next_action a = action(next_action::kind::done);
  a.err = std::move(e);
  return a;
}

} // namespace cdk::session
