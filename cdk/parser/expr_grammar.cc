// The precedence levels of the expression language, loosest first:
//
//   or        := xor ((OR | '||') xor)*
//   xor       := and (XOR and)*
//   and       := not ((AND | '&&') not)*
//   not       := NOT not | compare
//   compare   := predicate ((= | == | != | <> | < | <= | > | >=) predicate
//                           | IS [NOT] (NULL | TRUE | FALSE))*
//   predicate := bit_or [NOT] IN '(' or (',' or)* ')'
//              | bit_or [NOT] IN bit_or                    (cont_in)
//              | bit_or [NOT] (LIKE bit_or [ESCAPE bit_or] | REGEXP bit_or
//                              | RLIKE bit_or | OVERLAPS bit_or)
//              | bit_or [NOT] BETWEEN bit_or AND predicate
//              | bit_or
//   bit_or    := bit_and ('|' bit_and)*
//   bit_and   := shift ('&' shift)*
//   shift     := add (('<<' | '>>') add)*
//   add       := (mul | INTERVAL bit_or unit '+' mul)
//                (('+' | '-') (mul | INTERVAL bit_or unit))*
//   mul       := bit_xor (('*' | '/' | DIV | '%' | MOD) bit_xor)*
//   bit_xor   := unary ('^' unary)*
//   unary     := ('-' | '+' | '!' | '~' | NOT | BINARY) unary | atom
//
// This is MySQL's grammar (sql_yacc.yy: expr, bool_pri, predicate, bit_expr,
// simple_expr) restricted to what Mysqlx.Expr can carry.
#include "cdk/parser/expr_parser_impl.h"
#include "mysqlx_datatypes.pb.h"

#include <algorithm>

