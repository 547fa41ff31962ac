// decode_notice()'s hand-written SessionStateChanged path against the
// libprotobuf one (decode_notice_generic): both must accept the same
// payloads and give the same notice; apply_local_state_change() must leave
// the same statement_info as libprotobuf's notice applied. Built with the generated classes, then
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

void expect_same_info(const statement_info& a, const statement_info& b) {
  EXPECT_EQ(a.rows_affected, b.rows_affected);
  EXPECT_EQ(a.rows_found, b.rows_found);
  EXPECT_EQ(a.rows_matched, b.rows_matched);
  EXPECT_EQ(a.last_insert_id, b.last_insert_id);
  EXPECT_EQ(a.generated_ids, b.generated_ids);
  EXPECT_EQ(a.warnings.size(), b.warnings.size());
  EXPECT_EQ(a.messages, b.messages);
  EXPECT_EQ(a.client_id, b.client_id);
  EXPECT_EQ(a.current_schema, b.current_schema);
  EXPECT_EQ(a.account_expired, b.account_expired);
  EXPECT_EQ(a.trx_committed, b.trx_committed);
  EXPECT_EQ(a.trx_rolledback, b.trx_rolledback);
}

// A statement_info that already holds something, as one does after the
// first notices of a reply.
statement_info earlier() {
  statement_info info;
  info.rows_affected = 1;
  info.generated_ids = {"earlier"};
  return info;
}

// apply_local_state_change() either leaves `info` as libprotobuf's decoding
// plus statement_info::apply() does, or declines and leaves it unchanged
// (and then the payload is no LOCAL SessionStateChanged its reader takes).
// Returns whether it applied the notice.
bool same_info(const std::string& payload) {
  statement_info fast = earlier();
  const bool applied = apply_local_state_change(payload, fast);
  const auto slow = decode_notice_generic(payload);
  statement_info expected = earlier();
  if (applied) {
    EXPECT_TRUE(slow.ok());
    if (!slow.ok()) return applied;
    EXPECT_EQ(slow.value().scope, notice_scope::local);
    EXPECT_TRUE(slow.value().is(notice_type::session_state_changed));
    expected.apply(slow.value());
  }
  expect_same_info(fast, expected);
  return applied;
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
  EXPECT_TRUE(same_info(payload));
  EXPECT_FALSE(same_info(frame_of(every_scalar_kind(), false))); // GLOBAL: not here
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
  EXPECT_FALSE(same_info(frame_of(ssc, false)));
  ssc.clear_value();
  ssc.set_param(pb::SessionStateChanged::ACCOUNT_EXPIRED);
  EXPECT_TRUE(agree(frame_of(ssc)));
  EXPECT_TRUE(same_info(frame_of(ssc)));
}

// Every parameter, with the value kinds statement_info reads and ignores:
// applied in place exactly as libprotobuf's decoding plus apply() would.
TEST(notice_fast, every_parameter_applies_in_place_as_through_a_notice) {
  const pb::SessionStateChanged::Parameter params[] = {
      pb::SessionStateChanged::CURRENT_SCHEMA,
      pb::SessionStateChanged::ACCOUNT_EXPIRED,
      pb::SessionStateChanged::GENERATED_INSERT_ID,
      pb::SessionStateChanged::ROWS_AFFECTED,
      pb::SessionStateChanged::ROWS_FOUND,
      pb::SessionStateChanged::ROWS_MATCHED,
      pb::SessionStateChanged::TRX_COMMITTED,
      pb::SessionStateChanged::TRX_ROLLEDBACK,
      pb::SessionStateChanged::PRODUCED_MESSAGE,
      pb::SessionStateChanged::CLIENT_ID_ASSIGNED,
      pb::SessionStateChanged::GENERATED_DOCUMENT_IDS};
  for (auto param : params) {
    SCOPED_TRACE(param);
    pb::SessionStateChanged ssc = every_scalar_kind();
    ssc.set_param(param);
    EXPECT_TRUE(same_info(frame_of(ssc)));
    ssc.clear_value(); // no value at all
    EXPECT_TRUE(same_info(frame_of(ssc)));
    Scalar* u = ssc.add_value(); // one unsigned, as MySQL sends counts
    u->set_type(Scalar::V_UINT);
    u->set_v_unsigned_int(42);
    EXPECT_TRUE(same_info(frame_of(ssc)));
    u->set_type(Scalar::V_SINT); // a negative count is no count
    u->set_v_signed_int(-1);
    EXPECT_TRUE(same_info(frame_of(ssc)));
    u->set_type(Scalar::V_STRING); // a text first
    u->mutable_v_string()->set_value("bench");
    EXPECT_TRUE(same_info(frame_of(ssc)));
  }
}

