// xserverd: an X Protocol server on MariaDB, for tests (README.md).
// One thread per connection; see session.h.
#include "cdk/foundation/server_socket.h"
#include "test/xserver/session.h"

#include <csignal>
#include <cstdio>
#include <exception>
#include <fstream>
#include <optional>
#include <thread>
#include <unistd.h>

namespace {

cdk::listener* g_listener = nullptr;
cdk::listener* g_listener6 = nullptr; // ::1, when it could be opened

void on_signal(int) {
  // Wakes accept(); the loop then ends and the process exits.
  if (g_listener) g_listener->shutdown();
  if (g_listener6) g_listener6->shutdown();
}

void log(const std::string& msg) {
  std::fprintf(stderr, "xserverd: %s\n", msg.c_str());
}

// Waits (up to 30 s) until MariaDB accepts xserverd's account.
bool wait_for_mariadb(const xserver::server_config& cfg) {
  xserver::x_error err;
  for (int i = 0; i < 300; ++i) {
    if (xserver::mariadb_conn::connect(cfg.mariadb_socket, cfg.mariadb_user, err)) return true;
    ::usleep(100000);
  }
  log("MariaDB at " + cfg.mariadb_socket + " does not answer: " + err.message);
  return false;
}

// Accepts until shutdown(): one thread per connection.
void serve(cdk::listener& l, xserver::server_state& state) {
  for (;;) {
    auto conn = l.accept(std::chrono::milliseconds(0));
    if (!conn) {
      if (conn.err().code == cdk::client_errc::usage) break; // shut down by a signal
      ::usleep(10000); // e.g. out of file descriptors: do not spin
      continue;
    }
    // Over mysqlx_max_connections: closed unanswered, as MySQL does.
    if (!state.admit_connection()) continue;
    std::thread([&state, io = std::move(conn).value()]() mutable {
      auto why = xserver::close_reason::normal;
      // One bad connection (e.g. std::bad_alloc) must not end the server.
      try {
        xserver::session s(state, std::move(io));
        why = s.run();
      } catch (const std::exception& e) {
        log(std::string("session ended by an exception: ") + e.what());
      }
      state.connection_ended(why);
    }).detach();
  }
}

} // namespace

int run_server(int argc, char** argv) {
  std::string err;
  auto cfg = xserver::parse_args(argc, argv, err);
  if (!cfg) {
    log(err);
    log("usage: xserverd --port P --mariadb-socket S --state-dir D [--emulate 8.0|5.7] "
        "[--unique-prefix N] [--tls-cert F --tls-key F] [--max-message-size B] [--pid-file F] "
        "[--compression-algorithms a,b] [--compression-style group|multiple|single]");
    return 2;
  }
  xserver::server_state state(*cfg);
  if (!cfg->tls_cert.empty()) {
    auto ctx = cdk::tls_server_context::from_files(cfg->tls_cert, cfg->tls_key);
    if (!ctx) {
      log("TLS: " + ctx.err().message);
      return 1;
    }
    state.set_tls(std::move(ctx).value());
  }
  if (!wait_for_mariadb(*cfg)) return 1;
  auto listener = cdk::listener::listen_tcp(cfg->bind_address, cfg->port, 128);
  if (!listener) {
    log("listen: " + listener.err().message);
    return 1;
  }
  g_listener = &listener.value();
  // The IPv6 loopback on the same port. A host without IPv6 keeps IPv4 only.
  std::optional<cdk::listener> listener6;
  if (!cfg->bind_address6.empty()) {
    auto l6 = cdk::listener::listen_tcp(cfg->bind_address6, listener.value().port(), 128);
    if (l6) {
      listener6.emplace(std::move(l6).value());
      g_listener6 = &*listener6;
    } else {
      log("listen (IPv6, left out): " + l6.err().message);
    }
  }
  // The X Plugin's Unix socket (mysqlx_socket): local clients, for which
  // PLAIN is allowed without TLS (session::secure()).
  std::optional<cdk::listener> listener_unix;
  if (!cfg->unix_socket.empty()) {
    auto lu = cdk::listener::listen_unix(cfg->unix_socket, 128);
    if (!lu) {
      log("listen (" + cfg->unix_socket + "): " + lu.err().message);
      return 1;
    }
    listener_unix.emplace(std::move(lu).value());
  }
  std::signal(SIGPIPE, SIG_IGN);
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  ::sigaction(SIGTERM, &sa, nullptr);
  ::sigaction(SIGINT, &sa, nullptr);
  if (!cfg->pid_file.empty()) std::ofstream(cfg->pid_file) << ::getpid() << '\n';
  log("listening on " + g_listener->address() +
      (g_listener6 ? " and " + g_listener6->address() : std::string()) +
      (listener_unix ? " and " + cfg->unix_socket : std::string()) +
      (cfg->emulate_57 ? " (MySQL 5.7 emulation)" : " (MySQL 8.0)") + ", id prefix " +
      std::to_string(state.unique_prefix()) + ", start timestamp " +
      std::to_string(state.generator().timestamp()));
  if (g_listener6) std::thread([&state] { serve(*g_listener6, state); }).detach();
  if (listener_unix)
    std::thread([&state, &listener_unix] { serve(*listener_unix, state); }).detach();
  serve(*g_listener, state);
  log("stopping");
  if (!cfg->pid_file.empty()) ::unlink(cfg->pid_file.c_str());
  if (listener_unix) ::unlink(cfg->unix_socket.c_str()); // _Exit skips its destructor
  // Sessions end with the process; MariaDB rolls back their transactions.
  std::_Exit(0);
}

int main(int argc, char** argv) {
  try {
    return run_server(argc, argv);
  } catch (const std::exception& e) {
    log(std::string("fatal: ") + e.what());
    return 1;
  }
}
