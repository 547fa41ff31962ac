// Entry points of expr_parser.h and the parser's token and error plumbing.
#include "cdk/parser/expr_parser.h"

#include "cdk/parser/expr_assign.h"
#include "cdk/parser/expr_parser_impl.h"

namespace cdk {

std::uint32_t placeholder_map::assign(std::string_view name) {
  for (std::size_t i = 0; i < m_names.size(); ++i)
    if (m_names[i] == name) return static_cast<std::uint32_t>(i);
  m_names.emplace_back(name);
  return static_cast<std::uint32_t>(m_names.size() - 1);
}

std::uint32_t placeholder_map::add_anonymous() {
  m_names.emplace_back();
  return static_cast<std::uint32_t>(m_names.size() - 1);
}

std::optional<std::uint32_t> placeholder_map::find(std::string_view name) const noexcept {
  if (name.empty()) return std::nullopt;
  for (std::size_t i = 0; i < m_names.size(); ++i)
    if (m_names[i] == name) return static_cast<std::uint32_t>(i);
  return std::nullopt;
}

namespace expr_detail {

using Mysqlx::Datatypes::Scalar;

parser::parser(std::string_view text, expr_mode mode, placeholder_map* placeholders, tree& nodes,
               std::int32_t base) noexcept
    : m_lex(text), m_ahead_lex(text), m_mode(mode), m_placeholders(placeholders), m_tree(nodes),
      m_base(base) {
  if (text.size() > max_expr_length) {
    m_err_pos = 0;
    m_err_what = "expression longer than " + std::to_string(max_expr_length) + " bytes";
    return;
  }
  const std::size_t bad = expr_lex::find_invalid_utf8(text);
  if (bad != expr_lex::lexer::npos) {
    m_err_pos = bad;
    m_err_what = "invalid UTF-8";
    return;
  }
  m_tok = m_lex.next();
}

bool parser::expect(tok k, const char* what) {
  if (accept(k)) return true;
  return fail_expected(what) >= 0;
}

token parser::peek(int ahead) noexcept {
  if (ahead == 1 && m_tok.kind != tok::end) return peek_next();
  expr_lex::lexer copy = m_lex;
  token t = m_tok;
  for (int i = 0; i < ahead && t.kind != tok::end; ++i) t = copy.next();
  return t;
}

int parser::fail(std::size_t pos, std::string what) {
  if (failed()) return -1; // the first error wins
  // A lexer error explains an unexpected end of the token stream best.
  if (m_lex.failed()) {
    m_err_pos = m_lex.error_pos();
    m_err_what = m_lex.error_what();
    return -1;
  }
  m_err_pos = pos;
  m_err_what = std::move(what);
  return -1;
}

int parser::fail_expected(const char* what) {
  std::string msg = "expected ";
  msg += what;
  return fail(m_tok.pos, std::move(msg));
}

int parser::fail_unsupported(std::string_view what) {
  std::string msg(what);
  msg += " not supported yet";
  return fail(m_tok.pos, std::move(msg));
}

int parser::fail_too_deep() {
  return fail(m_tok.pos,
              "expression nested deeper than " + std::to_string(max_expr_depth) + " levels");
}

bool parser::at_end_or_fail() {
  if (failed()) return false;
  if (at(tok::end) && !m_lex.failed()) return true;
  if (m_tok.kind == tok::end) return fail(m_tok.pos, {}) >= 0; // picks the lexer error
  return fail(m_tok.pos, "unexpected " + expr_lex::describe(m_lex, m_tok)) >= 0;
}

error parser::take_error() const {
  return expr_lex::parse_error(m_lex.input(), m_err_pos, m_err_what);
}

void tree::trim() noexcept {
  // Enough for any expression a program writes by hand; more is released.
  constexpr std::size_t keep_nodes = 1024;
  constexpr std::size_t keep_strings = 64;
  constexpr std::size_t keep_chars = 4096;
  if (m_nodes.capacity() > keep_nodes) std::vector<node>().swap(m_nodes);
  if (m_strings.size() > keep_strings) {
    std::deque<std::string>().swap(m_strings);
    m_strings_used = 0;
    return;
  }
  for (std::size_t i = 0; i < m_strings_used; ++i)
    if (m_strings[i].capacity() > keep_chars) std::string().swap(m_strings[i]);
}

text_ref parser::unquoted(const token& t) {
  if (!t.escaped) return slice(t.pos + 1, t.len - 2);
  std::int32_t index = 0;
  expr_lex::unquote(text(t), t.kind, true, m_tree.new_string(index));
  return m_tree.whole(index);
}

// An octets literal holding a constant ("BINARY" of BINARY x).
void parser::add_octets(node_id parent, std::string_view value) {
  const node_id id = add_literal(parent, Scalar::V_OCTETS);
  std::int32_t index = 0;
  m_tree.new_string(index) = value;
  m_tree[id].text[0] = m_tree.whole(index);
}

int parser::expression(parsed& out) {
  if (failed()) return -1;
  if (at(tok::end) && !m_lex.failed()) return fail_expected("an expression");
  const int depth = parse_or(out.root);
  return depth >= 0 && at_end_or_fail() ? depth : -1;
}

int parser::projection(parsed& out) {
  if (failed()) return -1;
  if (at(tok::end) && !m_lex.failed()) return fail_expected("an expression");
  const std::uint32_t start = m_tok.pos;
  const int depth = parse_or(out.root);
  if (depth < 0) return -1;
  const std::uint32_t end = m_prev_end;
  if (accept(kw::as)) {
    if (!at(tok::qword) && !(at(tok::word) && !expr_lex::is_reserved(m_tok.keyword)))
      return fail_expected("an alias after AS");
    if (!ident_text(m_tok, out.alias)) return -1;
    out.has_alias = true;
    advance();
  } else if (m_mode == expr_mode::document) {
    out.alias = slice(start, end - start);
    out.has_alias = true;
  }
  return at_end_or_fail() ? depth : -1;
}

int parser::sort(parsed& out) {
  if (failed()) return -1;
  if (at(tok::end) && !m_lex.failed()) return fail_expected("an expression");
  const int depth = parse_or(out.root);
  if (depth < 0) return -1;
  if (accept(kw::asc))
    out.direction = Mysqlx::Crud::Order::ASC;
  else if (accept(kw::desc))
    out.direction = Mysqlx::Crud::Order::DESC;
  return at_end_or_fail() ? depth : -1;
}

int parser::update_path(parsed& out) {
  if (failed()) return -1;
  out.root = m_tree.add(node_kind::ident);
  if (m_mode == expr_mode::table) {
    bool unquote = false;
    const std::uint32_t pos = m_tok.pos;
    if (!parse_column_id(out.root, unquote)) return -1;
    if (unquote) return fail(pos, "'->>' cannot be the target of an update");
  } else {
    if (at(tok::dollar) && peek().kind == tok::end)
      return fail(m_tok.end(), "expected a document path after '$'");
    if (!parse_doc_path(out.root)) return -1;
  }
  if (m_wildcard_pos != expr_lex::lexer::npos)
    return fail(m_wildcard_pos, "wildcards are not allowed in an update path");
  return at_end_or_fail() ? 1 : -1;
}

} // namespace expr_detail

namespace {

// The node vector and strings are per thread and kept from parse to parse,
// so a parse allocates nothing of its own once a thread has parsed an
// expression of that size. The message is written once, top down, over
// whatever a reused message holds (expr_assign.h), so parsing into the same
// message again allocates nothing either.
template <typename Out, typename Fn>
status run(std::string_view text, expr_mode mode, placeholder_map* ph, Out& out, Fn fn) {
  const std::size_t before = ph != nullptr ? ph->size() : 0;
  thread_local expr_detail::tree scratch;
  scratch.reset(text);
  expr_detail::parser p(text, mode, ph, scratch);
  expr_detail::parsed result;
  const bool parsed = (p.*fn)(result) >= 0;
  if (parsed) expr_detail::assign(out, scratch, result);
  scratch.trim();
  if (parsed) return ok();
  if (ph != nullptr) ph->truncate(before);
  return p.take_error();
}

} // namespace
status parse_expr(std::string_view text, expr_mode mode, placeholder_map& placeholders,
                  Mysqlx::Expr::Expr& out) {
  return run(text, mode, &placeholders, out, &expr_detail::parser::expression);
}

status parse_projection(std::string_view text, expr_mode mode, placeholder_map& placeholders,
                        Mysqlx::Crud::Projection& out) {
  return run(text, mode, &placeholders, out, &expr_detail::parser::projection);
}

status parse_sort(std::string_view text, expr_mode mode, placeholder_map& placeholders,
                  Mysqlx::Crud::Order& out) {
  return run(text, mode, &placeholders, out, &expr_detail::parser::sort);
}

status parse_update_path(std::string_view text, expr_mode mode,
                         Mysqlx::Expr::ColumnIdentifier& out) {
  return run(text, mode, nullptr, out, &expr_detail::parser::update_path);
}

} // namespace cdk
