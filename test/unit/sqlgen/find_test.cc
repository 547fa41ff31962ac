// Crud.Find -> SELECT: projections, criteria, grouping/having, order,
// limit/offset, row locking and their errors.
#include "test/unit/sqlgen/expect.h"

namespace sqlgen_test {
namespace {

using Mysqlx::Crud::Find;
using xserver::sqlgen::render_find;

Find doc_find() {
  Find f;
  *f.mutable_collection() = collection("c", "s");
  return f;
}

Find table_find() {
  Find f = doc_find();
  f.mutable_collection()->set_name("t");
  f.set_data_model(Mysqlx::Crud::TABLE);
  return f;
}

void project(Find& f, const Expr& e, const std::string& alias = "") {
  auto* p = f.add_projection();
  *p->mutable_source() = e;
  if (!alias.empty()) p->set_alias(alias);
}

struct find_case {
  const char* name;
  Find msg;
  outcome want;
  xserver::sqlgen::options opts = {};
};

void run(const std::vector<find_case>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    check(render_find(c.msg, c.opts), c.want);
  }
}

xserver::sqlgen::options v57() {
  xserver::sqlgen::options o;
  o.emulate = xserver::sqlgen::flavor::mysql57;
  return o;
}

TEST(SqlgenFind, Projections) {
  Find no_schema = doc_find();
  no_schema.mutable_collection()->clear_schema();
  Find table_proj = table_find();
  project(table_proj, column("a"), "x");
  project(table_proj, op("+", {column("a"), num(1)}));
  Find doc_proj = doc_find();
  project(doc_proj, field("name"), "n");
  project(doc_proj, field("age"), "it's");
  Find doc_object = doc_find();
  project(doc_object, object({{"x", field("a")}}));
  Find no_alias = doc_find();
  project(no_alias, field("name"));
  Find no_source = doc_find();
  no_source.add_projection()->set_alias("x");
  Find empty_name = doc_find();
  empty_name.mutable_collection()->set_name("");
  Find no_collection;
  run({
      {"document", doc_find(), sql("SELECT doc FROM `s`.`c`")},
      {"no schema", no_schema, sql("SELECT doc FROM `c`")},
      {"table", table_find(), sql("SELECT * FROM `s`.`t`")},
      {"table projection", table_proj, sql("SELECT `a` AS `x`,(`a` + 1) FROM `s`.`t`")},
      {"document projection", doc_proj,
       sql("SELECT JSON_OBJECT('n', JSON_EXTRACT(doc,'$.name'),'it\\'s', "
           "JSON_EXTRACT(doc,'$.age')) AS doc FROM `s`.`c`")},
      {"one object", doc_object,
       sql("SELECT JSON_OBJECT('x',JSON_EXTRACT(doc,'$.a')) AS doc FROM `s`.`c`")},
      {"alias required", no_alias, error(5120, "Invalid projection target name")},
      {"source required", no_source,
       error(5000, "Invalid message: required field Mysqlx.Crud.Projection.source is missing")},
      {"empty collection name", empty_name, error(5113, "Invalid name of table/collection")},
      {"no collection", no_collection,
       error(5000, "Invalid message: required field Mysqlx.Crud.Find.collection is missing")},
  });
}

TEST(SqlgenFind, CriteriaOrderLimit) {
  Find by_id = doc_find();
  *by_id.mutable_criteria() = op("==", {field("_id"), placeholder(0)});
  *by_id.add_args() = s_str("k");
  Find ordered = table_find();
  *ordered.add_order()->mutable_expr() = column("a");
  auto* desc = ordered.add_order();
  *desc->mutable_expr() = column("b");
  desc->set_direction(Mysqlx::Crud::Order::DESC);
  Find limited = table_find();
  limited.mutable_limit()->set_row_count(10);
  Find offset = limited;
  offset.mutable_limit()->set_offset(5);
  Find limit_expr = table_find();
  *limit_expr.mutable_limit_expr()->mutable_row_count() = placeholder(0);
  *limit_expr.mutable_limit_expr()->mutable_offset() = num(2);
  *limit_expr.add_args() = s_uint(3);
  Find both = limit_expr;
  both.mutable_limit()->set_row_count(1);
  Find negative = table_find();
  *negative.mutable_limit_expr()->mutable_row_count() = num(-1);
  Find string_limit = table_find();
  *string_limit.mutable_limit_expr()->mutable_row_count() = str("1");
  Find ident_limit = table_find();
  *ident_limit.mutable_limit_expr()->mutable_row_count() = column("a");
  Find no_row_count = table_find();
  no_row_count.mutable_limit()->set_offset(1);
  Find no_order_expr = table_find();
  no_order_expr.add_order();
  run({
      {"criteria", by_id, sql("SELECT doc FROM `s`.`c` WHERE (`_id` = 'k')")},
      {"order", ordered, sql("SELECT * FROM `s`.`t` ORDER BY `a`,`b` DESC")},
      {"limit", limited, sql("SELECT * FROM `s`.`t` LIMIT 10")},
      {"limit offset", offset, sql("SELECT * FROM `s`.`t` LIMIT 5, 10")},
      {"limit_expr", limit_expr, sql("SELECT * FROM `s`.`t` LIMIT 2, 3")},
      {"limit_expr ignored by 5.7", limit_expr, sql("SELECT * FROM `s`.`t`"), v57()},
      {"limit and limit_expr", both,
       error(5000, "Invalid message, one of 'limit' and 'limit_expr' fields is allowed. "
                   "Received both")},
      {"negative limit", negative,
       error(5012, "Invalid value, limit fields doesn't allow negative values.")},
      {"string limit", string_limit,
       error(5012, "Invalid scalar type used in limit field: 8, expected types UINT, SINT")},
      {"identifier limit", ident_limit,
       error(5012, "Invalid expression type used in limit field: 1, expected types PLACEHOLDER "
                   "or LITERAL")},
      {"limit without row_count", no_row_count,
       error(5000, "Invalid message: required field Mysqlx.Crud.Limit.row_count is missing")},
      {"order without expr", no_order_expr,
       error(5000, "Invalid message: required field Mysqlx.Crud.Order.expr is missing")},
  });
}

TEST(SqlgenFind, Grouping) {
  Find table = table_find();
  project(table, column("a"));
  project(table, fn("count", {op("*")}), "n");
  *table.add_grouping() = column("a");
  *table.mutable_grouping_criteria() = op(">", {fn("count", {op("*")}), num(1)});
  Find doc = doc_find();
  project(doc, field("name"), "name");
  project(doc, fn("count", {op("*")}), "cnt");
  *doc.add_grouping() = field("name");
  *doc.mutable_grouping_criteria() = op(">", {fn("count", {op("*")}), num(1)});
  doc.mutable_limit()->set_row_count(2);
  Find locked = doc;
  locked.set_locking(Find::EXCLUSIVE_LOCK);
  Find no_projection = doc_find();
  *no_projection.add_grouping() = field("name");
  Find no_alias = doc_find();
  project(no_alias, field("name"));
  *no_alias.add_grouping() = field("name");
  const std::string derived =
      "SELECT JSON_OBJECT('name', `_DERIVED_TABLE_`.`name`,'cnt', `_DERIVED_TABLE_`.`cnt`) AS doc "
      "FROM (SELECT JSON_EXTRACT(doc,'$.name') AS `name`,count(*) AS `cnt` FROM `s`.`c` "
      "GROUP BY JSON_EXTRACT(doc,'$.name') HAVING (count(*) > 1) LIMIT 2) AS `_DERIVED_TABLE_`";
  run({
      {"table", table,
       sql("SELECT `a`,count(*) AS `n` FROM `s`.`t` GROUP BY `a` HAVING (count(*) > 1)")},
      {"document", doc, sql(derived)},
      {"document, locked", locked, sql(derived + " FOR UPDATE")},
      {"document without projection", no_projection,
       error(5114, "Invalid empty projection list for grouping")},
      {"document without alias", no_alias, error(5120, "Invalid projection target name")},
  });
}

TEST(SqlgenFind, Locking) {
  Find shared = doc_find();
  shared.set_locking(Find::SHARED_LOCK);
  Find exclusive = doc_find();
  exclusive.set_locking(Find::EXCLUSIVE_LOCK);
  Find nowait = shared;
  nowait.set_locking_options(Find::NOWAIT);
  Find skip = exclusive;
  skip.set_locking_options(Find::SKIP_LOCKED);
  Find options_only = doc_find();
  options_only.set_locking_options(Find::NOWAIT);
  Find limited = skip;
  limited.mutable_limit()->set_row_count(1);
  run({
      {"shared", shared, sql("SELECT doc FROM `s`.`c` LOCK IN SHARE MODE")},
      {"exclusive", exclusive, sql("SELECT doc FROM `s`.`c` FOR UPDATE")},
      {"shared nowait", nowait, sql("SELECT doc FROM `s`.`c` LOCK IN SHARE MODE NOWAIT")},
      {"exclusive skip locked", skip, sql("SELECT doc FROM `s`.`c` FOR UPDATE SKIP LOCKED")},
      {"after limit", limited, sql("SELECT doc FROM `s`.`c` LIMIT 1 FOR UPDATE SKIP LOCKED")},
      {"options without locking", options_only,
       error(5169, "Invalid \"find\" message, \"locking\" field is required when "
                   "\"locking_options\" is set.")},
      {"ignored by 5.7", nowait, sql("SELECT doc FROM `s`.`c`"), v57()},
  });
}

} // namespace
} // namespace sqlgen_test
