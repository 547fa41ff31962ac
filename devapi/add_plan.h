// What add() sends, decided before anything is sent: the documents as they
// go on the wire (spliced with a local id where the client makes ids) and the
// ids made here. Private header; plan_add() is unit-tested without a server.
#pragma once

#include "cdk/docid/custom.h"
#include "cdk/foundation/error.h"
#include "cdk/protocol/crud.h"
#include "cdk/protocol/pipeline.h"

#include <cstddef>
#include <mysqlx/detail/export.h>
#include <string>
#include <string_view>
#include <vector>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

struct session_impl;

struct add_plan {
  std::string spliced;                // the documents that got an id, back to back
  std::vector<std::string_view> docs; // what to send: views of the input or of `spliced`
  std::vector<std::string> ids;       // client_ids: the ids made, in document order
  std::size_t missing_ids = 0;        // documents without `_id`
};

/// Scans every document (a bad one fails the whole call, naming its index,
/// nothing sent) and, with client_ids, gives each document without `_id` one
/// from the process-wide generator, or from `custom` when it is set (each
/// value checked; a bad one fails the call, naming the document). The views in
/// `docs` point into the input and into the plan itself: do not copy the plan
/// (move it).
cdk::result<add_plan> plan_add(std::vector<std::string_view> docs, bool client_ids,
                               const cdk::docid::custom_id_generator& custom = {});

/// Sends the Insert and reads its reply (a server error is thrown). When the
/// encoded Insert would exceed the session's maximum message size, it is
/// split into several Inserts, pipelined, inside one transaction (opened
/// here unless the session is already in one); the replies are merged.
cdk::protocol::reply run_insert(session_impl& sess, const cdk::protocol::doc_insert& ins);

} // namespace detail
MYSQLX_NAMESPACE_END
