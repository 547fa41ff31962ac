// See expr_assign.h: tree -> message, overwriting in place.
#include "cdk/parser/expr_assign.h"

namespace cdk::expr_detail {

using Mysqlx::Datatypes::Scalar;
using Mysqlx::Expr::ColumnIdentifier;
using Mysqlx::Expr::DocumentPathItem;
using Mysqlx::Expr::Expr;

namespace {

template <typename M> void drop_unknown(M& dst) {
  if (!dst.unknown_fields().empty()) dst.mutable_unknown_fields()->clear();
}

// Clears a field the new tree lacks. Only when set: clear_x() of an unset
// message field would still walk the sub-message it keeps.
#define CLEAR(msg, f)                                                                              \
  do {                                                                                             \
    if ((msg).has_##f()) (msg).clear_##f();                                                        \
  } while (false)

class writer {
public:
  explicit writer(const tree& nodes) noexcept : m_tree(nodes) {}

  void expr(node_id id, Expr& dst) const;
  void column(const node& n, ColumnIdentifier& dst) const;

  // Writing through mutable_x() reuses the string a reused message holds;
  // set_x() with a pointer and size would first build a temporary
  // std::string. clear() + append() is the short path of libstdc++ (assign()
  // goes through the general _M_replace).
  void set(std::string* dst, const text_ref& text) const { set(dst, m_tree.view(text)); }
  static void set(std::string* dst, std::string_view v) {
    dst->clear();
    dst->append(v.data(), v.size());
  }

private:
  void scalar(const node& n, Scalar& dst) const;
  static void item(const node& n, const writer& w, DocumentPathItem& dst);
  static void param(node_id id, const writer& w, Expr& dst) { w.expr(id, dst); }
  static void field(node_id id, const writer& w, Mysqlx::Expr::Object::ObjectField& dst);

  // The children from `first` on into `dst`: existing elements are
  // overwritten, missing ones added, extra ones removed (RemoveLast keeps
  // them cleared for a later Add, as Clear() does).
  template <typename T, typename Fn>
  void list(node_id first, google::protobuf::RepeatedPtrField<T>& dst, Fn write) const {
    const int have = dst.size();
    int i = 0;
    for (node_id c = first; c != no_node; c = m_tree[c].next, ++i)
      write(c, *this, i < have ? *dst.Mutable(i) : *dst.Add());
    while (dst.size() > i) dst.RemoveLast();
  }

  const tree& m_tree;
};

void writer::scalar(const node& n, Scalar& dst) const {
  drop_unknown(dst);
  const auto type = static_cast<Scalar::Type>(n.sub);
  dst.set_type(type);
  switch (type) {
  case Scalar::V_SINT:
    dst.set_v_signed_int(n.v.i);
    break;
  case Scalar::V_UINT:
    dst.set_v_unsigned_int(n.v.u);
    break;
  case Scalar::V_DOUBLE:
    dst.set_v_double(n.v.d);
    break;
  case Scalar::V_BOOL:
    dst.set_v_bool(n.v.b);
    break;
  case Scalar::V_STRING: {
    Scalar::String& s = *dst.mutable_v_string();
    drop_unknown(s);
    set(s.mutable_value(), n.text[0]);
    CLEAR(s, collation);
    break;
  }
  case Scalar::V_OCTETS: {
    Scalar::Octets& o = *dst.mutable_v_octets();
    drop_unknown(o);
    set(o.mutable_value(), n.text[0]);
    CLEAR(o, content_type);
    break;
  }
  default: // V_NULL: the type alone
    break;
  }
  if (type != Scalar::V_SINT) CLEAR(dst, v_signed_int);
  if (type != Scalar::V_UINT) CLEAR(dst, v_unsigned_int);
  if (type != Scalar::V_OCTETS) CLEAR(dst, v_octets);
  if (type != Scalar::V_DOUBLE) CLEAR(dst, v_double);
  CLEAR(dst, v_float);
  if (type != Scalar::V_BOOL) CLEAR(dst, v_bool);
  if (type != Scalar::V_STRING) CLEAR(dst, v_string);
}

void writer::item(const node& n, const writer& w, DocumentPathItem& dst) {
  drop_unknown(dst);
  const auto type = static_cast<DocumentPathItem::Type>(n.sub);
  dst.set_type(type);
  if ((n.has & 1) != 0)
    w.set(dst.mutable_value(), n.text[0]);
  else
    CLEAR(dst, value);
  if (type == DocumentPathItem::ARRAY_INDEX)
    dst.set_index(static_cast<std::uint32_t>(n.v.u));
  else
    CLEAR(dst, index);
}

void writer::field(node_id id, const writer& w, Mysqlx::Expr::Object::ObjectField& dst) {
  drop_unknown(dst);
  const node& n = w.m_tree[id];
  w.set(dst.mutable_key(), n.text[0]);
  w.expr(n.first, *dst.mutable_value());
}

void writer::column(const node& n, ColumnIdentifier& dst) const {
  drop_unknown(dst);
  list(n.first, *dst.mutable_document_path(),
       [](node_id c, const writer& w, DocumentPathItem& d) { item(w.m_tree[c], w, d); });
  if ((n.has & 1) != 0)
    set(dst.mutable_name(), n.text[0]);
  else
    CLEAR(dst, name);
  if ((n.has & 2) != 0)
    set(dst.mutable_table_name(), n.text[1]);
  else
    CLEAR(dst, table_name);
  if ((n.has & 4) != 0)
    set(dst.mutable_schema_name(), n.text[2]);
  else
    CLEAR(dst, schema_name);
}

Expr::Type expr_type(node_kind kind) noexcept {
  switch (kind) {
  case node_kind::literal:
    return Expr::LITERAL;
  case node_kind::placeholder:
    return Expr::PLACEHOLDER;
  case node_kind::op:
    return Expr::OPERATOR;
  case node_kind::call:
    return Expr::FUNC_CALL;
  case node_kind::object:
    return Expr::OBJECT;
  case node_kind::array:
    return Expr::ARRAY;
  default: // ident; path items and fields are never Exprs
    return Expr::IDENT;
  }
}

void writer::expr(node_id id, Expr& dst) const {
  const node& n = m_tree[id];
  const Expr::Type type = expr_type(n.kind);
  drop_unknown(dst);
  dst.set_type(type);
  // The fields of every other type go first, so each case below only sets.
  if (type != Expr::IDENT) CLEAR(dst, identifier);
  CLEAR(dst, variable);
  if (type != Expr::LITERAL) CLEAR(dst, literal);
  if (type != Expr::FUNC_CALL) CLEAR(dst, function_call);
  if (type != Expr::OPERATOR) CLEAR(dst, operator_);
  if (type != Expr::PLACEHOLDER) CLEAR(dst, position);
  if (type != Expr::OBJECT) CLEAR(dst, object);
  if (type != Expr::ARRAY) CLEAR(dst, array);

  switch (type) {
  case Expr::LITERAL:
    scalar(n, *dst.mutable_literal());
    break;
  case Expr::PLACEHOLDER:
    dst.set_position(static_cast<std::uint32_t>(n.v.u));
    break;
  case Expr::OPERATOR: {
    Mysqlx::Expr::Operator& op = *dst.mutable_operator_();
    drop_unknown(op);
    set(op.mutable_name(), n.v.name);
    list(n.first, *op.mutable_param(), &param);
    break;
  }
  case Expr::FUNC_CALL: {
    Mysqlx::Expr::FunctionCall& call = *dst.mutable_function_call();
    drop_unknown(call);
    Mysqlx::Expr::Identifier& name = *call.mutable_name();
    drop_unknown(name);
    if ((n.has & 4) != 0) // a constant: JSON_UNQUOTE of ->>
      set(name.mutable_name(), n.v.name);
    else
      set(name.mutable_name(), n.text[0]);
    if ((n.has & 2) != 0)
      set(name.mutable_schema_name(), n.text[1]);
    else
      CLEAR(name, schema_name);
    list(n.first, *call.mutable_param(), &param);
    break;
  }
  case Expr::OBJECT: {
    Mysqlx::Expr::Object& obj = *dst.mutable_object();
    drop_unknown(obj);
    list(n.first, *obj.mutable_fld(), &field);
    break;
  }
  case Expr::ARRAY: {
    Mysqlx::Expr::Array& arr = *dst.mutable_array();
    drop_unknown(arr);
    list(n.first, *arr.mutable_value(), &param);
    break;
  }
  default:
    column(n, *dst.mutable_identifier());
    break;
  }
}

} // namespace

void assign(Expr& dst, const tree& nodes, const parsed& src) {
  writer(nodes).expr(src.root, dst);
}

void assign(ColumnIdentifier& dst, const tree& nodes, const parsed& src) {
  writer(nodes).column(nodes[src.root], dst);
}

void assign(Mysqlx::Crud::Projection& dst, const tree& nodes, const parsed& src) {
  const writer w(nodes);
  drop_unknown(dst);
  w.expr(src.root, *dst.mutable_source());
  if (src.has_alias)
    w.set(dst.mutable_alias(), src.alias);
  else
    CLEAR(dst, alias);
}

void assign(Mysqlx::Crud::Order& dst, const tree& nodes, const parsed& src) {
  drop_unknown(dst);
  writer(nodes).expr(src.root, *dst.mutable_expr());
  if (src.direction != 0)
    dst.set_direction(static_cast<Mysqlx::Crud::Order::Direction>(src.direction));
  else
    CLEAR(dst, direction);
}

#undef CLEAR

} // namespace cdk::expr_detail
