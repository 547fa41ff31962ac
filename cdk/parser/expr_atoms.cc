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
#include "mysqlx_datatypes.pb.h"

#include <algorithm>
#include <charconv>
#include <limits>

namespace cdk::expr_detail {

using Mysqlx::Datatypes::Scalar;

namespace {

// Digits of `text` in `base`; false on overflow of uint64.
bool to_uint64(std::string_view text, int base, std::uint64_t& value) {
  const auto* first = text.data();
  const auto* last = first + text.size();
  const auto res = std::from_chars(first, last, value, base);
  return res.ec == std::errc() && res.ptr == last;
}

} // namespace

int parser::parse_atom(node_id& out) {
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
    out = add_literal(no_node, Scalar::V_STRING);
    const text_ref value = unquoted(m_tok);
    m_tree[out].text[0] = value;
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
    out = add_literal(no_node, Scalar::V_BOOL);
    m_tree[out].v.b = m_tok.keyword == kw::true_;
    advance();
    return 1;
  case kw::null:
    out = add_literal(no_node, Scalar::V_NULL);
    advance();
    return 1;
  case kw::cast:
    return parse_cast(out);
  case kw::interval:
    return fail_expected("an expression (INTERVAL only follows '+' or '-')");
  default:
    if (expr_lex::is_reserved(m_tok.keyword)) return fail_expected("an expression");
    if (starts_case()) return fail_unsupported("CASE expression");
    return parse_name(out);
  }
}

// "CASE WHEN ..." or "CASE value WHEN ...": CASE is not reserved here (it
// stays a field name), so it starts MySQL's CASE only when what follows
// could not follow a name: WHEN, or the start of an operand.
bool parser::starts_case() noexcept {
  if (!expr_lex::word_is(text(m_tok), "CASE")) return false;
  const token& next = peek_next();
  switch (next.kind) {
  case tok::word:
    if (next.keyword == kw::none) {
      const std::string_view w = text(next);
      return !expr_lex::word_is(w, "SOUNDS") && !expr_lex::word_is(w, "MEMBER");
    }
    return next.keyword == kw::null || next.keyword == kw::true_ || next.keyword == kw::false_ ||
           next.keyword == kw::cast || next.keyword == kw::binary || next.keyword == kw::interval;
  case tok::qword:
  case tok::string:
  case tok::integer:
  case tok::hex:
  case tok::number:
  case tok::colon:
  case tok::qmark:
  case tok::bang:
  case tok::tilde:
  case tok::lcurly:
    return true;
  default:
    return false;
  }
}

int parser::parse_number(node_id& out, bool negative) {
  const std::string_view t = text(m_tok);
  if (m_tok.kind == tok::number) {
    double v = 0;
    const auto res = std::from_chars(t.data(), t.data() + t.size(), v);
    if (res.ec != std::errc() || res.ptr != t.data() + t.size())
      return fail(m_tok.pos, "number out of range");
    out = add_literal(no_node, Scalar::V_DOUBLE);
    m_tree[out].v.d = negative ? -v : v;
    advance();
    return 1;
  }
  std::uint64_t v = 0;
  const bool hex = m_tok.kind == tok::hex;
  // 0x1F or X'1F': the digits after the first two characters.
  const std::string_view digits = !hex               ? t
                                  : t.back() == '\'' ? t.substr(2, t.size() - 3)
                                                     : t.substr(2);
  if (!to_uint64(digits, hex ? 16 : 10, v)) return fail(m_tok.pos, "integer out of range");
  constexpr std::uint64_t min_magnitude = std::uint64_t{1} << 63; // -INT64_MIN
  if (negative && v != 0) {
    if (v > min_magnitude) return fail(m_tok.pos, "integer out of range");
    out = add_literal(no_node, Scalar::V_SINT);
    m_tree[out].v.i = v == min_magnitude ? std::numeric_limits<std::int64_t>::min()
                                         : -static_cast<std::int64_t>(v);
  } else {
    // Non-negative integers are unsigned, as in Connector/C++ and Node.js.
    out = add_literal(no_node, Scalar::V_UINT);
    m_tree[out].v.u = v;
  }
  advance();
  return 1;
}

