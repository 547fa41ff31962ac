// cdk/protocol/crud.h and resultset.h: the Insert encoding (documents on the
// wire byte for byte, the size computed without encoding) and the row-field
// decoding of every X Protocol column type.
#include "cdk/protocol/crud.h"
#include "cdk/protocol/frame.h"
#include "cdk/protocol/resultset.h"
#include "mysqlx_crud.pb.h"
#include "mysqlx_resultset.pb.h"

#include <gtest/gtest.h>

namespace pr = cdk::protocol;

namespace {

pr::frame only_frame(const std::string& bytes) {
  pr::frame_decoder d;
  EXPECT_TRUE(d.feed(bytes).ok());
  auto f = d.next();
  EXPECT_TRUE(f.has_value());
  EXPECT_FALSE(d.next().has_value());
  return f.value_or(pr::frame{});
}

pr::column_meta col(pr::field_type t, std::uint32_t content_type = 0) {
  pr::column_meta c;
  c.type = t;
  c.content_type = content_type;
  return c;
}

pr::value field(pr::field_type t, const std::string& bytes) {
  auto v = pr::decode_field(col(t), bytes);
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.err().message);
  return v.ok() ? v.value() : pr::value{};
}

} // namespace

TEST(DocInsertEncoding, DocumentsGoOnTheWireUnchangedAsStringLiterals) {
  pr::doc_insert ins;
  ins.schema = "shop";
  ins.collection = "orders";
  const std::string odd = "{ \"n\" : 1.50e0 , \"u\":\"\\u00e9\" }"; // spacing and escapes kept
  ins.docs = {R"({"item":"pen"})", odd};
  ins.upsert = true;
  std::string out;
  ASSERT_TRUE(pr::encode_doc_insert(out, ins).ok());
  pr::frame f = only_frame(out);
  EXPECT_EQ(f.type, 18); // Mysqlx.Crud.Insert
  Mysqlx::Crud::Insert msg;
  ASSERT_TRUE(msg.ParseFromString(f.payload));
  EXPECT_EQ(msg.collection().schema(), "shop");
  EXPECT_EQ(msg.collection().name(), "orders");
  EXPECT_EQ(msg.data_model(), Mysqlx::Crud::DOCUMENT);
  EXPECT_TRUE(msg.upsert());
  ASSERT_EQ(msg.row_size(), 2);
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(msg.row(i).field_size(), 1);
    const auto& e = msg.row(i).field(0);
    EXPECT_EQ(e.type(), Mysqlx::Expr::Expr::LITERAL);
    EXPECT_EQ(e.literal().type(), Mysqlx::Datatypes::Scalar::V_STRING);
    EXPECT_EQ(e.literal().v_string().value(), std::string(ins.docs[static_cast<size_t>(i)]));
  }
}

TEST(DocInsertEncoding, BytesAreExactlyWhatProtobufWritesForTheSameMessage) {
  pr::doc_insert ins;
  ins.schema = "s";
  ins.collection = "c";
  const std::string big(20000, 'b');
  ins.docs = {"{}", big};
  ins.upsert = true;
  ins.args = {pr::value::of_uint(7), pr::value::of_string("x")};
  Mysqlx::Crud::Insert msg;
  msg.mutable_collection()->set_name("c");
  msg.mutable_collection()->set_schema("s");
  msg.set_data_model(Mysqlx::Crud::DOCUMENT);
  for (std::string_view d : ins.docs) {
    auto* lit = msg.add_row()->add_field();
    lit->set_type(Mysqlx::Expr::Expr::LITERAL);
    lit->mutable_literal()->set_type(Mysqlx::Datatypes::Scalar::V_STRING);
    lit->mutable_literal()->mutable_v_string()->set_value(std::string(d));
  }
  auto* a0 = msg.add_args();
  a0->set_type(Mysqlx::Datatypes::Scalar::V_UINT);
  a0->set_v_unsigned_int(7);
  auto* a1 = msg.add_args();
  a1->set_type(Mysqlx::Datatypes::Scalar::V_STRING);
  a1->mutable_v_string()->set_value("x");
  msg.set_upsert(true);
  std::string out;
  ASSERT_TRUE(pr::encode_doc_insert(out, ins).ok());
  EXPECT_EQ(only_frame(out).payload, msg.SerializeAsString());
}

TEST(DocInsertEncoding, WithoutSchemaArgsOrUpsertTooTheBytesAreProtobufs) {
  for (const std::string& name : {std::string(), std::string("c"), std::string(200, 'n')}) {
    pr::doc_insert ins;
    ins.collection = name;
    ins.docs = {R"({"a":1})"};
    Mysqlx::Crud::Insert msg;
    msg.mutable_collection()->set_name(name);
    msg.set_data_model(Mysqlx::Crud::DOCUMENT);
    auto* lit = msg.add_row()->add_field();
    lit->set_type(Mysqlx::Expr::Expr::LITERAL);
    lit->mutable_literal()->set_type(Mysqlx::Datatypes::Scalar::V_STRING);
    lit->mutable_literal()->mutable_v_string()->set_value(std::string(ins.docs[0]));
    std::string out;
    ASSERT_TRUE(pr::encode_doc_insert(out, ins).ok());
    EXPECT_EQ(only_frame(out).payload, msg.SerializeAsString()) << name.size();
    EXPECT_EQ(pr::doc_insert_size(ins, 0, 1), out.size());
  }
}

