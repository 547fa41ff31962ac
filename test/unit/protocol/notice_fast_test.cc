// decode_notice()'s hand-written SessionStateChanged path against the
// libprotobuf one (decode_notice_generic): both must accept the same
// payloads and give the same notice. Built with the generated classes, then
// mutated: every truncation, every single-byte change.
#include "cdk/protocol/notice.h"
#include "cdk/protocol/value_pb.h"
#include "cdk/protocol/wire_reader.h"
#include "mysqlx_datatypes.pb.h"
#include "mysqlx_notice.pb.h"

#include <gtest/gtest.h>
#include <limits>

namespace cdk::protocol {
namespace {

namespace pb = Mysqlx::Notice;
using Mysqlx::Datatypes::Scalar;

std::string frame_of(const pb::SessionStateChanged& ssc, bool local = true) {
  pb::Frame f;
  f.set_type(pb::Frame::SESSION_STATE_CHANGED);
  if (local) f.set_scope(pb::Frame::LOCAL);
  f.set_payload(ssc.SerializePartialAsString());
  return f.SerializePartialAsString();
}

void expect_same_value(const value& a, const value& b) {
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.sint, b.sint);
  EXPECT_EQ(a.uint, b.uint);
  if (a.dbl == a.dbl || b.dbl == b.dbl) { // NaN aside
    EXPECT_EQ(a.dbl, b.dbl);
  }
  EXPECT_EQ(a.boolean, b.boolean);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.content_type, b.content_type);
}

// Both paths agree on `payload`; returns whether it decoded.
bool agree(const std::string& payload) {
  const auto fast = decode_notice(payload);
  const auto slow = decode_notice_generic(payload);
  EXPECT_EQ(fast.ok(), slow.ok());
  if (!fast.ok() || !slow.ok()) return false;
  const notice& a = fast.value();
  const notice& b = slow.value();
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.scope, b.scope);
  EXPECT_EQ(a.param, b.param);
  EXPECT_EQ(a.payload, b.payload);
  EXPECT_EQ(a.values.size(), b.values.size());
  for (std::size_t i = 0; i < a.values.size() && i < b.values.size(); ++i)
    expect_same_value(a.values[i], b.values[i]);
  return true;
}

pb::SessionStateChanged every_scalar_kind() {
  pb::SessionStateChanged ssc;
  ssc.set_param(pb::SessionStateChanged::GENERATED_DOCUMENT_IDS);
  auto add = [&](Scalar::Type t) {
    Scalar* s = ssc.add_value();
    s->set_type(t);
    return s;
  };
  add(Scalar::V_SINT)->set_v_signed_int(-1234567890123);
  add(Scalar::V_SINT)->set_v_signed_int(std::numeric_limits<std::int64_t>::min());
  add(Scalar::V_UINT)->set_v_unsigned_int(std::numeric_limits<std::uint64_t>::max());
  add(Scalar::V_DOUBLE)->set_v_double(-2.5e300);
  add(Scalar::V_FLOAT)->set_v_float(1.25f);
  add(Scalar::V_BOOL)->set_v_bool(true);
  add(Scalar::V_NULL);
  auto* o = add(Scalar::V_OCTETS)->mutable_v_octets();
  o->set_value("0000659200800000000000000001");
  o->set_content_type(2);
  add(Scalar::V_STRING)->mutable_v_string()->set_value(std::string("caf\xc3\xa9\0x", 7));
  add(Scalar::V_OCTETS)->mutable_v_octets()->set_value(std::string(300, 'z')); // 2-byte lengths
  return ssc;
}

TEST(notice_fast, every_scalar_kind_decodes_as_libprotobuf_does) {
  const std::string payload = frame_of(every_scalar_kind());
  ASSERT_TRUE(agree(payload));
  const auto n = decode_notice(payload);
  ASSERT_EQ(n.value().values.size(), 10u);
  EXPECT_EQ(n.value().values[0].sint, -1234567890123);
  EXPECT_EQ(n.value().values[7].bytes, "0000659200800000000000000001");
  EXPECT_EQ(n.value().scope, notice_scope::local);
}

