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

#include <algorithm>
#include <limits>

namespace cdk::expr_detail {

using Mysqlx::Expr::ColumnIdentifier;
using Mysqlx::Expr::DocumentPathItem;
using Mysqlx::Expr::Expr;

namespace {

bool is_ident(const token& t) {
  return t.kind == tok::qword || (t.kind == tok::word && !expr_lex::is_reserved(t.keyword));
}

} // namespace

bool parser::ident_text(const token& t, std::string& out) {
  if (t.kind == tok::word) {
    const std::string_view w = text(t);
    out.assign(w.data(), w.size());
    return true;
  }
  expr_lex::unquote(text(t), t.kind, t.escaped, out);
  if (out.empty()) return fail(t.pos, "empty name") >= 0;
  return true;
}

int parser::parse_name(Expr& out) {
  if (is_ident(m_tok)) {
    // Function call: f(...) or schema.f(...). Needs up to three tokens of
    // lookahead to tell "a.b(" from the path "a.b".
    const token first = m_tok;
    const token next = peek_next(); // kept: advance() reuses it
    if (next.kind == tok::lparen) {
      std::string name;
      if (!ident_text(first, name)) return -1;
      advance();
      return parse_call(out, {}, name);
    }
    if (next.kind == tok::dot) {
      expr_lex::lexer ahead = m_ahead_lex; // rarer: two more tokens
      const token second = ahead.next();
      if ((second.kind == tok::word || second.kind == tok::qword) &&
          ahead.next().kind == tok::lparen) {
        std::string schema;
        std::string name;
        if (!ident_text(first, schema) || !ident_text(second, name)) return -1;
        advance();
        advance();
        advance();
        return parse_call(out, schema, name);
      }
    }
  }
  out.set_type(Expr::IDENT);
  ColumnIdentifier& id = *out.mutable_identifier();
  if (m_mode == expr_mode::document) {
    if (!parse_doc_path(id)) return -1;
    if (at(tok::arrow) || at(tok::arrow2))
      return fail(m_tok.pos, "'" + std::string(text(m_tok)) + "' needs a column: table mode only");
    return 1;
  }
  bool unquote = false;
  if (!parse_column_id(id, unquote)) return -1;
  if (!unquote) return 1;
  wrap_unquote(out);
  return 2;
}

bool parser::parse_doc_path(ColumnIdentifier& id) {
  if (accept(tok::dollar)) {
    if (!at(tok::dot) && !at(tok::lsquare) && !at(tok::dstar)) {
      id.add_document_path()->set_type(DocumentPathItem::MEMBER); // "$": the document
      id.mutable_document_path(0)->set_value("");
      return true;
    }
  } else if (is_ident(m_tok)) {
    auto& item = *id.add_document_path();
    item.set_type(DocumentPathItem::MEMBER);
    if (!ident_text(m_tok, *item.mutable_value())) return false;
    advance();
  } else if (!at(tok::dstar)) {
    if (m_mode == expr_mode::table) return fail_expected("a column name") >= 0;
    return fail_expected("a document path") >= 0;
  }
  return parse_path_items(id);
}

bool parser::parse_path_items(ColumnIdentifier& id) {
  bool last_dstar = false;
  std::size_t dstar_pos = 0;
  for (;;) {
    const std::uint32_t pos = m_tok.pos;
    if (accept(tok::dstar)) {
      if (last_dstar) return fail(pos, "'**' cannot follow '**' in a document path") >= 0;
      id.add_document_path()->set_type(DocumentPathItem::DOUBLE_ASTERISK);
      if (m_wildcard_pos == expr_lex::lexer::npos) m_wildcard_pos = pos;
      last_dstar = true;
      dstar_pos = pos;
      continue;
    }
    last_dstar = false;
    if (accept(tok::dot)) {
      auto& item = *id.add_document_path();
      if (at(tok::star)) {
        item.set_type(DocumentPathItem::MEMBER_ASTERISK);
        if (m_wildcard_pos == expr_lex::lexer::npos) m_wildcard_pos = m_tok.pos;
      } else if (at(tok::word) || at(tok::qword) || at(tok::string)) {
        item.set_type(DocumentPathItem::MEMBER);
        if (!ident_text(m_tok, *item.mutable_value())) return false;
      } else {
        return fail_expected("a member name or '*' after '.'") >= 0;
      }
      advance();
    } else if (accept(tok::lsquare)) {
      auto& item = *id.add_document_path();
      if (at(tok::star)) {
        item.set_type(DocumentPathItem::ARRAY_INDEX_ASTERISK);
        if (m_wildcard_pos == expr_lex::lexer::npos) m_wildcard_pos = m_tok.pos;
      } else if (at(tok::integer)) {
        std::uint64_t index = 0;
        for (char c : text(m_tok)) {
          index = index * 10 + static_cast<std::uint64_t>(c - '0');
          if (index > std::numeric_limits<std::uint32_t>::max())
            return fail(m_tok.pos, "array index out of range") >= 0;
        }
        item.set_type(DocumentPathItem::ARRAY_INDEX);
        item.set_index(static_cast<std::uint32_t>(index));
      } else {
        return fail_expected("an array index or '*' after '['") >= 0;
      }
      advance();
      if (!expect(tok::rsquare, "']'")) return false;
    } else {
      break;
    }
  }
  if (id.document_path_size() > 0 &&
      id.document_path(id.document_path_size() - 1).type() == DocumentPathItem::DOUBLE_ASTERISK)
    return fail(dstar_pos, "a document path cannot end with '**'") >= 0;
  return true;
}

bool parser::parse_column_id(ColumnIdentifier& id, bool& unquote) {
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
  if (!ident_text(parts[count - 1], *id.mutable_name())) return false;
  if (count >= 2 && !ident_text(parts[count - 2], *id.mutable_table_name())) return false;
  if (count == 3 && !ident_text(parts[0], *id.mutable_schema_name())) return false;

  if (!at(tok::arrow) && !at(tok::arrow2)) return true;
  unquote = at(tok::arrow2);
  advance();
  return parse_arrow_path(id);
}

// The JSON path after -> or ->>: $... inline, or a quoted string holding it.
bool parser::parse_arrow_path(ColumnIdentifier& id) {
  if (at(tok::dollar)) return parse_doc_path(id);
  if (!at(tok::string)) return fail_expected("a JSON path ('$...') after '->'") >= 0;
  const token str = m_tok;
  std::string path;
  expr_lex::unquote(text(str), tok::string, str.escaped, path);
  parser sub(path, expr_mode::document, nullptr);
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

void parser::wrap_unquote(Expr& out) {
  Expr* inner = google::protobuf::Arena::CreateMessage<Expr>(out.GetArena());
  inner->Swap(&out);
  out.set_type(Expr::FUNC_CALL);
  auto& call = *out.mutable_function_call();
  call.mutable_name()->set_name("JSON_UNQUOTE");
  call.mutable_param()->AddAllocated(inner);
}

} // namespace cdk::expr_detail
