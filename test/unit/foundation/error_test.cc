#include "cdk/foundation/error.h"

#include <gtest/gtest.h>

TEST(Result, CarriesValueOrError) {
  cdk::result<int> good = 7;
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(good.value(), 7);
  cdk::result<int> bad = cdk::error::connection(cdk::client_errc::lost_connection, "gone");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.err().code, 2013u);
  EXPECT_TRUE(bad.err().fatal);
  EXPECT_EQ(bad.err().origin, cdk::error_origin::connection);
}