int parser::parse_placeholder(node_id& out) {
  if (m_placeholders == nullptr) return fail(m_tok.pos, "placeholders are not allowed here");
  out = m_tree.add(node_kind::placeholder);
  if (accept(tok::qmark)) {
    m_tree[out].v.u = m_placeholders->add_anonymous();
    return 1;
  }
  const std::uint32_t colon_end = m_tok.end();
  advance();
  if ((!at(tok::word) && !at(tok::integer)) || m_tok.pos != colon_end)
    return fail(colon_end, "expected a placeholder name after ':'");
  m_tree[out].v.u = m_placeholders->assign(text(m_tok));
  advance();
  return 1;
}

int parser::parse_cast(node_id& out) {
  advance(); // CAST
  if (!expect(tok::lparen, "'(' after CAST")) return -1;
  const node_id op = make_op(out, "cast");
  node_id arg = no_node;
  const int depth = parse_or(arg);
  if (depth < 0) return -1;
  m_tree.append(op, arg);
  if (!accept(kw::as)) return fail_expected("AS in CAST(... AS type)");
  std::int32_t index = 0;
  std::string& type = m_tree.new_string(index);
  if (!parse_cast_type(type)) return -1;
  m_tree[add_literal(op, Scalar::V_OCTETS)].text[0] = m_tree.whole(index);
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

bool parser::parse_interval_unit(node_id& out) {
  std::int32_t index = 0;
  std::string& unit = m_tree.new_string(index);
  if (at(tok::word))
    for (char c : text(m_tok)) unit += (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c;
  if (!expr_ops::is_interval_unit(unit))
    return fail_expected("an interval unit (MICROSECOND, SECOND, ..., DAY_HOUR, YEAR_MONTH)") >= 0;
  out = add_literal(no_node, Scalar::V_OCTETS);
  m_tree[out].text[0] = m_tree.whole(index);
  advance();
  return true;
}

int parser::parse_call(node_id& out, text_ref schema, text_ref name, bool has_schema,
                       std::uint32_t start) {
  // MySQL's functions with a syntax of their own (sql_yacc.yy) are only
  // known by name when not qualified by a schema.
  const std::string_view fn = has_schema ? std::string_view() : m_tree.view(name);
  out = m_tree.add(node_kind::call);
  node& call = m_tree[out];
  call.text[0] = name;
  call.text[1] = schema;
  call.has = has_schema ? 3 : 1;
  advance(); // '('
  if (expr_lex::word_is(fn, "POSITION")) return parse_position(out);
  if (expr_lex::word_is(fn, "TRIM") && at(tok::word) &&
      (expr_lex::word_is(text(m_tok), "BOTH") || expr_lex::word_is(text(m_tok), "LEADING") ||
       expr_lex::word_is(text(m_tok), "TRAILING")))
    return fail_unsupported("LEADING, TRAILING or BOTH clause inside function TRIM()");
  if (accept(tok::rparen)) return grow(0);
  // DATE_ADD(d, INTERVAL n unit) and its synonyms are MySQL's other
  // spelling of d + INTERVAL n unit: the same date_add / date_sub operator,
  // which the X Plugin renders as DATE_ADD(d, INTERVAL n unit).
  const char* date_op = nullptr;
  if (expr_lex::word_is(fn, "DATE_ADD") || expr_lex::word_is(fn, "ADDDATE")) date_op = "date_add";
  if (expr_lex::word_is(fn, "DATE_SUB") || expr_lex::word_is(fn, "SUBDATE")) date_op = "date_sub";
  int depth = 0;
  int args = 0;
  do {
    if (args == 1 && date_op != nullptr && at(kw::interval))
      return parse_date_call(out, date_op, depth);
    node_id e = no_node;
    const int d = parse_or(e);
    if (d < 0) return -1;
    m_tree.append(out, e);
    depth = std::max(depth, d);
    ++args;
  } while (accept(tok::comma));
  // What MySQL's grammar has and Mysqlx.Expr cannot carry: named, so that
  // the user does not look for a typo.
  if (at(tok::word)) {
    if (expr_lex::word_is(fn, "CHAR") && expr_lex::word_is(text(m_tok), "USING"))
      return fail_unsupported("USING clause inside function CHAR()");
    if (expr_lex::word_is(fn, "TRIM") && expr_lex::word_is(text(m_tok), "FROM"))
      return fail_unsupported("FROM clause inside function TRIM()");
  }
  if (!expect(tok::rparen, "')'")) return -1;
  if (expr_lex::word_is(fn, "MATCH") && at(tok::word) &&
      expr_lex::word_is(text(m_tok), "AGAINST")) {
    // Reported at MATCH, where the construct starts.
    return fail(start, "MATCH ... AGAINST not supported yet");
  }
  return grow(depth);
}

// At INTERVAL, the second argument of DATE_ADD(d, ...) and its synonyms:
// the call node, holding d, becomes the operator.
int parser::parse_date_call(node_id call, const char* name, int depth) {
  nest guard(*this);
  if (guard.too_deep()) return fail_too_deep();
  advance(); // INTERVAL
  node& n = m_tree[call];
  n.kind = node_kind::op;
  n.v.name = name;
  n.has = 0;
  node_id amount = no_node;
  node_id unit = no_node;
  const int amount_depth = parse_bit_or(amount);
  if (amount_depth < 0 || !parse_interval_unit(unit)) return -1;
  m_tree.append(call, amount);
  m_tree.append(call, unit);
  if (!expect(tok::rparen, "')'")) return -1;
  return grow(std::max(depth, amount_depth));
}

// POSITION(substr IN str) is MySQL's LOCATE(substr, str), and goes on the
// wire as that call, as Connector/C++ sends it: the X Plugin renders a
// function call as it is named, and LOCATE is what both servers know. The
// first operand is a bit_expr in MySQL's grammar (sql_yacc.yy), so its IN is
// the separator, not the IN operator. "POSITION(a, b)" is sent the same way,
// as Connector/C++ does.
int parser::parse_position(node_id call) {
  nest guard(*this);
  if (guard.too_deep()) return fail_too_deep();
  m_tree[call].v.name = "locate";
  m_tree[call].has = 1 | 4;
  node_id substr = no_node;
  int depth = parse_bit_or(substr);
  if (depth < 0) return -1;
  m_tree.append(call, substr);
  if (accept(kw::in)) {
    node_id str = no_node;
    const int d = parse_or(str);
    if (d < 0) return -1;
    m_tree.append(call, str);
    if (!expect(tok::rparen, "')' after POSITION(... IN ...)")) return -1;
    return grow(std::max(depth, d));
  }
  if (!at(tok::comma)) return fail_expected("IN in POSITION(substr IN str)");
  advance();
  const int d = parse_list(call, tok::rparen);
  if (d < 0) return -1;
  return grow(std::max(depth, d));
}

// "a, b, ..." up to the closing token, each element a child of `parent`:
// call and IN arguments, array values. Returns the deepest element's depth.
int parser::parse_list(node_id parent, tok close) {
  int depth = 0;
  do {
    node_id e = no_node;
    const int d = parse_or(e);
    if (d < 0) return -1;
    m_tree.append(parent, e);
    depth = std::max(depth, d);
  } while (accept(tok::comma));
  if (!expect(close, close == tok::rparen ? "')'" : "']'")) return -1;
  return depth;
}

int parser::parse_object(node_id& out) {
  advance(); // '{'
  out = m_tree.add(node_kind::object);
  int depth = 0;
  if (!at(tok::rcurly)) {
    do {
      // A key is a quoted string or, as Connector/C++ 8 takes it (not
      // JSON), a plain word: {key2: a * 2}.
      if (!at(tok::string) && !at(tok::word)) return fail_expected("a key");
      const node_id field = add_child(out, node_kind::field);
      const text_ref key = at(tok::word) ? slice(m_tok.pos, m_tok.len) : unquoted(m_tok);
      m_tree[field].text[0] = key;
      // The X Plugin rejects empty keys; say so here, with a position.
      if (key.len == 0) return fail(m_tok.pos, "empty key in a JSON object");
      advance();
      if (!expect(tok::colon, "':'")) return -1;
      node_id value = no_node;
      const int d = parse_or(value);
      if (d < 0) return -1;
      m_tree.append(field, value);
      depth = std::max(depth, d);
    } while (accept(tok::comma));
  }
  if (!expect(tok::rcurly, "'}'")) return -1;
  return grow(depth);
}

int parser::parse_array(node_id& out) {
  advance(); // '['
  out = m_tree.add(node_kind::array);
  if (accept(tok::rsquare)) return grow(0);
  const int depth = parse_list(out, tok::rsquare);
  return depth < 0 ? -1 : grow(depth);
}

} // namespace cdk::expr_detail
