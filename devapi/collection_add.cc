// Collection::add(): every document is checked before anything is sent, ids
// are made by the server or here (the session's docid policy), and
// getGeneratedIds() returns exactly the ids of the documents that lacked one,
// in document order.
#include "cdk/docid/generator.h"
#include "cdk/json/id_inject.h"
#include "cdk/json/id_scan.h"
#include "cdk/protocol/crud.h"
#include "devapi/access.h"
#include "devapi/add_plan.h"
#include "devapi/async.h"
#include "devapi/doc_impl.h"
#include "devapi/session_impl.h"
#include "devapi/throw_error.h"

#include <mysqlx/collection.h>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

namespace pr = cdk::protocol;

std::string_view doc_text(const Value& v, std::size_t index) {
  if (v.getType() == Value::STRING) return access::text_of(v);
  if (v.getType() == Value::DOCUMENT) return access::doc_of(v)->json();
  throw_error(cdk::error::client(cdk::client_errc::bad_document,
                                 "Document " + std::to_string(index + 1) +
                                     " is neither a JSON string nor a DbDoc"));
}

namespace {
// Scans document i: a client error when it is bad, else whether it has a
// top-level `_id`.
cdk::result<bool> has_id(std::string_view doc, std::size_t i) {
  const cdk::json::id_scan scan = cdk::json::scan_for_id(doc);
  if (!scan.ok()) return cdk::json::bad_document_error(i + 1, scan);
  if (scan.status != cdk::json::id_scan_status::has_id) return false;
  // MySQL 8 would test the first `_id` and store the last: refuse to guess.
  if (scan.duplicate_id)
    return cdk::error::client(cdk::client_errc::bad_document,
                              "Document " + std::to_string(i + 1) +
                                  " has more than one top-level _id");
  return true;
}
} // namespace

cdk::result<add_plan> plan_add(std::vector<std::string_view> docs, bool client_ids,
                               const cdk::docid::custom_id_generator& custom) {
  add_plan plan;
  if (!client_ids) {
    // Nothing is spliced: the documents go as they are.
    for (std::size_t i = 0; i < docs.size(); ++i) {
      auto has = has_id(docs[i], i);
      if (!has) return std::move(has).err();
      if (!has.value()) ++plan.missing_ids;
    }
    plan.docs = std::move(docs);
    return plan;
  }
  // Offsets into plan.spliced, turned into views once it stops growing.
  std::vector<std::pair<std::size_t, std::size_t>> spans(docs.size(), {0, 0});
  std::vector<bool> is_spliced(docs.size(), false);
  char id[cdk::docid::local_id_length];
  for (std::size_t i = 0; i < docs.size(); ++i) {
    auto has = has_id(docs[i], i);
    if (!has) return std::move(has).err();
    if (has.value()) continue;
    ++plan.missing_ids;
    std::string custom_id;
    std::string_view id_view(id, sizeof id);
    if (custom) {
      auto made = cdk::docid::call_custom_generator(custom);
      if (!made)
        return cdk::error::client(cdk::client_errc::bad_document,
                                  "Document " + std::to_string(i + 1) + ": " + made.err().message);
      custom_id = std::move(made).value();
      id_view = custom_id;
    } else {
      cdk::docid::generator::process().generate(id);
    }
    plan.ids.emplace_back(id_view);
    const std::size_t begin = plan.spliced.size();
    if (auto st = cdk::json::append_with_id(plan.spliced, docs[i], id_view); !st) return st.err();
    spans[i] = {begin, plan.spliced.size()};
    is_spliced[i] = true;
  }
  plan.docs.reserve(docs.size());
  for (std::size_t i = 0; i < docs.size(); ++i)
    plan.docs.push_back(is_spliced[i]
                            ? std::string_view(plan.spliced)
                                  .substr(spans[i].first, spans[i].second - spans[i].first)
                            : docs[i]);
  return plan;
}

} // namespace detail

using detail::access;
namespace pr = cdk::protocol;

namespace {
std::unique_ptr<detail::statement_impl> new_add(const detail::object_ref& ref) {
  auto st = std::make_unique<detail::statement_impl>();
  st->sess = ref.sess;
  st->schema = ref.schema;
  st->name = ref.name;
  return st;
}
} // namespace

CollectionAdd Collection::add_documents(std::vector<Value>&& docs) {
  auto st = new_add(*m_ref);
  st->docs = std::move(docs);
  return access::make_statement<CollectionAdd>(std::move(st));
}

// As Connector/C++ 8 allows: the same as coll.add().
CollectionAdd::CollectionAdd(const Collection& coll) : statement_base(new_add(access::ref(coll))) {}

CollectionAdd& CollectionAdd::add_documents(std::vector<Value>&& docs) {
  auto& d = m_impl->docs;
  d.insert(d.end(), std::make_move_iterator(docs.begin()), std::make_move_iterator(docs.end()));
  return *this;
}