// The two notices of every single add(), byte for byte as MySQL 8 sends
// them: Frame{type 3, scope LOCAL, payload SessionStateChanged{param,
// Scalar}}.
TEST(notice_fast, an_adds_notices_from_bytes) {
  const std::string rows("\x08\x03\x10\x02\x1a\x08"
                         "\x08\x04\x12\x04\x08\x02\x18\x01",
                         14);
  const std::string id = "0000659200800000000000000001";
  const std::string ids = std::string("\x08\x03\x10\x02\x1a\x26"
                                      "\x08\x0c\x12\x22\x08\x04\x2a\x1e\x0a\x1c",
                                      16) +
                          id;
  statement_info info;
  ASSERT_TRUE(apply_local_state_change(rows, info));
  ASSERT_TRUE(apply_local_state_change(ids, info));
  EXPECT_EQ(info.rows_affected, 1u);
  EXPECT_EQ(info.generated_ids, std::vector<std::string>{id});
  EXPECT_TRUE(same_info(rows));
  EXPECT_TRUE(same_info(ids));
  // The same bytes through protobuf's own encoder.
  pb::SessionStateChanged ssc;
  ssc.set_param(pb::SessionStateChanged::ROWS_AFFECTED);
  Scalar* v = ssc.add_value();
  v->set_type(Scalar::V_UINT);
  v->set_v_unsigned_int(1);
  EXPECT_EQ(frame_of(ssc), rows);
  ssc.set_param(pb::SessionStateChanged::GENERATED_DOCUMENT_IDS);
  v->Clear();
  v->set_type(Scalar::V_OCTETS);
  v->mutable_v_octets()->set_value(id);
  EXPECT_EQ(frame_of(ssc), ids);
}

// Those two shapes are matched byte for byte first: every truncation, byte
// change and insertion of them, and ids too long for one-byte lengths, must
// still give what libprotobuf gives.
TEST(notice_fast, the_common_shapes_agree_on_every_mutation) {
  pb::SessionStateChanged rows;
  rows.set_param(pb::SessionStateChanged::ROWS_AFFECTED);
  rows.add_value()->set_type(Scalar::V_UINT);
  rows.mutable_value(0)->set_v_unsigned_int(300); // a two-byte varint
  pb::SessionStateChanged ids;
  ids.set_param(pb::SessionStateChanged::GENERATED_DOCUMENT_IDS);
  ids.add_value()->set_type(Scalar::V_OCTETS);
  ids.mutable_value(0)->mutable_v_octets()->set_value("0000659200800000000000000001");
  std::vector<std::string> goods = {frame_of(rows), frame_of(ids)};
  for (std::size_t n : {0x7au, 0x7bu, 0x80u, 200u}) { // lengths around one byte's
    ids.mutable_value(0)->mutable_v_octets()->set_value(std::string(n, 'i'));
    goods.push_back(frame_of(ids));
  }
  for (const std::string& good : goods) {
    EXPECT_TRUE(same_info(good));
    for (std::size_t n = 0; n < good.size(); ++n) same_info(good.substr(0, n));
    for (std::size_t i = 0; i < good.size(); ++i) {
      for (int delta : {1, 0x7f, 0x80, 0xff}) {
        std::string bad = good;
        bad[i] = static_cast<char>(static_cast<unsigned char>(bad[i]) + delta);
        same_info(bad);
      }
      same_info(good.substr(0, i) + '\x01' + good.substr(i));
    }
  }
}

// Other notice types are not applied in place; the pipeline decodes them.
TEST(notice_fast, other_notice_types_are_declined) {
  pb::Warning w;
  w.set_level(pb::Warning::NOTE);
  w.set_code(1265);
  w.set_msg("Data truncated");
  pb::Frame f;
  f.set_type(pb::Frame::WARNING);
  f.set_scope(pb::Frame::LOCAL);
  f.set_payload(w.SerializeAsString());
  EXPECT_FALSE(same_info(f.SerializeAsString()));
  EXPECT_FALSE(same_info(std::string("\x08\x05", 2))); // ServerHello
  EXPECT_FALSE(same_info(""));
}

