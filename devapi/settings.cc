// SessionSettings and ClientSettings. Every change is applied to a copy and
// checked as a whole (converted to cdk::connect_options) before it replaces
// the current options, so a failed set() leaves the settings as they were.
#include "devapi/access.h"
#include "devapi/settings_impl.h"
#include "devapi/throw_error.h"

#include <algorithm>
#include <mysqlx/settings.h>
#include <utility>

MYSQLX_NAMESPACE_BEGIN
namespace {

using detail::option_list;
using detail::settings_impl;

std::unique_ptr<settings_impl> checked(const settings_impl& current, option_list&& changes,
                                       bool allow_client) {
  auto next = std::make_unique<settings_impl>(current);
  detail::check(detail::apply_options(next->options, std::move(changes), allow_client));
  detail::value_or_throw(detail::to_connect_options(next->options));
  return next;
}

option_list uri_option(const std::string& uri) {
  option_list list;
  list.emplace_back(SessionOption::URI, Value(uri));
  return list;
}

option_list basic_options(const std::string& host, unsigned port, const std::string& user,
                          const char* pwd, const std::string& db) {
  option_list list;
  list.emplace_back(SessionOption::HOST, Value(host));
  list.emplace_back(SessionOption::PORT, Value(port));
  list.emplace_back(SessionOption::USER, Value(user));
  if (pwd) list.emplace_back(SessionOption::PWD, Value(pwd));
  if (!db.empty()) list.emplace_back(SessionOption::DB, Value(db));
  return list;
}

Value find_option(const settings_impl& impl, int opt) {
  const auto& options = impl.options;
  for (auto it = options.rbegin(); it != options.rend(); ++it) {
    if (it->first == opt) return it->second;
  }
  return Value();
}

bool has(const settings_impl& impl, int opt) {
  return std::any_of(impl.options.begin(), impl.options.end(),
                     [opt](const auto& e) { return e.first == opt; });
}

// Erasing HOST or SOCKET erases the whole fail-over list: a PORT or PRIORITY
// left behind would apply to whichever host came before it.
void erase(settings_impl& impl, int opt) {
  const bool hosts = opt == SessionOption::HOST || opt == SessionOption::SOCKET;
  auto& o = impl.options;
  o.erase(std::remove_if(o.begin(), o.end(),
                         [&](const auto& e) {
                           return e.first == opt || (hosts && (e.first == SessionOption::HOST ||
                                                               e.first == SessionOption::SOCKET ||
                                                               e.first == SessionOption::PORT ||
                                                               e.first == SessionOption::PRIORITY));
                         }),
          o.end());
}

constexpr unsigned default_port = 33060;

} // namespace

// SessionSettings

SessionSettings::SessionSettings() : m_impl(std::make_unique<settings_impl>()) {}
SessionSettings::SessionSettings(option_list&& options) : SessionSettings() {
  do_set(std::move(options));
}
SessionSettings::SessionSettings(const std::string& uri) : SessionSettings(uri_option(uri)) {}
SessionSettings::SessionSettings(const char* uri) : SessionSettings(uri_option(uri ? uri : "")) {}
SessionSettings::SessionSettings(const std::string& host, unsigned port, const std::string& user,
                                 const char* pwd, const std::string& db)
    : SessionSettings(basic_options(host, port, user, pwd, db)) {}
SessionSettings::SessionSettings(const std::string& host, unsigned port, const std::string& user,
                                 const std::string& pwd, const std::string& db)
    : SessionSettings(basic_options(host, port, user, pwd.c_str(), db)) {}
SessionSettings::SessionSettings(const std::string& host, const std::string& user, const char* pwd,
                                 const std::string& db)
    : SessionSettings(basic_options(host, default_port, user, pwd, db)) {}
SessionSettings::SessionSettings(const std::string& host, const std::string& user,
                                 const std::string& pwd, const std::string& db)
    : SessionSettings(basic_options(host, default_port, user, pwd.c_str(), db)) {}
SessionSettings::SessionSettings(unsigned port, const std::string& user, const char* pwd,
                                 const std::string& db)
    : SessionSettings(basic_options("localhost", port, user, pwd, db)) {}
SessionSettings::SessionSettings(unsigned port, const std::string& user, const std::string& pwd,
                                 const std::string& db)
    : SessionSettings(basic_options("localhost", port, user, pwd.c_str(), db)) {}

const char* SessionSettings::null_password(long pwd) {
  if (pwd != 0) {
    detail::throw_error(cdk::error::client(cdk::client_errc::bad_option,
                                           "The password must be a string, or NULL for none"));
  }
  return nullptr;
}

