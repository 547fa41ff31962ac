// The canonical printer: an expr_visitor that writes each node at the
// precedence its context needs and adds parentheses otherwise. For a binary
// operator at level L (all left-associative), the left operand needs level
// >= L and the right one > L; the other shapes mirror expr_grammar.cc.
#include "cdk/parser/expr_printer.h"

#include "cdk/parser/expr_walk.h"
#include "mysqlx_crud.pb.h"

namespace cdk {
namespace {

using expr_ops::op_info;
using expr_ops::prec;
using expr_ops::shape;
using Mysqlx::Datatypes::Scalar;
using Mysqlx::Expr::ColumnIdentifier;
using Mysqlx::Expr::DocumentPathItem;
using Mysqlx::Expr::Expr;
using namespace expr_walk; // NOLINT: the helpers are this file's vocabulary

bool is_number(const Scalar& v) {
  return v.type() == Scalar::V_SINT || v.type() == Scalar::V_UINT || v.type() == Scalar::V_DOUBLE ||
         v.type() == Scalar::V_FLOAT;
}

bool is_not_op(const Expr& e) {
  return e.type() == Expr::OPERATOR && e.operator_().name() == "not" &&
         e.operator_().param_size() == 1;
}

prec above(prec p) {
  return static_cast<prec>(static_cast<int>(p) + 1);
}

void append_name(std::string_view name, std::string& out) {
  if (is_plain_name(name))
    out += name;
  else
    append_backticked(name, out);
}

// Document paths as the parser reads them: members after '.' in back-ticks
// when they are not words (back-ticks need no escapes).
void append_doc_path(const ColumnIdentifier& id, std::string& out) {
  if (is_whole_document(id)) {
    out += '$';
    return;
  }
  int i = 0;
  const auto& items = id.document_path();
  if (!items.empty() && items[0].type() == DocumentPathItem::MEMBER &&
      is_plain_name(items[0].value())) {
    out += items[0].value();
    i = 1;
  } else {
    out += '$';
  }
  append_path_items(id, i, member_quote::backtick, out);
}

void append_column(const ColumnIdentifier& id, std::string& out) {
  if (!id.has_name()) {
    append_doc_path(id, out);
    return;
  }
  if (id.has_schema_name()) {
    append_name(id.schema_name(), out);
    out += '.';
  }
  if (id.has_table_name()) {
    append_name(id.table_name(), out);
    out += '.';
  }
  append_name(id.name(), out);
  if (id.document_path_size() > 0) {
    out += "->";
    std::string path;
    append_doc_path(id, path);
    if (path[0] != '$') path.insert(0, "$.");
    append_string_literal(path, out);
  }
}

class printer final : public expr_visitor {
public:
  printer(std::string& out, const placeholder_map* names) : m_out(out), m_names(names) {}

  // Writes `e`, in parentheses if it binds looser than `need`.
  void operand(const Expr& e, prec need) {
    if (binding(e) < need && m_out.size() == m_bare_not_at && is_not_op(e)) {
      // First thing after IN (see cont_in): "a IN (NOT b) / c" would read
      // as an IN list. NOT works unbracketed there, binding like '!'.
      m_out += "NOT ";
      operand(e.operator_().param(0), prec::unary);
      return;
    }
    if (binding(e) < need) {
      m_out += '(';
      visit(e);
      m_out += ')';
    } else {
      visit(e);
    }
  }

private:
  void on_ident(const ColumnIdentifier& id) override { append_column(id, m_out); }

  void on_literal(const Scalar& v) override {
    switch (v.type()) {
    case Scalar::V_SINT:
      m_out += std::to_string(v.v_signed_int());
      break;
    case Scalar::V_UINT:
      m_out += std::to_string(v.v_unsigned_int());
      break;
    case Scalar::V_NULL:
      m_out += "NULL";
      break;
    case Scalar::V_OCTETS:
      append_string_literal(v.v_octets().value(), m_out);
      break;
    case Scalar::V_DOUBLE:
      append_double(v.v_double(), m_out);
      break;
    case Scalar::V_FLOAT:
      append_double(v.v_float(), m_out);
      break;
    case Scalar::V_BOOL:
      m_out += v.v_bool() ? "TRUE" : "FALSE";
      break;
    case Scalar::V_STRING:
      append_string_literal(v.v_string().value(), m_out);
      break;
    }
  }

  void on_variable(const std::string& name) override {
    m_out += '@';
    append_name(name, m_out);
  }

  void on_call(const Mysqlx::Expr::FunctionCall& call) override {
    const auto& params = call.param();
    // JSON_UNQUOTE(col->'$.a') is how col->>'$.a' arrives.
    if (!call.name().has_schema_name() && call.name().name() == "JSON_UNQUOTE" &&
        params.size() == 1 && params[0].type() == Expr::IDENT &&
        params[0].identifier().has_name() && params[0].identifier().document_path_size() > 0) {
      std::string col;
      append_column(params[0].identifier(), col);
      m_out += col.replace(col.find("->'"), 2, "->>");
      return;
    }
    if (call.name().has_schema_name()) {
      append_name(call.name().schema_name(), m_out);
      m_out += '.';
    }
    append_name(call.name().name(), m_out);
    list('(', params, ')');
  }

