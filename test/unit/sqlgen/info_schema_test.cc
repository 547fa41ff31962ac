// A table-model Find on information_schema.collations reads MySQL 8.0's
// collations (info_schema.cc), not MariaDB's; anything else reads the table.
#include "cdk/protocol/mysql_collations.h"
#include "test/unit/sqlgen/expect.h"

#include <iterator>

namespace sqlgen_test {
namespace {

using Mysqlx::Crud::Find;
using xserver::sqlgen::render_find;

Find collations_find(const std::string& schema, const std::string& name,
                     Mysqlx::Crud::DataModel model = Mysqlx::Crud::TABLE) {
  Find f;
  *f.mutable_collection() = collection(name, schema);
  f.set_data_model(model);
  auto* p = f.add_projection();
  *p->mutable_source() = column("id");
  p = f.add_projection();
  *p->mutable_source() = column("collation_name");
  return f;
}

const char* const k_source_head =
    "SELECT `id`,`collation_name` FROM (SELECT `n` AS `COLLATION_NAME`,`s` AS "
    "`CHARACTER_SET_NAME`,CAST(`i` AS UNSIGNED) AS `ID`,IF(`d`,'Yes','') AS `IS_DEFAULT`,'Yes' AS "
    "`IS_COMPILED`,CAST(`l` AS UNSIGNED) AS `SORTLEN`,IF(`p`,'NO PAD','PAD SPACE') AS "
    "`PAD_ATTRIBUTE` FROM (SELECT 'big5_chinese_ci' AS `n`,'big5' AS `s`,1 AS `i`,1 AS `d`,1 "
    "AS `l`,0 AS `p` UNION ALL SELECT 'latin2_czech_cs','latin2',2,0,4,0 UNION ALL ";

TEST(SqlgenInfoSchema, CollationsAreMysqls) {
  // Names of information_schema tables are case-insensitive; the derived
  // table keeps the name as given, for qualified columns.
  for (const char* name : {"collations", "COLLATIONS"}) {
    SCOPED_TRACE(name);
    auto f = collations_find("INFORMATION_SCHEMA", name);
    *f.mutable_criteria() = op(">", {column("id"), num(254)});
    const auto sql = render_find(f);
    ASSERT_TRUE(sql.ok()) << sql.err().message;
    const std::string& s = sql.value();
    EXPECT_EQ(s.rfind(k_source_head, 0), 0u) << s;
    EXPECT_NE(s.find(" UNION ALL SELECT 'utf8mb4_0900_ai_ci','utf8mb4',255,1,0,1 "),
              std::string::npos);
    EXPECT_NE(s.find(" UNION ALL SELECT 'utf8mb4_general_ci','utf8mb4',45,0,1,0 "),
              std::string::npos);
    EXPECT_EQ(s.find("mysql561"), std::string::npos);
    const std::string tail = ",'utf8mb4',323,0,0,1) AS `$xserverd_rows`) AS `" + std::string(name) +
                             "` WHERE (`id` > 254)";
    EXPECT_EQ(s.substr(s.size() - tail.size()), tail);
  }
}

TEST(SqlgenInfoSchema, OtherReadsAreUnchanged) {
  check(render_find(collations_find("information_schema", "character_sets")),
        sql("SELECT `id`,`collation_name` FROM `information_schema`.`character_sets`"));
  check(render_find(collations_find("test", "collations")),
        sql("SELECT `id`,`collation_name` FROM `test`.`collations`"));
  // MySQL 5.7 had other collations (utf8_*): MariaDB's table is read.
  xserver::sqlgen::options v57;
  v57.emulate = xserver::sqlgen::flavor::mysql57;
  check(render_find(collations_find("information_schema", "collations"), v57),
        sql("SELECT `id`,`collation_name` FROM `information_schema`.`collations`"));
}

// The shared list: sorted, unique ids, one default per character set.
TEST(SqlgenInfoSchema, MysqlCollationList) {
  const auto& list = cdk::protocol::mysql_collations;
  EXPECT_EQ(std::size(list), 286u);
  unsigned defaults = 0;
  for (std::size_t i = 0; i < std::size(list); ++i) {
    if (i > 0) {
      EXPECT_LT(list[i - 1].id, list[i].id);
    }
    if (list[i].is_default) ++defaults;
  }
  EXPECT_EQ(defaults, 41u);
  const auto* c = cdk::protocol::find_mysql_collation(255);
  ASSERT_NE(c, nullptr);
  EXPECT_STREQ(c->name, "utf8mb4_0900_ai_ci");
  EXPECT_TRUE(c->is_default);
  EXPECT_EQ(cdk::protocol::find_mysql_collation(17), nullptr);
}

} // namespace
} // namespace sqlgen_test
