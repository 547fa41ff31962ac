// The per-session document-id policy: who makes the `_id` of a document that
// add() receives without one. A pure function of the docid-mode option and of
// the handshake probe (Expect.Open{EXPECT_DOCID_GENERATED}: ok on MySQL 8.0,
// error 5160 on 5.7), so it is decided once, at session creation.
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/foundation/options.h"

#include <cstdint>

namespace cdk::docid {

enum class id_origin : std::uint8_t {
  server, // send documents without `_id`; read ids from GENERATED_DOCUMENT_IDS
  client, // generate ids locally and splice them into the documents
};

// What the application can see about a session (mode and probe result too).
struct docid_policy {
  cdk::docid_mode mode = cdk::docid_mode::auto_select;
  bool server_generates = false; // the probe's answer
  id_origin origin = id_origin::client;
};

// auto:   server if it generates ids, else client.
// server: server, or client_errc::docid_unsupported if it cannot.
// client: client, even on MySQL 8.
cdk::result<docid_policy> choose_policy(cdk::docid_mode mode, bool server_generates);

// docid-mode=server on a server that does not generate ids: the one error
// for it, from the handshake's probe and from choose_policy().
cdk::error server_ids_unsupported();

// "auto", "server", "client": the option's spelling in connection strings.
const char* to_string(cdk::docid_mode mode) noexcept;
const char* to_string(id_origin origin) noexcept;

} // namespace cdk::docid
