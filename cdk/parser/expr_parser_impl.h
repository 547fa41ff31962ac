// Private to cdk/parser: the recursive-descent parser behind expr_parser.h.
//
// One method per precedence level (expr_grammar.cc), atoms and literals
// (expr_atoms.cc), names and document paths (expr_paths.cc). Each method
// adds the nodes of what it parsed to the tree (expr_tree.h), sets `out` to
// the root and returns the depth of the Expr tree it stands for, or -1 after
// recording an error; the first error wins and parsing unwinds.
//
// For "a + b" the parser first parses `a`, then makes a "+" node whose
// first child is `a` and parses `b` as its second. No token list; the
// messages are written once, after a successful parse (expr_assign.h).
#pragma once

#include "cdk/parser/expr_ops.h"
#include "cdk/parser/expr_parser.h"
#include "cdk/parser/expr_tree.h"
#include "cdk/parser/lexer.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace cdk::expr_detail {

using expr_lex::kw;
using expr_lex::tok;
using expr_lex::token;

// What an entry point parsed: the root node and, for projections and sort
// specifications, the parts outside the Expr.
struct parsed {
  node_id root = no_node;
  bool has_alias = false;
  text_ref alias;
  int direction = 0; // Order.direction; 0: unset
};

class parser {
public:
  // `nodes` must have been reset() to `text`, unless `base` >= 0: then
  // `text` is the tree's own string `base` (a JSON path in quotes).
  parser(std::string_view text, expr_mode mode, placeholder_map* placeholders, tree& nodes,
         std::int32_t base = -1) noexcept;

  // Entry points: each parses its whole input.
  int expression(parsed& out);
  int projection(parsed& out);
  int sort(parsed& out);
  int update_path(parsed& out);

  bool failed() const noexcept { return m_err_pos != expr_lex::lexer::npos; }
  error take_error() const;

private:
  // expr_grammar.cc. The left-associative binary levels are parsed by
  // precedence climbing: parse_logic() for OR/XOR/AND over parse_not(),
  // parse_arith() for | & << >> + - * / DIV % ^ over parse_unary().
  using level_fn = int (parser::*)(node_id&);
  int parse_or(node_id& out) { return parse_logic(out, expr_ops::prec::or_); }
  int parse_bit_or(node_id& out) { return parse_arith(out, expr_ops::prec::bit_or); }
  int parse_logic(node_id& out, expr_ops::prec min);
  int parse_arith(node_id& out, expr_ops::prec min);
  int parse_not(node_id& out);
  int parse_compare(node_id& out);
  int parse_predicate(node_id& out);
  int parse_unary(node_id& out);
  int parse_interval_tail(node_id& out, int depth, const char* name);
  int parse_leading_interval(node_id& out);

  // expr_atoms.cc
  int parse_atom(node_id& out);
  int parse_number(node_id& out, bool negative);
  int parse_placeholder(node_id& out);
  int parse_cast(node_id& out);
  bool parse_cast_type(std::string& type);
  // `start`: where the (schema-qualified) name begins, for errors.
  int parse_call(node_id& out, text_ref schema, text_ref name, bool has_schema,
                 std::uint32_t start);
  int parse_position(node_id call);                               // after "POSITION("
  int parse_date_call(node_id call, const char* name, int depth); // DATE_ADD(d, INTERVAL
  bool starts_case() noexcept; // at a word: CASE ... WHEN ... END?
  int parse_object(node_id& out);
  int parse_array(node_id& out);
  int parse_list(node_id parent, tok close); // "a, b, ...": children of parent
  bool parse_interval_unit(node_id& out);

  // expr_paths.cc
  int parse_name(node_id& out);
  bool parse_doc_path(node_id id);
  bool parse_path_items(node_id id);
  bool parse_column_id(node_id id, bool& unquote);
  bool parse_arrow_path(node_id id);
  bool ident_text(const token& t, text_ref& out);
  void wrap_unquote(node_id& out);

