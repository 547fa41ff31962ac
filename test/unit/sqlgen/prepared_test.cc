// Prepared statements: prepare_*() render `?` for the placeholders an
// Execute fills (the message's own args still inlined) and list what fills
// each; bind_params() turns Execute's arguments into EXECUTE ... USING
// values with the checks and errors of the unprepared path.
#include "test/unit/sqlgen/expect.h"

namespace sqlgen_test {
namespace {

using namespace xserver::sqlgen;

// "kind:arg" for each `?`, to compare param lists at a glance.
std::vector<std::string> describe(const std::vector<param>& ps) {
  static const char* names[] = {"value",      "json",       "json_compare", "rank_key",
                                "number_key", "string_key", "json_cast",    "limit"};
  std::vector<std::string> out;
  for (const param& p : ps)
    out.push_back(std::string(names[static_cast<int>(p.kind)]) + ":" + std::to_string(p.arg));
  return out;
}

arg_list args_of(std::initializer_list<Scalar> values) {
  arg_list out;
  for (const auto& v : values) *out.Add() = v;
  return out;
}

prepared_sql prepared(const cdk::result<prepared_sql>& r) {
  EXPECT_TRUE(r.ok()) << r.err().code << ": " << r.err().message;
  return r.ok() ? r.value() : prepared_sql{};
}

Mysqlx::Crud::Find doc_find(const Expr& criteria) {
  Mysqlx::Crud::Find f;
  *f.mutable_collection() = collection("c", "s");
  *f.mutable_criteria() = criteria;
  return f;
}

TEST(SqlgenPrepared, FindHasAQuestionMarkPerExecuteArgument) {
  auto f = doc_find(op(
      "&&", {op("==", {field("name"), placeholder(0)}), op("==", {field("_id"), placeholder(1)})}));
  *f.mutable_limit_expr()->mutable_row_count() = placeholder(2);
  *f.mutable_limit_expr()->mutable_offset() = placeholder(3);
  const prepared_sql p = prepared(prepare_find(f));
  EXPECT_EQ(p.sql, "SELECT doc FROM `s`.`c` WHERE ((JSON_EQUALS(JSON_EXTRACT(doc,'$.name'),?) = "
                   "1) AND (`_id` = ?)) LIMIT ?, ?");
  // The offset comes first in LIMIT, as in the X Plugin's add_limit_expr_field.
  EXPECT_EQ(describe(p.params),
            (std::vector<std::string>{"json_compare:0", "value:1", "limit:3", "limit:2"}));
  EXPECT_EQ(p.args_offset, 0u);
  // Unprepared, the same message with those values inlines them.
  for (const auto& a : args_of({s_str("Bob"), s_str("k"), s_uint(5), s_uint(1)})) *f.add_args() = a;
  check(render_find(f),
        sql("SELECT doc FROM `s`.`c` WHERE (IF(JSON_TYPE(JSON_EXTRACT(doc,'$.name'))='STRING',"
            "JSON_UNQUOTE(JSON_EXTRACT(doc,'$.name')) = 'Bob',CASE "
            "JSON_TYPE(JSON_EXTRACT(doc,'$.name')) WHEN 'NULL' THEN 1 WHEN 'INTEGER' THEN 2 WHEN "
            "'DOUBLE' THEN 2 WHEN 'STRING' THEN 3 WHEN 'OBJECT' THEN 4 WHEN 'ARRAY' THEN 5 WHEN "
            "'BOOLEAN' THEN 6 END = 3) AND (`_id` = 'k')) LIMIT 1, 5"));
}

TEST(SqlgenPrepared, TheMessagesOwnArgumentsAreInlinedAndExecutesAreNumberedAfterThem) {
  auto f = doc_find(
      op("&&", {op("==", {field("a"), placeholder(0)}), op(">", {field("n"), placeholder(1)})}));
  *f.add_args() = s_str("x");
  f.set_data_model(Mysqlx::Crud::DOCUMENT);
  const prepared_sql p = prepared(prepare_find(f));
  EXPECT_NE(p.sql.find("= 'x'"), std::string::npos) << p.sql;
  EXPECT_NE(p.sql.find(") > (?,?,?)"), std::string::npos) << p.sql;
  EXPECT_EQ(p.sql.find("'$.n'),?"), std::string::npos) << p.sql;
  EXPECT_EQ(describe(p.params),
            (std::vector<std::string>{"rank_key:0", "number_key:0", "string_key:0"}));
  EXPECT_EQ(p.args_offset, 1u);
  // A missing argument is named by its position in the message, as MySQL does.
  auto none = bind_params(p, args_of({}));
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.err().code, 5134u);
  EXPECT_EQ(none.err().message, "There is no argument for statement placeholder at position: 1");
}

TEST(SqlgenPrepared, JsonOperandsAndCastsTakeTheirFormsAtExecute) {
  auto f =
      doc_find(op("||", {op("||", {op("cont_in", {placeholder(0), field("tags")}),
                                   op("in", {placeholder(1), array({str("a"), str("b")})})}),
                         op("==", {op("cast", {placeholder(2), plain("JSON")}), field("o")})}));
  const prepared_sql p = prepared(prepare_find(f));
  EXPECT_EQ(
      p.sql,
      "SELECT doc FROM `s`.`c` WHERE ((JSON_CONTAINS(JSON_EXTRACT(doc,'$.tags'),?) OR "
      "JSON_CONTAINS(JSON_ARRAY('a','b'),?)) OR (JSON_COMPACT(?) = JSON_EXTRACT(doc,'$.o')))");
  EXPECT_EQ(describe(p.params), (std::vector<std::string>{"json:0", "json:1", "json_cast:2"}));
  auto v = bind_params(p, args_of({s_str("a"), s_int(3), s_str("{\"k\": 1}")}));
  ASSERT_TRUE(v.ok()) << v.err().message;
  EXPECT_EQ(v.value(), (std::vector<std::string>{"JSON_QUOTE('a')", "'3'", "'{\\\"k\\\": 1}'"}));
  auto bad = bind_params(p, args_of({s_str("a"), s_int(3), s_str("{nope")}));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.err().code, 3141u);
}