namespace cdk::expr_detail {

using Mysqlx::Datatypes::Scalar;

namespace {

using expr_ops::prec;

prec above(prec p) {
  return static_cast<prec>(static_cast<int>(p) + 1);
}

bool is_kw(const token& t, kw k) {
  return t.kind == tok::word && t.keyword == k;
}

struct binop {
  prec level;
  const char* name; // the wire name; nullptr: not a binary operator here
};

binop logic_op(const token& t) {
  if (t.kind == tok::bar2 || is_kw(t, kw::or_)) return {prec::or_, "||"};
  if (t.kind == tok::amp2 || is_kw(t, kw::and_)) return {prec::and_, "&&"};
  if (is_kw(t, kw::xor_)) return {prec::xor_, "xor"};
  return {prec::none, nullptr};
}

binop arith_op(const token& t) {
  switch (t.kind) {
  case tok::bar:
    return {prec::bit_or, "|"};
  case tok::amp:
    return {prec::bit_and, "&"};
  case tok::shl:
    return {prec::shift, "<<"};
  case tok::shr:
    return {prec::shift, ">>"};
  case tok::plus:
    return {prec::add, "+"};
  case tok::minus:
    return {prec::add, "-"};
  case tok::star:
    return {prec::mul, "*"};
  case tok::slash:
    return {prec::mul, "/"};
  case tok::percent:
    return {prec::mul, "%"};
  case tok::hat:
    return {prec::bit_xor, "^"};
  case tok::word:
    if (t.keyword == kw::div) return {prec::mul, "div"};
    if (t.keyword == kw::mod) return {prec::mul, "%"};
    return {prec::none, nullptr};
  default:
    return {prec::none, nullptr};
  }
}

const char* match_compare(const token& t) {
  switch (t.kind) {
  case tok::eq:
    return "==";
  case tok::ne:
    return "!=";
  case tok::lt:
    return "<";
  case tok::le:
    return "<=";
  case tok::gt:
    return ">";
  case tok::ge:
    return ">=";
  default:
    return nullptr;
  }
}

bool is_predicate_kw(const token& t) {
  if (t.kind != tok::word) return false;
  switch (t.keyword) {
  case kw::in:
  case kw::like:
  case kw::rlike:
  case kw::regexp:
  case kw::between:
  case kw::overlaps:
    return true;
  default:
    return false;
  }
}

} // namespace

// Precedence climbing over operators of level >= min, all left-associative:
// the right operand of an operator at level L only takes operators above L.
int parser::parse_logic(node_id& out, prec min) {
  int depth = parse_not(out);
  while (depth >= 0) {
    const binop op = logic_op(m_tok);
    if (op.name == nullptr || op.level < min) break;
    advance();
    const node_id o = wrap_binary(out, op.name);
    node_id r = no_node;
    const int rhs = parse_logic(r, above(op.level));
    if (rhs < 0) return -1;
    m_tree.append(o, r);
    depth = grow(std::max(depth, rhs));
  }
  return depth;
}

int parser::parse_arith(node_id& out, prec min) {
  int depth =
      (min <= prec::add && at(kw::interval)) ? parse_leading_interval(out) : parse_unary(out);
  while (depth >= 0) {
    const binop op = arith_op(m_tok);
    if (op.name == nullptr || op.level < min) break;
    advance();
    if (op.level == prec::add && accept(kw::interval)) {
      depth = parse_interval_tail(out, depth, *op.name == '+' ? "date_add" : "date_sub");
      continue;
    }
    const node_id o = wrap_binary(out, op.name);
    node_id r = no_node;
    const int rhs = parse_arith(r, above(op.level));
    if (rhs < 0) return -1;
    m_tree.append(o, r);
    depth = grow(std::max(depth, rhs));
  }
  return depth;
}

int parser::parse_not(node_id& out) {
  if (!at(kw::not_)) return parse_compare(out);
  nest guard(*this);
  if (guard.too_deep()) return fail_too_deep();
  advance();
  const node_id op = make_op(out, "not");
  node_id arg = no_node;
  const int depth = parse_not(arg);
  if (depth < 0) return -1;
  m_tree.append(op, arg);
  return grow(depth);
}

int parser::parse_compare(node_id& out) {
  int depth = parse_predicate(out);
  while (depth >= 0) {
    if (const char* name = match_compare(m_tok)) {
      advance();
      const node_id op = wrap_binary(out, name);
      node_id r = no_node;
      const int rhs = parse_predicate(r);
      if (rhs < 0) return -1;
      m_tree.append(op, r);
      depth = grow(std::max(depth, rhs));
    } else if (at(tok::nse)) {
      return fail_unsupported("Operator <=>");
    } else if (at(kw::is)) {
      advance();
      const bool negated = accept(kw::not_);
      const node_id op = wrap_binary(out, negated ? "is_not" : "is");
      if (at(kw::null)) {
        add_literal(op, Scalar::V_NULL);
      } else if (at(kw::true_) || at(kw::false_)) {
        m_tree[add_literal(op, Scalar::V_BOOL)].v.b = at(kw::true_);
      } else {
        return fail_expected(negated ? "NULL, TRUE or FALSE after IS NOT"
                                     : "NOT, NULL, TRUE or FALSE after IS");
      }
      advance();
      depth = grow(depth);
    } else {
      break;
    }
  }
  return depth;
}

int parser::parse_predicate(node_id& out) {
  const int depth = parse_bit_or(out);
  if (depth < 0) return -1;
  // MySQL's predicates that Mysqlx.Expr has no operator for (the X Plugin's
  // expr_generator.cc); SOUNDS and MEMBER are not keywords otherwise, so
  // they are matched by text here, after an operand, where no name fits.
  if (at(tok::word) && m_tok.keyword == kw::none) {
    const std::string_view w = text(m_tok);
    if (expr_lex::word_is(w, "SOUNDS") && is_kw(peek(), kw::like))
      return fail_unsupported("Operator SOUNDS LIKE");
    if (expr_lex::word_is(w, "MEMBER") && peek().kind == tok::word &&
        expr_lex::word_is(text(peek()), "OF"))
      return fail_unsupported("Operator MEMBER OF");
  }
  bool negated = false;
  if (at(kw::not_)) {
    if (!is_predicate_kw(peek())) {
      advance();
      return fail_expected("IN, LIKE, BETWEEN, REGEXP or OVERLAPS after NOT");
    }
    advance();
    negated = true;
  }
  if (!is_predicate_kw(m_tok)) return depth;

  const kw which = m_tok.keyword;
  advance();
  int args = depth;
  // Parses one more operand of `op` with `level`.
  auto operand = [&](node_id op, level_fn level) {
    node_id e = no_node;
    const int d = (this->*level)(e);
    if (d < 0) return false;
    m_tree.append(op, e);
    args = std::max(args, d);
    return true;
  };
  switch (which) {
  case kw::in:
    if (at(tok::lparen)) {
      const node_id op = wrap_binary(out, negated ? "not_in" : "in");
      advance(); // '('; at least one element, as in SQL
      const int d = parse_list(op, tok::rparen);
      if (d < 0) return -1;
      args = std::max(args, d);
    } else {
      const node_id op = wrap_binary(out, negated ? "not_cont_in" : "cont_in");
      if (!operand(op, &parser::parse_bit_or)) return -1;
    }
    break;
  case kw::like: {
    const node_id op = wrap_binary(out, negated ? "not_like" : "like");
    if (!operand(op, &parser::parse_bit_or)) return -1;
    if (accept(kw::escape) && !operand(op, &parser::parse_bit_or)) return -1;
    break;
  }
  case kw::rlike:
  case kw::regexp: {
    const node_id op = wrap_binary(out, negated ? "not_regexp" : "regexp");
    if (!operand(op, &parser::parse_bit_or)) return -1;
    break;
  }
  case kw::overlaps: {
    const node_id op = wrap_binary(out, negated ? "not_overlaps" : "overlaps");
    if (!operand(op, &parser::parse_bit_or)) return -1;
    break;
  }
  default: { // BETWEEN; its upper bound may itself be a predicate, as in MySQL
    nest guard(*this);
    if (guard.too_deep()) return fail_too_deep();
    const node_id op = wrap_binary(out, negated ? "not_between" : "between");
    if (!operand(op, &parser::parse_bit_or)) return -1;
    if (!accept(kw::and_)) return fail_expected("AND in BETWEEN ... AND ...");
    if (!operand(op, &parser::parse_predicate)) return -1;
    break;
  }
  }
  return grow(args);
}

// After "lhs + INTERVAL" (already consumed): the amount and the unit.
int parser::parse_interval_tail(node_id& out, int depth, const char* name) {
  nest guard(*this);
  if (guard.too_deep()) return fail_too_deep();
  const node_id op = wrap_binary(out, name);
  node_id amount = no_node;
  node_id unit = no_node;
  const int amount_depth = parse_bit_or(amount);
  if (amount_depth < 0 || !parse_interval_unit(unit)) return -1;
  m_tree.append(op, amount);
  m_tree.append(op, unit);
  return grow(std::max(depth, amount_depth));
}

// MySQL also allows "INTERVAL n unit + date"; it is the same date_add.
int parser::parse_leading_interval(node_id& out) {
  nest guard(*this);
  if (guard.too_deep()) return fail_too_deep();
  advance(); // INTERVAL
  node_id amount = no_node;
  node_id unit = no_node;
  const int amount_depth = parse_bit_or(amount);
  if (amount_depth < 0 || !parse_interval_unit(unit)) return -1;
  if (!expect(tok::plus, "'+' after INTERVAL ... unit")) return -1;
  const int date = parse_arith(out, prec::mul);
  if (date < 0) return -1;
  const node_id op = wrap_binary(out, "date_add");
  m_tree.append(op, amount);
  m_tree.append(op, unit);
  return grow(std::max(date, amount_depth));
}

int parser::parse_unary(node_id& out) {
  nest guard(*this);
  if (guard.too_deep()) return fail_too_deep();
  const char* name = nullptr;
  switch (m_tok.kind) {
  case tok::minus:
  case tok::plus: {
    const bool minus = at(tok::minus);
    advance();
    // A signed number is one literal, as in the other connectors: -1 is
    // V_SINT -1, not sign_minus(1).
    if (at(tok::integer) || at(tok::hex) || at(tok::number)) return parse_number(out, minus);
    name = minus ? "sign_minus" : "sign_plus";
    break;
  }
  case tok::bang:
    name = "!";
    advance();
    break;
  case tok::tilde:
    name = "~";
    advance();
    break;
  case tok::word:
    if (m_tok.keyword == kw::not_) { // as in "a = NOT b"; binds like '!'
      name = "not";
      advance();
    } else if (m_tok.keyword == kw::binary) { // BINARY x is CAST(x AS BINARY)
      advance();
      const node_id op = make_op(out, "cast");
      node_id arg = no_node;
      const int depth = parse_unary(arg);
      if (depth < 0) return -1;
      m_tree.append(op, arg);
      add_octets(op, "BINARY");
      return grow(depth);
    }
    break;
  default:
    break;
  }
  if (name == nullptr) return parse_atom(out);
  const node_id op = make_op(out, name);
  node_id arg = no_node;
  const int depth = parse_unary(arg);
  if (depth < 0) return -1;
  m_tree.append(op, arg);
  return grow(depth);
}

} // namespace cdk::expr_detail
