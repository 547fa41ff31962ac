// Atoms of the expression language:
//
//   atom := '(' or ')' | literal | placeholder | '*' | CAST '(' or AS type ')'
//         | '{' [string ':' or (',' string ':' or)*] '}'
//         | '[' [or (',' or)*] ']'
//         | name                                  (expr_paths.cc)
//   literal := integer | 0x hex | number | 'string' | "string"
//            | TRUE | FALSE | NULL
//   placeholder := ':' word | ':' integer | '?'
//   type := SIGNED [INTEGER|INT] | UNSIGNED [INTEGER|INT] | CHAR ['(' n ')']
//         | BINARY ['(' n ')'] | DECIMAL ['(' m [',' d] ')']
//         | DATE | DATETIME | TIME | JSON
//
// The cast types are the ones the X Plugin's CAST validator accepts; they
// are sent as an octets literal in upper case, as are interval units.
#include "cdk/parser/expr_parser_impl.h"

#include <charconv>
#include <limits>

namespace cdk::expr_detail {

using Mysqlx::Datatypes::Scalar;
using Mysqlx::Expr::Expr;
using Mysqlx::Expr::Operator;

namespace {

// Digits of `text` in `base`; false on overflow of uint64.
bool to_uint64(std::string_view text, int base, std::uint64_t& value) {
  const auto* first = text.data();
  const auto* last = first + text.size();
  const auto res = std::from_chars(first, last, value, base);
  return res.ec == std::errc() && res.ptr == last;
}

} // namespace

int parser::parse_atom(Expr& out) {
  switch (m_tok.kind) {
  case tok::lparen: {
    advance();
    const int depth = parse_or(out);
    if (depth < 0 || !expect(tok::rparen, "')'")) return -1;
    return depth;
  }
  case tok::integer:
  case tok::hex:
  case tok::number:
    return parse_number(out, false);
  case tok::string: {
    out.set_type(Expr::LITERAL);
    Scalar& lit = *out.mutable_literal();
    lit.set_type(Scalar::V_STRING);
    expr_lex::unquote(text(m_tok), tok::string, m_tok.escaped,
                      *lit.mutable_v_string()->mutable_value());
    advance();
    return 1;
  }
  case tok::colon:
  case tok::qmark:
    return parse_placeholder(out);
  case tok::star: // "*" alone: count(*), or the projection of everything
    advance();
    make_op(out, "*");
    return 1;
  case tok::lcurly:
    return parse_object(out);
  case tok::lsquare:
    return parse_array(out);
  case tok::dollar:
  case tok::dstar:
  case tok::qword:
    return parse_name(out);
  case tok::word:
    break;
  default:
    return fail_expected("an expression");
  }

  switch (m_tok.keyword) {
  case kw::true_:
  case kw::false_:
    out.set_type(Expr::LITERAL);
    out.mutable_literal()->set_type(Scalar::V_BOOL);
    out.mutable_literal()->set_v_bool(m_tok.keyword == kw::true_);
    advance();
    return 1;
  case kw::null:
    out.set_type(Expr::LITERAL);
    out.mutable_literal()->set_type(Scalar::V_NULL);
    advance();
    return 1;
  case kw::cast:
    return parse_cast(out);
  case kw::interval:
    return fail_expected("an expression (INTERVAL only follows '+' or '-')");
  default:
    if (expr_lex::is_reserved(m_tok.keyword)) return fail_expected("an expression");
    return parse_name(out);
  }
}

int parser::parse_number(Expr& out, bool negative) {
  const std::string_view t = text(m_tok);
  out.set_type(Expr::LITERAL);
  Scalar& lit = *out.mutable_literal();
  if (m_tok.kind == tok::number) {
    double v = 0;
    const auto res = std::from_chars(t.data(), t.data() + t.size(), v);
    if (res.ec != std::errc() || res.ptr != t.data() + t.size())
      return fail(m_tok.pos, "number out of range");
    lit.set_type(Scalar::V_DOUBLE);
    lit.set_v_double(negative ? -v : v);
    advance();
    return 1;
  }
  std::uint64_t v = 0;
  const bool hex = m_tok.kind == tok::hex;
  if (!to_uint64(hex ? t.substr(2) : t, hex ? 16 : 10, v))
    return fail(m_tok.pos, "integer out of range");
  constexpr std::uint64_t min_magnitude = std::uint64_t{1} << 63; // -INT64_MIN
  if (negative && v != 0) {
    if (v > min_magnitude) return fail(m_tok.pos, "integer out of range");
    lit.set_type(Scalar::V_SINT);
    lit.set_v_signed_int(v == min_magnitude ? std::numeric_limits<std::int64_t>::min()
                                            : -static_cast<std::int64_t>(v));
  } else {
    // Non-negative integers are unsigned, as in Connector/C++ and Node.js.
    lit.set_type(Scalar::V_UINT);
    lit.set_v_unsigned_int(v);
  }
  advance();
  return 1;
}

int parser::parse_placeholder(Expr& out) {
  if (m_placeholders == nullptr) return fail(m_tok.pos, "placeholders are not allowed here");
  out.set_type(Expr::PLACEHOLDER);
  if (accept(tok::qmark)) {
    out.set_position(m_placeholders->add_anonymous());
    return 1;
  }
  const std::uint32_t colon_end = m_tok.end();
  advance();
  if ((!at(tok::word) && !at(tok::integer)) || m_tok.pos != colon_end)
    return fail(colon_end, "expected a placeholder name after ':'");
  out.set_position(m_placeholders->assign(text(m_tok)));
  advance();
  return 1;
}

int parser::parse_cast(Expr& out) {
  advance(); // CAST
  if (!expect(tok::lparen, "'(' after CAST")) return -1;
  Operator& op = make_op(out, "cast");
  const int depth = parse_or(*op.add_param());
  if (depth < 0) return -1;
  if (!accept(kw::as)) return fail_expected("AS in CAST(... AS type)");
  std::string type;
  if (!parse_cast_type(type)) return -1;
  set_octets(*op.add_param(), type);
  if (!expect(tok::rparen, "')'")) return -1;
  return grow(depth);
}

bool parser::parse_cast_type(std::string& type) {
  const std::string_view w = at(tok::word) ? text(m_tok) : std::string_view();
  auto is = [&](std::string_view up) { return expr_lex::word_is(w, up); };
  // "(n)" or, with two allowed, "(m,d)"; appended without spaces.
  auto dimension = [&](bool two) {
    if (!accept(tok::lparen)) return true;
    type += '(';
    if (!at(tok::integer)) return fail_expected("a length") >= 0;
    type += text(m_tok);
    advance();
    if (two && accept(tok::comma)) {
      if (!at(tok::integer)) return fail_expected("a scale") >= 0;
      type += ',';
      type += text(m_tok);
      advance();
    }
    type += ')';
    return expect(tok::rparen, "')'");
  };
  if (is("SIGNED") || is("UNSIGNED")) {
    type = is("SIGNED") ? "SIGNED" : "UNSIGNED";
    advance();
    if (at(tok::word) &&
        (expr_lex::word_is(text(m_tok), "INTEGER") || expr_lex::word_is(text(m_tok), "INT"))) {
      type += " INTEGER";
      advance();
    }
    return true;
  }
  for (std::string_view plain : {"DATE", "DATETIME", "TIME", "JSON"}) {
    if (is(plain)) {
      type = plain;
      advance();
      return true;
    }
  }
  for (std::string_view sized : {"CHAR", "BINARY", "DECIMAL"}) {
    if (is(sized)) {
      type = sized;
      advance();
      return dimension(sized == "DECIMAL");
    }
  }
  return fail_expected("a cast type (SIGNED, UNSIGNED, CHAR, BINARY, DECIMAL, DATE, DATETIME, "
                       "TIME or JSON)") >= 0;
}

bool parser::parse_interval_unit(Expr& out) {
  std::string unit;
  if (at(tok::word)) {
    const std::string_view w = text(m_tok);
    unit.reserve(w.size());
    for (char c : w) unit += (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c;
  }
  if (!expr_ops::is_interval_unit(unit))
    return fail_expected("an interval unit (MICROSECOND, SECOND, ..., DAY_HOUR, YEAR_MONTH)") >= 0;
  set_octets(out, unit);
  advance();
  return true;
}

int parser::parse_call(Expr& out, std::string_view schema, std::string_view name) {
  out.set_type(Expr::FUNC_CALL);
  auto& call = *out.mutable_function_call();
  auto& id = *call.mutable_name();
  id.set_name(name.data(), name.size());
  if (!schema.empty()) id.set_schema_name(schema.data(), schema.size());
  advance(); // '('
  int depth = 0;
  if (!at(tok::rparen)) {
    do {
      const int d = parse_or(*call.add_param());
      if (d < 0) return -1;
      depth = std::max(depth, d);
    } while (accept(tok::comma));
  }
  if (!expect(tok::rparen, "')'")) return -1;
  return grow(depth);
}

// "(a, b, ...)" after IN; at least one element, as in SQL.
int parser::parse_paren_list(Operator& op) {
  advance(); // '('
  int depth = 0;
  do {
    const int d = parse_or(*op.add_param());
    if (d < 0) return -1;
    depth = std::max(depth, d);
  } while (accept(tok::comma));
  if (!expect(tok::rparen, "')'")) return -1;
  return depth;
}

int parser::parse_object(Expr& out) {
  advance(); // '{'
  out.set_type(Expr::OBJECT);
  auto& obj = *out.mutable_object();
  int depth = 0;
  if (!at(tok::rcurly)) {
    do {
      if (!at(tok::string)) return fail_expected("a quoted key");
      auto& field = *obj.add_fld();
      expr_lex::unquote(text(m_tok), tok::string, m_tok.escaped, *field.mutable_key());
      // The X Plugin rejects empty keys; say so here, with a position.
      if (field.key().empty()) return fail(m_tok.pos, "empty key in a JSON object");
      advance();
      if (!expect(tok::colon, "':'")) return -1;
      const int d = parse_or(*field.mutable_value());
      if (d < 0) return -1;
      depth = std::max(depth, d);
    } while (accept(tok::comma));
  }
  if (!expect(tok::rcurly, "'}'")) return -1;
  return grow(depth);
}

int parser::parse_array(Expr& out) {
  advance(); // '['
  out.set_type(Expr::ARRAY);
  auto& arr = *out.mutable_array();
  int depth = 0;
  if (!at(tok::rsquare)) {
    do {
      const int d = parse_or(*arr.add_value());
      if (d < 0) return -1;
      depth = std::max(depth, d);
    } while (accept(tok::comma));
  }
  if (!expect(tok::rsquare, "']'")) return -1;
  return grow(depth);
}

} // namespace cdk::expr_detail
