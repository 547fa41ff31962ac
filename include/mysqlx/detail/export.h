// Visibility and ABI versioning for the public headers.
//
// libmysqlx is built with -fvisibility=hidden: only what is marked
// MYSQLX_EXPORT is exported. Every public name lives in the inline namespace
// mysqlx::abi1, so users write mysqlx::Session while the linker sees
// mysqlx::abi1::Session; an incompatible release moves to abi2 and old
// binaries keep resolving to the old symbols.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define MYSQLX_EXPORT __attribute__((visibility("default")))
#else
#define MYSQLX_EXPORT
#endif

// Opens and closes the versioned namespace; used by every public header so
// that the version is written in one place.
#define MYSQLX_NAMESPACE_BEGIN                                                                     \
  namespace mysqlx {                                                                               \
  inline namespace abi1 {
#define MYSQLX_NAMESPACE_END                                                                       \
  }                                                                                                \
  }

MYSQLX_NAMESPACE_BEGIN
namespace detail {
// The one door from devapi/ into the private members of public classes
// (defined in devapi/access.h, never installed). Public classes befriend it
// instead of listing every implementation class as a friend.
struct access;
} // namespace detail
MYSQLX_NAMESPACE_END
