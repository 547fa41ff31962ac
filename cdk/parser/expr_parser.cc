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

using Mysqlx::Expr::Expr;
using Mysqlx::Expr::Operator;

parser::parser(std::string_view text, expr_mode mode, placeholder_map* placeholders) noexcept
    : m_lex(text), m_ahead_lex(text), m_mode(mode), m_placeholders(placeholders) {
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

bool parser::accept(tok k) noexcept {
  if (!at(k)) return false;
  advance();
  return true;
}

bool parser::accept(kw k) noexcept {
  if (!at(k)) return false;
  advance();
  return true;
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

int parser::fail_too_deep() {
  return fail(m_tok.pos,
              "expression nested deeper than " + std::to_string(max_expr_depth) + " levels");
}

int parser::grow(int depth) noexcept {
  if (depth < 0) return -1;
  if (static_cast<std::size_t>(depth) >= max_expr_depth) return fail_too_deep();
  return depth + 1;
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

Operator& parser::make_op(Expr& out, const char* name) {
  out.set_type(Expr::OPERATOR);
  Operator& op = *out.mutable_operator_();
  op.set_name(name);
  return op;
}

// Turns `out` into name(out, ...): the old content becomes the first
// parameter without a copy (Swap within one arena only moves pointers).
Operator& parser::wrap_binary(Expr& out, const char* name) {
  Expr* lhs = google::protobuf::Arena::CreateMessage<Expr>(out.GetArena());
  lhs->Swap(&out);
  Operator& op = make_op(out, name);
  op.mutable_param()->AddAllocated(lhs);
  return op;
}

void parser::set_octets(Expr& out, std::string_view value) {
  out.set_type(Expr::LITERAL);
  auto& lit = *out.mutable_literal();
  lit.set_type(Mysqlx::Datatypes::Scalar::V_OCTETS);
  lit.mutable_v_octets()->set_value(value.data(), value.size());
}

int parser::expression(Expr& out) {
  if (failed()) return -1;
  if (at(tok::end) && !m_lex.failed()) return fail_expected("an expression");
  const int depth = parse_or(out);
  return depth >= 0 && at_end_or_fail() ? depth : -1;
}

int parser::projection(Mysqlx::Crud::Projection& out) {
  if (failed()) return -1;
  if (at(tok::end) && !m_lex.failed()) return fail_expected("an expression");
  const std::uint32_t start = m_tok.pos;
  const int depth = parse_or(*out.mutable_source());
  if (depth < 0) return -1;
  const std::uint32_t end = m_prev_end;
  if (accept(kw::as)) {
    if (!at(tok::qword) && !(at(tok::word) && !expr_lex::is_reserved(m_tok.keyword)))
      return fail_expected("an alias after AS");
    if (!ident_text(m_tok, *out.mutable_alias())) return -1;
    advance();
  } else if (m_mode == expr_mode::document) {
    const std::string_view src = m_lex.input().substr(start, end - start);
    out.set_alias(src.data(), src.size());
  }
  return at_end_or_fail() ? depth : -1;
}

int parser::sort(Mysqlx::Crud::Order& out) {
  if (failed()) return -1;
  if (at(tok::end) && !m_lex.failed()) return fail_expected("an expression");
  const int depth = parse_or(*out.mutable_expr());
  if (depth < 0) return -1;
  if (accept(kw::asc))
    out.set_direction(Mysqlx::Crud::Order::ASC);
  else if (accept(kw::desc))
    out.set_direction(Mysqlx::Crud::Order::DESC);
  return at_end_or_fail() ? depth : -1;
}

int parser::update_path(Mysqlx::Expr::ColumnIdentifier& out) {
  if (failed()) return -1;
  if (m_mode == expr_mode::table) {
    bool unquote = false;
    const std::uint32_t pos = m_tok.pos;
    if (!parse_column_id(out, unquote)) return -1;
    if (unquote) return fail(pos, "'->>' cannot be the target of an update");
  } else {
    if (at(tok::dollar) && peek().kind == tok::end)
      return fail(m_tok.end(), "expected a document path after '$'");
    if (!parse_doc_path(out)) return -1;
  }
  if (m_wildcard_pos != expr_lex::lexer::npos)
    return fail(m_wildcard_pos, "wildcards are not allowed in an update path");
  return at_end_or_fail() ? 1 : -1;
}

} // namespace expr_detail

namespace {

// Trees are built on a per-thread scratch arena, where the in-place
// construction of expr_grammar.cc (Swap and AddAllocated between parent and
// child) only moves pointers, and then copied into the caller's message in
// one top-down pass (expr_assign.h). The copy reuses whatever sub-messages a reused `out`
// kept from its last Clear(), so parsing into the same message again costs
// almost no allocation, and its memory stays bounded. (Building in place in
// a reused heap message would push the kept sub-messages one level down on
// every parse.) A caller's message that lives on an arena is built in place.
class scratch_arena {
public:
  scratch_arena() : m_arena(options(m_block, sizeof m_block)) {}
  google::protobuf::Arena& fresh() {
    m_arena.Reset(); // keeps the first block
    return m_arena;
  }

private:
  static google::protobuf::ArenaOptions options(char* block, std::size_t size) {
    google::protobuf::ArenaOptions o;
    o.initial_block = block;
    o.initial_block_size = size;
    return o;
  }
  alignas(16) char m_block[16 * 1024];
  google::protobuf::Arena m_arena;
};

template <typename Out, typename Fn>
status run(std::string_view text, expr_mode mode, placeholder_map* ph, Out& out, Fn fn) {
  const std::size_t before = ph != nullptr ? ph->size() : 0;
  google::protobuf::Arena* arena = out.GetArena();
  thread_local scratch_arena scratch;
  if (arena == nullptr) arena = &scratch.fresh();
  Out* tree = google::protobuf::Arena::CreateMessage<Out>(arena);
  expr_detail::parser p(text, mode, ph);
  if ((p.*fn)(*tree) >= 0) {
    if (tree->GetArena() == out.GetArena())
      out.Swap(tree); // both on the caller's arena: pointer swap
    else
      expr_detail::assign(out, *tree); // CopyFrom without its Clear() pass
    return ok();
  }
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
