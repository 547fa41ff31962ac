#include "cdk/parser/expr_dump.h"

#include "cdk/parser/expr_walk.h"

namespace cdk {
namespace {

using Mysqlx::Datatypes::Scalar;
using Mysqlx::Expr::ColumnIdentifier;
using Mysqlx::Expr::Expr;

class dumper final : public expr_walk::expr_visitor {
public:
  explicit dumper(std::string& out) : m_out(out) {}
  using expr_visitor::visit;

private:
  void on_ident(const ColumnIdentifier& id) override {
    m_out += "(ident";
    if (id.has_name()) {
      m_out += ' ';
      if (id.has_schema_name()) (m_out += id.schema_name()) += '.';
      if (id.has_table_name()) (m_out += id.table_name()) += '.';
      m_out += id.name();
    }
    if (id.document_path_size() > 0) {
      m_out += ' ';
      expr_walk::append_json_path(id, m_out);
    }
    m_out += ')';
  }

  void on_literal(const Scalar& v) override {
    switch (v.type()) {
    case Scalar::V_SINT:
      m_out += "(sint " + std::to_string(v.v_signed_int());
      break;
    case Scalar::V_UINT:
      m_out += "(uint " + std::to_string(v.v_unsigned_int());
      break;
    case Scalar::V_NULL:
      m_out += "(null";
      break;
    case Scalar::V_OCTETS:
      m_out += "(octets ";
      expr_walk::append_string_literal(v.v_octets().value(), m_out);
      break;
    case Scalar::V_DOUBLE:
      m_out += "(double ";
      expr_walk::append_double(v.v_double(), m_out);
      break;
    case Scalar::V_FLOAT:
      m_out += "(float ";
      expr_walk::append_double(v.v_float(), m_out);
      break;
    case Scalar::V_BOOL:
      m_out += v.v_bool() ? "(bool true" : "(bool false";
      break;
    case Scalar::V_STRING:
      m_out += "(string ";
      expr_walk::append_string_literal(v.v_string().value(), m_out);
      break;
    default:
      m_out += "(scalar?";
      break;
    }
    m_out += ')';
  }

  void on_variable(const std::string& name) override { m_out += "(var " + name + ")"; }

  void on_call(const Mysqlx::Expr::FunctionCall& call) override {
    m_out += "(call ";
    if (call.name().has_schema_name()) (m_out += call.name().schema_name()) += '.';
    m_out += call.name().name();
    for (const Expr& p : call.param()) {
      m_out += ' ';
      visit(p);
    }
    m_out += ')';
  }

  void on_operator(const Mysqlx::Expr::Operator& op, const expr_ops::op_info*) override {
    m_out += '(';
    m_out += op.name();
    for (const Expr& p : op.param()) {
      m_out += ' ';
      visit(p);
    }
    m_out += ')';
  }

  void on_placeholder(std::uint32_t pos) override { m_out += "(ph " + std::to_string(pos) + ")"; }

  void on_object(const Mysqlx::Expr::Object& obj) override {
    m_out += "(object";
    for (const auto& f : obj.fld()) {
      m_out += " (";
      expr_walk::append_string_literal(f.key(), m_out);
      m_out += ' ';
      visit(f.value());
      m_out += ')';
    }
    m_out += ')';
  }

  void on_array(const Mysqlx::Expr::Array& arr) override {
    m_out += "(array";
    for (const Expr& v : arr.value()) {
      m_out += ' ';
      visit(v);
    }
    m_out += ')';
  }

  void on_invalid(const Expr&) override { m_out += "(invalid)"; }

  std::string& m_out;
};

} // namespace

std::string dump_expr(const Expr& e) {
  std::string out;
  dumper(out).visit(e);
  return out;
}

} // namespace cdk
