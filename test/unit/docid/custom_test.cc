#include "cdk/docid/custom.h"

#include <gtest/gtest.h>
#include <stdexcept>

namespace {

using cdk::docid::call_custom_generator;
using cdk::docid::check_custom_id;

TEST(CustomId, AcceptsOneToThirtyTwoBytesOfText) {
  const std::string ids[] = {"a",
                             "order-000001",
                             "507f1f77bcf86cd799439011", // ObjectId
                             "1541815603606036480",      // Snowflake
                             std::string(32, 'x'),
                             "caf\xc3\xa9",
                             "with \"quote\" and \\"};
  for (const std::string& id : ids) {
    EXPECT_TRUE(check_custom_id(id).ok()) << id;
  }
}

TEST(CustomId, RejectsWithAClearMessage) {
  struct {
    std::string id;
    const char* message;
  } cases[] = {
      {"", "The document id generator returned an empty id; an id needs 1 to 32 bytes"},
      {std::string(33, 'x'),
       "The document id generator returned an id of 33 bytes; the _id column holds at most 32"},
      {"\xc3\xa9\xc3", "The document id generator returned an id that is not valid UTF-8"},
      {"id\n", "The document id generator returned an id with a control character (byte 10) at "
               "offset 2"},
      {std::string("a\0b", 3),
       "The document id generator returned an id with a control character (byte 0) at offset 1"},
  };
  for (const auto& c : cases) {
    const auto st = check_custom_id(c.id);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.err().code, cdk::client_errc::usage);
    EXPECT_EQ(st.err().message, c.message);
  }
  // 32 characters but 64 bytes: the column counts bytes on 8.0.
  std::string wide;
  for (int i = 0; i < 32; ++i) wide += "\xc3\xa9";
  EXPECT_FALSE(check_custom_id(wide).ok());
}

TEST(CustomId, CallsAndChecksTheGenerator) {
  int n = 0;
  const auto r = call_custom_generator([&] { return "snow-" + std::to_string(++n); });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value(), "snow-1");
  EXPECT_FALSE(call_custom_generator([] { return std::string(40, 'z'); }).ok());
}

TEST(CustomId, ExceptionsAndMissingGeneratorBecomeErrors) {
  const auto thrown = call_custom_generator(
      []() -> std::string { throw std::runtime_error("sequence service down"); });
  ASSERT_FALSE(thrown.ok());
  EXPECT_EQ(thrown.err().message, "The document id generator threw: sequence service down");
  const auto missing = call_custom_generator(nullptr);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.err().code, cdk::client_errc::usage);
}

} // namespace
