// Notice decoding. Wire bytes for ROWS_AFFECTED and GENERATED_DOCUMENT_IDS
// are the worked examples of xprotocol-docid-facts.md §3.4, written by hand
// from the field numbers; the others are built with the generated classes.
#include "cdk/protocol/notice.h"
#include "mysqlx_notice.pb.h"

#include <gtest/gtest.h>

namespace cdk::protocol {
namespace {

std::string hex(std::string_view h) {
  std::string out;
  for (std::size_t i = 0; i + 1 < h.size(); i += 3)
    out.push_back(static_cast<char>(std::stoi(std::string(h.substr(i, 2)), nullptr, 16)));
  return out;
}

// SessionStateChanged{GENERATED_DOCUMENT_IDS, one V_OCTETS per id} in a LOCAL
// Frame, byte by byte as in §3.4 (Frame = 08 03 10 02 1a <len> SSC).
std::string doc_ids_frame(const std::vector<std::string>& ids) {
  std::string ssc = hex("08 0c ");
  for (const auto& id : ids) {
    std::string octets = hex("0a ") + static_cast<char>(id.size()) + id;
    std::string scalar = hex("08 04 2a ") + static_cast<char>(octets.size()) + octets;
    ssc += hex("12 ") + static_cast<char>(scalar.size()) + scalar;
  }
  // Lengths here stay below 128, so each varint is one byte.
  return hex("08 03 10 02 1a ") + static_cast<char>(ssc.size()) + ssc;
}

TEST(notice, rows_affected_from_the_worked_example) {
  auto n = decode_notice(hex("08 03 10 02 1a 08 08 04 12 04 08 02 18 01 "));
  ASSERT_TRUE(n.ok()) << n.err().message;
  EXPECT_EQ(n.value().scope, notice_scope::local);
  EXPECT_TRUE(n.value().is(state_param::rows_affected));
  statement_info info;
  info.apply(n.value());
  EXPECT_EQ(info.rows_affected, 1u);
}

TEST(notice, one_generated_id_matches_the_worked_example_size) {
  const std::string id = "0000659200800000000000000001";
  const std::string payload = doc_ids_frame({id});
  EXPECT_EQ(payload.size(), 44u); // §3.4: Frame is 44 bytes
  auto n = decode_notice(payload);
  ASSERT_TRUE(n.ok()) << n.err().message;
  statement_info info;
  info.apply(n.value());
  EXPECT_EQ(info.generated_ids, std::vector<std::string>{id});
}

TEST(notice, generated_document_ids_zero_one_many) {
  for (std::size_t count : {0u, 1u, 3u}) {
    SCOPED_TRACE(count);
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < count; ++i)
      ids.push_back("000065920080000000000000000" + std::to_string(i + 1));
    auto n = decode_notice(doc_ids_frame(ids));
    ASSERT_TRUE(n.ok()) << n.err().message;
    EXPECT_TRUE(n.value().is(state_param::generated_document_ids));
    EXPECT_EQ(n.value().values.size(), count);
    statement_info info;
    info.apply(n.value());
    EXPECT_EQ(info.generated_ids, ids);
  }
}

TEST(notice, generated_ids_accumulate_in_order) {
  statement_info info;
  info.apply(decode_notice(doc_ids_frame({"a1", "a2"})).value());
  info.apply(decode_notice(doc_ids_frame({"b1"})).value());
  EXPECT_EQ(info.generated_ids, (std::vector<std::string>{"a1", "a2", "b1"}));
}

std::string state_frame(Mysqlx::Notice::SessionStateChanged::Parameter p,
                        const Mysqlx::Datatypes::Scalar* v) {
  Mysqlx::Notice::SessionStateChanged ssc;
  ssc.set_param(p);
  if (v) *ssc.add_value() = *v;
  Mysqlx::Notice::Frame f;
  f.set_type(Mysqlx::Notice::Frame::SESSION_STATE_CHANGED);
  f.set_scope(Mysqlx::Notice::Frame::LOCAL);
  f.set_payload(ssc.SerializeAsString());
  return f.SerializeAsString();
}

Mysqlx::Datatypes::Scalar uint_scalar(std::uint64_t u) {
  Mysqlx::Datatypes::Scalar s;
  s.set_type(Mysqlx::Datatypes::Scalar::V_UINT);
  s.set_v_unsigned_int(u);
  return s;
}

TEST(notice, insert_id_client_id_and_produced_message) {
  using P = Mysqlx::Notice::SessionStateChanged;
  statement_info info;
  auto id = uint_scalar(42);
  info.apply(decode_notice(state_frame(P::GENERATED_INSERT_ID, &id)).value());
  auto cid = uint_scalar(7);
  info.apply(decode_notice(state_frame(P::CLIENT_ID_ASSIGNED, &cid)).value());
  Mysqlx::Datatypes::Scalar msg;
  msg.set_type(Mysqlx::Datatypes::Scalar::V_STRING);
  msg.mutable_v_string()->set_value("Records: 2  Duplicates: 0  Warnings: 0");
  info.apply(decode_notice(state_frame(P::PRODUCED_MESSAGE, &msg)).value());
  info.apply(decode_notice(state_frame(P::ACCOUNT_EXPIRED, nullptr)).value());
  EXPECT_EQ(info.last_insert_id, 42u);
  EXPECT_EQ(info.client_id, 7u);
  EXPECT_EQ(info.messages, std::vector<std::string>{"Records: 2  Duplicates: 0  Warnings: 0"});
  EXPECT_TRUE(info.account_expired);
}

TEST(notice, warning_keeps_level_code_and_text) {
  Mysqlx::Notice::Warning w;
  w.set_level(Mysqlx::Notice::Warning::NOTE);
  w.set_code(1287);
  w.set_msg("deprecated");
  Mysqlx::Notice::Frame f;
  f.set_type(Mysqlx::Notice::Frame::WARNING);
  f.set_scope(Mysqlx::Notice::Frame::LOCAL);
  f.set_payload(w.SerializeAsString());
  auto n = decode_notice(f.SerializeAsString());
  ASSERT_TRUE(n.ok());
  statement_info info;
  info.apply(n.value());
  ASSERT_EQ(info.warnings.size(), 1u);
  EXPECT_EQ(info.warnings[0].level, warning::level_t::note);
  EXPECT_EQ(info.warnings[0].code, 1287u);
  EXPECT_EQ(info.warnings[0].message, "deprecated");
}

TEST(notice, session_variable_changed) {
  Mysqlx::Notice::SessionVariableChanged v;
  v.set_param("autocommit");
  v.mutable_value()->set_type(Mysqlx::Datatypes::Scalar::V_BOOL);
  v.mutable_value()->set_v_bool(false);
  Mysqlx::Notice::Frame f;
  f.set_type(Mysqlx::Notice::Frame::SESSION_VARIABLE_CHANGED);
  f.set_scope(Mysqlx::Notice::Frame::LOCAL);
  f.set_payload(v.SerializeAsString());
  auto n = decode_notice(f.SerializeAsString());
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n.value().variable, "autocommit");
  EXPECT_EQ(n.value().variable_value.type, value::kind::boolean);
  EXPECT_FALSE(n.value().variable_value.boolean);
}

TEST(notice, server_hello_is_global_without_a_scope_field) {
  auto n = decode_notice(hex("08 05 ")); // Frame{type=5}, scope omitted
  ASSERT_TRUE(n.ok());
  EXPECT_TRUE(n.value().is(notice_type::server_hello));
  EXPECT_EQ(n.value().scope, notice_scope::global);
}

TEST(notice, unknown_type_is_kept_generic) {
  auto n = decode_notice(hex("08 63 10 02 1a 02 ab cd ")); // type 99
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n.value().type, 99u);
  EXPECT_EQ(n.value().payload, hex("ab cd "));
}

TEST(notice, malformed_payloads_are_fatal_protocol_errors) {
  for (const std::string& bad :
       {hex("08 "), hex("10 02 "), hex("08 03 1a 05 08 04 "), hex("08 01 1a 01 ff ")}) {
    auto n = decode_notice(bad);
    ASSERT_FALSE(n.ok());
    EXPECT_EQ(n.err().code, client_errc::malformed_packet);
    EXPECT_TRUE(n.err().fatal);
  }
}

} // namespace
} // namespace cdk::protocol
