// <mysqlx/collations.h>: the Collation<> constants, characterSetName() and the
// X-macro lists, used the way code written for Connector/C++ 8 uses them
// (get_collation() below is the lookup of its types-t.cc).
#include <gtest/gtest.h>
#include <map>
#include <mysqlx/collations.h>
#include <mysqlx/error.h>
#include <set>
#include <string>
#include <vector>

namespace {

using mysqlx::CharacterSet;
using mysqlx::Collation;
using mysqlx::CollationInfo;

// Every collation by id, through the lists alone.
const CollationInfo* get_collation(unsigned id) {
#define FIND_IN(CS) COLLATIONS_##CS(FIND_ONE)
#define FIND_ONE(CS, ID, COLL, CASE)                                                               \
  case ID:                                                                                         \
    return &Collation<CharacterSet::CS>::COLL_CONST_NAME(COLL, CASE);
  switch (id) {
    CDK_CS_LIST(FIND_IN)
  default:
    return nullptr;
  }
#undef FIND_ONE
#undef FIND_IN
}

struct listed {
  CharacterSet cs;
  unsigned id;
};

std::vector<listed> all_listed() {
  std::vector<listed> out;
#define LIST_IN(CS) COLLATIONS_##CS(LIST_ONE)
#define LIST_ONE(CS, ID, COLL, CASE) out.push_back({CharacterSet::CS, ID});
  CDK_CS_LIST(LIST_IN)
#undef LIST_ONE
#undef LIST_IN
  return out;
}

// Read while static objects are initialized, before main(): the library's
// constants must already hold their values (constant initialization), since
// nothing orders this file's initializers after the library's.
const unsigned id_at_static_init = Collation<CharacterSet::utf8mb4>::uca0900_ai_ci.id();
const char* const name_at_static_init = Collation<CharacterSet::latin1>::swedish_ci.getName();

TEST(Collations, UsableDuringStaticInitialization) {
  EXPECT_EQ(id_at_static_init, 255u);
  ASSERT_NE(name_at_static_init, nullptr);
  EXPECT_STREQ(name_at_static_init, "latin1_swedish_ci");
}

TEST(Collations, Utf8mb4DefaultIsCaseAndAccentInsensitive) {
  const CollationInfo& c = Collation<CharacterSet::utf8mb4>::uca0900_ai_ci;
  EXPECT_EQ(c.id(), 255u);
  EXPECT_STREQ(c.getName(), "utf8mb4_0900_ai_ci");
  EXPECT_EQ(c.getCharacterSet(), CharacterSet::utf8mb4);
  EXPECT_FALSE(c.isCaseSensitive());
  EXPECT_FALSE(c.isBinary());
}

TEST(Collations, BinaryCollationsAreBinaryAndCaseSensitive) {
  const CollationInfo& bin = Collation<CharacterSet::utf8mb4>::bin;
  EXPECT_EQ(bin.id(), 46u);
  EXPECT_STREQ(bin.getName(), "utf8mb4_bin");
  EXPECT_TRUE(bin.isBinary());
  EXPECT_TRUE(bin.isCaseSensitive());

  EXPECT_STREQ(Collation<CharacterSet::utf8mb4>::uca0900.getName(), "utf8mb4_0900_bin");
  EXPECT_EQ(Collation<CharacterSet::utf8mb4>::uca0900.id(), 309u);
  EXPECT_TRUE(Collation<CharacterSet::utf8mb4>::uca0900.isBinary());

  const CollationInfo& binary = Collation<CharacterSet::binary>::bin;
  EXPECT_EQ(binary.id(), 63u);
  EXPECT_STREQ(binary.getName(), "binary");
  EXPECT_TRUE(binary.isBinary());
  EXPECT_EQ(binary.getCharacterSet(), CharacterSet::binary);
}

TEST(Collations, SensitivitySuffixes) {
  const CollationInfo& as_cs = Collation<CharacterSet::utf8mb4>::uca0900_as_cs;
  EXPECT_EQ(as_cs.id(), 278u);
  EXPECT_TRUE(as_cs.isCaseSensitive());
  EXPECT_FALSE(as_cs.isBinary());

  const CollationInfo& as_ci = Collation<CharacterSet::utf8mb4>::uca0900_as_ci;
  EXPECT_EQ(as_ci.id(), 305u);
  EXPECT_STREQ(as_ci.getName(), "utf8mb4_0900_as_ci");
  EXPECT_FALSE(as_ci.isCaseSensitive());

  const CollationInfo& ks = Collation<CharacterSet::utf8mb4>::ja_0900_as_cs_ks;
  EXPECT_EQ(ks.id(), 304u);
  EXPECT_STREQ(ks.getName(), "utf8mb4_ja_0900_as_cs_ks");
  EXPECT_TRUE(ks.isCaseSensitive());

  EXPECT_TRUE(Collation<CharacterSet::latin1>::general_cs.isCaseSensitive());
  EXPECT_FALSE(Collation<CharacterSet::latin1>::general_ci.isCaseSensitive());
  EXPECT_STREQ(Collation<CharacterSet::latin2>::czech_cs.getName(), "latin2_czech_cs");
}

TEST(Collations, Utf8mb3NamesAreMysql8030s) {
  EXPECT_STREQ(Collation<CharacterSet::utf8mb3>::general_ci.getName(), "utf8mb3_general_ci");
  EXPECT_EQ(Collation<CharacterSet::utf8mb3>::general_ci.id(), 33u);
  EXPECT_STREQ(Collation<CharacterSet::utf8mb3>::tolower_ci.getName(), "utf8mb3_tolower_ci");
  EXPECT_EQ(Collation<CharacterSet::utf8mb3>::general_mysql500_ci.id(), 223u);
  EXPECT_STREQ(Collation<CharacterSet::utf8mb4>::mn_cyrl_0900_as_cs.getName(),
               "utf8mb4_mn_cyrl_0900_as_cs");
  EXPECT_EQ(Collation<CharacterSet::utf8mb4>::mn_cyrl_0900_as_cs.id(), 323u);
}

TEST(Collations, Utf8mb4AliasIsUtf8mb4Bin) {
  EXPECT_EQ(&Collation<CharacterSet::utf8mb4>::utf8mb4, &Collation<CharacterSet::utf8mb4>::bin);
  EXPECT_EQ(Collation<CharacterSet::utf8mb4>::utf8mb4.id(), 46u);
}

TEST(Collations, ComparedById) {
  CollationInfo copy = Collation<CharacterSet::utf8mb4>::general_ci;
  EXPECT_TRUE(copy == Collation<CharacterSet::utf8mb4>::general_ci);
  EXPECT_FALSE(copy != Collation<CharacterSet::utf8mb4>::general_ci);
  EXPECT_TRUE(copy != Collation<CharacterSet::utf8mb4>::unicode_ci);
  EXPECT_STREQ(copy.getName(), "utf8mb4_general_ci");
}

TEST(Collations, LookupByIdFindsEveryListedCollation) {
  const std::vector<listed> all = all_listed();
  EXPECT_EQ(all.size(), 286u); // information_schema.collations of MySQL 8.0.30+
  for (const listed& l : all) {
    const CollationInfo* c = get_collation(l.id);
    ASSERT_NE(c, nullptr) << l.id;
    EXPECT_EQ(c->id(), l.id);
    EXPECT_EQ(c->getCharacterSet(), l.cs) << l.id;
    const std::string name = c->getName();
    const std::string cs = mysqlx::characterSetName(l.cs);
    // Every name but "binary" starts with its character set's.
    EXPECT_TRUE(name == "binary" || name.rfind(cs + "_", 0) == 0) << name;
  }
  EXPECT_EQ(get_collation(0), nullptr);
  EXPECT_EQ(get_collation(17), nullptr); // not assigned by MySQL
  EXPECT_EQ(get_collation(324), nullptr);
  EXPECT_STREQ(get_collation(8)->getName(), "latin1_swedish_ci");
  EXPECT_STREQ(get_collation(250)->getName(), "gb18030_unicode_520_ci");
}

TEST(Collations, IdsAndNamesAreUnique) {
  std::set<unsigned> ids;
  std::set<std::string> names;
  for (const listed& l : all_listed()) {
    EXPECT_TRUE(ids.insert(l.id).second) << l.id;
    EXPECT_TRUE(names.insert(get_collation(l.id)->getName()).second) << l.id;
  }
}

TEST(Collations, CharacterSetNames) {
  EXPECT_STREQ(mysqlx::characterSetName(CharacterSet::utf8mb4), "utf8mb4");
  EXPECT_STREQ(mysqlx::characterSetName(CharacterSet::utf8mb3), "utf8mb3");
  EXPECT_STREQ(mysqlx::characterSetName(CharacterSet::binary), "binary");
  EXPECT_STREQ(mysqlx::characterSetName(CharacterSet::big5), "big5");
  EXPECT_STREQ(mysqlx::characterSetName(CharacterSet::gb18030), "gb18030");

  // One name per CDK_CS_LIST entry, each with at least one collation.
  std::map<std::string, int> collations_of;
#define COUNT_CS(CS) collations_of[mysqlx::characterSetName(CharacterSet::CS)] = 0;
  CDK_CS_LIST(COUNT_CS)
#undef COUNT_CS
  EXPECT_EQ(collations_of.size(), 41u);
  for (const listed& l : all_listed()) ++collations_of[mysqlx::characterSetName(l.cs)];
  for (const auto& [cs, n] : collations_of) EXPECT_GT(n, 0) << cs;
  EXPECT_EQ(collations_of["latin1"], 8);
}

TEST(Collations, CharacterSetNameOfAnUnknownValueThrows) {
  EXPECT_THROW(mysqlx::characterSetName(static_cast<CharacterSet>(999)), mysqlx::Error);
}

} // namespace