TEST(DocInsertEncoding, ComputedSizeMatchesTheEncodingAtVarintBoundaries) {
  std::vector<std::string> texts;
  for (std::size_t n : {0, 1, 100, 110, 120, 127, 128, 16370, 16383, 16384, 2097152})
    texts.push_back("{\"a\":\"" + std::string(n, 'x') + "\"}");
  for (const std::string& t : texts) {
    pr::doc_insert ins;
    ins.schema = "s";
    ins.collection = "c";
    ins.docs = {t, t};
    std::string out;
    ASSERT_TRUE(pr::encode_doc_insert(out, ins).ok());
    EXPECT_EQ(pr::doc_insert_size(ins, 0, 2), out.size()) << t.size();
    std::string one;
    ins.docs = {t};
    ASSERT_TRUE(pr::encode_doc_insert(one, ins).ok());
    EXPECT_EQ(pr::doc_insert_size(ins, 0, 1), one.size()) << t.size();
  }
}

// Requests are appended to what the pipeline already holds (a split add's
// START TRANSACTION, an earlier part): the Insert's frame is written after
// it, the same bytes as alone, and what was there is left as it was.
TEST(DocInsertEncoding, AppendsAfterWhatTheBufferHolds) {
  const std::string collection(200, 'o'); // a head longer than any small buffer
  pr::doc_insert ins;
  ins.schema = "shop";
  ins.collection = collection; // a view: the string must outlive ins
  ins.docs = {R"({"item":"pen"})", R"({"item":"ink"})"};
  std::string alone;
  ASSERT_TRUE(pr::encode_doc_insert(alone, ins).ok());
  const std::string before = "an earlier message";
  std::string out = before;
  ASSERT_TRUE(pr::encode_doc_insert(out, ins).ok());
  EXPECT_EQ(out, before + alone);
  EXPECT_EQ(only_frame(alone).type, 18);
}

TEST(RowDecoding, IntegersFloatsAndText) {
  EXPECT_EQ(field(pr::field_type::sint, "\x01").sint, -1);
  EXPECT_EQ(field(pr::field_type::sint, "\x02").sint, 1);
  EXPECT_EQ(field(pr::field_type::sint, std::string("\xff\x01", 2)).sint, -128);
  EXPECT_EQ(field(pr::field_type::uint, std::string("\xac\x02", 2)).uint, 300u);
  EXPECT_EQ(field(pr::field_type::bit, "\x05").uint, 5u);
  const double d = 7.25;
  const float fl = -1.5f;
  EXPECT_DOUBLE_EQ(
      field(pr::field_type::dbl, std::string(reinterpret_cast<const char*>(&d), 8)).dbl, 7.25);
  EXPECT_DOUBLE_EQ(
      field(pr::field_type::flt, std::string(reinterpret_cast<const char*>(&fl), 4)).dbl, -1.5);
  pr::value s = field(pr::field_type::bytes, std::string("abc\0", 4));
  EXPECT_EQ(s.type, pr::value::kind::octets);
  EXPECT_EQ(s.bytes, "abc");
  auto json = pr::decode_field(col(pr::field_type::bytes, 2), std::string("{}\0", 3));
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(json.value().content_type, 2u);
  EXPECT_EQ(field(pr::field_type::enumeration, std::string("red\0", 4)).bytes, "red");
  EXPECT_EQ(field(pr::field_type::bytes, "").type, pr::value::kind::null); // SQL NULL
}

TEST(RowDecoding, TemporalDecimalAndSet) {
  // 2024-01-02 03:04:05.000006: year 2024 = 0xe8 0x0f
  EXPECT_EQ(
      field(pr::field_type::datetime, std::string("\xe8\x0f\x01\x02\x03\x04\x05\x06", 8)).bytes,
      "2024-01-02 03:04:05.000006");
  EXPECT_EQ(field(pr::field_type::datetime, std::string("\xe8\x0f\x0c\x1f", 4)).bytes,
            "2024-12-31");
  EXPECT_EQ(field(pr::field_type::time, std::string("\x01\x01\x02\x03", 4)).bytes, "-01:02:03");
  EXPECT_EQ(field(pr::field_type::time, std::string("\x00\x0a\x00\x00\x07", 5)).bytes,
            "10:00:00.000007");
  EXPECT_EQ(field(pr::field_type::decimal, std::string("\x02\x12\x50\xd0", 4)).bytes, "-12.50");
  EXPECT_EQ(field(pr::field_type::decimal, std::string("\x01\x12\x5c", 3)).bytes, "12.5");
  EXPECT_EQ(field(pr::field_type::decimal, std::string("\x03\x5c", 2)).bytes, "0.005");
  pr::value set = field(pr::field_type::set, std::string("\x01"
                                                         "a\x02"
                                                         "bc",
                                                         5));
  ASSERT_EQ(set.items.size(), 2u);
  EXPECT_EQ(set.items[1].bytes, "bc");
  EXPECT_TRUE(field(pr::field_type::set, "\x01").items.empty()); // the empty set
}