TEST(notice_fast, global_scope_other_params_and_no_values) {
  pb::SessionStateChanged ssc;
  ssc.set_param(pb::SessionStateChanged::ROWS_AFFECTED);
  ssc.add_value()->set_type(Scalar::V_UINT);
  EXPECT_TRUE(agree(frame_of(ssc, false)));
  ssc.clear_value();
  ssc.set_param(pb::SessionStateChanged::ACCOUNT_EXPIRED);
  EXPECT_TRUE(agree(frame_of(ssc)));
}

TEST(notice_fast, odd_but_valid_shapes_go_through_the_fallback_with_the_same_result) {
  pb::SessionStateChanged ssc;
  ssc.set_param(pb::SessionStateChanged::GENERATED_DOCUMENT_IDS);
  Scalar* s = ssc.add_value();
  s->set_type(Scalar::V_OCTETS);
  s->mutable_v_octets()->set_value("a");
  s->mutable_v_string()->set_value("b"); // both texts set
  EXPECT_TRUE(agree(frame_of(ssc)));
  // An unknown field in a Scalar, and a repeated singular field.
  std::string p = frame_of(every_scalar_kind());
  EXPECT_TRUE(agree(p + std::string("\x08\x0b", 2))); // Frame.type repeated: last wins
  std::string unknown_field = "\x78\x01";             // field 15, varint
  pb::Frame f;
  f.ParseFromString(p);
  f.set_payload(f.payload() + unknown_field);
  EXPECT_TRUE(agree(f.SerializeAsString()));
}

TEST(notice_fast, missing_fields_give_the_same_result_on_both_paths) {
  pb::SessionStateChanged no_type;
  no_type.set_param(pb::SessionStateChanged::GENERATED_DOCUMENT_IDS);
  no_type.add_value()->set_v_unsigned_int(3); // no Scalar.type
  agree(frame_of(no_type));
  pb::SessionStateChanged no_text;
  no_text.set_param(pb::SessionStateChanged::GENERATED_DOCUMENT_IDS);
  Scalar* s = no_text.add_value();
  s->set_type(Scalar::V_OCTETS);
  s->mutable_v_octets()->set_content_type(1); // no Octets.value
  agree(frame_of(no_text));
}

TEST(notice_fast, every_truncation_and_every_byte_change_agrees) {
  const std::string good = frame_of(every_scalar_kind());
  for (std::size_t n = 0; n < good.size(); ++n) agree(good.substr(0, n));
  for (std::size_t i = 0; i < good.size(); ++i)
    for (int delta : {1, 0x40, 0x80, 0xff}) {
      std::string bad = good;
      bad[i] = static_cast<char>(static_cast<unsigned char>(bad[i]) + delta);
      agree(bad);
    }
}

TEST(wire_varint, bounds_and_the_64_bit_limit) {
  std::size_t pos = 0;
  std::uint64_t v = 0;
  EXPECT_TRUE(wire::read_varint(std::string("\x96\x01", 2), pos, v));
  EXPECT_EQ(v, 150u);
  EXPECT_EQ(pos, 2u);
  const std::string max = std::string(9, '\xff') + '\x01'; // 2^64 - 1
  pos = 0;
  EXPECT_TRUE(wire::read_varint(max, pos, v));
  EXPECT_EQ(v, UINT64_MAX);
  pos = 0; // a 65th bit, and an 11th byte: both refused
  EXPECT_FALSE(wire::read_varint(std::string(9, '\xff') + '\x02', pos, v));
  pos = 0;
  EXPECT_FALSE(wire::read_varint(std::string(10, '\xff') + '\x01', pos, v));
  pos = 0; // cut short
  EXPECT_FALSE(wire::read_varint(std::string("\x80", 1), pos, v));
}

} // namespace
} // namespace cdk::protocol
