#include "test/xserver/server_state.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string_view>
#include <sys/socket.h>

namespace xserver {

static bool parse_uint(const char* s, std::uint64_t max, std::uint64_t& out) {
  if (!s || !*s) return false;
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s, &end, 10);
  if (errno || *end || v > max || *s == '-') return false;
  out = v;
  return true;
}

std::optional<server_config> parse_args(int argc, char** argv, std::string& err) {
  server_config cfg;
  for (int i = 1; i < argc; ++i) {
    std::string opt = argv[i];
    if (i + 1 >= argc) {
      err = "option " + opt + " needs a value";
      return std::nullopt;
    }
    const char* val = argv[++i];
    std::uint64_t n = 0;
    if (opt == "--port" && parse_uint(val, 65535, n) && n > 0) {
      cfg.port = static_cast<std::uint16_t>(n);
    } else if (opt == "--bind") {
      cfg.bind_address = val;
    } else if (opt == "--bind6") {
      cfg.bind_address6 = val;
    } else if (opt == "--socket") {
      cfg.unix_socket = val;
    } else if (opt == "--mariadb-socket") {
      cfg.mariadb_socket = val;
    } else if (opt == "--mariadb-user") {
      cfg.mariadb_user = val;
    } else if (opt == "--state-dir") {
      cfg.state_dir = val;
    } else if (opt == "--emulate" && (!std::strcmp(val, "8.0") || !std::strcmp(val, "5.7"))) {
      cfg.emulate_57 = !std::strcmp(val, "5.7");
    } else if (opt == "--unique-prefix" && parse_uint(val, 65535, n)) {
      cfg.unique_prefix = static_cast<std::uint32_t>(n);
    } else if (opt == "--tls-cert") {
      cfg.tls_cert = val;
    } else if (opt == "--tls-key") {
      cfg.tls_key = val;
    } else if (opt == "--max-message-size" && parse_uint(val, 1ull << 30, n) && n >= 512) {
      cfg.max_message_size = n;
    } else if (opt == "--compression-algorithms") {
      std::uint32_t bits = 0;
      for (std::string_view rest = val; !rest.empty();) {
        const std::size_t comma = rest.find(',');
        const std::string_view name = rest.substr(0, comma);
        bits |= name == "deflate_stream" ? 1
                : name == "lz4_message"  ? 2
                : name == "zstd_stream"  ? 4
                                         : 8;
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      }
      if (bits > 7) {
        err = "--compression-algorithms: a comma list of deflate_stream, lz4_message, zstd_stream";
        return std::nullopt;
      }
      cfg.compression_algorithms = bits;
    } else if (opt == "--compression-style" &&
               (!std::strcmp(val, "group") || !std::strcmp(val, "multiple") ||
                !std::strcmp(val, "single"))) {
      cfg.compression_style = val;
    } else if (opt == "--pid-file") {
      cfg.pid_file = val;
    } else {
      err = "bad option or value: " + opt + " " + val;
      return std::nullopt;
    }
  }
  if (cfg.port == 0 || cfg.mariadb_socket.empty() || cfg.state_dir.empty()) {
    err = "--port, --mariadb-socket and --state-dir are required";
    return std::nullopt;
  }
  return cfg;
}

static std::uint64_t read_number(const std::string& path, std::uint64_t fallback) {
  std::ifstream in(path);
  std::uint64_t v = 0;
  return (in >> v) ? v : fallback;
}

static bool write_number(const std::string& path, long long v) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!(out << v << '\n')) return false;
  }
  return std::rename(tmp.c_str(), path.c_str()) == 0;
}

static std::uint64_t choose_start_timestamp(const std::string& file) {
  using namespace std::chrono;
  const auto now = static_cast<std::uint64_t>(
      duration_cast<seconds>(system_clock::now().time_since_epoch()).count());
  const std::uint64_t last = read_number(file, 0);
  const std::uint64_t start = std::max(now, last + 1);
  write_number(file, start);
  return start;
}

server_state::server_state(server_config cfg)
    : m_cfg(std::move(cfg)), m_generator(choose_start_timestamp(state_file("start_timestamp"))),
      m_xvars(xvar_defaults(m_cfg.emulate_57)) {
  if (m_cfg.unique_prefix) set_value(xvar_id::document_id_unique_prefix, *m_cfg.unique_prefix);
  if (m_cfg.max_message_size)
    set_value(xvar_id::max_allowed_packet, static_cast<long long>(*m_cfg.max_message_size));
  if (m_cfg.compression_algorithms)
    set_value(xvar_id::compression_algorithms, *m_cfg.compression_algorithms);
  // Persisted values, checked as a SET would check them (a bad one is
  // ignored, an out-of-range one clamped).
  for (const auto& d : xvar_table()) {
    std::ifstream in(state_file(d.name));
    long long v = 0;
    if (!(in >> v)) continue;
    const auto checked =
        check_xvar_value(d, sql_value{sql_value::kind::integer, v, ""}, xvar_default(d, false));
    if (!checked.error) set_value(d.id, checked.value);
  }
}

void server_state::set_value(xvar_id id, long long v) {
  std::lock_guard<std::mutex> lock(m_xvars_mutex);
  m_xvars[static_cast<std::size_t>(id)] = v;
}

