#include <cstring>
#include <mysqlx/error.h>
#include <ostream>

MYSQLX_NAMESPACE_BEGIN

Error::Error(const std::string& message) : std::runtime_error(message) {}
Error::Error(const char* message) : std::runtime_error(message ? message : "") {}

Error::Error(Kind kind, std::uint32_t code, const std::string& sql_state,
             const std::string& message, bool fatal)
    : std::runtime_error(message), m_code(code), m_kind(kind), m_fatal(fatal) {
  const std::size_t n = sql_state.size() < 5 ? sql_state.size() : 5;
  std::memcpy(m_sql_state, sql_state.data(), n);
  m_sql_state[n] = '\0';
}

ServerError::ServerError(std::uint32_t code, const std::string& sql_state,
                         const std::string& message, bool fatal)
    : Error(Kind::SERVER, code, sql_state, message, fatal) {}

// A broken connection always ends the session.
ConnectionError::ConnectionError(std::uint32_t code, const std::string& message,
                                 const std::string& sql_state)
    : Error(Kind::CONNECTION, code, sql_state, message, true) {}

ClientError::ClientError(std::uint32_t code, const std::string& message,
                         const std::string& sql_state, bool fatal)
    : Error(Kind::CLIENT, code, sql_state, message, fatal) {}

std::string Error::sqlState() const {
  return std::string(m_sql_state);
}

const std::vector<std::string>& Error::getGeneratedIds() const noexcept {
  static const std::vector<std::string> none;
  return m_ids ? *m_ids : none;
}

std::ostream& operator<<(std::ostream& out, const Error& err) {
  return out << err.what();
}

void throw_error(const char* msg) {
  throw Error(msg);
}

MYSQLX_NAMESPACE_END
