#include "cdk/parser/expr_walk.h"

#include "cdk/parser/lexer.h"

#include <charconv>
#include <cmath>

namespace cdk::expr_walk {

using Mysqlx::Datatypes::Scalar;
using Mysqlx::Expr::ColumnIdentifier;
using Mysqlx::Expr::DocumentPathItem;
using Mysqlx::Expr::Expr;

void expr_visitor::visit(const Expr& e) {
  if (!e.has_type()) {
    on_invalid(e);
    return;
  }
  switch (e.type()) {
  case Expr::IDENT:
    on_ident(e.identifier());
    return;
  case Expr::LITERAL:
    on_literal(e.literal());
    return;
  case Expr::VARIABLE:
    on_variable(e.variable());
    return;
  case Expr::FUNC_CALL:
    on_call(e.function_call());
    return;
  case Expr::OPERATOR:
    on_operator(e.operator_(), expr_ops::find_op(e.operator_().name()));
    return;
  case Expr::PLACEHOLDER:
    on_placeholder(e.position());
    return;
  case Expr::OBJECT:
    on_object(e.object());
    return;
  case Expr::ARRAY:
    on_array(e.array());
    return;
  }
  on_invalid(e);
}

expr_ops::prec binding(const Expr& e) noexcept {
  if (e.type() == Expr::OPERATOR) {
    const auto* info = expr_ops::find_op(e.operator_().name());
    return info != nullptr ? info->level : expr_ops::prec::atom;
  }
  if (e.type() == Expr::LITERAL) {
    const Scalar& s = e.literal();
    if ((s.type() == Scalar::V_SINT && s.v_signed_int() < 0) ||
        (s.type() == Scalar::V_DOUBLE && std::signbit(s.v_double())) ||
        (s.type() == Scalar::V_FLOAT && std::signbit(s.v_float())))
      return expr_ops::prec::unary;
  }
  return expr_ops::prec::atom;
}

bool is_whole_document(const ColumnIdentifier& id) noexcept {
  return id.document_path_size() == 1 && id.document_path(0).type() == DocumentPathItem::MEMBER &&
         id.document_path(0).value().empty();
}

bool literal_text(const Expr& e, std::string_view& out) noexcept {
  if (e.type() != Expr::LITERAL) return false;
  const Scalar& s = e.literal();
  if (s.type() == Scalar::V_OCTETS) {
    out = s.v_octets().value();
    return true;
  }
  if (s.type() == Scalar::V_STRING) {
    out = s.v_string().value();
    return true;
  }
  return false;
}

bool is_word_name(std::string_view name) noexcept {
  if (name.empty()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
    if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

bool is_plain_name(std::string_view name) noexcept {
  if (!is_word_name(name)) return false;
  expr_lex::lexer lx(name);
  return !expr_lex::is_reserved(lx.next().keyword);
}

void append_backticked(std::string_view name, std::string& out) {
  out += '`';
  for (char c : name) {
    if (c == '`') out += '`';
    out += c;
  }
  out += '`';
}

void append_string_literal(std::string_view text, std::string& out) {
  out += '\'';
  for (char c : text) {
    switch (c) {
    case '\\':
      out += "\\\\";
      break;
    case '\'':
      out += "\\'";
      break;
    case '\0':
      out += "\\0";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\x1a':
      out += "\\Z";
      break;
    default:
      out += c;
    }
  }
  out += '\'';
}

void append_double(double value, std::string& out) {
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, value);
  const std::string_view s(buf, static_cast<std::size_t>(res.ptr - buf));
  out += s;
  if (s.find_first_of(".eEn") == std::string_view::npos) out += ".0"; // n: inf, nan
}

void append_json_path(const ColumnIdentifier& id, std::string& out) {
  out += '$';
  if (!is_whole_document(id)) append_path_items(id, 0, member_quote::json, out);
}

namespace {

void append_json_member(std::string_view name, std::string& out) {
  out += '"';
  for (char c : name) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      static constexpr char hex[] = "0123456789abcdef";
      out += "\\u00";
      out += hex[(c >> 4) & 0xf];
      out += hex[c & 0xf];
      continue;
    }
    out += c;
  }
  out += '"';
}

} // namespace

void append_path_items(const ColumnIdentifier& id, int first, member_quote quote,
                       std::string& out) {
  const auto& items = id.document_path();
  for (int i = first; i < items.size(); ++i) {
    const DocumentPathItem& item = items[i];
    switch (item.type()) {
    case DocumentPathItem::MEMBER:
      out += '.';
      if (is_word_name(item.value())) // keywords are fine after '.'
        out += item.value();
      else if (quote == member_quote::json)
        append_json_member(item.value(), out);
      else
        append_backticked(item.value(), out);
      break;
    case DocumentPathItem::MEMBER_ASTERISK:
      out += ".*";
      break;
    case DocumentPathItem::ARRAY_INDEX:
      out += '[';
      out += std::to_string(item.index());
      out += ']';
      break;
    case DocumentPathItem::ARRAY_INDEX_ASTERISK:
      out += "[*]";
      break;
    case DocumentPathItem::DOUBLE_ASTERISK:
      // ".***" would read as ".", "**", "*" in the expression language.
      if (quote == member_quote::backtick && i > 0 &&
          items[i - 1].type() == DocumentPathItem::MEMBER_ASTERISK)
        out += ' ';
      out += "**";
      break;
    }
  }
}

} // namespace cdk::expr_walk
