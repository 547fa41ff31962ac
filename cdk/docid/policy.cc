#include "cdk/docid/policy.h"

namespace cdk::docid {

cdk::error server_ids_unsupported() {
  return cdk::error::client(cdk::client_errc::docid_unsupported,
                            "docid-mode=server, but this server does not generate document ids "
                            "(it does not know Expect condition EXPECT_DOCID_GENERATED, as "
                            "MySQL 5.7's X Plugin does not)");
}

cdk::result<docid_policy> choose_policy(cdk::docid_mode mode, bool server_generates) {
  docid_policy p{mode, server_generates, id_origin::client};
  switch (mode) {
  case cdk::docid_mode::auto_select:
    p.origin = server_generates ? id_origin::server : id_origin::client;
    return p;
  case cdk::docid_mode::server:
    if (!server_generates) {
      return server_ids_unsupported();
    }
    p.origin = id_origin::server;
    return p;
  case cdk::docid_mode::client:
    return p;
  }
  return cdk::error::client(cdk::client_errc::bad_option, "Unknown docid-mode value");
}

const char* to_string(cdk::docid_mode mode) noexcept {
  switch (mode) {
  case cdk::docid_mode::auto_select:
    return "auto";
  case cdk::docid_mode::server:
    return "server";
  case cdk::docid_mode::client:
    return "client";
  }
  return "unknown";
}

const char* to_string(id_origin origin) noexcept {
  return origin == id_origin::server ? "server" : "client";
}

} // namespace cdk::docid