SessionSettings::SessionSettings(const SessionSettings& other)
    : m_impl(std::make_unique<settings_impl>(*other.m_impl)) {}
SessionSettings::SessionSettings(SessionSettings&&) noexcept = default;
SessionSettings& SessionSettings::operator=(const SessionSettings& other) {
  if (this != &other) m_impl = std::make_unique<settings_impl>(*other.m_impl);
  return *this;
}
SessionSettings& SessionSettings::operator=(SessionSettings&&) noexcept = default;
SessionSettings::~SessionSettings() = default;

void SessionSettings::do_set(option_list&& options) {
  if (!m_impl) m_impl = std::make_unique<settings_impl>(); // after a move
  m_impl = checked(*m_impl, std::move(options), false);
}
Value SessionSettings::find(SessionOption opt) const {
  return find_option(*m_impl, opt);
}
bool SessionSettings::has_option(SessionOption opt) const {
  return has(*m_impl, opt);
}
void SessionSettings::erase(SessionOption opt) {
  mysqlx::erase(*m_impl, opt);
}
void SessionSettings::clear() {
  m_impl->options.clear();
}

// ClientSettings

ClientSettings::ClientSettings() : m_impl(std::make_unique<settings_impl>()) {}
ClientSettings::ClientSettings(option_list&& options) : ClientSettings() {
  do_set(std::move(options));
}
ClientSettings::ClientSettings(const std::string& uri) : ClientSettings(uri_option(uri)) {}
ClientSettings::ClientSettings(const char* uri) : ClientSettings(uri_option(uri ? uri : "")) {}

namespace {
// What a moved-from settings object iterates over.
const option_list no_options;
} // namespace

const option_list& SessionSettings::options() const noexcept {
  return m_impl ? m_impl->options : no_options;
}
const option_list& ClientSettings::options() const noexcept {
  return m_impl ? m_impl->options : no_options;
}
SessionSettings::iterator SessionSettings::begin() const noexcept {
  return iterator(&options(), 0);
}
SessionSettings::iterator SessionSettings::end() const noexcept {
  return iterator(&options(), options().size());
}
ClientSettings::iterator ClientSettings::begin() const noexcept {
  return iterator(&options(), 0);
}
ClientSettings::iterator ClientSettings::end() const noexcept {
  return iterator(&options(), options().size());
}

ClientSettings::ClientSettings(const SessionSettings& session)
    : m_impl(std::make_unique<settings_impl>(detail::access::impl(session))) {}

ClientSettings::ClientSettings(const std::string& uri, const ClientSettings& options)
    : ClientSettings(uri) {
  option_list client;
  for (const auto& entry : options.m_impl->options) {
    if (entry.first < 0) client.push_back(entry);
  }
  do_set(std::move(client));
}

ClientSettings::ClientSettings(const std::string& uri, const DbDoc& options) : ClientSettings(uri) {
  do_set(detail::value_or_throw(detail::client_options_from_json(options)));
}

ClientSettings::ClientSettings(const std::string& uri, const char* json_options)
    : ClientSettings(uri, DbDoc(std::string(json_options ? json_options : "{}"))) {}

ClientSettings::ClientSettings(const ClientSettings& other)
    : m_impl(std::make_unique<settings_impl>(*other.m_impl)) {}
ClientSettings::ClientSettings(ClientSettings&&) noexcept = default;
ClientSettings& ClientSettings::operator=(const ClientSettings& other) {
  if (this != &other) m_impl = std::make_unique<settings_impl>(*other.m_impl);
  return *this;
}
ClientSettings& ClientSettings::operator=(ClientSettings&&) noexcept = default;
ClientSettings::~ClientSettings() = default;

void ClientSettings::do_set(option_list&& options) {
  if (!m_impl) m_impl = std::make_unique<settings_impl>();
  m_impl = checked(*m_impl, std::move(options), true);
}
Value ClientSettings::find(ClientOption opt) const {
  return find_option(*m_impl, opt);
}
bool ClientSettings::has_option(ClientOption::Enum opt) const {
  return has(*m_impl, opt);
}
bool ClientSettings::has_option(SessionOption::Enum opt) const {
  return has(*m_impl, opt);
}
void ClientSettings::erase(ClientOption opt) {
  mysqlx::erase(*m_impl, opt);
}
void ClientSettings::clear() {
  m_impl->options.clear();
}

PoolOptions ClientSettings::poolOptions() const {
  return detail::to_pool_options(m_impl->options);
}

SessionSettings ClientSettings::sessionSettings() const {
  option_list session;
  for (const auto& entry : m_impl->options) {
    if (entry.first >= 0) session.push_back(entry);
  }
  return detail::access::make_session_settings(std::move(session));
}

MYSQLX_NAMESPACE_END