TEST(RowDecoding, MalformedFieldsAreErrorsNotCrashes) {
  EXPECT_FALSE(pr::decode_field(col(pr::field_type::sint), "\x80").ok());        // cut varint
  EXPECT_FALSE(pr::decode_field(col(pr::field_type::dbl), "\x01\x02").ok());     // short
  EXPECT_FALSE(pr::decode_field(col(pr::field_type::decimal), "\x02\x12").ok()); // no sign
  EXPECT_FALSE(pr::decode_field(col(pr::field_type::set), "\x05"
                                                          "ab")
                   .ok());                                                        // overrun
  EXPECT_FALSE(pr::decode_field(col(pr::field_type::time), "\x07\x01").ok());     // bad sign
  EXPECT_FALSE(pr::decode_field(col(pr::field_type::datetime), "\xe8\x0f").ok()); // no day
}

TEST(RowDecoding, RowsAreSplitAsLibprotobufReadsThem) {
  Mysqlx::Resultset::Row row;
  row.add_field(std::string("abc\0", 4));
  row.add_field("");                           // SQL NULL
  row.add_field(std::string(300, 'x') + '\0'); // a two-byte length
  std::string payload = row.SerializeAsString();
  payload += std::string("\x10\x05", 2);  // field 2 (varint 5): unknown, skipped
  payload += std::string("\x0a\x01z", 3); // field 1 again, after it
  Mysqlx::Resultset::Row parsed;
  ASSERT_TRUE(parsed.ParseFromString(payload));
  std::vector<std::string_view> fields;
  ASSERT_TRUE(pr::split_row(payload, fields).ok());
  ASSERT_EQ(fields.size(), static_cast<std::size_t>(parsed.field_size()));
  for (std::size_t i = 0; i < fields.size(); ++i)
    EXPECT_EQ(fields[i], parsed.field(static_cast<int>(i))) << i;
  EXPECT_TRUE(pr::split_row("", fields).ok());
  EXPECT_TRUE(fields.empty());
}

TEST(RowDecoding, MalformedRowsAreErrorsNotCrashes) {
  std::vector<std::string_view> fields;
  for (const std::string& bad : {
           std::string("\x0a\x05"
                       "ab",
                       4),             // a field longer than the payload
           std::string("\x0a\x80", 2), // a cut length
           std::string("\x08\x01", 2), // field 1 as a varint
           std::string("\x00\x01", 2), // field 0
           std::string("\x12\x09"
                       "a",
                       3),         // an unknown field that overruns it
           std::string("\x0b", 1), // wire type 3 (a group)
       }) {
    const auto st = pr::split_row(bad, fields);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.err().code, static_cast<std::uint32_t>(cdk::client_errc::malformed_packet));
  }
}

TEST(ResultSets, RepliesSplitIntoSetsAtFetchDone) {
  auto frame_of = [](std::uint8_t type, const google::protobuf::MessageLite& m) {
    return pr::frame{type, m.SerializeAsString()};
  };
  Mysqlx::Resultset::ColumnMetaData meta;
  meta.set_type(Mysqlx::Resultset::ColumnMetaData::SINT);
  meta.set_name("n");
  Mysqlx::Resultset::Row row;
  row.add_field("\x04");
  Mysqlx::Resultset::Row bad_row; // two fields for one column
  bad_row.add_field("\x04");
  bad_row.add_field("\x04");
  pr::reply r;
  r.frames = {frame_of(12, meta), frame_of(13, row), frame_of(13, row), pr::frame{16, ""},
              frame_of(12, meta), pr::frame{14, ""}, pr::frame{17, ""}};
  auto sets = pr::decode_result_sets(r);
  ASSERT_TRUE(sets.ok());
  ASSERT_EQ(sets.value().size(), 2u);
  EXPECT_EQ(sets.value()[0].columns[0].name, "n");
  ASSERT_EQ(sets.value()[0].rows.size(), 2u);
  EXPECT_EQ(sets.value()[0].rows[1][0].sint, 2);
  EXPECT_TRUE(sets.value()[1].rows.empty());
  r.frames = {frame_of(12, meta), frame_of(13, bad_row), pr::frame{14, ""}};
  EXPECT_FALSE(pr::decode_result_sets(r).ok());
  r.frames = {pr::frame{17, ""}}; // no result set at all
  EXPECT_TRUE(pr::decode_result_sets(r).value().empty());
}