TEST(notice_fast, odd_but_valid_shapes_go_through_the_fallback_with_the_same_result) {
  pb::SessionStateChanged ssc;
  ssc.set_param(pb::SessionStateChanged::GENERATED_DOCUMENT_IDS);
  Scalar* s = ssc.add_value();
  s->set_type(Scalar::V_OCTETS);
  s->mutable_v_octets()->set_value("a");
  s->mutable_v_string()->set_value("b"); // both texts set
  EXPECT_TRUE(agree(frame_of(ssc)));
  EXPECT_FALSE(same_info(frame_of(ssc)));
  // An unknown field in a Scalar, and a repeated singular field.
  std::string p = frame_of(every_scalar_kind());
  EXPECT_TRUE(agree(p + std::string("\x08\x0b", 2))); // Frame.type repeated: last wins
  EXPECT_FALSE(same_info(p + std::string("\x08\x0b", 2)));
  std::string unknown_field = "\x78\x01"; // field 15, varint
  pb::Frame f;
  f.ParseFromString(p);
  f.set_payload(f.payload() + unknown_field);
  EXPECT_TRUE(agree(f.SerializeAsString()));
  EXPECT_FALSE(same_info(f.SerializeAsString()));
  // The parameter given twice (after the values): libprotobuf keeps the last.
  f.ParseFromString(p);
  f.set_payload(f.payload() + std::string("\x08\x04", 2));
  EXPECT_TRUE(agree(f.SerializeAsString()));
  EXPECT_FALSE(same_info(f.SerializeAsString()));
}

TEST(notice_fast, missing_fields_give_the_same_result_on_both_paths) {
  pb::SessionStateChanged no_type;
  no_type.set_param(pb::SessionStateChanged::GENERATED_DOCUMENT_IDS);
  no_type.add_value()->set_v_unsigned_int(3); // no Scalar.type
  agree(frame_of(no_type));
  same_info(frame_of(no_type));
  pb::SessionStateChanged no_text;
  no_text.set_param(pb::SessionStateChanged::GENERATED_DOCUMENT_IDS);
  Scalar* s = no_text.add_value();
  s->set_type(Scalar::V_OCTETS);
  s->mutable_v_octets()->set_content_type(1); // no Octets.value
  agree(frame_of(no_text));
  same_info(frame_of(no_text));
}

// The hand reader's own checks of enum values (scope, parameter, scalar
// type) against libprotobuf's, over every value a byte can give.
TEST(notice_fast, every_enum_value_is_judged_as_libprotobuf_does) {
  auto frame_with = [](int scope, int param, int type) {
    std::string scalar = "\x08" + std::string(1, static_cast<char>(type)) + "\x18\x01";
    std::string inner = "\x08" + std::string(1, static_cast<char>(param)) + "\x12" +
                        std::string(1, static_cast<char>(scalar.size())) + scalar;
    return "\x08\x03\x10" + std::string(1, static_cast<char>(scope)) + "\x1a" +
           std::string(1, static_cast<char>(inner.size())) + inner;
  };
  int applied = 0;
  for (int v = 0; v < 0x80; ++v) {
    SCOPED_TRACE(v);
    EXPECT_TRUE(agree(frame_with(v, 4, 2)));
    EXPECT_TRUE(agree(frame_with(2, v, 2)));
    agree(frame_with(2, 4, v)); // an unknown Scalar type fails both ways
    applied += same_info(frame_with(v, 4, 2)) ? 1 : 0;
    applied += same_info(frame_with(2, v, 2)) ? 1 : 0;
    applied += same_info(frame_with(2, 4, v)) ? 1 : 0;
  }
  // LOCAL scope once, the 11 parameters and the 8 Scalar types (a field of
  // another type beside it is accepted, as libprotobuf accepts it).
  EXPECT_EQ(applied, 1 + 11 + 8);
}

TEST(notice_fast, every_truncation_and_every_byte_change_agrees) {
  const std::string good = frame_of(every_scalar_kind());
  for (std::size_t n = 0; n < good.size(); ++n) {
    agree(good.substr(0, n));
    same_info(good.substr(0, n));
  }
  for (std::size_t i = 0; i < good.size(); ++i)
    for (int delta : {1, 0x40, 0x80, 0xff}) {
      std::string bad = good;
      bad[i] = static_cast<char>(static_cast<unsigned char>(bad[i]) + delta);
      agree(bad);
      same_info(bad);
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
  pos = 1; // one byte, at an offset, and the end of the input
  EXPECT_TRUE(wire::read_varint(std::string("\x05\x7f", 2), pos, v));
  EXPECT_EQ(v, 127u);
  EXPECT_EQ(pos, 2u);
  EXPECT_FALSE(wire::read_varint(std::string("\x05\x7f", 2), pos, v));
  pos = 0;
  EXPECT_TRUE(wire::read_varint(std::string(1, '\0'), pos, v));
  EXPECT_EQ(v, 0u);
}

} // namespace
} // namespace cdk::protocol
