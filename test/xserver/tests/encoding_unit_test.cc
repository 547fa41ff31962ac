// Row value encodings and the expect stack, without a server.
#include "mysqlx_expect.pb.h"
#include "test/xserver/expect.h"
#include "test/xserver/row_encoder.h"

#include <gtest/gtest.h>

namespace xserver {
namespace {

std::string enc(x_type t, std::string_view text) {
  std::string out;
  encode_value(t, text, out);
  return out;
}

TEST(RowEncoder, IntegersAreZigzagAndPlainVarints) {
  EXPECT_EQ(enc(x_type::sint, "-1"), std::string("\x01", 1));
  EXPECT_EQ(enc(x_type::sint, "1"), std::string("\x02", 1));
  EXPECT_EQ(enc(x_type::sint, "-64"), std::string("\x7f", 1));
  EXPECT_EQ(enc(x_type::sint, "64"), std::string("\x80\x01", 2));
  EXPECT_EQ(enc(x_type::uint, "300"), std::string("\xac\x02", 2));
  EXPECT_EQ(enc(x_type::uint, "18446744073709551615"),
            std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10));
}

TEST(RowEncoder, StringsCarryATrailingNul) {
  EXPECT_EQ(enc(x_type::bytes, "ab"), std::string("ab\0", 3));
  EXPECT_EQ(enc(x_type::bytes, ""), std::string("\0", 1)); // not NULL: NULL is empty
}

TEST(RowEncoder, DecimalIsScaleThenPackedBcdWithSign) {
  EXPECT_EQ(enc(x_type::decimal, "-12.34"), std::string("\x02\x12\x34\xd0", 4));
  EXPECT_EQ(enc(x_type::decimal, "1.5"), std::string("\x01\x15\xc0", 3));
  EXPECT_EQ(enc(x_type::decimal, "123"), std::string("\x00\x12\x3c", 3));
}

TEST(RowEncoder, TimeDateTimeSetBitDouble) {
  EXPECT_EQ(enc(x_type::time, "-01:02:03.5"), std::string("\x01\x01\x02\x03\xa0\xc2\x1e", 7));
  EXPECT_EQ(enc(x_type::time, "838:00:00"), std::string("\x00\xc6\x06\x00\x00", 5));
  EXPECT_EQ(enc(x_type::datetime, "2024-01-02"), std::string("\xe8\x0f\x01\x02", 4));
  EXPECT_EQ(enc(x_type::datetime, "2024-01-02 03:04:05"),
            std::string("\xe8\x0f\x01\x02\x03\x04\x05", 7));
  EXPECT_EQ(enc(x_type::set, ""), std::string("\x01", 1));
  EXPECT_EQ(enc(x_type::set, "a,bc"), std::string("\x01"
                                                  "a"
                                                  "\x02"
                                                  "bc",
                                                  5));
  EXPECT_EQ(enc(x_type::bit, std::string("\x01\x02", 2)), std::string("\x82\x02", 2));
  const std::string d = enc(x_type::dbl, "1.5");
  double v = 0;
  ASSERT_EQ(d.size(), 8u);
  std::memcpy(&v, d.data(), 8);
  EXPECT_EQ(v, 1.5);
}

Mysqlx::Expect::Open open_with(std::vector<std::pair<unsigned, std::string>> conds) {
  Mysqlx::Expect::Open o;
  for (const auto& [k, v] : conds) {
    auto* c = o.add_cond();
    c->set_condition_key(k);
    c->set_condition_value(v);
  }
  return o;
}

TEST(ExpectStack, FiftySevenKnowsOnlyNoError) {
  expect_stack s(/*emulate_57=*/true);
  auto e = s.open(open_with({{3, ""}}));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, 5160u);
  EXPECT_EQ(e->message, "Unknown condition key");
  EXPECT_EQ(s.depth(), 0u);
  EXPECT_EQ(s.close()->code, 5158u);
  EXPECT_FALSE(s.open(open_with({{1, "1"}})));
  EXPECT_FALSE(s.close());
}

TEST(ExpectStack, NestedNoErrorFailurePropagates) {
  expect_stack s(false);
  EXPECT_FALSE(s.open(open_with({{1, ""}})));
  EXPECT_FALSE(s.open(open_with({}))); // copies no_error from the outer block
  s.statement_failed();
  EXPECT_EQ(s.blocked()->code, 5159u);
  EXPECT_EQ(s.close()->code, 5159u);
  EXPECT_EQ(s.blocked()->code, 5159u); // the outer no_error block failed too
  EXPECT_EQ(s.close()->code, 5159u);
  EXPECT_FALSE(s.blocked());
}

TEST(ExpectStack, PlainInnerBlockCatchesErrors) {
  expect_stack s(false);
  EXPECT_FALSE(s.open(open_with({{1, ""}})));
  Mysqlx::Expect::Open empty;
  empty.set_op(Mysqlx::Expect::Open::EXPECT_CTX_EMPTY);
  EXPECT_FALSE(s.open(empty));
  s.statement_failed();
  EXPECT_FALSE(s.blocked());
  EXPECT_FALSE(s.close());
  EXPECT_FALSE(s.blocked());
}

} // namespace
} // namespace xserver
