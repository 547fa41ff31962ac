// The gtest fixture the tool's tests share: a session on the xserver80
// fixture's server, and a collection of schema import_it named after the
// running test (fresh() drops it), and a scratch directory.
#pragma once

#include "import_test_util.h"

#include <gtest/gtest.h>
#include <mysqlx/xdevapi.h>
#include <optional>
#include <string>

namespace import_test {

inline constexpr const char* schema = "import_it";

class import_fixture : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(uri().empty()) << "MYSQLX_TEST_URI_80 is not set";
    coll_name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    session.emplace(uri());
  }
  void fresh() { session->createSchema(schema, true).dropCollection(coll_name); }
  mysqlx::Collection coll() { return session->getSchema(schema).getCollection(coll_name); }
  // The tool's options naming the collection, plus `more`.
  std::string target(const std::string& more = "") const {
    return std::string("-s ") + schema + " -c " + coll_name + " --progress none" + more;
  }

  std::string coll_name;
  std::optional<mysqlx::Session> session;
  scratch tmp;
};

} // namespace import_test
