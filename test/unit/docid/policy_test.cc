#include "cdk/docid/policy.h"

#include <gtest/gtest.h>

namespace {

using cdk::docid_mode;
using cdk::docid::choose_policy;
using cdk::docid::id_origin;

TEST(Policy, Table) {
  struct {
    docid_mode mode;
    bool server_generates;
    id_origin origin;
  } cases[] = {
      {docid_mode::auto_select, true, id_origin::server},
      {docid_mode::auto_select, false, id_origin::client},
      {docid_mode::server, true, id_origin::server},
      {docid_mode::client, true, id_origin::client},
      {docid_mode::client, false, id_origin::client},
  };
  for (const auto& c : cases) {
    const auto p = choose_policy(c.mode, c.server_generates);
    ASSERT_TRUE(p.ok()) << cdk::docid::to_string(c.mode) << " " << c.server_generates;
    EXPECT_EQ(p.value().origin, c.origin) << cdk::docid::to_string(c.mode);
    // The application sees the mode and the probe result as well.
    EXPECT_EQ(p.value().mode, c.mode);
    EXPECT_EQ(p.value().server_generates, c.server_generates);
  }
}

TEST(Policy, ServerModeOnServerThatCannotFailsClearly) {
  const auto p = choose_policy(docid_mode::server, false);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.err().code, cdk::client_errc::docid_unsupported);
  EXPECT_EQ(p.err().origin, cdk::error_origin::client);
  // The same words as the handshake's probe gives, which the README quotes.
  EXPECT_EQ(p.err().message,
            "docid-mode=server, but this server does not generate document ids (it does not know "
            "Expect condition EXPECT_DOCID_GENERATED, as MySQL 5.7's X Plugin does not)");
  EXPECT_EQ(p.err().message, cdk::docid::server_ids_unsupported().message);
}

TEST(Policy, Names) {
  EXPECT_STREQ(cdk::docid::to_string(docid_mode::auto_select), "auto");
  EXPECT_STREQ(cdk::docid::to_string(docid_mode::server), "server");
  EXPECT_STREQ(cdk::docid::to_string(docid_mode::client), "client");
  EXPECT_STREQ(cdk::docid::to_string(id_origin::server), "server");
  EXPECT_STREQ(cdk::docid::to_string(id_origin::client), "client");
}

} // namespace
