// mysqlx-import with several sessions (-j) and entries that share an _id
// (issue 33, item 2): whatever -j is, the later entry of the input wins
// with --replace and --patch, and is the one reported as the duplicate
// without them, as with -j 1.
#include "import_fixture.h"

#include <gtest/gtest.h>
#include <mysqlx/xdevapi.h>
#include <optional>
#include <string>

namespace {

using namespace import_test;

class ImportOrder : public import_fixture {
protected:
  std::string target() const { return import_fixture::target(" --restart"); }
  // Line 1 is "dup" with v 1 and 2 MB of padding (its batch is the slowest
  // to store), lines 2-59 other ids, line 60 "dup" again with v 2.
  std::string input() {
    std::string lines =
        "{\"_id\":\"dup\",\"v\":1,\"pad\":\"" + std::string(std::size_t{2} << 20, 'p') + "\"}\n";
    for (int i = 2; i < 60; ++i)
      lines += "{\"_id\":\"id-" + std::to_string(i) + "\",\"v\":" + std::to_string(i) + "}\n";
    lines += "{\"_id\":\"dup\",\"v\":2}\n";
    return tmp.file("dup.jsonl", lines);
  }
};

TEST_F(ImportOrder, ReplaceAndPatchKeepTheLaterEntry) {
  const std::string file = input();
  for (const std::string mode : {"--replace", "--patch"}) {
    for (int round = 0; round < 3; ++round) {
      fresh();
      const run_result r = run_tool(tmp, target() + " -j 4 -b 10 " + mode + " " + file);
      ASSERT_EQ(r.status, 0) << mode << "\n" << r.err;
      EXPECT_EQ(coll().count(), 59u);
      EXPECT_EQ(coll().getOne("dup")["v"].get<int>(), 2) << mode << ", round " << round;
      const std::string done = mode == "--replace" ? "replaced" : "patched";
      EXPECT_NE(r.out.find("(added 59, " + done + " 1)"), std::string::npos) << r.out;
    }
  }
}

TEST_F(ImportOrder, TheLaterEntryIsTheDuplicate) {
  const std::string file = input();
  for (int round = 0; round < 3; ++round) {
    fresh();
    const run_result r = run_tool(tmp, target() + " -j 4 -b 10 --skip-invalid " + file);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find(file + ":60: skipped: duplicate _id \"dup\": a document with this _id is"
                                " already stored (error 5116)"),
              std::string::npos)
        << "round " << round << "\n"
        << r.err;
    EXPECT_EQ(coll().getOne("dup")["v"].get<int>(), 1) << "round " << round;
  }
}

// The same with an integer _id (the collection keys 7 as "7").
TEST_F(ImportOrder, TheLaterEntryIsTheDuplicateWithAnIntegerId) {
  std::string lines =
      "{\"_id\":7,\"v\":1,\"pad\":\"" + std::string(std::size_t{2} << 20, 'p') + "\"}\n";
  for (int i = 2; i < 60; ++i)
    lines += "{\"_id\":\"id-" + std::to_string(i) + "\",\"v\":" + std::to_string(i) + "}\n";
  lines += "{\"_id\":7,\"v\":2}\n";
  const std::string file = tmp.file("int.jsonl", lines);
  for (int round = 0; round < 3; ++round) {
    fresh();
    const run_result r = run_tool(tmp, target() + " -j 4 -b 10 --skip-invalid " + file);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find(file + ":60: skipped: "), std::string::npos) << "round " << round << "\n"
                                                                      << r.err;
    EXPECT_EQ(coll().find("v = 1").execute().count(), 1u) << "round " << round;
  }
}

} // namespace
