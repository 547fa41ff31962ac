// The common base of Schema, Collection and Table: a named database object
// of a session.
#pragma once

#include <memory>
#include <mysqlx/detail/export.h>
#include <string>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

struct object_ref; // defined with the session layer

/// Copying an object copies the reference (cheap: no round trip); copies
/// refer to the same database object. The reference shares the session's
/// connection state, so an object may outlive its Session object and fails
/// cleanly once the session is closed.
class MYSQLX_EXPORT object_base {
public:
  const std::string& getName() const noexcept;

protected:
  explicit object_base(std::unique_ptr<object_ref> ref) noexcept;
  object_base(const object_base& other);
  object_base(object_base&& other) noexcept;
  object_base& operator=(const object_base& other);
  object_base& operator=(object_base&& other) noexcept;
  ~object_base();

  std::unique_ptr<object_ref> m_ref;
  friend struct access;
};

} // namespace detail
MYSQLX_NAMESPACE_END