namespace {

// An add() planned: its documents checked, ids made here when the client
// makes them, and its Insert.
struct planned_add {
  detail::add_plan plan;
  bool client_ids = false;
  pr::doc_insert ins;
};

planned_add plan(detail::statement_impl& st) {
  auto& sess = *st.sess;
  std::vector<std::string_view> texts;
  texts.swap(sess.doc_views); // its capacity, kept between adds
  texts.clear();
  texts.reserve(st.docs.size());
  for (std::size_t i = 0; i < st.docs.size(); ++i) texts.push_back(detail::doc_text(st.docs[i], i));
  planned_add p;
  p.client_ids = sess.policy.origin == cdk::docid::id_origin::client;
  p.plan =
      detail::value_or_throw(detail::plan_add(std::move(texts), p.client_ids, sess.id_generator));
  p.ins.schema = st.schema;
  p.ins.collection = st.name;
  return p;
}

std::unique_ptr<detail::result_impl> empty_result(const detail::statement_impl& st) {
  auto impl = std::make_unique<detail::result_impl>();
  impl->sess = st.sess;
  return impl;
}

// The result of an Insert's reply: the ids made here, or those the server
// made (its notice).
std::unique_ptr<detail::result_impl> add_result(const std::shared_ptr<detail::session_impl>& sess,
                                                pr::reply& reply, bool client_ids,
                                                std::vector<std::string>&& ids) {
  auto impl = detail::make_result(sess, reply);
  impl->generated_ids = client_ids ? std::move(ids) : std::move(reply.info.generated_ids);
  return impl;
}

} // namespace

Result CollectionAdd::execute() {
  auto& st = *m_impl;
  auto& sess = *st.sess;
  planned_add p = plan(st);
  if (p.plan.docs.empty()) return access::make_result<Result>(empty_result(st));

  sess.connection(); // throws if closed, before any work
  p.ins.docs = std::move(p.plan.docs);
  pr::reply reply = [&] {
    try {
      return detail::run_insert(sess, p.ins);
    } catch (Error& e) {
      // The ids let the application add the same documents again safely.
      if (p.client_ids) access::set_generated_ids(e, std::move(p.plan.ids));
      throw;
    }
  }();
  // Kept unless a big add() made it big: a session holds at most 16 KiB.
  if (p.ins.docs.capacity() <= 1024) sess.doc_views = std::move(p.ins.docs);
  return access::make_result<Result>(
      add_result(st.sess, reply, p.client_ids, std::move(p.plan.ids)));
}

Future<Result> CollectionAdd::executeAsync() {
  auto& st = *m_impl;
  auto& sess = *st.sess;
  const std::lock_guard<std::recursive_mutex> lock(sess.wire);
  planned_add p = plan(st);
  if (p.plan.docs.empty())
    return access::make_future<Result>(detail::async_ready(empty_result(st)));
  sess.connection(true); // throws if closed, before any work
  p.ins.docs = std::move(p.plan.docs);
  // What the server compares with its limit: the frame less its length field.
  const std::size_t size = pr::doc_insert_size(p.ins, 0, p.ins.docs.size()) - 4;
  if (size > sess.message_limit(size)) {
    // Split into several Inserts in a transaction of its own: run now, as
    // execute() does (what is in flight completes first; ids made here are
    // made again, none having been sent). What the server refuses, or a
    // connection that breaks under it, fails the future, as for an add in
    // flight; only what is wrong before anything is sent (a document above
    // the limit, a closed session: client errors) is thrown here.
    try {
      return access::make_future<Result>(detail::async_ready(access::take_impl(execute())));
    } catch (const Error& e) {
      if (e.isClientError()) throw;
      return access::make_future<Result>(detail::async_failed(st.sess, std::current_exception()));
    }
  }
  const bool client_ids = p.client_ids;
  auto ids = std::make_shared<std::vector<std::string>>(std::move(p.plan.ids));
  auto op = detail::async_send(
      st.sess, [&](std::string& out) { return pr::encode_doc_insert(out, p.ins); },
      pr::replies::statement,
      [client_ids, ids](const std::shared_ptr<detail::session_impl>& s) {
        try {
          pr::reply reply = detail::value_or_throw(detail::reading(*s).read_reply());
          if (reply.error) detail::throw_error(*reply.error);
          return add_result(s, reply, client_ids, std::move(*ids));
        } catch (Error& e) {
          if (client_ids) access::set_generated_ids(e, std::move(*ids));
          throw;
        }
      });
  // Encoded and sent: the views' capacity goes back to the session, as execute() does.
  if (p.ins.docs.capacity() <= 1024) sess.doc_views = std::move(p.ins.docs);
  return access::make_future<Result>(std::move(op));
}

MYSQLX_NAMESPACE_END
