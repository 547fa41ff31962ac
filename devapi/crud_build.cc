#include "devapi/crud_build.h"

#include "cdk/parser/expr_parser.h"
#include "cdk/protocol/crud.h"
#include "devapi/access.h"
#include "devapi/doc_impl.h"
#include "devapi/json_parse.h"
#include "devapi/json_print.h"
#include "devapi/throw_error.h"
#include "devapi/value_tree.h"
#include "mysqlx_crud.pb.h"
#include "mysqlx_datatypes.pb.h"
#include "mysqlx_expr.pb.h"

MYSQLX_NAMESPACE_BEGIN
namespace detail {

namespace pb = Mysqlx;

namespace {

[[noreturn]] void usage(const std::string& msg) {
  throw_error(cdk::error::client(cdk::client_errc::usage, msg));
}

// The words add() uses for a document nested too deep (cdk::json::id_scan).
[[noreturn]] void too_deep(const std::string& what) {
  throw_error(cdk::error::client(cdk::client_errc::bad_document,
                                 what + ": the value cannot be stored: JSON nesting deeper than " +
                                     std::to_string(sent_max_depth) +
                                     " levels (MySQL's limit); nothing was sent"));
}

void literal(const Value& v, pb::Expr::Expr& out) {
  out.set_type(pb::Expr::Expr::LITERAL);
  cdk::protocol::to_scalar_message(to_protocol(v), *out.mutable_literal());
}

// A value for modify().set() and friends: an expr() is parsed, a document
// or array becomes an OBJECT / ARRAY expression, a scalar a literal.
void value_expr(const Value& v, cdk::expr_mode m, cdk::placeholder_map& ph, pb::Expr::Expr& out) {
  if (access::is_expression(v)) {
    check(cdk::parse_expr(access::text_of(v), m, ph, out));
    return;
  }
  switch (v.getType()) {
  case Value::DOCUMENT: {
    out.set_type(pb::Expr::Expr::OBJECT);
    for (const auto& [key, field] : access::doc_of(v)->fields()) {
      auto* f = out.mutable_object()->add_fld();
      f->set_key(key);
      value_expr(field, m, ph, *f->mutable_value());
    }
    return;
  }
  case Value::ARRAY:
    out.set_type(pb::Expr::Expr::ARRAY);
    for (const Value& item : v) value_expr(item, m, ph, *out.mutable_array()->add_value());
    return;
  default:
    literal(v, out);
  }
}

// Each level of an OBJECT or ARRAY expression is two or three protobuf
// messages, and the X Plugin refuses a message nested more than 100 deep
// (ngs::Message_decoder, k_max_recursion_limit) and closes the connection.
// Up to this many levels a value goes as an expression (as Connector/C++ 8
// sends it); a deeper one as its JSON text (octets of content type JSON,
// which the X Plugin reads as CAST(.. AS JSON)), one message however deep.
constexpr std::size_t max_expression_levels = 16;

// value_expr(), for a value the user gave to `what`: refused before
// anything is sent when it nests deeper than MySQL stores, as add() refuses
// such a document.
void checked_value_expr(const Value& v, const char* what, cdk::expr_mode m,
                        cdk::placeholder_map& ph, pb::Expr::Expr& out) {
  const value_shape shape = shape_of(v, sent_max_depth);
  if (shape.depth > sent_max_depth) too_deep(what);
  if (shape.depth <= max_expression_levels) return value_expr(v, m, ph, out);
  if (shape.has_expression)
    usage(std::string(what) + ": a document or array holding expr() nests " +
          std::to_string(shape.depth) + " levels deep; the X Protocol carries at most " +
          std::to_string(max_expression_levels) + " (without expr() it goes as JSON text)");
  std::string json;
  append_json(json, v);
  out.set_type(pb::Expr::Expr::LITERAL);
  auto& lit = *out.mutable_literal();
  lit.set_type(pb::Datatypes::Scalar::V_OCTETS);
  lit.mutable_v_octets()->set_value(std::move(json));
  lit.mutable_v_octets()->set_content_type(2); // JSON
}

// A collection find's HAVING names the projection's aliases: `my_age = 5`
// parses as the document path $.my_age, which the server would look for in
// the grouped documents, where it is not. What Connector/C++ 8 sends, and
// the X Plugin reads as the alias: the path's first member becomes the
// column name, and the rest stays its document path (`a.b` is a->$.b).
void paths_to_aliases(pb::Expr::Expr& e) {
  switch (e.type()) {
  case pb::Expr::Expr::IDENT: {
    auto& id = *e.mutable_identifier();
    if (id.has_name() || id.document_path_size() == 0 ||
        id.document_path(0).type() != pb::Expr::DocumentPathItem::MEMBER)
      return;
    id.set_name(id.document_path(0).value());
    id.mutable_document_path()->DeleteSubrange(0, 1);
    return;
  }
  case pb::Expr::Expr::OPERATOR:
    for (auto& p : *e.mutable_operator_()->mutable_param()) paths_to_aliases(p);
    return;
  case pb::Expr::Expr::FUNC_CALL:
    for (auto& p : *e.mutable_function_call()->mutable_param()) paths_to_aliases(p);
    return;
  case pb::Expr::Expr::OBJECT:
    for (auto& f : *e.mutable_object()->mutable_fld()) paths_to_aliases(*f.mutable_value());
    return;
  case pb::Expr::Expr::ARRAY:
    for (auto& v : *e.mutable_array()->mutable_value()) paths_to_aliases(v);
    return;
  default:
    return;
  }
}

cdk::expr_mode mode(const statement_impl& st) {
  return st.table ? cdk::expr_mode::table : cdk::expr_mode::document;
}

template <typename M> void set_target(const statement_impl& st, M& msg) {
  msg.mutable_collection()->set_name(st.name);
  if (!st.schema.empty()) msg.mutable_collection()->set_schema(st.schema);
  msg.set_data_model(st.table ? pb::Crud::TABLE : pb::Crud::DOCUMENT);
}

// `msg` may hold a previous build of the statement: cleared, it keeps its
// allocations, and the parser overwrites the sub-messages in place.
template <typename M>
void set_common(const statement_impl& st, cdk::placeholder_map& ph, M& msg, bool offset) {
  msg.Clear();
  set_target(st, msg);
  if (!st.condition.empty())
    check(cdk::parse_expr(st.condition, mode(st), ph, *msg.mutable_criteria()));
  for (const std::string& s : st.sort) check(cdk::parse_sort(s, mode(st), ph, *msg.add_order()));
  if (st.limit) {
    msg.mutable_limit()->set_row_count(*st.limit);
  }
  if (offset && st.offset) {
    if (!st.limit) msg.mutable_limit()->set_row_count(UINT64_MAX);
    msg.mutable_limit()->set_offset(*st.offset);
  }
}

template <typename M>
void set_args(const statement_impl& st, const cdk::placeholder_map& ph, M& msg) {
  for (std::uint32_t i = 0; i < ph.size(); ++i) {
    const std::string& name = ph.name(i);
    const Value* bound = nullptr;
    for (const auto& [n, v] : st.binds)
      if (n == name) bound = &v; // the last bind() of a name wins
    if (!bound) {
      std::string msg_text = "placeholder :";
      msg_text.append(name).append(" has no value: call bind(\"").append(name).append("\", ...)");
      usage(msg_text);
    }
    // A placeholder stands for a scalar (the X Protocol's args are
    // Scalars); Connector/C++ 8 refuses documents and arrays here too.
    if (bound->getType() == Value::DOCUMENT || bound->getType() == Value::ARRAY) {
      usage("bind(\"" + name + "\"): a placeholder takes a scalar, not a document or an array");
    }
    cdk::protocol::to_scalar_message(to_protocol(*bound), *msg.add_args());
  }
  for (const auto& [n, v] : st.binds)
    if (!ph.find(n)) {
      std::string msg_text = "bind(\"";
      msg_text.append(n).append("\"): the statement has no placeholder :").append(n);
      usage(msg_text);
    }
}

} // namespace

void build_find(const statement_impl& st, pb::Crud::Find& msg) {
  cdk::placeholder_map ph;
  set_common(st, ph, msg, true);
  if (!st.table && st.fields.size() == 1 && access::is_expression(st.fields[0])) {
    // fields(expr("{'a': a, 'b': {'c': x}}")): the object is the document
    // returned. Each of its fields is a projection aliased by its key, as
    // Connector/C++ 8 sends it: the X Plugin refuses a document projection
    // without an alias ("Invalid projection target name").
    pb::Expr::Expr object;
    check(cdk::parse_expr(access::text_of(st.fields[0]), mode(st), ph, object));
    if (object.type() == pb::Expr::Expr::OBJECT) {
      for (auto& f : *object.mutable_object()->mutable_fld()) {
        auto* p = msg.add_projection();
        p->set_alias(f.key());
        p->mutable_source()->Swap(f.mutable_value());
      }
    } else {
      check(cdk::parse_projection(access::text_of(st.fields[0]), mode(st), ph,
                                  *msg.add_projection()));
    }
  } else {
    for (const Value& f : st.fields) {
      if (f.getType() != Value::STRING) usage("fields(): a projection must be a string");
      check(cdk::parse_projection(access::text_of(f), mode(st), ph, *msg.add_projection()));
    }
  }
  for (const std::string& g : st.group_by)
    check(cdk::parse_expr(g, mode(st), ph, *msg.add_grouping()));
  if (!st.having.empty()) {
    check(cdk::parse_expr(st.having, mode(st), ph, *msg.mutable_grouping_criteria()));
    if (!st.table) paths_to_aliases(*msg.mutable_grouping_criteria());
  }
  if (st.lock != 0) {
    msg.set_locking(st.lock == 1 ? pb::Crud::Find::SHARED_LOCK : pb::Crud::Find::EXCLUSIVE_LOCK);
    if (st.contention == LockContention::NOWAIT) msg.set_locking_options(pb::Crud::Find::NOWAIT);
    if (st.contention == LockContention::SKIP_LOCKED)
      msg.set_locking_options(pb::Crud::Find::SKIP_LOCKED);
  }
  set_args(st, ph, msg);
}

namespace {
// A patch is a JSON object, or, as Connector/C++ 8 takes it, a document
// expression whose values may be expressions: {"birth": {"year": year(CURDATE()) - age}}.
Value patch_value(const std::string& text) {
  // JSON too deep to store would otherwise be read as an expression, which
  // the server refuses for its depth alone ("Invalid message").
  if (json_text_depth(text, sent_max_depth) > sent_max_depth) too_deep("patch()");
  auto json = parse_json_value(std::make_shared<const std::string>(text));
  if (json && json->getType() == Value::DOCUMENT) return *std::move(json);
  return expr(text);
}

// What the user called, for errors.
const char* operation_name(const statement_impl& st, int kind, const std::string& path) {
  using U = pb::Crud::UpdateOperation;
  switch (kind) {
  case U::ARRAY_INSERT:
    return "arrayInsert()";
  case U::ARRAY_APPEND:
    return "arrayAppend()";
  case U::ITEM_SET:
    return path == "$" ? "replaceOne()" : "set()";
  default:
    return st.table ? "update().set()" : "set()";
  }
}
} // namespace

void check_field_name(const std::string& name, const char* what) {
  if (name.empty()) usage(std::string(what) + ": the field or column name is empty");
}

void check_replacement_id(const Value& expression, const std::string& id) {
  cdk::placeholder_map ph;
  pb::Expr::Expr e;
  check(cdk::parse_expr(access::text_of(expression), cdk::expr_mode::document, ph, e));
  if (e.type() != pb::Expr::Expr::OBJECT) return; // the server says what is wrong
  for (const auto& f : e.object().fld()) {
    if (f.key() != "_id" || f.value().type() != pb::Expr::Expr::LITERAL) continue;
    const auto& s = f.value().literal();
    const std::string* given = s.has_v_string()   ? &s.v_string().value()
                               : s.has_v_octets() ? &s.v_octets().value()
                                                  : nullptr;
    if (given && *given != id)
      throw_error(cdk::error::client(cdk::client_errc::bad_document,
                                     "the document's _id \"" + *given +
                                         "\" differs from the id given (\"" + id +
                                         "\"); nothing was sent"));
  }
}

void build_update(const statement_impl& st, pb::Crud::Update& msg) {
  cdk::placeholder_map ph;
  const char* what = st.table ? "update()" : "modify()";
  // A table's update or delete without where() is for every row, as in
  // Connector/C++ 8; a collection's modify() and remove() take a condition.
  if (st.condition.empty() && !st.table) usage(std::string(what) + ": the condition is empty");
  if (st.ops.empty()) usage(std::string(what) + ": no change given (set, unset, patch, ...)");
  set_common(st, ph, msg, false);
  for (const auto& op : st.ops) {
    auto* u = msg.add_operation();
    u->set_operation(static_cast<pb::Crud::UpdateOperation::UpdateType>(op.kind));
    if (!op.path.empty() && op.path != "$")
      check(cdk::parse_update_path(op.path, mode(st), *u->mutable_source()));
    else
      u->mutable_source(); // the whole document
    // A table's set() of a JSON column's path (`doc->$.name`) changes an
    // item of its document: ITEM_SET, as Connector/C++ 8 sends it; the X
    // Plugin's SET takes a whole column only.
    if (st.table && op.kind == pb::Crud::UpdateOperation::SET &&
        u->source().document_path_size() > 0)
      u->set_operation(pb::Crud::UpdateOperation::ITEM_SET);
    if (op.kind == pb::Crud::UpdateOperation::MERGE_PATCH) {
      checked_value_expr(patch_value(op.value.get<std::string>()), "patch()", mode(st), ph,
                         *u->mutable_value());
    } else if (op.kind != pb::Crud::UpdateOperation::ITEM_REMOVE) {
      checked_value_expr(op.value, operation_name(st, op.kind, op.path), mode(st), ph,
                         *u->mutable_value());
    }
  }
  set_args(st, ph, msg);
}

void build_delete(const statement_impl& st, pb::Crud::Delete& msg) {
  cdk::placeholder_map ph;
  if (st.condition.empty() && !st.table) usage("remove(): the condition is empty");
  set_common(st, ph, msg, false);
  set_args(st, ph, msg);
}

namespace {
// One statement object only ever builds one kind of message.
template <typename M> M& kept(statement_impl& st) {
  if (!st.kept.msg) st.kept.msg = std::make_shared<M>();
  return *static_cast<M*>(st.kept.msg.get());
}
} // namespace

const pb::Crud::Find& rebuild_find(statement_impl& st) {
  auto& msg = kept<pb::Crud::Find>(st);
  build_find(st, msg);
  return msg;
}
const pb::Crud::Update& rebuild_update(statement_impl& st) {
  auto& msg = kept<pb::Crud::Update>(st);
  build_update(st, msg);
  return msg;
}
const pb::Crud::Delete& rebuild_delete(statement_impl& st) {
  auto& msg = kept<pb::Crud::Delete>(st);
  build_delete(st, msg);
  return msg;
}

void build_table_insert(const statement_impl& st, pb::Crud::Insert& msg) {
  cdk::placeholder_map ph;
  set_target(st, msg);
  for (const std::string& c : st.columns) msg.add_projection()->set_name(c);
  for (const Row& row : st.rows) {
    if (!st.columns.empty() && row.colCount() != st.columns.size())
      usage("insert(): a row has " + std::to_string(row.colCount()) + " values for " +
            std::to_string(st.columns.size()) + " columns");
    auto* r = msg.add_row();
    for (col_count_t i = 0; i < row.colCount(); ++i)
      checked_value_expr(row[i], "insert()", cdk::expr_mode::table, ph, *r->add_field());
  }
  if (!ph.empty()) usage("insert(): values cannot contain placeholders");
}

} // namespace detail
MYSQLX_NAMESPACE_END