  // Token stream.
  const token& cur() const noexcept { return m_tok; }
  bool at(tok k) const noexcept { return m_tok.kind == k; }
  bool at(kw k) const noexcept { return m_tok.kind == tok::word && m_tok.keyword == k; }
  void advance() noexcept {
    m_prev_end = m_tok.end();
    if (m_ahead_valid) { // scanned already by peek_next()
      m_tok = m_ahead_tok;
      m_lex = m_ahead_lex;
      m_ahead_valid = false;
    } else {
      m_tok = m_lex.next();
    }
  }
  // The token after cur(), scanned once: advance() takes it from here.
  // m_lex stays where it was, so a lexer error past cur() is only seen once
  // the parser gets there, exactly as without the lookahead.
  const token& peek_next() noexcept {
    if (!m_ahead_valid) {
      m_ahead_lex = m_lex;
      m_ahead_tok = m_ahead_lex.next();
      m_ahead_valid = true;
    }
    return m_ahead_tok;
  }
  bool accept(tok k) noexcept {
    if (!at(k)) return false;
    advance();
    return true;
  }
  bool accept(kw k) noexcept {
    if (!at(k)) return false;
    advance();
    return true;
  }
  bool expect(tok k, const char* what);
  token peek(int ahead = 1) noexcept; // a token after cur()
  std::string_view text(const token& t) const noexcept { return m_lex.text(t); }
  // A token's text, or the text between its quotes with escapes resolved.
  text_ref slice(std::uint32_t pos, std::uint32_t len) const noexcept { return {pos, len, m_base}; }
  text_ref unquoted(const token& t);

  // Errors. All return -1 / false so callers can `return fail(...)`.
  int fail(std::size_t pos, std::string what);
  int fail_expected(const char* what);
  // At the current token: "<what> not supported yet", the words
  // Connector/C++ uses, which programs search for.
  int fail_unsupported(std::string_view what);
  bool at_end_or_fail();

  // Tree helpers.
  // Inline: they run for every node.
  node_id make_op(node_id& out, const char* name) {
    out = m_tree.add(node_kind::op);
    m_tree[out].v.name = name;
    return out;
  }
  // Turns `out` into name(out, ...): `out` becomes the first child.
  node_id wrap_binary(node_id& out, const char* name) {
    const node_id lhs = out;
    const node_id op = make_op(out, name);
    m_tree.append(op, lhs);
    return op;
  }
  node_id add_child(node_id parent, node_kind kind) {
    const node_id id = m_tree.add(kind);
    m_tree.append(parent, id);
    return id;
  }
  // A literal of `type`, appended to parent's children unless no_node.
  node_id add_literal(node_id parent, std::uint8_t type) {
    const node_id id =
        parent == no_node ? m_tree.add(node_kind::literal) : add_child(parent, node_kind::literal);
    m_tree[id].sub = type;
    return id;
  }
  void add_octets(node_id parent, std::string_view value);
  int grow(int depth) { // depth + 1, or an error past the limit
    if (depth < 0) return -1;
    if (static_cast<std::size_t>(depth) >= max_expr_depth) return fail_too_deep();
    return depth + 1;
  }

  // Guards recursion through parse_or(), parse_unary() and literals.
  struct nest {
    explicit nest(parser& p) noexcept : m_p(p) { ++m_p.m_nesting; }
    ~nest() { --m_p.m_nesting; }
    nest(const nest&) = delete;
    nest& operator=(const nest&) = delete;
    bool too_deep() const noexcept { return m_p.m_nesting > max_expr_depth; }
    parser& m_p;
  };
  int fail_too_deep();

  expr_lex::lexer m_lex; // positioned just after m_tok
  token m_tok;
  expr_lex::lexer m_ahead_lex; // positioned just after m_ahead_tok
  token m_ahead_tok;
  bool m_ahead_valid = false;
  expr_mode m_mode;
  placeholder_map* m_placeholders;
  std::uint32_t m_prev_end = 0;                       // end of the last consumed token
  std::size_t m_wildcard_pos = expr_lex::lexer::npos; // first * or ** in a path
  std::size_t m_nesting = 0;
  std::size_t m_err_pos = expr_lex::lexer::npos;
  std::string m_err_what;
  tree& m_tree;
  std::int32_t m_base; // where m_lex's input lives, for text_ref
};

} // namespace cdk::expr_detail
