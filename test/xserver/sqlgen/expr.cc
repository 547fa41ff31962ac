// Expressions: literals, placeholders, identifiers, document paths, function
// calls, objects and arrays. Operators are in operators.cc.
#include "test/xserver/sqlgen/detail.h"

namespace xserver::sqlgen {
namespace detail {

using Mysqlx::Expr::DocumentPathItem;

bool is_doc_path(const Expr& e) {
  return e.type() == Expr::IDENT && e.identifier().document_path_size() > 0;
}

bool is_id_path(const Expr& e) {
  if (!is_doc_path(e) || e.identifier().document_path_size() != 1) return false;
  const auto& item = e.identifier().document_path(0);
  return item.type() == DocumentPathItem::MEMBER && item.value() == "_id";
}

void expr_writer::expr(const Expr& e) {
  if (!e.has_type()) missing_field("Mysqlx.Expr.Expr.type");
  switch (e.type()) {
  case Expr::IDENT:
    column(e.identifier());
    break;
  case Expr::LITERAL:
    scalar(e.literal());
    break;
  case Expr::VARIABLE:
    fail(xerr::expr_bad_type_value, "Mysqlx::Expr::Expr::VARIABLE is not supported yet");
  case Expr::FUNC_CALL:
    function(e.function_call());
    break;
  case Expr::OPERATOR:
    op(e.operator_());
    break;
  case Expr::PLACEHOLDER:
    if (is_param(e))
      put_param(param_kind::value, e);
    else
      placeholder(e.position());
    break;
  case Expr::OBJECT:
    object(e.object());
    break;
  case Expr::ARRAY: {
    put("JSON_ARRAY(");
    for (int i = 0; i < e.array().value_size(); ++i) {
      if (i > 0) put(",");
      expr(e.array().value(i));
    }
    put(")");
    break;
  }
  default:
    fail(xerr::expr_bad_type_value,
         "Invalid value for Mysqlx::Expr::Expr_Type " + std::to_string(e.type()));
  }
}

bool is_plain_octets(const Expr& e) {
  return e.type() == Expr::LITERAL && e.literal().type() == Scalar::V_OCTETS &&
         e.literal().has_v_octets() && e.literal().v_octets().content_type() == 0;
}

bool is_json_octets(const Scalar& s) {
  return s.type() == Scalar::V_OCTETS && s.v_octets().content_type() == 2;
}

bool is_cast_to_json(const Operator& o) {
  return upper(o.name()) == "CAST" && o.param_size() > 1 && is_plain_octets(o.param(1)) &&
         upper(o.param(1).literal().v_octets().value()) == "JSON";
}

bool is_json_valued(const expr_writer& w, const Expr& e) {
  switch (e.type()) {
  case Expr::IDENT:
    return is_doc_path(e);
  case Expr::OBJECT:
  case Expr::ARRAY:
    return true;
  case Expr::FUNC_CALL:
    return is_json_result_function(e.function_call().name().name());
  case Expr::OPERATOR:
    return is_cast_to_json(e.operator_());
  default: {
    const Scalar* s = w.literal_of(e);
    return s && is_json_octets(*s);
  }
  }
}

void expr_writer::condition(const Expr& e) {
  if (!is_json_valued(*this, e)) return expr(e);
  // JSON_EQUALS compares as JSON (0 = 0.0 = -0.0, "0" and false are not
  // numbers) and is NULL for NULL; e is rendered once, so a prepared
  // statement's `?` in it is listed once.
  put("(JSON_EQUALS(");
  expr(e);
  put(",'0') = 0)");
}

// `$._id` reads the `_id` column when there is one: it holds exactly
// JSON_UNQUOTE(JSON_EXTRACT(doc,'$._id')) and is the primary key.
void expr_writer::unquoted(const Expr& e) {
  if (!is_doc_path(e)) return expr(e);
  if (m_ctx.opts.id_column && !m_ctx.relational && is_id_path(e) && !e.identifier().has_name() &&
      !e.identifier().has_table_name())
    return put("`_id`");
  put("JSON_UNQUOTE(");
  expr(e);
  put(")");
}

std::string expr_writer::text(const Expr& e) const {
  std::string s;
  expr_writer(m_ctx, s).expr(e);
  return s;
}

std::string expr_writer::unquoted_text(const Expr& e) const {
  std::string s;
  expr_writer(m_ctx, s).unquoted(e);
  return s;
}

const Scalar* expr_writer::literal_of(const Expr& e) const {
  if (e.type() == Expr::LITERAL) return &e.literal();
  if (e.type() == Expr::PLACEHOLDER && m_ctx.args && e.position() < unsigned(m_ctx.args->size()))
    return &m_ctx.args->Get(static_cast<int>(e.position()));
  return nullptr;
}

namespace {
std::uint32_t own_args(const expr_context& ctx) {
  return ctx.args ? static_cast<std::uint32_t>(ctx.args->size()) : 0;
}
} // namespace

// As the X Plugin's Expression_generator in prepare mode: placeholders within
// the message's own args are inlined, later ones take Execute's arguments.
bool expr_writer::is_param(const Expr& e) const {
  return m_ctx.params && e.type() == Expr::PLACEHOLDER && e.position() >= own_args(m_ctx);
}

void expr_writer::put_param(param_kind k, const Expr& e) {
  m_ctx.params->push_back(param{k, e.position() - own_args(m_ctx)});
  put("?");
}

void expr_writer::placeholder(std::uint32_t pos) {
  if (!m_ctx.args || pos >= unsigned(m_ctx.args->size()))
    fail(xerr::expr_bad_value, "Invalid value of placeholder");
  scalar(m_ctx.args->Get(static_cast<int>(pos)));
}

void expr_writer::scalar(const Scalar& s) {
  if (!s.has_type()) missing_field("Mysqlx.Datatypes.Scalar.type");
  switch (s.type()) {
  case Scalar::V_SINT:
    put(std::to_string(s.v_signed_int()));
    break;
  case Scalar::V_UINT:
    put(std::to_string(s.v_unsigned_int()));
    break;
  case Scalar::V_NULL:
    put("NULL");
    break;
  case Scalar::V_OCTETS:
    octets(s.v_octets());
    break;
  case Scalar::V_DOUBLE:
    put(number_text(s.v_double()));
    break;
  case Scalar::V_FLOAT:
    put(number_text(s.v_float()));
    break;
  case Scalar::V_BOOL:
    put(s.v_bool() ? "TRUE" : "FALSE");
    break;
  case Scalar::V_STRING:
    append_string(m_out, s.v_string().value());
    break;
  default:
    fail(xerr::expr_bad_type_value,
         "Invalid value for Mysqlx::Datatypes::Scalar::Type " + std::to_string(s.type()));
  }
}

// Octets content types: 0 plain, 1 geometry (WKB), 2 JSON, 3 XML. Bytes that
// are not UTF-8 become a hex (binary) literal: MariaDB rejects them in a
// utf8mb4 string literal, and its geometry functions want binary strings.
void expr_writer::octets(const Scalar::Octets& o) {
  switch (o.content_type()) {
  case 0:
  case 3:
    if (is_utf8(o.value()))
      append_string(m_out, o.value());
    else
      append_hex(m_out, o.value());
    break;
  case 1:
    put("ST_GEOMFROMWKB(");
    append_hex(m_out, o.value());
    put(")");
    break;
  case 2:
    // MariaDB has no CAST(.. AS JSON); JSON_COMPACT returns the same value
    // typed as JSON, so JSON_SET/JSON_OBJECT embed it instead of a string.
    check_json(o.value());
    put("JSON_COMPACT(");
    append_string(m_out, o.value());
    put(")");
    break;
  default:
    fail(xerr::expr_bad_type_value, "Invalid content type for Mysqlx::Datatypes::Scalar::Octets " +
                                        std::to_string(o.content_type()));
  }
}

// JSON text of a scalar, the second argument of JSON_CONTAINS/JSON_OVERLAPS.
// The X Plugin writes CAST(<v> AS JSON); MariaDB parses a JSON text instead.
void expr_writer::json_literal(const Scalar& s) {
  switch (s.type()) {
  case Scalar::V_STRING:
    put("JSON_QUOTE(");
    scalar(s);
    put(")");
    break;
  case Scalar::V_OCTETS:
    if (s.v_octets().content_type() == 2) {
      append_string(m_out, s.v_octets().value());
    } else {
      put("JSON_QUOTE(");
      scalar(s);
      put(")");
    }
    break;
  case Scalar::V_NULL:
    put("'null'");
    break;
  case Scalar::V_BOOL:
    put(s.v_bool() ? "'true'" : "'false'");
    break;
  default: {
    std::string number;
    expr_writer(m_ctx, number).scalar(s);
    append_string(m_out, number);
  }
  }
}

void expr_writer::path(const Doc_path& p) {
  for (const auto& item : p)
    if (!item.has_type()) missing_field("Mysqlx.Expr.DocumentPathItem.type");
  if (p.size() == 1 && p.Get(0).type() == DocumentPathItem::MEMBER && p.Get(0).value().empty())
    return put("'$'");
  std::string text = "$";
  for (const auto& item : p) {
    switch (item.type()) {
    case DocumentPathItem::MEMBER:
      if (item.value().empty())
        fail(xerr::expr_bad_value,
             "Invalid empty value for Mysqlx::Expr::DocumentPathItem::MEMBER");
      text += '.';
      text += json_member(item.value());
      break;
    case DocumentPathItem::MEMBER_ASTERISK:
      text += ".*";
      break;
    case DocumentPathItem::ARRAY_INDEX:
      text += '[' + std::to_string(item.index()) + ']';
      break;
    case DocumentPathItem::ARRAY_INDEX_ASTERISK:
      text += "[*]";
      break;
    case DocumentPathItem::DOUBLE_ASTERISK:
      text += "**";
      break;
    default:
      fail(xerr::expr_bad_type_value,
           "Invalid value for Mysqlx::Expr::DocumentPathItem::Type " + std::to_string(item.type()));
    }
  }
  append_string(m_out, text);
}

void expr_writer::column(const Mysqlx::Expr::ColumnIdentifier& c) {
  const bool has_schema = !c.schema_name().empty();
  const bool has_docpath = c.document_path_size() > 0;
  if (has_schema && !c.has_table_name())
    fail(xerr::expr_missing_arg,
         "Table name is required if schema name is specified in ColumnIdentifier.");
  if (c.has_table_name() && !c.has_name() && (m_ctx.relational || !has_docpath))
    fail(xerr::expr_missing_arg,
         "Column name is required if table name is specified in ColumnIdentifier.");
  if (!has_docpath && !c.has_name() && !c.has_table_name() && !c.has_schema_name()) {
    if (m_ctx.relational)
      fail(xerr::expr_missing_arg, "Column name is required in ColumnIdentifier.");
    return put("JSON_EXTRACT(doc,'$')");
  }
  if (has_docpath) put("JSON_EXTRACT(");
  if (has_schema) {
    append_identifier(m_out, c.schema_name());
    put(".");
  }
  if (c.has_table_name()) {
    append_identifier(m_out, c.table_name());
    put(".");
  }
  if (c.has_name()) append_identifier(m_out, c.name());
  if (has_docpath) {
    if (!c.has_name()) put("doc");
    put(",");
    path(c.document_path());
    put(")");
  }
}

void expr_writer::function(const Mysqlx::Expr::FunctionCall& f) {
  const auto& name = f.name();
  if (!name.has_name()) missing_field("Mysqlx.Expr.Identifier.name");
  if (!name.schema_name().empty()) {
    append_identifier(m_out, name.schema_name());
    put(".");
  } else if (!m_ctx.default_schema.empty() && !is_native_function(name.name())) {
    append_identifier_if_needed(m_out, m_ctx.default_schema);
    put(".");
  }
  append_identifier_if_needed(m_out, name.name());
  put("(");
  const bool json = is_json_function(name.name());
  for (int i = 0; i < f.param_size(); ++i) {
    if (i > 0) put(",");
    if (json)
      expr(f.param(i));
    else
      unquoted(f.param(i));
  }
  put(")");
}

void expr_writer::object(const Mysqlx::Expr::Object& o) {
  put("JSON_OBJECT(");
  for (int i = 0; i < o.fld_size(); ++i) {
    const auto& field = o.fld(i);
    if (field.key().empty()) fail(xerr::expr_bad_value, "Invalid key for Mysqlx::Expr::Object");
    if (!field.has_value())
      fail(xerr::expr_bad_value,
           "Invalid value for Mysqlx::Expr::Object on key '" + field.key() + "'");
    if (i > 0) put(",");
    append_string(m_out, field.key());
    put(",");
    expr(field.value());
  }
  put(")");
}

namespace {
void collect_placeholders(const Expr& e, std::vector<std::uint32_t>& out) {
  switch (e.type()) {
  case Expr::PLACEHOLDER:
    out.push_back(e.position());
    break;
  case Expr::FUNC_CALL:
    for (const auto& p : e.function_call().param()) collect_placeholders(p, out);
    break;
  case Expr::OPERATOR:
    for (const auto& p : e.operator_().param()) collect_placeholders(p, out);
    break;
  case Expr::OBJECT:
    for (const auto& f : e.object().fld()) collect_placeholders(f.value(), out);
    break;
  case Expr::ARRAY:
    for (const auto& v : e.array().value()) collect_placeholders(v, out);
    break;
  default:
    break;
  }
}
} // namespace

} // namespace detail

std::vector<std::uint32_t> placeholder_positions(const Mysqlx::Expr::Expr& e) {
  std::vector<std::uint32_t> out;
  detail::collect_placeholders(e, out);
  return out;
}

cdk::result<std::string> render_expr(const Mysqlx::Expr::Expr& expr, const expr_context& ctx) {
  return detail::guarded([&](std::string& sql) { detail::expr_writer(ctx, sql).expr(expr); });
}

} // namespace xserver::sqlgen
