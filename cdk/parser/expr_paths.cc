// Names: function calls, document paths and column references.
//
//   name     := ident ['.' ident] '(' [or (',' or)*] ')'      (function call)
//             | docpath                                      (document mode)
//             | column                                       (table mode)
//   docpath  := '$' item* | '**' item* | ident item*
//   item     := '.' member | '.' '*' | '[' integer ']' | '[' '*' ']' | '**'
//   member   := word | `quoted` | 'string' | "string"
//   column   := ident ['.' word ['.' word]] [('->' | '->>') jsonpath]
//   jsonpath := '$' item* | 'string holding $ item*' | "the same"
//
// `ident` is a word that is not reserved, or a back-ticked name. A path may
// not end in '**'. In the Expr, "$" alone is one MEMBER with an empty name,
// which the X Plugin renders as '$' (expr_generator.cc); col->>'$.a' is
// JSON_UNQUOTE(col->'$.a'), as in Connector/C++.
#include "cdk/parser/expr_parser_impl.h"
#include "mysqlx_expr.pb.h"

#include <algorithm>
#include <limits>

namespace cdk::expr_detail {

using Mysqlx::Expr::DocumentPathItem;

namespace {

bool is_ident(const token& t) {
  return t.kind == tok::qword || (t.kind == tok::word && !expr_lex::is_reserved(t.keyword));
}

} // namespace

bool parser::ident_text(const token& t, text_ref& out) {
  if (t.kind == tok::word) {
    out = slice(t.pos, t.len);
    return true;
  }
  out = unquoted(t);
  if (out.len == 0) return fail(t.pos, "empty name") >= 0;
  return true;
}

int parser::parse_name(node_id& out) {
  if (is_ident(m_tok)) {
    // Function call: f(...) or schema.f(...). Needs up to three tokens of
    // lookahead to tell "a.b(" from the path "a.b".
    const token first = m_tok;
    const token next = peek_next(); // kept: advance() reuses it
    if (next.kind == tok::lparen) {
      text_ref name;
      if (!ident_text(first, name)) return -1;
      advance();
      return parse_call(out, {}, name, false, first.pos);
    }
    if (next.kind == tok::dot) {
      expr_lex::lexer ahead = m_ahead_lex; // rarer: two more tokens
      const token second = ahead.next();
      if ((second.kind == tok::word || second.kind == tok::qword) &&
          ahead.next().kind == tok::lparen) {
        text_ref schema;
        text_ref name;
        if (!ident_text(first, schema) || !ident_text(second, name)) return -1;
        advance();
        advance();
        advance();
        return parse_call(out, schema, name, true, first.pos);
      }
    }
  }
  out = m_tree.add(node_kind::ident);
  if (m_mode == expr_mode::document) {
    if (!parse_doc_path(out)) return -1;
    if (at(tok::arrow) || at(tok::arrow2))
      return fail(m_tok.pos, "'" + std::string(text(m_tok)) + "' needs a column: table mode only");
    return 1;
  }
  bool unquote = false;
  if (!parse_column_id(out, unquote)) return -1;
  if (!unquote) return 1;
  wrap_unquote(out);
  return 2;
}

bool parser::parse_doc_path(node_id id) {
  if (accept(tok::dollar)) {
    if (!at(tok::dot) && !at(tok::lsquare) && !at(tok::dstar)) {
      // "$": the document, one MEMBER with an empty name
      const node_id item = add_child(id, node_kind::path_item);
      m_tree[item].sub = DocumentPathItem::MEMBER;
      m_tree[item].has = 1;
      return true;
    }
  } else if (is_ident(m_tok)) {
    const node_id item = add_child(id, node_kind::path_item);
    text_ref member;
    if (!ident_text(m_tok, member)) return false;
    m_tree[item].sub = DocumentPathItem::MEMBER;
    m_tree[item].has = 1;
    m_tree[item].text[0] = member;
    advance();
  } else if (!at(tok::dstar)) {
    if (m_mode == expr_mode::table) return fail_expected("a column name") >= 0;
    return fail_expected("a document path") >= 0;
  }
  return parse_path_items(id);
}

bool parser::parse_path_items(node_id id) {
  bool last_dstar = false;
  std::size_t dstar_pos = 0;
  auto add_item = [&](DocumentPathItem::Type type) {
    const node_id item = add_child(id, node_kind::path_item);
    m_tree[item].sub = static_cast<std::uint8_t>(type);
    return item;
  };
  for (;;) {
    const std::uint32_t pos = m_tok.pos;
    if (accept(tok::dstar)) {
      if (last_dstar) return fail(pos, "'**' cannot follow '**' in a document path") >= 0;
      add_item(DocumentPathItem::DOUBLE_ASTERISK);
      if (m_wildcard_pos == expr_lex::lexer::npos) m_wildcard_pos = pos;
      last_dstar = true;
      dstar_pos = pos;
      continue;
    }
    last_dstar = false;
    if (accept(tok::dot)) {
      if (at(tok::star)) {
        add_item(DocumentPathItem::MEMBER_ASTERISK);
        if (m_wildcard_pos == expr_lex::lexer::npos) m_wildcard_pos = m_tok.pos;
      } else if (at(tok::word) || at(tok::qword) || at(tok::string)) {
        text_ref member;
        if (!ident_text(m_tok, member)) return false;
        const node_id item = add_item(DocumentPathItem::MEMBER);
        m_tree[item].has = 1;
        m_tree[item].text[0] = member;
      } else {
        return fail_expected("a member name or '*' after '.'") >= 0;
      }
      advance();
    } else if (accept(tok::lsquare)) {
      if (at(tok::star)) {
        add_item(DocumentPathItem::ARRAY_INDEX_ASTERISK);
        if (m_wildcard_pos == expr_lex::lexer::npos) m_wildcard_pos = m_tok.pos;
      } else if (at(tok::integer)) {
        std::uint64_t index = 0;
        for (char c : text(m_tok)) {
          index = index * 10 + static_cast<std::uint64_t>(c - '0');
          if (index > std::numeric_limits<std::uint32_t>::max())
            return fail(m_tok.pos, "array index out of range") >= 0;
        }
        m_tree[add_item(DocumentPathItem::ARRAY_INDEX)].v.u = index;
      } else {
        return fail_expected("an array index or '*' after '['") >= 0;
      }
      advance();
      if (!expect(tok::rsquare, "']'")) return false;
    } else {
      break;
    }
  }
  const node_id last = m_tree[id].last;
  if (last != no_node && m_tree[last].sub == DocumentPathItem::DOUBLE_ASTERISK)
    return fail(dstar_pos, "a document path cannot end with '**'") >= 0;
  return true;
}

bool parser::parse_column_id(node_id id, bool& unquote) {
  if (!is_ident(m_tok)) return fail_expected("a column name") >= 0;
  // Up to three parts: [schema.[table.]]column. Words after a dot may be
  // reserved words, as in SQL.
  token parts[3] = {m_tok, {}, {}};
  int count = 1;
  advance();
  while (count < 3 && at(tok::dot)) {
    advance();
    if (!at(tok::word) && !at(tok::qword)) return fail_expected("a name after '.'") >= 0;
    parts[count++] = m_tok;
    advance();
  }
  text_ref names[3];
  if (!ident_text(parts[count - 1], names[0])) return false;
  if (count >= 2 && !ident_text(parts[count - 2], names[1])) return false;
  if (count == 3 && !ident_text(parts[0], names[2])) return false;
  node& n = m_tree[id];
  n.has = count == 1 ? 1 : count == 2 ? 3 : 7;
  for (int i = 0; i < count; ++i) n.text[i] = names[i];

  if (!at(tok::arrow) && !at(tok::arrow2)) return true;
  unquote = at(tok::arrow2);
  advance();
  return parse_arrow_path(id);
}

// The JSON path after -> or ->>: $... inline, or a quoted string holding it.
bool parser::parse_arrow_path(node_id id) {
  if (at(tok::dollar)) return parse_doc_path(id);
  if (!at(tok::string)) return fail_expected("a JSON path ('$...') after '->'") >= 0;
  const token str = m_tok;
  std::int32_t index = 0;
  std::string& path = m_tree.new_string(index); // the sub-parser's text refs point here
  expr_lex::unquote(text(str), tok::string, str.escaped, path);
  parser sub(path, expr_mode::document, nullptr, m_tree, index);
  // Errors inside the quotes point into them (exactly when no escapes).
  const auto map_pos = [&](std::size_t p) { return str.pos + 1 + std::min(p, path.size()); };
  if (!sub.at(tok::dollar)) return fail(map_pos(0), "expected '$' to start a JSON path") >= 0;
  if (!sub.parse_doc_path(id)) return fail(map_pos(sub.m_err_pos), sub.m_err_what) >= 0;
  if (!sub.at(tok::end)) {
    const std::size_t p = sub.m_lex.failed() ? sub.m_lex.error_pos() : sub.m_tok.pos;
    return fail(map_pos(p), "expected the end of the JSON path") >= 0;
  }
  if (sub.m_wildcard_pos != expr_lex::lexer::npos && m_wildcard_pos == expr_lex::lexer::npos)
    m_wildcard_pos = map_pos(sub.m_wildcard_pos);
  advance();
  return true;
}

// col->>'$.a' is JSON_UNQUOTE(col->'$.a'), as Connector/C++ sends it.
void parser::wrap_unquote(node_id& out) {
  const node_id call = m_tree.add(node_kind::call);
  m_tree[call].v.name = "JSON_UNQUOTE";
  m_tree[call].has = 1 | 4;
  m_tree.append(call, out);
  out = call;
}

} // namespace cdk::expr_detail
