// The public headers stay free of internal and third-party headers (nothing
// under include/mysqlx/ may include cdk, protobuf, RapidJSON or OpenSSL), and
// their version macros are the project's.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iomanip>
#include <mysqlx/version_info.h>
#include <sstream>
#include <string>

namespace {

TEST(PublicHeaders, IncludeNoInternalOrThirdPartyHeader) {
  const std::filesystem::path root(MYSQLX_INCLUDE_DIR);
  int headers = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root / "mysqlx")) {
    if (entry.path().extension() != ".h") continue;
    ++headers;
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      if (line.find("#include") == std::string::npos) continue;
      for (const char* banned :
           {"cdk/", "google/protobuf", ".pb.h", "rapidjson", "openssl/", "\"devapi/"}) {
        EXPECT_EQ(line.find(banned), std::string::npos) << entry.path() << ": " << line;
      }
      EXPECT_NE(line.find('<'), std::string::npos) << entry.path() << ": use <...>: " << line;
    }
  }
  EXPECT_GE(headers, 12);
}

} // namespace

// version_info.h names the CMake project's version, and Connector/C++'s
// number is built from its parts as Connector/C++ builds it.
TEST(PublicHeaders, VersionMacrosMatchTheProject) {
  const std::string ours = std::to_string(MYSQLX_VERSION_MAJOR) + "." +
                           std::to_string(MYSQLX_VERSION_MINOR) + "." +
                           std::to_string(MYSQLX_VERSION_PATCH);
  EXPECT_EQ(ours, MYSQLX_PROJECT_VERSION);
  std::ostringstream number;
  number << MYSQL_CONCPP_VERSION_MAJOR << std::setfill('0') << std::setw(2)
         << MYSQL_CONCPP_VERSION_MINOR << std::setw(4) << MYSQL_CONCPP_VERSION_MICRO;
  EXPECT_EQ(number.str(), std::to_string(MYSQL_CONCPP_VERSION_NUMBER));
  EXPECT_EQ(std::string(MYSQL_CONCPP_VERSION), std::to_string(MYSQL_CONCPP_VERSION_MAJOR) + "." +
                                                   std::to_string(MYSQL_CONCPP_VERSION_MINOR) +
                                                   "." +
                                                   std::to_string(MYSQL_CONCPP_VERSION_MICRO));
}
