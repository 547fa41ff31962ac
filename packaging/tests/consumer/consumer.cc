// A program that sees libmysqlx only as a user does: through the installed
// headers and library. The packaging tests build it as an outside project
// (CMake package, pkg-config, Debian packages) and run it.
//
// It uses only the part of the X DevAPI that needs no server, and checks
// what the library returns; any mismatch makes it exit 1.
#include <cstdlib>
#include <iostream>
#include <mysqlx/xdevapi.h>
#include <string>

namespace {

int g_failures = 0;

template <typename T, typename U> void expect_eq(const char* what, const T& got, const U& want) {
  std::cout << what << " = " << got << '\n';
  if (!(got == want)) {
    std::cerr << "FAIL: " << what << ": expected " << want << ", got " << got << '\n';
    ++g_failures;
  }
}

// `f` must throw a client mysqlx::Error with one of the two codes.
template <typename F>
void expect_client_error(const char* what, F&& f, std::uint32_t code1, std::uint32_t code2) {
  try {
    f();
    std::cerr << "FAIL: " << what << ": no exception\n";
    ++g_failures;
  } catch (const mysqlx::Error& e) {
    std::cout << what << " -> error " << e.code() << " [" << e.sqlState() << "]: " << e << '\n';
    if (!e.isClientError() || (e.code() != code1 && e.code() != code2)) {
      std::cerr << "FAIL: " << what << ": unexpected error kind or code\n";
      ++g_failures;
    }
  }
}

void documents() {
  const mysqlx::DbDoc doc(
      R"({"item": "pen", "qty": 3, "tags": ["blue", "cheap"], "dims": {"len": 14.5}})");
  expect_eq("item", doc["item"].get<std::string>(), "pen");
  expect_eq("qty", doc["qty"].get<int>(), 3);
  expect_eq("tags.count", doc["tags"].elementCount(), 2U);
  expect_eq("tags[1]", doc["tags"][1].get<std::string>(), "cheap");
  expect_eq("dims.len", doc["dims"]["len"].get<double>(), 14.5);
  std::string fields;
  for (const mysqlx::Field& name : doc) {
    fields += fields.empty() ? name : "," + name;
  }
  expect_eq("fields", fields, "item,qty,tags,dims");
  expect_client_error(
      "item as int", [&] { return doc["item"].get<int>(); }, mysqlx::errc::USAGE,
      mysqlx::errc::USAGE);
}

void settings() {
  const mysqlx::SessionSettings s("mysqlx://app@db.example:33160/shop?ssl-mode=verify_ca");
  expect_eq("host", s.find(mysqlx::SessionOption::HOST).get<std::string>(), "db.example");
  expect_eq("port", s.find(mysqlx::SessionOption::PORT).get<int>(), 33160);
  expect_eq("user", s.find(mysqlx::SessionOption::USER).get<std::string>(), "app");
  expect_eq("schema", s.find(mysqlx::SessionOption::DB).get<std::string>(), "shop");
  expect_client_error(
      "bad port", [] { mysqlx::SessionSettings bad("mysqlx://app@db.example:99999"); },
      mysqlx::errc::BAD_OPTION, mysqlx::errc::PARSE);
}

} // namespace

int main() {
  try {
    documents();
    settings();
  } catch (const mysqlx::Error& e) {
    std::cerr << "FAIL: unexpected mysqlx::Error " << e.code() << ": " << e << '\n';
    return EXIT_FAILURE;
  }
  if (g_failures != 0) {
    std::cerr << g_failures << " check(s) failed\n";
    return EXIT_FAILURE;
  }
  std::cout << "consumer: all checks passed\n";
  return EXIT_SUCCESS;
}
