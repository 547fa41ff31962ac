// The common base of Schema, Collection and Table: a named database object
// of a session.
#pragma once

#include <memory>
#include <mysqlx/detail/export.h>
#include <mysqlx/detail/impl_ptr.h>
#include <mysqlx/string.h>
#include <string>

MYSQLX_NAMESPACE_BEGIN
class Session;
namespace detail {

struct object_ref; // defined with the session layer

/// Copying an object copies the reference (cheap: no round trip); copies
/// refer to the same database object. The reference shares the session's
/// connection state, so an object may outlive its Session object and fails
/// cleanly once the session is closed. Moving copies too: a moved-from
/// object still refers to the same database object.
class MYSQLX_EXPORT object_base {
public:
  /// The object's name.
  const string& getName() const noexcept;
  /// The session this object belongs to, as Connector/C++ 8 gives it: a
  /// Session that shares the connection of the one the object came from
  /// (statements on either are the same session's, in one transaction).
  /// Destroying the object does not close it; calling close() on it does
  /// close that connection, as it would on the original.
  Session& getSession();
  /// The same.
  const Session& getSession() const;

protected:
  explicit object_base(std::unique_ptr<object_ref> ref) noexcept;
  object_base(const object_base& other);
  // NOLINTNEXTLINE(performance-noexcept-move-constructor): a move copies
  object_base(object_base&& other);
  object_base& operator=(const object_base& other);
  // NOLINTNEXTLINE(performance-noexcept-move-constructor): a move copies
  object_base& operator=(object_base&& other);
  ~object_base();

  impl_ptr<object_ref> m_ref;
  friend struct access;
};

} // namespace detail
MYSQLX_NAMESPACE_END
