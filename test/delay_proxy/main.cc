// xdelay: a TCP proxy on loopback that holds every byte for a fixed time in
// each direction, so that a session sees a network's round trip without a
// network. See README.md.
#include "relay.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <netdb.h>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace {

volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_signal(int) {
  g_stop = 1;
}

const char usage[] =
    "usage: xdelay --listen PORT --target HOST:PORT --delay-ms D [--pid-file F] [--flights-log F]\n"
    "  listens on 127.0.0.1:PORT (0: any free port), prints the port once ready,\n"
    "  relays each connection to HOST:PORT holding every byte D ms each way;\n"
    "  --flights-log: appends `flights N` per closed connection (the client's\n"
    "  flights: each one after a reply is a round trip it waited for)\n";

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "xdelay: %s\n", what.c_str());
  std::exit(1);
}

[[noreturn]] void bad_usage(const std::string& what) {
  std::fprintf(stderr, "xdelay: %s\n%s", what.c_str(), usage);
  std::exit(2);
}

struct options {
  std::string listen, host, port, pid_file, flights_log;
  double delay_ms = -1;
};

bool is_port(const std::string& s) {
  char* end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  return !s.empty() && *end == '\0' && v >= 0 && v <= 65535;
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; i += 2) {
    const std::string opt = argv[i];
    if (opt == "-h" || opt == "--help") {
      std::fputs(usage, stdout);
      std::exit(0);
    }
    if (i + 1 >= argc) bad_usage("option " + opt + " needs a value");
    const std::string value = argv[i + 1];
    if (opt == "--listen") {
      o.listen = value;
    } else if (opt == "--target") {
      // HOST:PORT, or [IPv6]:PORT
      const auto colon = value.rfind(':');
      if (colon == std::string::npos) bad_usage("--target: expected HOST:PORT");
      o.host = value.substr(0, colon);
      o.port = value.substr(colon + 1);
      if (o.host.size() > 2 && o.host.front() == '[' && o.host.back() == ']')
        o.host = o.host.substr(1, o.host.size() - 2);
    } else if (opt == "--delay-ms") {
      char* end = nullptr;
      o.delay_ms = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !std::isfinite(o.delay_ms) || o.delay_ms < 0 ||
          o.delay_ms > 3'600'000)
        bad_usage("--delay-ms: expected milliseconds >= 0, e.g. 0.25");
    } else if (opt == "--pid-file") {
      o.pid_file = value;
    } else if (opt == "--flights-log") {
      o.flights_log = value;
    } else {
      bad_usage("unknown option " + opt);
    }
  }
  if (!is_port(o.listen)) bad_usage("--listen PORT is required (0..65535)");
  if (o.host.empty() || !is_port(o.port) || o.port == "0")
    bad_usage("--target HOST:PORT is required");
  if (o.delay_ms < 0) bad_usage("--delay-ms D is required");
  return o;
}

// Resolved once: every client connection goes to the same address.
sockaddr_storage resolve(const options& o, socklen_t& len) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (const int rc = ::getaddrinfo(o.host.c_str(), o.port.c_str(), &hints, &found); rc != 0)
    fail("--target " + o.host + ": " + ::gai_strerror(rc));
  sockaddr_storage addr{};
  std::memcpy(&addr, found->ai_addr, found->ai_addrlen);
  len = found->ai_addrlen;
  ::freeaddrinfo(found);
  return addr;
}

xdelay::unique_fd listen_on(const std::string& port, std::uint16_t& bound) {
  xdelay::unique_fd fd(::socket(AF_INET, SOCK_STREAM, 0));
  if (!fd.valid()) fail(std::string("socket: ") + std::strerror(errno));
  const int one = 1;
  ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(std::stoi(port)));
  socklen_t len = sizeof addr;
  if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&addr), len) < 0 ||
      ::listen(fd.get(), SOMAXCONN) < 0 ||
      ::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&addr), &len) < 0)
    fail("listen on 127.0.0.1:" + port + ": " + std::strerror(errno));
  xdelay::make_relay_socket(fd.get());
  bound = ntohs(addr.sin_port);
  return fd;
}

// Removed on a clean exit, so a stale file means the proxy died.
class pid_file {
public:
  explicit pid_file(std::string path) : m_path(std::move(path)) {
    if (m_path.empty()) return;
    std::ofstream f(m_path);
    f << ::getpid() << '\n';
    if (!f.flush()) fail("--pid-file " + m_path + ": cannot write");
  }
  pid_file(const pid_file&) = delete;
  pid_file& operator=(const pid_file&) = delete;
  ~pid_file() {
    if (!m_path.empty()) std::remove(m_path.c_str());
  }

private:
  std::string m_path;
};

} // namespace

int main(int argc, char** argv) {
  const options opt = parse(argc, argv);
  socklen_t target_len = 0;
  const sockaddr_storage target = resolve(opt, target_len);
  std::uint16_t port = 0;
  xdelay::unique_fd listener = listen_on(opt.listen, port);
#ifdef __linux__
  // Timers may fire up to the thread's slack late (50 us by default), which
  // is a tenth of a 0.5 ms delay; 1 ns asks for them on time.
  ::prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
#endif

  // SIGTERM and SIGINT are taken only inside ppoll (see relay::run).
  sigset_t stop_signals, wait_mask;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  sigprocmask(SIG_BLOCK, &stop_signals, &wait_mask);
  sigdelset(&wait_mask, SIGTERM);
  sigdelset(&wait_mask, SIGINT);
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);

  const pid_file pid(opt.pid_file);
  std::printf("%u\n", static_cast<unsigned>(port));
  std::fflush(stdout);
  try {
    const auto delay = std::chrono::duration_cast<xdelay::clock::duration>(
        std::chrono::duration<double, std::milli>(opt.delay_ms));
    xdelay::relay r(std::move(listener), target, target_len, delay);
    r.set_flights_log(opt.flights_log);
    r.run(g_stop, wait_mask);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "xdelay: %s\n", e.what());
    return 1;
  }
  return 0;
}
