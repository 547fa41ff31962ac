// Byte-exact checks of the notices a document insert produces
// (facts sheet xprotocol-docid-facts.md §3.2-3.4).
#include "mysqlx.pb.h"
#include "mysqlx_datatypes.pb.h"
#include "mysqlx_notice.pb.h"
#include "mysqlx_sql.pb.h"
#include "wire_bytes.h"

#include <gtest/gtest.h>
#include <string>

namespace {

using Mysqlx::Datatypes::Scalar;
using Mysqlx::Notice::Frame;
using Mysqlx::Notice::SessionStateChanged;
using proto_test::frame;
using proto_test::from_hex;
using proto_test::to_hex;

constexpr char k_id1[] = "0000659200800000000000000001";
constexpr char k_id2[] = "0000659200800000000000000002";

std::string local_state_frame(const SessionStateChanged& ssc) {
  Frame f;
  f.set_type(Frame::SESSION_STATE_CHANGED);
  f.set_scope(Frame::LOCAL);
  f.set_payload(ssc.SerializeAsString());
  return f.SerializeAsString();
}

SessionStateChanged doc_ids(std::initializer_list<const char*> ids) {
  SessionStateChanged ssc;
  ssc.set_param(SessionStateChanged::GENERATED_DOCUMENT_IDS);
  for (const char* id : ids) {
    Scalar* v = ssc.add_value();
    v->set_type(Scalar::V_OCTETS);
    v->mutable_v_octets()->set_value(id);
  }
  return ssc;
}

TEST(NoticeWire, GeneratedDocumentIdsFrameMatchesFactsSheet) {
  const std::string octets = from_hex("0a 1c") + k_id1;
  const std::string scalar = from_hex("08 04 2a 1e") + octets;
  const std::string ssc = from_hex("08 0c 12 22") + scalar;
  const std::string expected_frame = from_hex("08 03 10 02 1a 26") + ssc;
  ASSERT_EQ(expected_frame.size(), 44u);

  const std::string payload = local_state_frame(doc_ids({k_id1}));
  EXPECT_EQ(to_hex(payload), to_hex(expected_frame));

  const std::string wire = frame(Mysqlx::ServerMessages::NOTICE, payload);
  EXPECT_EQ(to_hex(wire.substr(0, 5)), "2d 00 00 00 0b");
  EXPECT_EQ(wire.size(), 49u);
}

TEST(NoticeWire, EachFurtherIdAdds36Bytes) {
  const std::string one = doc_ids({k_id1}).SerializeAsString();
  const std::string two = doc_ids({k_id1, k_id2}).SerializeAsString();
  ASSERT_EQ(one.size(), 38u);
  ASSERT_EQ(two.size(), 38u + 36u);
  // The second value is appended as "12 22" + Scalar of the second id.
  EXPECT_EQ(to_hex(two.substr(38, 2)), "12 22");
  EXPECT_EQ(two.substr(two.size() - 28), k_id2);
}

TEST(NoticeWire, RowsAffectedFrameMatchesFactsSheet) {
  SessionStateChanged ssc;
  ssc.set_param(SessionStateChanged::ROWS_AFFECTED);
  Scalar* v = ssc.add_value();
  v->set_type(Scalar::V_UINT);
  v->set_v_unsigned_int(1);

  const std::string payload = local_state_frame(ssc);
  EXPECT_EQ(to_hex(payload), "08 03 10 02 1a 08 08 04 12 04 08 02 18 01");
  EXPECT_EQ(to_hex(frame(Mysqlx::ServerMessages::NOTICE, payload).substr(0, 5)), "0f 00 00 00 0b");
}

TEST(NoticeWire, ParsesGeneratedIdsFromFactsSheetBytes) {
  const std::string ssc_bytes = from_hex("08 0c 12 22 08 04 2a 1e 0a 1c") + k_id1;
  const std::string bytes = from_hex("08 03 10 02 1a 26") + ssc_bytes;

  Frame f;
  ASSERT_TRUE(f.ParseFromString(bytes));
  EXPECT_EQ(f.type(), static_cast<unsigned>(Frame::SESSION_STATE_CHANGED));
  EXPECT_EQ(f.scope(), Frame::LOCAL);

  SessionStateChanged ssc;
  ASSERT_TRUE(ssc.ParseFromString(f.payload()));
  EXPECT_EQ(ssc.param(), SessionStateChanged::GENERATED_DOCUMENT_IDS);
  ASSERT_EQ(ssc.value_size(), 1);
  EXPECT_EQ(ssc.value(0).type(), Scalar::V_OCTETS);
  EXPECT_EQ(ssc.value(0).v_octets().value(), k_id1);
  EXPECT_FALSE(ssc.value(0).v_octets().has_content_type());
}

TEST(NoticeWire, GlobalNoticeWithoutScopeReadsAsGlobal) {
  // ServerHello is sent with no scope field and an empty payload.
  Frame f;
  ASSERT_TRUE(f.ParseFromString(from_hex("08 05")));
  EXPECT_EQ(f.type(), static_cast<unsigned>(Frame::SERVER_HELLO));
  EXPECT_FALSE(f.has_scope());
  EXPECT_EQ(f.scope(), Frame::GLOBAL);
}

TEST(NoticeWire, EmptyServerRepliesMatchFactsSheet) {
  EXPECT_EQ(to_hex(frame(Mysqlx::ServerMessages::SQL_STMT_EXECUTE_OK,
                         Mysqlx::Sql::StmtExecuteOk().SerializeAsString())),
            "01 00 00 00 11");
  EXPECT_EQ(to_hex(frame(Mysqlx::ServerMessages::OK, Mysqlx::Ok().SerializeAsString())),
            "01 00 00 00 00");
}

TEST(NoticeWire, MissingRequiredFieldStillParses) {
  // MySQL's Error has required code/msg/sql_state; ours are optional so a
  // decoder can name what is missing instead of getting a bare parse failure.
  Mysqlx::Error e;
  ASSERT_TRUE(e.ParseFromString(from_hex("08 01")));
  EXPECT_EQ(e.severity(), Mysqlx::Error::FATAL);
  EXPECT_FALSE(e.has_code());
  EXPECT_FALSE(e.has_sql_state());
}

TEST(NoticeWire, ErrorFieldNumbers) {
  Mysqlx::Error e;
  e.set_code(5116); // 0x13fc
  e.set_msg("m");
  e.set_sql_state("S");
  // severity left at its default is not written; code=2, msg=3, sql_state=4.
  EXPECT_EQ(to_hex(e.SerializeAsString()), "10 fc 27 1a 01 6d 22 01 53");
}

} // namespace
