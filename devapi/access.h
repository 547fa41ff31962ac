// detail::access: the one door from devapi/ into the private members of the
// public classes (they befriend it; see include/mysqlx/detail/export.h).
// Private header: never installed.
#pragma once

#include "devapi/result_data.h"
#include "devapi/schema_options.h"
#include "devapi/session_impl.h"

#include <memory>
#include <mysqlx/error.h>
#include <mysqlx/future.h>
#include <mysqlx/result.h>
#include <mysqlx/session.h>
#include <mysqlx/settings.h>
#include <mysqlx/value.h>
#include <string_view>
#include <utility>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

struct access {
  // Error
  static void set_maybe_applied(Error& e, bool maybe) noexcept { e.m_maybe_applied = maybe; }
  static void set_generated_ids(Error& e, std::vector<std::string> ids) {
    e.m_ids = std::make_shared<const std::vector<std::string>>(std::move(ids));
  }

  // Value
  static bool is_expression(const Value& v) noexcept { return v.m_expr; }
  static Value make_array(std::vector<Value>&& items) {
    return Value(std::move(items), Value::array_tag{});
  }
  static Value make_document(std::shared_ptr<const doc_impl> doc) {
    return Value(DbDoc(std::move(doc)));
  }
  static const std::shared_ptr<const doc_impl>& doc_of(const Value& v) noexcept { return v.m_doc; }
  static const std::shared_ptr<const std::vector<Value>>& array_of(const Value& v) noexcept {
    return v.m_arr;
  }
  static const std::string& text_of(const Value& v) noexcept { return v.m_str; }
  /// For release_array() only: an array's items are not const objects
  /// (value.cc makes the vector non-const), so one being freed may give up
  /// the arrays nested in it.
  static std::shared_ptr<const std::vector<Value>>& array_of_mutable(const Value& v) noexcept {
    return const_cast<Value&>(v).m_arr; // NOLINT(cppcoreguidelines-pro-type-const-cast)
  }

  // DbDoc
  static const std::shared_ptr<const doc_impl>& impl(const DbDoc& d) noexcept { return d.m_impl; }
  static DbDoc make_doc(std::shared_ptr<const doc_impl> impl) noexcept {
    return DbDoc(std::move(impl));
  }

  // CollectionOptions, CollectionValidation
  static const collection_options_impl& impl(const CollectionOptions& o) noexcept {
    return *o.m_impl;
  }

  // Row
  static std::vector<Value>& values(Row& r) noexcept { return r.m_values; }

  // Column
  static Column make_column(std::unique_ptr<column_data> data) noexcept {
    return Column(std::move(data));
  }

  // Session layer
  static const std::shared_ptr<session_impl>& impl(const Session& s) noexcept { return s.m_impl; }
  static std::shared_ptr<session_impl>& impl_of(Session& s) noexcept { return s.m_impl; }
  /// A Session object on an open session's state (object_base::getSession()).
  static Session make_session(std::shared_ptr<session_impl> sess) {
    return Session(std::move(sess));
  }
  static const std::shared_ptr<client_impl>& impl(const Client& c) noexcept { return c.m_impl; }
  static object_ref& ref(const object_base& o) noexcept { return *o.m_ref; }
  template <typename T>
  static T make_object(std::shared_ptr<session_impl> sess, std::string schema, std::string name) {
    return T(std::make_unique<object_ref>(
        object_ref{std::move(sess), std::move(schema), std::move(name), nullptr, -1}));
  }
  template <typename T> static T make_statement(std::unique_ptr<statement_impl> impl) {
    return T(std::move(impl));
  }
  static statement_impl& impl(statement_base& s) noexcept { return *s.m_impl; }
  template <typename R> static Future<R> make_future(std::shared_ptr<async_op> op) noexcept {
    return Future<R>(std::move(op));
  }
  template <typename T> static T make_result(std::unique_ptr<result_impl> impl) {
    T r;
    static_cast<result_base&>(r).m_impl = std::move(impl);
    return r;
  }
  static result_impl& impl(const result_base& r);
  static std::unique_ptr<result_impl> take_impl(result_base&& r) noexcept {
    return std::move(r.m_impl);
  }

  // Settings
  static const settings_impl& impl(const SessionSettings& s) noexcept { return *s.m_impl; }
  static const settings_impl& impl(const ClientSettings& s) noexcept { return *s.m_impl; }
  static SessionSettings make_session_settings(option_list&& options) {
    return SessionSettings(std::move(options));
  }
  // Sets (option, value) pairs at once, as one set() call with them all
  // would (the C API's mysqlx_session_option_set()).
  static void set_options(ClientSettings& s, option_list&& options) {
    s.do_set(std::move(options));
  }
};

} // namespace detail
MYSQLX_NAMESPACE_END
