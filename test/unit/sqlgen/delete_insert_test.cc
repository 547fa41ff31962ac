// Crud.Delete -> DELETE and TABLE-model Crud.Insert -> INSERT.
#include "test/unit/sqlgen/expect.h"

namespace sqlgen_test {
namespace {

using Mysqlx::Crud::Delete;
using Mysqlx::Crud::Insert;
using xserver::sqlgen::render_delete;
using xserver::sqlgen::render_insert_table;

TEST(SqlgenDelete, Statements) {
  Delete all;
  *all.mutable_collection() = collection("c", "s");
  Delete filtered = all;
  *filtered.mutable_criteria() = op("==", {field("_id"), placeholder(0)});
  *filtered.add_args() = s_str("k");
  filtered.mutable_limit()->set_row_count(1);
  Delete ordered = all;
  ordered.set_data_model(Mysqlx::Crud::TABLE);
  *ordered.mutable_criteria() = op(">", {column("a"), num(1)});
  auto* o = ordered.add_order();
  *o->mutable_expr() = column("a");
  o->set_direction(Mysqlx::Crud::Order::DESC);
  *ordered.mutable_limit_expr()->mutable_row_count() = placeholder(0);
  *ordered.add_args() = s_uint(5);
  Delete offset = filtered;
  offset.mutable_limit()->set_offset(1);
  Delete bad_placeholder = all;
  *bad_placeholder.mutable_criteria() = op("==", {field("a"), placeholder(1)});
  Delete no_collection;
  struct c {
    const char* name;
    Delete msg;
    outcome want;
  };
  const std::vector<c> cases{
      {"all", all, sql("DELETE FROM `s`.`c`")},
      {"by id", filtered, sql("DELETE FROM `s`.`c` WHERE (`_id` = 'k') LIMIT 1")},
      {"table, ordered", ordered,
       sql("DELETE FROM `s`.`c` WHERE (`a` > 1) ORDER BY `a` DESC LIMIT 5")},
      {"offset", offset,
       error(5012, "Invalid parameter: non-zero offset value is not allowed for this operation")},
      {"unbound placeholder", bad_placeholder, error(5154, "Invalid value of placeholder")},
      {"no collection", no_collection,
       error(5000, "Invalid message: required field Mysqlx.Crud.Delete.collection is missing")},
  };
  for (const auto& k : cases) {
    SCOPED_TRACE(k.name);
    check(render_delete(k.msg), k.want);
  }
}

Insert table_insert(std::initializer_list<const char*> columns) {
  Insert i;
  *i.mutable_collection() = collection("t", "s");
  i.set_data_model(Mysqlx::Crud::TABLE);
  for (const char* c : columns) i.add_projection()->set_name(c);
  return i;
}

void add_row(Insert& i, std::initializer_list<Expr> fields) {
  auto* row = i.add_row();
  for (const auto& f : fields) *row->add_field() = f;
}

TEST(SqlgenInsert, Table) {
  Insert rows = table_insert({"a", "b"});
  add_row(rows, {num(1), str("x")});
  add_row(rows, {placeholder(0), object({{"k", lit(s_null())}})});
  *rows.add_args() = s_double(2.5);
  Insert no_columns = table_insert({});
  add_row(no_columns, {num(1)});
  add_row(no_columns, {num(2), num(3)});
  Insert no_rows = table_insert({"a"});
  Insert short_row = table_insert({"a", "b"});
  add_row(short_row, {num(1)});
  Insert empty_row = table_insert({});
  add_row(empty_row, {});
  Insert upsert = table_insert({"a"});
  add_row(upsert, {num(1)});
  upsert.set_upsert(true);
  Insert document = table_insert({});
  document.set_data_model(Mysqlx::Crud::DOCUMENT);
  add_row(document, {str("{}")});
  xserver::sqlgen::options v57;
  v57.emulate = xserver::sqlgen::flavor::mysql57;
  struct c {
    const char* name;
    Insert msg;
    outcome want;
    xserver::sqlgen::options opts = {};
  };
  const std::vector<c> cases{
      {"rows", rows,
       sql("INSERT INTO `s`.`t` (`a`,`b`) VALUES (1,'x'),(2.5,JSON_OBJECT('k',NULL))")},
      {"no column list", no_columns, sql("INSERT INTO `s`.`t` VALUES (1),(2,3)")},
      {"no rows", no_rows, error(5013, "Missing row data for Insert")},
      {"row too short", short_row, error(5014, "Wrong number of fields in row being inserted")},
      {"empty row", empty_row, error(5014, "Wrong number of fields in row being inserted")},
      {"upsert", upsert, error(5014, "Unable update on duplicate key for TABLE data model")},
      {"upsert ignored by 5.7", upsert, sql("INSERT INTO `s`.`t` (`a`) VALUES (1)"), v57},
      {"document model", document,
       error(5012, "Document-model Insert is rendered by xserverd's insert path, not "
                   "render_insert_table")},
  };
  for (const auto& k : cases) {
    SCOPED_TRACE(k.name);
    check(render_insert_table(k.msg, k.opts), k.want);
  }
}

} // namespace
} // namespace sqlgen_test
