// The `_id` rule per Expr kind (facts section 2.3), on rendered SQL.
#include "test/xserver/doc_render.h"

#include <gtest/gtest.h>

namespace xserver {
namespace {

using Mysqlx::Datatypes::Scalar;
using Mysqlx::Expr::Expr;

std::string q(std::string_view s) {
  return "'" + std::string(s) + "'";
}

struct harness {
  google::protobuf::RepeatedPtrField<Scalar> args;
  int made = 0;
  std::function<std::string()> make_id = [this] { return "ID" + std::to_string(++made); };
  rendered_doc render(const Expr& e, bool generate = true) {
    auto r = render_document(e, args, q, generate ? &make_id : nullptr);
    EXPECT_TRUE(r.ok());
    return r.ok() ? r.value() : rendered_doc{};
  }
};

Expr string_doc(const std::string& text) {
  Expr e;
  e.set_type(Expr::LITERAL);
  e.mutable_literal()->set_type(Scalar::V_STRING);
  e.mutable_literal()->mutable_v_string()->set_value(text);
  return e;
}

TEST(DocRender, JsonStringWithoutTopLevelIdGetsOne) {
  harness h;
  auto d = h.render(string_doc(R"({"a":{"_id":1}})"));
  EXPECT_TRUE(d.id_added);
  EXPECT_EQ(d.sql, R"('{"_id":"ID1","a":{"_id":1}}')");
  d = h.render(string_doc(R"({"a":1,"_id":null})"));
  EXPECT_FALSE(d.id_added);
  EXPECT_EQ(d.sql, R"('{"a":1,"_id":null}')");
  EXPECT_EQ(h.made, 1);
}

TEST(DocRender, NotJsonCountsAsHavingAnIdNonObjectGetsJsonSet) {
  harness h;
  EXPECT_FALSE(h.render(string_doc("not json")).id_added);
  auto d = h.render(string_doc("[1]"));
  EXPECT_TRUE(d.id_added);
  EXPECT_EQ(d.sql, "JSON_SET('[1]', '$._id', 'ID1')");
}

TEST(DocRender, ObjectsPlaceholdersAndOtherScalars) {
  harness h;
  Expr obj;
  obj.set_type(Expr::OBJECT);
  auto* f = obj.mutable_object()->add_fld();
  f->set_key("n");
  f->mutable_value()->set_type(Expr::LITERAL);
  f->mutable_value()->mutable_literal()->set_type(Scalar::V_SINT);
  f->mutable_value()->mutable_literal()->set_v_signed_int(-2);
  auto d = h.render(obj);
  EXPECT_TRUE(d.id_added);
  EXPECT_EQ(d.sql, R"('{"_id":"ID1","n":-2}')");
  f->set_key("_id");
  EXPECT_FALSE(h.render(obj).id_added);

  auto* arg = h.args.Add();
  arg->set_type(Scalar::V_OCTETS);
  arg->mutable_v_octets()->set_value("{}");
  arg->mutable_v_octets()->set_content_type(2);
  Expr ph;
  ph.set_type(Expr::PLACEHOLDER);
  ph.set_position(0);
  EXPECT_TRUE(h.render(ph).id_added);

  Expr dbl;
  dbl.set_type(Expr::LITERAL);
  dbl.mutable_literal()->set_type(Scalar::V_DOUBLE);
  dbl.mutable_literal()->set_v_double(3.5);
  EXPECT_FALSE(h.render(dbl).id_added);
  EXPECT_FALSE(h.render(string_doc("{}"), /*generate=*/false).id_added); // 5.7
}

} // namespace
} // namespace xserver
