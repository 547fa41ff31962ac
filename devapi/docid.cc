// describeDocId(): the public face of cdk::docid::classify(); and an
// application's own id generator on a Session.
#include "cdk/docid/decode.h"
#include "devapi/session_impl.h"
#include "devapi/throw_error.h"

#include <mysqlx/docid.h>
#include <mysqlx/session.h>

MYSQLX_NAMESPACE_BEGIN

DocIdInfo describeDocId(std::string_view id) {
  const cdk::docid::id_info info = cdk::docid::classify(id);
  DocIdInfo out;
  switch (info.format) {
  case cdk::docid::id_format::server:
    out.format = DocIdFormat::SERVER;
    out.prefix = info.server.prefix;
    out.serverStartTime = info.server.start_time;
    out.serial = info.server.serial;
    break;
  case cdk::docid::id_format::local:
    out.format = DocIdFormat::CLIENT;
    out.unixMillis = info.local.unix_ms;
    out.counter = info.local.counter;
    break;
  case cdk::docid::id_format::opaque:
    out.format = DocIdFormat::OPAQUE;
    if (info.why_opaque) out.whyOpaque = info.why_opaque;
    break;
  }
  return out;
}

void Session::set_docid_source(std::unique_ptr<detail::docid_source> source) {
  auto& sess = *m_impl;
  if (sess.policy.mode == cdk::docid_mode::server)
    detail::throw_error(cdk::error::client(
        cdk::client_errc::usage, "setDocIdGenerator(): the session's docid-mode is server, so "
                                 "the server makes document ids; use docid-mode auto or client"));
  std::shared_ptr<detail::docid_source> src(std::move(source));
  sess.id_generator = [src] { return src->next(); };
  sess.policy.origin = cdk::docid::id_origin::client;
}

void Session::resetDocIdGenerator() {
  auto& sess = *m_impl;
  sess.id_generator = nullptr;
  sess.policy = detail::value_or_throw(
      cdk::docid::choose_policy(sess.policy.mode, sess.policy.server_generates));
}

MYSQLX_NAMESPACE_END
