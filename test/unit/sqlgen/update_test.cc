// Crud.Update -> UPDATE: every document operation, `_id` protection, table
// operations, and their errors, in 8.0 and 5.7 flavors.
#include "test/unit/sqlgen/expect.h"

namespace sqlgen_test {
namespace {

using Mysqlx::Crud::Update;
using Mysqlx::Crud::UpdateOperation;
using xserver::sqlgen::render_update;

Update doc_update() {
  Update u;
  *u.mutable_collection() = collection("c", "s");
  return u;
}

Update table_update() {
  Update u = doc_update();
  u.mutable_collection()->set_name("t");
  u.set_data_model(Mysqlx::Crud::TABLE);
  return u;
}

// An operation on a document path (or, for tables, on column `column`).
void add_op(Update& u, UpdateOperation::UpdateType type,
            std::initializer_list<DocumentPathItem> path_items, const Expr* value,
            const std::string& column = "") {
  auto* o = u.add_operation();
  o->set_operation(type);
  auto* src = o->mutable_source();
  if (!column.empty()) src->set_name(column);
  for (const auto& i : path_items) *src->add_document_path() = i;
  if (value) *o->mutable_value() = *value;
}

xserver::sqlgen::options v57() {
  xserver::sqlgen::options o;
  o.emulate = xserver::sqlgen::flavor::mysql57;
  return o;
}

struct update_case {
  const char* name;
  Update msg;
  outcome want;
  xserver::sqlgen::options opts = {};
};

void run(const std::vector<update_case>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    check(render_update(c.msg, c.opts), c.want);
  }
}

std::string keep_id(const std::string& ops) {
  return "UPDATE `s`.`c` SET doc=JSON_SET(" + ops +
         ",'$._id',JSON_EXTRACT(`doc`,'$._id')),`_id`=JSON_UNQUOTE(JSON_EXTRACT(doc,'$._id'))";
}

TEST(SqlgenUpdate, DocumentOperations) {
  const Expr one = num(1), two = num(2), x = str("x"), obj = object({{"k", num(1)}});
  auto single = [&](UpdateOperation::UpdateType t, std::initializer_list<DocumentPathItem> p,
                    const Expr* v) {
    Update u = doc_update();
    add_op(u, t, p, v);
    return u;
  };
  Update mixed = doc_update();
  add_op(mixed, UpdateOperation::ITEM_SET, {member("a")}, &one);
  add_op(mixed, UpdateOperation::ITEM_SET, {member("b")}, &x);
  add_op(mixed, UpdateOperation::ITEM_REMOVE, {member("c")}, nullptr);
  add_op(mixed, UpdateOperation::ITEM_SET, {member("d")}, &two);
  Update appends = doc_update();
  add_op(appends, UpdateOperation::ITEM_SET, {member("s")}, &one);
  add_op(appends, UpdateOperation::ARRAY_APPEND, {member("a")}, &x);
  add_op(appends, UpdateOperation::ARRAY_APPEND, {member("b")}, &one);
  run({
      {"ITEM_SET", single(UpdateOperation::ITEM_SET, {member("a")}, &one),
       sql(keep_id("JSON_SET(doc,'$.a',1)"))},
      {"ITEM_SET root (replace)", single(UpdateOperation::ITEM_SET, {}, &obj),
       sql(keep_id("JSON_SET(doc,'$',JSON_OBJECT('k',1))"))},
      {"ITEM_REMOVE", single(UpdateOperation::ITEM_REMOVE, {member("a"), index(0)}, nullptr),
       sql(keep_id("JSON_REMOVE(doc,'$.a[0]')"))},
      {"ITEM_REPLACE", single(UpdateOperation::ITEM_REPLACE, {member("a")}, &x),
       sql(keep_id("JSON_REPLACE(doc,'$.a','x')"))},
      {"ITEM_MERGE", single(UpdateOperation::ITEM_MERGE, {}, &obj),
       sql(keep_id("JSON_MERGE_PRESERVE(doc,JSON_OBJECT('k',1))"))},
      {"MERGE_PATCH on $", single(UpdateOperation::MERGE_PATCH, {member("")}, &obj),
       sql(keep_id("JSON_MERGE_PATCH(doc,JSON_OBJECT('k',1))"))},
      {"ARRAY_INSERT", single(UpdateOperation::ARRAY_INSERT, {member("a"), index(1)}, &one),
       sql(keep_id("JSON_ARRAY_INSERT(doc,'$.a[1]',1)"))},
      {"ARRAY_APPEND", single(UpdateOperation::ARRAY_APPEND, {member("a")}, &x),
       sql(keep_id("COALESCE(JSON_ARRAY_APPEND(@`$xserverd_append_0`:=doc,'$.a','x'),"
                   "@`$xserverd_append_0`)"))},
      // MySQL ignores an append to a missing path; MariaDB's function returns
      // NULL there, so each append falls back to the document before it.
      {"appends are not grouped", appends,
       sql(keep_id("COALESCE(JSON_ARRAY_APPEND(@`$xserverd_append_2`:="
                   "COALESCE(JSON_ARRAY_APPEND(@`$xserverd_append_1`:=JSON_SET(doc,'$.s',1),"
                   "'$.a','x'),@`$xserverd_append_1`),'$.b',1),@`$xserverd_append_2`)"))},
      {"member wildcard",
       single(UpdateOperation::ITEM_SET, {item(DocumentPathItem::MEMBER_ASTERISK), member("z")},
              &one),
       sql(keep_id("JSON_SET(doc,'$.*.z',1)"))},
      {"runs nest in order", mixed,
       sql(keep_id("JSON_SET(JSON_REMOVE(JSON_SET(doc,'$.a',1,'$.b','x'),'$.c'),'$.d',2)"))},
      {"$._id.x may change", single(UpdateOperation::ITEM_SET, {member("_id"), member("x")}, &one),
       sql(keep_id("JSON_SET(doc,'$._id.x',1)"))},
  });
}

TEST(SqlgenUpdate, DocumentErrors) {
  const Expr one = num(1), obj = object({{"k", num(1)}}), bad_json = lit(s_octets("nope", 2));
  auto single = [&](UpdateOperation::UpdateType t, std::initializer_list<DocumentPathItem> p,
                    const Expr* v) {
    Update u = doc_update();
    add_op(u, t, p, v);
    return u;
  };
  Update named = doc_update();
  add_op(named, UpdateOperation::ITEM_SET, {member("a")}, &one, "doc");
  Update none = doc_update();
  Update no_type = doc_update();
  no_type.add_operation()->mutable_source()->add_document_path()->CopyFrom(member("a"));
  run({
      {"set $._id", single(UpdateOperation::ITEM_SET, {member("_id")}, &one),
       error(5053, "Forbidden update operation on '$._id' member")},
      {"remove $._id", single(UpdateOperation::ITEM_REMOVE, {member("_id")}, nullptr),
       error(5053, "Forbidden update operation on '$._id' member")},
      {"path from an index", single(UpdateOperation::ITEM_SET, {index(0)}, &one),
       error(5053, "Invalid document member location")},
      {"ITEM_REMOVE with value", single(UpdateOperation::ITEM_REMOVE, {member("a")}, &one),
       error(5050, "Unexpected value argument for ITEM_REMOVE operation")},
      {"MERGE_PATCH below $", single(UpdateOperation::MERGE_PATCH, {member("a")}, &obj),
       error(5050, "Unexpected source for ITEM_MERGE operation")},
      {"ITEM_MERGE below $", single(UpdateOperation::ITEM_MERGE, {member("a")}, &obj),
       error(5050, "Unexpected source for ITEM_MERGE operation")},
      {"column name", named, error(5052, "Invalid column name to update")},
      {"SET is for tables", single(UpdateOperation::SET, {member("a")}, &one),
       error(5051, "Invalid type of update operation for document")},
      {"no operations", none, error(5050, "Invalid update expression list")},
      {"operation without type", no_type,
       error(5000,
             "Invalid message: required field Mysqlx.Crud.UpdateOperation.operation is missing")},
      {"invalid JSON value", single(UpdateOperation::ITEM_SET, {member("a")}, &bad_json),
       error(5050, "Invalid data for update operation on document collection table")},
      {"ITEM_SET without value", single(UpdateOperation::ITEM_SET, {member("a")}, nullptr),
       error(5000, "Invalid message: required field Mysqlx.Crud.UpdateOperation.value is missing")},
  });
}

TEST(SqlgenUpdate, Clauses) {
  const Expr one = num(1);
  Update u = doc_update();
  add_op(u, UpdateOperation::ITEM_SET, {member("a")}, &one);
  *u.mutable_criteria() = op("==", {field("_id"), placeholder(0)});
  *u.add_args() = s_str("k");
  *u.add_order()->mutable_expr() = column("x");
  u.mutable_limit()->set_row_count(1);
  Update zero_offset = u;
  zero_offset.mutable_limit()->set_offset(0);
  Update offset = u;
  offset.mutable_limit()->set_offset(3);
  Update expr_offset = u;
  expr_offset.clear_limit();
  *expr_offset.mutable_limit_expr()->mutable_row_count() = num(1);
  *expr_offset.mutable_limit_expr()->mutable_offset() = num(0);
  const std::string base = keep_id("JSON_SET(doc,'$.a',1)") + " WHERE (`_id` = 'k') ORDER BY `x`";
  run({
      {"where order limit", u, sql(base + " LIMIT 1")},
      {"offset 0 is fine", zero_offset, sql(base + " LIMIT 1")},
      {"offset", offset,
       error(5012, "Invalid parameter: non-zero offset value is not allowed for this operation")},
      {"limit_expr offset", expr_offset,
       error(5012, "Invalid parameter: offset value is not allowed for this operation")},
  });
}

TEST(SqlgenUpdate, WithoutIdColumn) {
  const Expr one = num(1);
  Update u = doc_update();
  add_op(u, UpdateOperation::ITEM_SET, {member("a")}, &one);
  xserver::sqlgen::options no_key;
  no_key.id_column = false;
  check(render_update(u, no_key),
        sql("UPDATE `s`.`c` SET "
            "doc=JSON_SET(JSON_SET(doc,'$.a',1),'$._id',JSON_EXTRACT(`doc`,'$._id'))"));
}

TEST(SqlgenUpdate, Mysql57) {
  const Expr one = num(1), obj = object({{"k", num(1)}});
  auto single = [&](UpdateOperation::UpdateType t, std::initializer_list<DocumentPathItem> p,
                    const Expr* v) {
    Update u = doc_update();
    add_op(u, t, p, v);
    return u;
  };
  run({
      {"no _id restore", single(UpdateOperation::ITEM_SET, {member("a")}, &one),
       sql("UPDATE `s`.`c` SET "
           "doc=JSON_SET(doc,'$.a',1),`_id`=JSON_UNQUOTE(JSON_EXTRACT(doc,'$._id'))"),
       v57()},
      {"ITEM_MERGE strips _id", single(UpdateOperation::ITEM_MERGE, {}, &obj),
       sql("UPDATE `s`.`c` SET doc=JSON_MERGE(doc,IF(JSON_TYPE(JSON_OBJECT('k',1))='OBJECT',"
           "JSON_REMOVE(JSON_OBJECT('k',1),'$._id'),'_ERROR_')),"
           "`_id`=JSON_UNQUOTE(JSON_EXTRACT(doc,'$._id'))"),
       v57()},
      {"no MERGE_PATCH", single(UpdateOperation::MERGE_PATCH, {}, &obj),
       error(5051, "Invalid type of update operation for document"), v57()},
      {"path required", single(UpdateOperation::ITEM_SET, {}, &one),
       error(5053, "Invalid document member location"), v57()},
      {"$._id still forbidden", single(UpdateOperation::ITEM_SET, {member("_id")}, &one),
       error(5053, "Forbidden update operation on '$._id' member"), v57()},
  });
}

TEST(SqlgenUpdate, TableOperations) {
  const Expr one = num(1), two = num(2), three = num(3), obj = object({{"k", num(1)}});
  Update set = table_update();
  add_op(set, UpdateOperation::SET, {}, &one, "a");
  add_op(set, UpdateOperation::SET, {}, &two, "b");
  Update json_ops = table_update();
  add_op(json_ops, UpdateOperation::SET, {}, &one, "a");
  add_op(json_ops, UpdateOperation::ITEM_SET, {member("x")}, &two, "info");
  add_op(json_ops, UpdateOperation::ITEM_SET, {member("y")}, &three, "info");
  add_op(json_ops, UpdateOperation::ITEM_REMOVE, {member("z")}, nullptr, "info");
  add_op(json_ops, UpdateOperation::ITEM_MERGE, {}, &obj, "info");
  add_op(json_ops, UpdateOperation::MERGE_PATCH, {}, &obj, "other");
  add_op(json_ops, UpdateOperation::ARRAY_APPEND, {member("l")}, &one, "other");
  Update set_path = table_update();
  add_op(set_path, UpdateOperation::SET, {member("x")}, &one, "a");
  Update no_column = table_update();
  add_op(no_column, UpdateOperation::SET, {}, &one);
  Update no_path = table_update();
  add_op(no_path, UpdateOperation::ITEM_SET, {}, &one, "info");
  Update bad_json = table_update();
  const Expr nope = lit(s_octets("nope", 2));
  add_op(bad_json, UpdateOperation::ITEM_SET, {member("x")}, &nope, "info");
  Update with_table = table_update();
  add_op(with_table, UpdateOperation::SET, {}, &one, "a");
  with_table.mutable_operation(0)->mutable_source()->set_table_name("t");
  run({
      {"SET", set, sql("UPDATE `s`.`t` SET `a`=1,`b`=2")},
      {"JSON operations by column", json_ops,
       sql("UPDATE `s`.`t` SET `a`=1,`info`=JSON_SET(`info`,'$.x',2,'$.y',3),"
           "`info`=JSON_REMOVE(`info`,'$.z'),`info`=JSON_MERGE_PRESERVE(`info`,JSON_OBJECT('k',1)),"
           "`other`=JSON_MERGE_PATCH(`other`,JSON_OBJECT('k',1)),"
           "`other`=JSON_ARRAY_APPEND(`other`,'$.l',1)")},
      {"SET with a path", set_path, error(5052, "Invalid column name to update")},
      {"no column", no_column, error(5052, "Invalid column name to update")},
      {"table name", with_table, error(5052, "Invalid column name to update")},
      {"ITEM_SET without path", no_path, error(5053, "Invalid member location")},
      {"invalid JSON, table: MySQL's error", bad_json,
       error(3141,
             "Invalid JSON text in argument 1 to function cast_as_json: \"Invalid value.\" at "
             "position 1.",
             "22032")},
  });
}

} // namespace
} // namespace sqlgen_test
