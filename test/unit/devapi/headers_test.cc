// The public headers stay free of internal and third-party headers: nothing
// under include/mysqlx/ may include cdk, protobuf, RapidJSON or OpenSSL.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
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
