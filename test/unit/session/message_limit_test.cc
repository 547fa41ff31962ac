// Asking the server for mysqlx_max_allowed_packet: the query queued, and the
// limit read from its reply. Byte buffers in, no server.
#include "cdk/protocol/frame.h"
#include "cdk/protocol/message.h"
#include "cdk/protocol/msg_types.h"
#include "cdk/protocol/pipeline.h"
#include "cdk/session/message_limit.h"
#include "mysqlx.pb.h"
#include "mysqlx_resultset.pb.h"
#include "mysqlx_sql.pb.h"

#include <gtest/gtest.h>

namespace cdk::session {
namespace {

namespace pr = cdk::protocol;
using Meta = Mysqlx::Resultset::ColumnMetaData;

std::string varint(std::uint64_t v) {
  std::string out;
  for (;; v >>= 7) {
    out += static_cast<char>((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    if (v <= 0x7f) return out;
  }
}

// The reply a server sends to the query: one column of `type`, one row
// holding `field`.
pr::reply reply_with(Meta::FieldType type, const std::string& field) {
  std::string wire;
  Meta m;
  m.set_type(type);
  m.set_name("@@mysqlx_max_allowed_packet");
  EXPECT_TRUE(pr::append_message(wire, pr::server_msg::resultset_column_meta_data, m).ok());
  Mysqlx::Resultset::Row row;
  row.add_field(field);
  EXPECT_TRUE(pr::append_message(wire, pr::server_msg::resultset_row, row).ok());
  pr::append_frame(wire, pr::type_byte(pr::server_msg::resultset_fetch_done), "");
  pr::append_frame(wire, pr::type_byte(pr::server_msg::sql_stmt_execute_ok), "");

  pr::pipeline p;
  queue_limit_query(p);
  pr::frame_decoder frames;
  EXPECT_TRUE(frames.feed(wire).ok());
  for (;;) {
    auto f = frames.next();
    if (!f) break;
    auto r = p.on_frame(std::move(*f));
    EXPECT_TRUE(r.ok());
    if (r.ok() && r.value()) return std::move(*r.value());
  }
  ADD_FAILURE() << "no complete reply";
  return {};
}

TEST(message_limit, the_query_is_one_sql_statement) {
  pr::pipeline p;
  queue_limit_query(p);
  pr::frame_decoder frames;
  ASSERT_TRUE(frames.feed(p.take_output()).ok());
  auto f = frames.next();
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->type, pr::type_byte(pr::client_msg::sql_stmt_execute));
  Mysqlx::Sql::StmtExecute msg;
  ASSERT_TRUE(msg.ParseFromString(f->payload));
  EXPECT_EQ(msg.stmt(), "SELECT @@mysqlx_max_allowed_packet");
  EXPECT_EQ(msg.args_size(), 0);
  EXPECT_FALSE(frames.next().has_value());
}

TEST(message_limit, the_limit_is_read_from_an_unsigned_or_signed_column) {
  EXPECT_EQ(limit_from_reply(reply_with(Meta::UINT, varint(16777216))), 16777216u);
  EXPECT_EQ(limit_from_reply(reply_with(Meta::UINT, varint(1u << 30))), 1u << 30);
  // SINT is zigzag: 2n.
  EXPECT_EQ(limit_from_reply(reply_with(Meta::SINT, varint(2 * 1048576))), 1048576u);
  EXPECT_EQ(limit_from_reply(reply_with(Meta::UINT, varint(512))), 512u);
}

TEST(message_limit, anything_else_keeps_the_default) {
  // Below MySQL's minimum: not a limit a server has.
  EXPECT_FALSE(limit_from_reply(reply_with(Meta::UINT, varint(511))).has_value());
  // NULL (an empty field), text, a negative number.
  EXPECT_FALSE(limit_from_reply(reply_with(Meta::UINT, "")).has_value());
  EXPECT_FALSE(limit_from_reply(reply_with(Meta::BYTES, std::string("65536\0", 6))).has_value());
  EXPECT_FALSE(limit_from_reply(reply_with(Meta::SINT, varint(1))).has_value());
  // A server without the variable (1193 Unknown system variable).
  pr::reply refused;
  refused.error = cdk::error{1193, "HY000", "Unknown system variable 'mysqlx_max_allowed_packet'",
                             error_origin::server, false};
  EXPECT_FALSE(limit_from_reply(refused).has_value());
}

} // namespace
} // namespace cdk::session
