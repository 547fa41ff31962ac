// Session options (mysqlx_session_options_t: devapi's ClientSettings, which
// holds session and pool options alike), sessions and clients made from
// them, and mysqlx_session_valid().
#include "devapi/access.h"
#include "xapi/handles.h"

#include <cctype>
#include <cstdarg>
#include <cstring>
#include <new>
#include <string>
#include <utility>
#include <vector>

using mysqlx::xapi::c_error;
using mysqlx::xapi::caller_error;
using mysqlx::xapi::run_plain;

namespace {

using SO = mysqlx::SessionOption;
using CO = mysqlx::ClientOption;

// How an option's value travels through `...` (the OPT_*() macros' casts).
enum class arg_kind { text, number, flag, pool_flag, pool_number, unknown };

arg_kind kind_of(int opt) {
  switch (opt) {
  case SO::URI:
  case SO::HOST:
  case SO::USER:
  case SO::PWD:
  case SO::DB:
  case SO::SSL_CA:
  case SO::SOCKET:
  case SO::CONNECTION_ATTRIBUTES:
  case SO::TLS_VERSIONS:
  case SO::TLS_CIPHERSUITES:
  case SO::COMPRESSION_ALGORITHMS:
  case SO::SSL_CAPATH:
  case SO::SSL_CRL:
  case SO::SSL_CRLPATH:
    return arg_kind::text;
  case SO::PORT:
  case SO::PRIORITY:
  case SO::CONNECT_TIMEOUT:
  case SO::SSL_MODE: // enums travel as their numbers
  case SO::AUTH:
  case SO::COMPRESSION:
    return arg_kind::number;
  case SO::DNS_SRV:
    return arg_kind::flag;
  case CO::POOLING:
    return arg_kind::pool_flag;
  case CO::POOL_MAX_SIZE:
  case CO::POOL_QUEUE_TIMEOUT:
  case CO::POOL_MAX_IDLE_TIME:
    return arg_kind::pool_number;
  default:
    return arg_kind::unknown;
  }
}

using option_pairs = mysqlx::detail::option_list;

// The official rules for text values: a host, socket or user must be given;
// no other option takes an empty string but the password and the
// compression algorithms (an empty list: no compression).
void check_text(int opt, const char* s) {
  const bool empty = s == nullptr || *s == '\0';
  if (opt == SO::HOST && empty) throw c_error(0, "Missing host name");
  if (opt == SO::SOCKET && empty) throw c_error(0, "Missing socket name");
  if (opt == SO::USER && empty) throw c_error(0, "Empty user name");
  if (s != nullptr && *s == '\0' && opt != SO::PWD && opt != SO::COMPRESSION_ALGORITHMS)
    throw c_error(0, ("Invalid empty string as value of option " + std::to_string(opt)).c_str());
}

// Reads (option, value) pairs up to PARAM_END; never throws (see read_params()).
std::exception_ptr read_options(va_list& args, option_pairs& out) noexcept {
  try {
    for (int opt = va_arg(args, int); opt != 0; opt = va_arg(args, int)) {
      switch (kind_of(opt)) {
      case arg_kind::text: {
        const char* s = va_arg(args, const char*);
        check_text(opt, s);
        out.emplace_back(opt, s == nullptr || *s == '\0' ? mysqlx::Value()
                                                         : mysqlx::Value(std::string(s)));
        break;
      }
      case arg_kind::number:
        out.emplace_back(opt, mysqlx::Value(va_arg(args, unsigned)));
        break;
      case arg_kind::flag:
      case arg_kind::pool_flag:
        out.emplace_back(opt, mysqlx::Value(va_arg(args, int) != 0));
        break;
      case arg_kind::pool_number:
        out.emplace_back(opt, mysqlx::Value(static_cast<std::uint64_t>(va_arg(args, uint64_t))));
        break;
      case arg_kind::unknown:
        // Past an unknown option the rest of the list cannot be read.
        throw c_error(0, ("Unrecognized option " + std::to_string(opt)).c_str());
      }
    }
    return nullptr;
  } catch (...) {
    return std::current_exception();
  }
}

bool same_name(const char* a, const std::string& b) {
  if (std::strlen(a) != b.size()) return false;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

// An enum option set by name (a connection string) as its number, as the
// C API reads every enum option.
template <typename E> unsigned enum_number(const std::string& name) {
  for (int n = 1; n <= 4; ++n)
    if (same_name(mysqlx::optionValueName(static_cast<E>(n)), name))
      return static_cast<unsigned>(n);
  throw c_error(0, ("Unknown option value " + name).c_str());
}

unsigned number_of(int opt, const mysqlx::Value& v) {
  if (v.getType() == mysqlx::Value::STRING) {
    const auto name = v.get<std::string>();
    if (opt == SO::SSL_MODE) return enum_number<mysqlx::SSLMode>(name);
    if (opt == SO::AUTH) return enum_number<mysqlx::AuthMethod>(name);
    if (opt == SO::COMPRESSION) return enum_number<mysqlx::CompressionMode>(name);
  }
  if (v.getType() == mysqlx::Value::BOOL) return v.get<bool>() ? 1U : 0U;
  return v.get<unsigned>();
}

} // namespace

extern "C" {

MYSQLX_C_API mysqlx_session_options_t* mysqlx_session_options_new(void) {
  try {
    // The C caller owns it: mysqlx_free_options() or mysqlx_free() deletes it.
    return new mysqlx_session_options_struct(); // NOLINT(cppcoreguidelines-owning-memory)
  } catch (...) {
    return nullptr;
  }
}

MYSQLX_C_API void mysqlx_free_options(mysqlx_session_options_t* opt) {
  delete opt; // NOLINT(cppcoreguidelines-owning-memory): made by mysqlx_session_options_new()
}

MYSQLX_C_API int mysqlx_session_option_set(mysqlx_session_options_t* opth, ...) {
  if (opth == nullptr) return RESULT_ERROR;
  option_pairs pairs;
  XAPI_READ_ARGS(failed, opth, read_options(args_, pairs));
  return run_plain(opth, [&] {
    if (failed) std::rethrow_exception(failed);
    // All or nothing: the pairs go to a copy, which replaces the options.
    // They are set in one step, so that a host and the port and priority
    // after it are checked together.
    mysqlx::ClientSettings next(opth->m_settings);
    mysqlx::detail::option_list values;
    for (auto& [opt, value] : pairs) {
      // NULL text unsets the option (PWD: no password), as the official
      // library takes it, except the compression algorithms: NULL or ""
      // is the empty list there, devapi's null (no compression).
      if (value.isNull() && opt != SO::COMPRESSION_ALGORITHMS) {
        if (opt == SO::URI) throw c_error(0, "Missing connection string");
        next.erase(mysqlx::ClientOption(static_cast<SO::Enum>(opt)));
        continue;
      }
      values.emplace_back(opt, std::move(value));
    }
    mysqlx::detail::access::set_options(next, std::move(values));
    opth->m_settings = std::move(next);
  });
}

MYSQLX_C_API int mysqlx_session_option_get(mysqlx_session_options_t* opth, int opt, ...) {
  if (opth == nullptr) return RESULT_ERROR;
  void* out = nullptr;
  {
    va_list args;
    va_start(args, opt);
    out = va_arg(args, void*);
    va_end(args);
  }
  return run_plain(opth, [&] {
    const arg_kind kind = kind_of(opt);
    if (opt < 0 || kind == arg_kind::unknown)
      throw c_error(0, ("Unrecognized session option " + std::to_string(opt)).c_str());
    const auto o = static_cast<SO::Enum>(opt);
    if (!opth->m_settings.has_option(o)) throw c_error(0, "Option is not set");
    if (out == nullptr) throw c_error(0, MYSQLX_ERROR_OUTPUT_BUFFER_NULL);
    const mysqlx::Value v = opth->m_settings.find(mysqlx::ClientOption(o));
    if (kind == arg_kind::text) {
      // The caller's buffer is taken to be large enough, as documented.
      const std::string s = v.isNull() ? std::string() : v.get<std::string>();
      std::memcpy(out, s.c_str(), s.size() + 1);
    } else {
      *static_cast<unsigned*>(out) = number_of(opt, v);
    }
  });
}

MYSQLX_C_API mysqlx_session_t* mysqlx_get_session_from_options(mysqlx_session_options_t* opt,
                                                               mysqlx_error_t** error) {
  if (error != nullptr) *error = nullptr;
  try {
    if (opt == nullptr) throw c_error(0, MYSQLX_ERROR_HANDLE_NULL_MSG);
    return mysqlx::xapi::connect(opt->m_settings.sessionSettings(), error);
  } catch (...) {
    return caller_error(error);
  }
}

MYSQLX_C_API mysqlx_client_t* mysqlx_get_client_from_options(mysqlx_session_options_t* opt,
                                                             mysqlx_error_t** error) {
  if (error != nullptr) *error = nullptr;
  try {
    if (opt == nullptr) throw c_error(0, MYSQLX_ERROR_HANDLE_NULL_MSG);
    return new mysqlx_client_struct(mysqlx::Client(opt->m_settings));
  } catch (...) {
    caller_error(error);
    return nullptr;
  }
}

MYSQLX_C_API int mysqlx_session_valid(mysqlx_session_t* sess) {
  if (sess == nullptr) return 0;
  // No round trip: whether the session still holds its connection.
  const auto& impl = mysqlx::detail::access::impl(sess->m_sess);
  return impl && impl->conn ? 1 : 0;
}

} // extern "C"
