// Shared by the compression tests: document-like rows and a generous limit.
#pragma once

#include <cstddef>
#include <string>

inline constexpr std::size_t no_limit = 64u << 20;

inline std::string row(int i) {
  return R"({"_id":"00006523c4a3000000000000)" + std::to_string(1000 + i) +
         R"(","item":"pen","qty":)" + std::to_string(i) + "}";
}
