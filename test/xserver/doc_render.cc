#include "test/xserver/doc_render.h"

#include "cdk/json/id_inject.h"
#include "cdk/json/id_scan.h"
#include "cdk/json/json_string.h"
#include "test/xserver/sqlgen/sqlgen.h"

#include <cmath>
#include <cstdio>

namespace xserver {

namespace {

using Mysqlx::Datatypes::Scalar;
using Mysqlx::Expr::Expr;
using args_t = google::protobuf::RepeatedPtrField<Scalar>;

bool is_json_text(std::string_view text) {
  const auto s = cdk::json::scan_for_id(text, cdk::json::scan_mode::validate);
  return s.status != cdk::json::id_scan_status::invalid_json &&
         s.status != cdk::json::id_scan_status::too_deep;
}

bool scalar_to_json(const Scalar& s, std::string& out) {
  char buf[64];
  switch (s.type()) {
  case Scalar::V_SINT:
    out += std::to_string(s.v_signed_int());
    return true;
  case Scalar::V_UINT:
    out += std::to_string(s.v_unsigned_int());
    return true;
  case Scalar::V_DOUBLE:
    if (!std::isfinite(s.v_double())) return false;
    std::snprintf(buf, sizeof buf, "%.17g", s.v_double());
    out += buf;
    return true;
  case Scalar::V_FLOAT:
    if (!std::isfinite(s.v_float())) return false;
    std::snprintf(buf, sizeof buf, "%.9g", double(s.v_float()));
    out += buf;
    return true;
  case Scalar::V_BOOL:
    out += s.v_bool() ? "true" : "false";
    return true;
  case Scalar::V_NULL:
    out += "null";
    return true;
  case Scalar::V_STRING:
    if (!cdk::json::is_valid_utf8(s.v_string().value())) return false;
    cdk::json::append_json_string(out, s.v_string().value());
    return true;
  case Scalar::V_OCTETS: {
    const auto& o = s.v_octets();
    if (o.content_type() == 2) { // JSON: embedded as a value, as CAST(.. AS JSON)
      if (!is_json_text(o.value())) return false;
      out += o.value();
      return true;
    }
    if (o.content_type() != 0 || !cdk::json::is_valid_utf8(o.value())) return false;
    cdk::json::append_json_string(out, o.value());
    return true;
  }
  default:
    return false;
  }
}

bool append_json(const Expr& e, const args_t& args, std::string& out) {
  switch (e.type()) {
  case Expr::LITERAL:
    return scalar_to_json(e.literal(), out);
  case Expr::PLACEHOLDER:
    return e.position() < static_cast<unsigned>(args.size()) &&
           scalar_to_json(args[static_cast<int>(e.position())], out);
  case Expr::OBJECT: {
    out += '{';
    bool first = true;
    for (const auto& f : e.object().fld()) {
      if (!first) out += ',';
      first = false;
      if (!cdk::json::is_valid_utf8(f.key())) return false;
      cdk::json::append_json_string(out, f.key());
      out += ':';
      if (!append_json(f.value(), args, out)) return false;
    }
    out += '}';
    return true;
  }
  case Expr::ARRAY: {
    out += '[';
    bool first = true;
    for (const auto& v : e.array().value()) {
      if (!first) out += ',';
      first = false;
      if (!append_json(v, args, out)) return false;
    }
    out += ']';
    return true;
  }
  default:
    return false;
  }
}

// The scalar a document row stands for, if it is one the `_id` rule inspects.
const Scalar* inspected_scalar(const Expr& e, const args_t& args) {
  const Scalar* s = nullptr;
  if (e.type() == Expr::LITERAL) s = &e.literal();
  if (e.type() == Expr::PLACEHOLDER && e.position() < static_cast<unsigned>(args.size()))
    s = &args[static_cast<int>(e.position())];
  if (!s) return nullptr;
  if (s->type() == Scalar::V_STRING) return s;
  if (s->type() == Scalar::V_OCTETS &&
      (s->v_octets().content_type() == 0 || s->v_octets().content_type() == 2))
    return s;
  return nullptr;
}

} // namespace

std::optional<std::string> expr_to_json(const Expr& expr, const args_t& args) {
  std::string out;
  if (!append_json(expr, args, out)) return std::nullopt;
  return out;
}

cdk::result<rendered_doc> render_document(const Expr& expr, const args_t& args,
                                          const std::function<std::string(std::string_view)>& quote,
                                          const std::function<std::string()>* make_id,
                                          json_dialect dialect) {
  rendered_doc out;
  // The id goes in by splicing it into the JSON text (an object) or, for
  // anything else the rule says lacks an id, with JSON_SET as MySQL does
  // (on a non-object JSON_SET yields NULL and the insert fails with 5115).
  auto add_id = [&](const std::string& text, bool lacks_id) {
    if (!lacks_id || !make_id) return quote(text);
    const std::string id = (*make_id)();
    out.id_added = true;
    if (!text.empty() && text[0] == '{') {
      auto spliced = cdk::json::with_id(text, id);
      if (spliced.ok()) return quote(spliced.value());
    }
    return "JSON_SET(" + quote(text) + ", '$._id', " + quote(id) + ")";
  };
  if (const Scalar* s = inspected_scalar(expr, args)) {
    const std::string& given =
        s->type() == Scalar::V_STRING ? s->v_string().value() : s->v_octets().value();
    std::optional<std::string> decoded;
    if (given.find('\\') != std::string::npos) decoded = mysql_json_text(given, dialect);
    const std::string& text = decoded ? *decoded : given;
    // Text that is not JSON counts as "has an id" (the server's SAX scan
    // ends in an error) and reaches MariaDB unchanged, which rejects it.
    const auto scan = cdk::json::scan_for_id(text, cdk::json::scan_mode::stop_at_id);
    const bool lacks = scan.status == cdk::json::id_scan_status::no_id ||
                       scan.status == cdk::json::id_scan_status::not_object;
    out.sql = add_id(text, lacks);
    return out;
  }
  bool object_lacks_id = expr.type() == Expr::OBJECT;
  if (object_lacks_id)
    for (const auto& f : expr.object().fld()) object_lacks_id = object_lacks_id && f.key() != "_id";
  if (expr.type() == Expr::OBJECT) {
    if (auto json = expr_to_json(expr, args)) {
      out.sql = add_id(*json, object_lacks_id);
      return out;
    }
  }
  // Functions, operators, identifiers...: SQL renders them.
  sqlgen::expr_context ctx;
  ctx.args = &args;
  auto sql = sqlgen::render_expr(expr, ctx);
  if (!sql.ok()) return sql.err();
  if (object_lacks_id && make_id) {
    {
      const std::string id = (*make_id)();
      out.id_added = true;
      out.sql = "JSON_SET(" + sql.value() + ", '$._id', " + quote(id) + ")";
      return out;
    }
  }
  out.sql = sql.value();
  return out;
}

} // namespace xserver
