// The Collation<> constants and characterSetName() of
// include/mysqlx/collations.h.
//
// mysql_collations: MySQL 8.0.30+'s collations by id, as
// information_schema.collations lists them (cdk/protocol/mysql_collations.h).
//
// The header's lists give the same collations as name parts. Every entry
// there is checked at compile time to spell the name given here for its id,
// and the two to hold the same ids, so neither can drift from the other.
#include "cdk/foundation/error.h"
#include "cdk/protocol/mysql_collations.h"
#include "devapi/result_data.h"
#include "devapi/throw_error.h"

#include <cstddef>
#include <iterator>
#include <mysqlx/collations.h>
#include <string>
#include <string_view>

MYSQLX_NAMESPACE_BEGIN
namespace {

// The list lives in cdk, shared with xserverd.
using cdk::protocol::mysql_collations;

constexpr const char* name_of(unsigned id) noexcept {
  for (const auto& c : mysql_collations)
    if (c.id == id) return c.name;
  return nullptr;
}

// Whether an entry X(cs, id, coll, sensitivity) of the lists spells `name`:
// <cs>_<coll>_<sensitivity>, with "0900" for uca0900, <cs>_<coll> for a
// binary collation, <cs>_bin for (bin, bin), and "binary" for the binary
// character set.
constexpr bool spells(const char* mysql_name, std::string_view cs, std::string_view coll,
                      std::string_view sensitivity) {
  if (mysql_name == nullptr) return false;
  std::string_view name(mysql_name);
  if (cs == "binary") return name == "binary";
  if (coll == "uca0900") coll = "0900";
  if (sensitivity == "bin" && coll == "bin") coll = {};
  for (std::string_view part : {cs, coll, sensitivity}) {
    if (part.empty()) continue;
    if (name.size() < part.size() || name.substr(0, part.size()) != part) return false;
    name.remove_prefix(part.size());
    if (part != sensitivity) {
      if (name.empty() || name.front() != '_') return false;
      name.remove_prefix(1);
    }
  }
  return name.empty();
}

#define MYSQLX_LISTED_ID(CS, ID, COLL, CASE) ID,
#define MYSQLX_LISTED_IDS_OF(CS) COLLATIONS_##CS(MYSQLX_LISTED_ID)
constexpr unsigned listed_ids[] = {CDK_CS_LIST(MYSQLX_LISTED_IDS_OF)};
#undef MYSQLX_LISTED_IDS_OF
#undef MYSQLX_LISTED_ID

#define MYSQLX_LISTED_SET(CS) CharacterSet::CS,
constexpr CharacterSet listed_sets[] = {CDK_CS_LIST(MYSQLX_LISTED_SET)};
#undef MYSQLX_LISTED_SET

constexpr bool unique_ids() {
  for (std::size_t i = 0; i < std::size(listed_ids); ++i)
    for (std::size_t j = i + 1; j < std::size(listed_ids); ++j)
      if (listed_ids[i] == listed_ids[j]) return false;
  for (std::size_t i = 0; i < std::size(mysql_collations); ++i)
    for (std::size_t j = i + 1; j < std::size(mysql_collations); ++j)
      if (mysql_collations[i].id == mysql_collations[j].id) return false;
  return true;
}

// CDK_CS_LIST names every enumerator of CharacterSet, in its order.
constexpr bool sets_in_order() {
  for (std::size_t i = 0; i < std::size(listed_sets); ++i)
    if (static_cast<std::size_t>(listed_sets[i]) != i) return false;
  return static_cast<std::size_t>(CharacterSet::gb18030) + 1 == std::size(listed_sets);
}

// Every listed entry has a MySQL name (checked per entry below) and no id is
// listed twice, so equal counts mean the lists and the table hold the same
// collations.
static_assert(unique_ids(), "a collation id is listed twice");
static_assert(std::size(listed_ids) == std::size(mysql_collations),
              "the lists and mysql_collations differ");
static_assert(sets_in_order(), "CDK_CS_LIST and CharacterSet differ");

} // namespace

const char* characterSetName(CharacterSet cs) {
  switch (cs) {
#define MYSQLX_CS_NAME(CS)                                                                         \
  case CharacterSet::CS:                                                                           \
    return #CS;
    CDK_CS_LIST(MYSQLX_CS_NAME)
#undef MYSQLX_CS_NAME
  }
  detail::throw_error(cdk::error::client(
      cdk::client_errc::usage,
      "characterSetName(): " + std::to_string(static_cast<unsigned>(cs)) + " is no CharacterSet"));
}

// What the sensitivity part of an entry says: whether the collation is case
// sensitive (all but the _ci ones) and whether it is binary. A macro, not a
// function of the string: GCC (12) initializes a constant at run time when
// its initializer builds a std::string_view.
#define MYSQLX_SENSITIVITY_bin true, true
#define MYSQLX_SENSITIVITY_ci false, false
#define MYSQLX_SENSITIVITY_cs true, false
#define MYSQLX_SENSITIVITY_ai_ci false, false
#define MYSQLX_SENSITIVITY_as_ci false, false
#define MYSQLX_SENSITIVITY_as_cs true, false
#define MYSQLX_SENSITIVITY_as_cs_ks true, false

// The constants. Constant-initialized (a constexpr constructor, constant
// arguments), so static initializers elsewhere may read them.
#define MYSQLX_DEFINE_COLLATION(CS, ID, COLL, CASE)                                                \
  static_assert(spells(name_of(ID), #CS, #COLL, #CASE), "not MySQL's name of collation " #ID);     \
  const CollationInfo Collation<CharacterSet::CS>::COLL_CONST_NAME(COLL, CASE){                    \
      CharacterSet::CS, ID, name_of(ID), MYSQLX_SENSITIVITY_##CASE};
#define MYSQLX_DEFINE_COLLATIONS_OF(CS) COLLATIONS_##CS(MYSQLX_DEFINE_COLLATION)
CDK_CS_LIST(MYSQLX_DEFINE_COLLATIONS_OF)
#undef MYSQLX_DEFINE_COLLATIONS_OF
#undef MYSQLX_DEFINE_COLLATION
#undef MYSQLX_SENSITIVITY_bin
#undef MYSQLX_SENSITIVITY_ci
#undef MYSQLX_SENSITIVITY_cs
#undef MYSQLX_SENSITIVITY_ai_ci
#undef MYSQLX_SENSITIVITY_as_ci
#undef MYSQLX_SENSITIVITY_as_cs
#undef MYSQLX_SENSITIVITY_as_cs_ks

namespace {
#define MYSQLX_COLLATION_PTR(CS, ID, COLL, CASE)                                                   \
  &Collation<CharacterSet::CS>::COLL_CONST_NAME(COLL, CASE),
#define MYSQLX_COLLATION_PTRS_OF(CS) COLLATIONS_##CS(MYSQLX_COLLATION_PTR)
const CollationInfo* const all_collations[] = {CDK_CS_LIST(MYSQLX_COLLATION_PTRS_OF)};
#undef MYSQLX_COLLATION_PTRS_OF
#undef MYSQLX_COLLATION_PTR
} // namespace

// A scan: 286 entries, looked up only when a program asks a Column.
const CollationInfo* detail::find_collation(unsigned id) noexcept {
  for (const CollationInfo* c : all_collations)
    if (c->id() == id) return c;
  return nullptr;
}

const CollationInfo& detail::collation_extra<CharacterSet::utf8mb4>::utf8mb4 =
    Collation<CharacterSet::utf8mb4>::bin;

MYSQLX_NAMESPACE_END