TEST(SqlgenPrepared, ValuesAreWhatTheUnpreparedStatementWouldInline) {
  prepared_sql p;
  p.params = {
      {param_kind::value, 0},        {param_kind::value, 1},        {param_kind::value, 2},
      {param_kind::json_compare, 3}, {param_kind::json_compare, 4}, {param_kind::rank_key, 4},
      {param_kind::number_key, 2},   {param_kind::string_key, 0},   {param_kind::limit, 5}};
  auto v = bind_params(p, args_of({s_str("it's"), s_octets("[1]", 2), s_int(-3), s_bool(true),
                                   s_null(), s_uint(7)}));
  ASSERT_TRUE(v.ok()) << v.err().message;
  EXPECT_EQ(v.value()[0], "'it\\'s'");
  EXPECT_EQ(v.value()[1], "JSON_COMPACT('[1]')"); // stays JSON through the parameter
  EXPECT_EQ(v.value()[2], "-3");
  EXPECT_EQ(v.value()[3], "'true'");
  EXPECT_EQ(v.value()[4], "NULL"); // path == NULL is NULL, not a match of JSON null
  EXPECT_EQ(v.value()[5], "NULL");
  EXPECT_EQ(v.value()[6], "CASE JSON_TYPE('-3') WHEN 'INTEGER' THEN CAST(JSON_UNQUOTE('-3') AS "
                          "DOUBLE) WHEN 'DOUBLE' THEN CAST(JSON_UNQUOTE('-3') AS DOUBLE) WHEN "
                          "'BOOLEAN' THEN JSON_UNQUOTE('-3')='true' ELSE 0 END");
  EXPECT_EQ(v.value()[7], "IF(JSON_TYPE(JSON_QUOTE('it\\'s')) IN ('STRING','OBJECT','ARRAY'),"
                          "JSON_UNQUOTE(JSON_QUOTE('it\\'s')),'')");
  EXPECT_EQ(v.value()[8], "7");
}

TEST(SqlgenPrepared, LimitValuesAreCheckedAtExecuteWithTheUnpreparedErrors) {
  Mysqlx::Crud::Delete d;
  *d.mutable_collection() = collection("c", "s");
  *d.mutable_limit_expr()->mutable_row_count() = placeholder(0);
  const prepared_sql p = prepared(prepare_delete(d));
  EXPECT_EQ(p.sql, "DELETE FROM `s`.`c` LIMIT ?");
  auto negative = bind_params(p, args_of({s_int(-1)}));
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.err().code, 5012u);
  EXPECT_EQ(negative.err().message, "Invalid value, limit fields doesn't allow negative values.");
  auto text = bind_params(p, args_of({s_str("1")}));
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.err().message, "Invalid scalar type used in limit field: 8, expected types UINT, "
                                "SINT");
  // What the statement's shape refuses is refused at Prepare, as MySQL's
  // Prepare builds the SQL.
  *d.mutable_limit_expr()->mutable_offset() = placeholder(1);
  auto offset = prepare_delete(d);
  ASSERT_FALSE(offset.ok());
  EXPECT_EQ(offset.err().code, 5012u);
}

TEST(SqlgenPrepared, UpdateAndTableInsertValues) {
  Mysqlx::Crud::Update u;
  *u.mutable_collection() = collection("c", "s");
  auto* o = u.add_operation();
  o->set_operation(Mysqlx::Crud::UpdateOperation::ITEM_SET);
  *o->mutable_source()->add_document_path() = member("j");
  *o->mutable_value() = placeholder(1);
  *u.mutable_criteria() = op("==", {field("_id"), placeholder(0)});
  const prepared_sql p = prepared(prepare_update(u));
  EXPECT_EQ(p.sql,
            "UPDATE `s`.`c` SET doc=JSON_SET(JSON_SET(doc,'$.j',?),'$._id',JSON_EXTRACT(`"
            "doc`,'$._id')),`_id`=JSON_UNQUOTE(JSON_EXTRACT(doc,'$._id')) WHERE (`_id` = ?)");
  EXPECT_EQ(describe(p.params), (std::vector<std::string>{"value:1", "value:0"}));
  // Invalid JSON in a document update is the X Plugin's 5050, as unprepared.
  auto bad = bind_params(p, args_of({s_str("a"), s_octets("{", 2)}));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.err().code, 5050u);

  Mysqlx::Crud::Insert ins;
  *ins.mutable_collection() = collection("t", "s");
  ins.set_data_model(Mysqlx::Crud::TABLE);
  auto* row = ins.add_row();
  *row->add_field() = placeholder(0);
  *row->add_field() = op("+", {placeholder(1), num(1)});
  const prepared_sql pi = prepared(prepare_insert_table(ins));
  EXPECT_EQ(pi.sql, "INSERT INTO `s`.`t` VALUES (?,(? + 1))");
  EXPECT_EQ(describe(pi.params), (std::vector<std::string>{"value:0", "value:1"}));
}

TEST(SqlgenPrepared, PlaceholderPositionsInAnExpression) {
  const Expr e = object({{"a", placeholder(2)},
                         {"b", array({num(1), fn("concat", {placeholder(0), str("x")})})},
                         {"c", op("+", {placeholder(1), placeholder(2)})}});
  EXPECT_EQ(placeholder_positions(e), (std::vector<std::uint32_t>{2, 0, 1, 2}));
}

} // namespace
} // namespace sqlgen_test
