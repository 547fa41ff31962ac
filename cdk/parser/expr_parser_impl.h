// Private to cdk/parser: the recursive-descent parser behind expr_parser.h.
//
// One method per precedence level (expr_grammar.cc), atoms and literals
// (expr_atoms.cc), names and document paths (expr_paths.cc). Each method
// fills the Expr it is given and returns the depth of the tree it built, or
// -1 after recording an error; the first error wins and parsing unwinds.
//
// Trees are built in place: for "a + b" the parser first parses `a` into the
// output, then moves it into the operator's first parameter (a Swap, which
// moves pointers) and parses `b` straight into the second. No token list,
// no intermediate tree.
#pragma once

#include "cdk/parser/expr_ops.h"
#include "cdk/parser/expr_parser.h"
#include "cdk/parser/lexer.h"
#include "mysqlx_crud.pb.h"
#include "mysqlx_expr.pb.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace cdk::expr_detail {

using expr_lex::kw;
using expr_lex::tok;
using expr_lex::token;

class parser {
public:
  parser(std::string_view text, expr_mode mode, placeholder_map* placeholders) noexcept;

  // Entry points: each parses its whole input.
  int expression(Mysqlx::Expr::Expr& out);
  int projection(Mysqlx::Crud::Projection& out);
  int sort(Mysqlx::Crud::Order& out);
  int update_path(Mysqlx::Expr::ColumnIdentifier& out);

  bool failed() const noexcept { return m_err_pos != expr_lex::lexer::npos; }
  error take_error() const;

private:
  // expr_grammar.cc. The left-associative binary levels are parsed by
  // precedence climbing: parse_logic() for OR/XOR/AND over parse_not(),
  // parse_arith() for | & << >> + - * / DIV % ^ over parse_unary().
  using level_fn = int (parser::*)(Mysqlx::Expr::Expr&);
  int parse_or(Mysqlx::Expr::Expr& out) { return parse_logic(out, expr_ops::prec::or_); }
  int parse_bit_or(Mysqlx::Expr::Expr& out) { return parse_arith(out, expr_ops::prec::bit_or); }
  int parse_logic(Mysqlx::Expr::Expr& out, expr_ops::prec min);
  int parse_arith(Mysqlx::Expr::Expr& out, expr_ops::prec min);
  int parse_not(Mysqlx::Expr::Expr& out);
  int parse_compare(Mysqlx::Expr::Expr& out);
  int parse_predicate(Mysqlx::Expr::Expr& out);
  int parse_unary(Mysqlx::Expr::Expr& out);
  int parse_interval_tail(Mysqlx::Expr::Expr& out, int depth, const char* name);
  int parse_leading_interval(Mysqlx::Expr::Expr& out);

  // expr_atoms.cc
  int parse_atom(Mysqlx::Expr::Expr& out);
  int parse_number(Mysqlx::Expr::Expr& out, bool negative);
  int parse_placeholder(Mysqlx::Expr::Expr& out);
  int parse_cast(Mysqlx::Expr::Expr& out);
  bool parse_cast_type(std::string& type);
  int parse_call(Mysqlx::Expr::Expr& out, std::string_view schema, std::string_view name);
  int parse_object(Mysqlx::Expr::Expr& out);
  int parse_array(Mysqlx::Expr::Expr& out);
  int parse_paren_list(Mysqlx::Expr::Operator& op);
  bool parse_interval_unit(Mysqlx::Expr::Expr& out);

  // expr_paths.cc
  int parse_name(Mysqlx::Expr::Expr& out);
  bool parse_doc_path(Mysqlx::Expr::ColumnIdentifier& id);
  bool parse_path_items(Mysqlx::Expr::ColumnIdentifier& id);
  bool parse_column_id(Mysqlx::Expr::ColumnIdentifier& id, bool& unquote);
  bool parse_arrow_path(Mysqlx::Expr::ColumnIdentifier& id);
  bool ident_text(const token& t, std::string& out);
  static void wrap_unquote(Mysqlx::Expr::Expr& out);

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
  bool accept(tok k) noexcept;
  bool accept(kw k) noexcept;
  bool expect(tok k, const char* what);
  token peek(int ahead = 1) noexcept; // a token after cur()
  std::string_view text(const token& t) const noexcept { return m_lex.text(t); }

  // Errors. All return -1 / false so callers can `return fail(...)`.
  int fail(std::size_t pos, std::string what);
  int fail_expected(const char* what);
  bool at_end_or_fail();

  // Tree helpers.
  Mysqlx::Expr::Operator& make_op(Mysqlx::Expr::Expr& out, const char* name);
  Mysqlx::Expr::Operator& wrap_binary(Mysqlx::Expr::Expr& out, const char* name);
  static void set_octets(Mysqlx::Expr::Expr& out, std::string_view value);
  int grow(int depth) noexcept; // depth + 1, or an error past the limit

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
  std::string m_scratch; // reused for unquoting
};

} // namespace cdk::expr_detail