long long server_state::xvar(xvar_id id) const {
  std::lock_guard<std::mutex> lock(m_xvars_mutex);
  return m_xvars[static_cast<std::size_t>(id)];
}

xvar_values server_state::xvars() const {
  std::lock_guard<std::mutex> lock(m_xvars_mutex);
  return m_xvars;
}

compression_settings server_state::compression() const {
  const xvar_values v = xvars();
  auto get = [&](xvar_id id) { return static_cast<int>(v[static_cast<std::size_t>(id)]); };
  const int algorithms = get(xvar_id::compression_algorithms); // bits as in the SET's members
  compression_settings c;
  c.deflate = algorithms & 1;
  c.lz4 = algorithms & 2;
  c.zstd = algorithms & 4;
  c.deflate_default = get(xvar_id::deflate_default_compression_level);
  c.lz4_default = get(xvar_id::lz4_default_compression_level);
  c.zstd_default = get(xvar_id::zstd_default_compression_level);
  c.deflate_max = get(xvar_id::deflate_max_client_compression_level);
  c.lz4_max = get(xvar_id::lz4_max_client_compression_level);
  c.zstd_max = get(xvar_id::zstd_max_client_compression_level);
  return c;
}

std::string server_state::state_file(std::string_view name) const {
  std::string dir = m_cfg.state_dir;
  if (!dir.empty() && dir.back() != '/') dir += '/';
  return dir.append(name);
}

bool server_state::set_xvar(xvar_id id, long long value, xvar_store how, std::string& err) {
  if (how != xvar_store::running) {
    const std::string file = state_file(xserver::xvar(id).name);
    if (!write_number(file, value)) {
      err = "cannot write the persisted value to " + m_cfg.state_dir;
      return false;
    }
  }
  if (how != xvar_store::persist_only) set_value(id, value);
  return true;
}

bool server_state::admit_connection() {
  const auto max = static_cast<std::size_t>(xvar(xvar_id::max_connections));
  std::lock_guard<std::mutex> lock(m_connections_mutex);
  if (m_open_connections >= max) {
    ++m_counters.rejected;
    return false;
  }
  ++m_open_connections;
  ++m_counters.accepted;
  return true;
}

void server_state::connection_ended(close_reason why) {
  std::lock_guard<std::mutex> lock(m_connections_mutex);
  --m_open_connections;
  ++m_counters.closed;
  switch (why) {
  case close_reason::read_timeout:
  case close_reason::write_timeout:
    ++m_counters.aborted_clients;
    ++m_counters.connection_errors;
    break;
  case close_reason::connect_timeout:
    ++m_counters.connection_errors;
    break;
  case close_reason::normal:
    break;
  }
}

connection_counters server_state::counters() const {
  std::lock_guard<std::mutex> lock(m_connections_mutex);
  return m_counters;
}

void server_state::register_client(const client_entry& c) {
  std::lock_guard<std::mutex> lock(m_clients_mutex);
  m_clients[c.id] = c;
}

void server_state::unregister_client(std::uint64_t id) {
  std::lock_guard<std::mutex> lock(m_clients_mutex);
  m_clients.erase(id);
}

std::vector<client_entry> server_state::clients() const {
  std::lock_guard<std::mutex> lock(m_clients_mutex);
  std::vector<client_entry> out;
  for (const auto& [id, c] : m_clients) out.push_back(c);
  return out;
}

bool server_state::kill_client(std::uint64_t id, std::uint64_t& sql_session) {
  // Under the lock: a session unregisters before its socket is closed, so
  // the descriptor is still that client's.
  std::lock_guard<std::mutex> lock(m_clients_mutex);
  auto it = m_clients.find(id);
  if (it == m_clients.end()) return false;
  sql_session = it->second.sql_session;
  ::shutdown(it->second.fd, SHUT_RDWR);
  // Gone at once for list_clients and a second kill, even before the
  // session's thread has noticed.
  m_clients.erase(it);
  return true;
}

void server_state::cache_sha256(const std::string& account, const std::array<unsigned char, 32>& h2,
                                const std::string& stored_hash) {
  std::lock_guard<std::mutex> lock(m_cache_mutex);
  m_sha256_cache[account] = sha256_entry{h2, stored_hash};
}

std::optional<std::array<unsigned char, 32>>
server_state::cached_sha256(const std::string& account) const {
  std::lock_guard<std::mutex> lock(m_cache_mutex);
  auto it = m_sha256_cache.find(account);
  if (it == m_sha256_cache.end()) return std::nullopt;
  return it->second.h2;
}

void server_state::forget_stale_sha256(
    const std::function<std::optional<std::string>(const std::string& account)>& current) {
  std::lock_guard<std::mutex> lock(m_cache_mutex);
  for (auto it = m_sha256_cache.begin(); it != m_sha256_cache.end();) {
    if (current(it->first) != it->second.stored_hash)
      it = m_sha256_cache.erase(it);
    else
      ++it;
  }
}

void server_state::clear_sha256() {
  std::lock_guard<std::mutex> lock(m_cache_mutex);
  m_sha256_cache.clear();
}

} // namespace xserver