  void on_placeholder(std::uint32_t pos) override {
    if (m_names != nullptr && pos < m_names->size()) {
      const std::string& name = m_names->name(pos);
      if (name.empty()) {
        m_out += '?';
        return;
      }
      if (name.find_first_not_of(
              "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
          std::string::npos) {
        m_out += ':';
        m_out += name;
        return;
      }
    }
    m_out += ':';
    m_out += std::to_string(pos);
  }

  void on_object(const Mysqlx::Expr::Object& obj) override {
    m_out += '{';
    for (int i = 0; i < obj.fld_size(); ++i) {
      if (i > 0) m_out += ", ";
      append_string_literal(obj.fld(i).key(), m_out);
      m_out += ": ";
      visit(obj.fld(i).value());
    }
    m_out += '}';
  }

  void on_array(const Mysqlx::Expr::Array& arr) override { list('[', arr.value(), ']'); }

  void on_invalid(const Expr&) override { m_out += "<invalid expr>"; }

  template <typename List> void list(char open, const List& items, char close) {
    m_out += open;
    for (int i = 0; i < items.size(); ++i) {
      if (i > 0) m_out += ", ";
      visit(items[i]);
    }
    m_out += close;
  }

  void keyword(std::string_view kw) {
    m_out += ' ';
    m_out += kw;
    m_out += ' ';
  }

  void on_operator(const Mysqlx::Expr::Operator& op, const op_info* info) override {
    const auto& p = op.param();
    const int n = p.size();
    if (info == nullptr || !print_known(op, *info, n)) {
      append_backticked(op.name(), m_out); // never re-parses as an operator
      list('(', p, ')');
    }
  }

  bool print_known(const Mysqlx::Expr::Operator& op, const op_info& info, int n) {
    const auto& p = op.param();
    std::string_view text;
    if (n == 0 && op.name() == "*") { // the star of count(*) and projections
      m_out += '*';
      return true;
    }
    switch (info.form) {
    case shape::infix:
      if (n != 2) return false;
      if (info.level == prec::predicate) { // REGEXP: operands at bit_or level
        operand(p[0], prec::bit_or);
        keyword(info.keyword);
        operand(p[1], prec::bit_or);
        return true;
      }
      operand(p[0], info.level);
      keyword(info.keyword);
      operand(p[1], above(info.level));
      return true;
    case shape::prefix: {
      if (n != 1) return false;
      m_out += info.keyword;
      if (info.level == prec::not_) {
        m_out += ' ';
        operand(p[0], prec::not_);
        return true;
      }
      // -(1) must not read back as the literal -1.
      const bool sign = info.keyword == "-" || info.keyword == "+";
      if (sign && p[0].type() == Expr::LITERAL && is_number(p[0].literal())) {
        m_out += '(';
        visit(p[0]);
        m_out += ')';
        return true;
      }
      // Keep "- -1" and "- +a" apart.
      const std::size_t mark = m_out.size();
      operand(p[0], prec::unary);
      if (m_out[mark] == '-' || m_out[mark] == '+') m_out.insert(mark, 1, ' ');
      return true;
    }
    case shape::is:
      if (n != 2 || p[1].type() != Expr::LITERAL) return false;
      operand(p[0], prec::compare);
      keyword(info.keyword);
      on_literal(p[1].literal());
      return true;
    case shape::in_list:
      if (n < 2) return false;
      operand(p[0], prec::bit_or);
      keyword(info.keyword);
      m_out += '(';
      for (int i = 1; i < n; ++i) {
        if (i > 1) m_out += ", ";
        visit(p[i]);
      }
      m_out += ')';
      return true;
    case shape::cont_in:
    case shape::overlaps:
    case shape::like:
      if (n != 2 && !(info.form == shape::like && n == 3)) return false;
      operand(p[0], prec::bit_or);
      keyword(info.keyword);
      // A NOT leading the operand of IN is written bare (see operand()).
      if (info.form == shape::cont_in) m_bare_not_at = m_out.size();
      operand(p[1], prec::bit_or);
      if (n == 3) {
        keyword("ESCAPE");
        operand(p[2], prec::bit_or);
      }
      return true;
    case shape::between:
      if (n != 3) return false;
      operand(p[0], prec::bit_or);
      keyword(info.keyword);
      operand(p[1], prec::bit_or);
      keyword("AND");
      operand(p[2], prec::predicate);
      return true;
    case shape::cast:
      if (n != 2 || !literal_text(p[1], text)) return false;
      m_out += "CAST(";
      visit(p[0]);
      m_out += " AS ";
      m_out += text;
      m_out += ')';
      return true;
    case shape::interval:
      if (n != 3 || !literal_text(p[2], text)) return false;
      operand(p[0], prec::add);
      keyword(info.keyword);
      m_out += "INTERVAL ";
      operand(p[1], prec::bit_or);
      m_out += ' ';
      m_out += text;
      return true;
    case shape::nullary:
      if (n != 0) return false;
      m_out += info.keyword;
      return true;
    }
    return false;
  }

  std::string& m_out;
  const placeholder_map* m_names;
  // Output offset where a NOT may be written without brackets: the start of
  // the right operand of cont_in. m_out only grows, so it matches once.
  std::size_t m_bare_not_at = std::string::npos;
};

} // namespace

std::string print_expr(const Expr& e, const placeholder_map* names) {
  std::string out;
  printer(out, names).operand(e, prec::none);
  return out;
}

std::string print_projection(const Mysqlx::Crud::Projection& p, const placeholder_map* names) {
  std::string out = print_expr(p.source(), names);
  if (p.has_alias()) {
    out += " AS ";
    append_name(p.alias(), out);
  }
  return out;
}

std::string print_sort(const Mysqlx::Crud::Order& o, const placeholder_map* names) {
  std::string out = print_expr(o.expr(), names);
  if (o.has_direction()) out += o.direction() == Mysqlx::Crud::Order::DESC ? " DESC" : " ASC";
  return out;
}

std::string print_column(const ColumnIdentifier& id) {
  std::string out;
  append_column(id, out);
  return out;
}

} // namespace cdk
