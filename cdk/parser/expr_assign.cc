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

// Every write takes `fresh`: true when `dst` is known to hold nothing (just
// added, or a sub-message that was unset, which protobuf keeps cleared), so
// there is nothing to clear.
class writer {
public:
  explicit writer(const tree& nodes) noexcept : m_tree(nodes) {}

  void expr(node_id id, Expr& dst, bool fresh) const;
  void column(const node& n, ColumnIdentifier& dst, bool fresh) const;

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
  static void scalar(const writer& w, const node& n, Scalar& dst, bool fresh);
  static void item(const writer& w, node_id id, DocumentPathItem& dst, bool fresh);
  static void param(const writer& w, node_id id, Expr& dst, bool fresh) { w.expr(id, dst, fresh); }
  static void field(const writer& w, node_id id, Mysqlx::Expr::Object::ObjectField& dst,
                    bool fresh);

  // The children from `first` on into `dst`: existing elements are
  // overwritten, missing ones added, extra ones removed (RemoveLast clears
  // them and keeps them for a later Add, as Clear() does).
  // `write` is a template argument so that the calls are direct.
  template <auto write, typename T>
  void list(node_id first, google::protobuf::RepeatedPtrField<T>& dst) const {
    const int have = dst.size();
    int i = 0;
    for (node_id c = first; c != no_node; c = m_tree[c].next, ++i) {
      if (i < have)
        write(*this, c, *dst.Mutable(i), false);
      else
        write(*this, c, *dst.Add(), true);
    }
    while (dst.size() > i) dst.RemoveLast();
  }

  const tree& m_tree;
};

// The sub-message `f` of `msg`, and whether it holds nothing yet.
void writer::scalar(const writer& w, const node& n, Scalar& dst, bool fresh) {
  if (!fresh) drop_unknown(dst);
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
    const bool new_s = fresh || !dst.has_v_string();
    Scalar::String& s = *dst.mutable_v_string();
    w.set(s.mutable_value(), n.text[0]);
    if (!new_s) {
      drop_unknown(s);
      CLEAR(s, collation);
    }
    break;
  }
  case Scalar::V_OCTETS: {
    const bool new_o = fresh || !dst.has_v_octets();
    Scalar::Octets& o = *dst.mutable_v_octets();
    w.set(o.mutable_value(), n.text[0]);
    if (!new_o) {
      drop_unknown(o);
      CLEAR(o, content_type);
    }
    break;
  }
  default: // V_NULL: the type alone
    break;
  }
  if (fresh) return;
  if (type != Scalar::V_SINT) CLEAR(dst, v_signed_int);
  if (type != Scalar::V_UINT) CLEAR(dst, v_unsigned_int);
  if (type != Scalar::V_OCTETS) CLEAR(dst, v_octets);
  if (type != Scalar::V_DOUBLE) CLEAR(dst, v_double);
  CLEAR(dst, v_float);
  if (type != Scalar::V_BOOL) CLEAR(dst, v_bool);
  if (type != Scalar::V_STRING) CLEAR(dst, v_string);
}

void writer::item(const writer& w, node_id id, DocumentPathItem& dst, bool fresh) {
  const node& n = w.m_tree[id];
  const auto type = static_cast<DocumentPathItem::Type>(n.sub);
  dst.set_type(type);
  if ((n.has & 1) != 0) w.set(dst.mutable_value(), n.text[0]);
  if (type == DocumentPathItem::ARRAY_INDEX) dst.set_index(static_cast<std::uint32_t>(n.v.u));
  if (fresh) return;
  drop_unknown(dst);
  if ((n.has & 1) == 0) CLEAR(dst, value);
  if (type != DocumentPathItem::ARRAY_INDEX) CLEAR(dst, index);
}

void writer::field(const writer& w, node_id id, Mysqlx::Expr::Object::ObjectField& dst,
                   bool fresh) {
  if (!fresh) drop_unknown(dst);
  const node& n = w.m_tree[id];
  w.set(dst.mutable_key(), n.text[0]);
  const bool new_value = fresh || !dst.has_value();
  w.expr(n.first, *dst.mutable_value(), new_value);
}

void writer::column(const node& n, ColumnIdentifier& dst, bool fresh) const {
  list<&item>(n.first, *dst.mutable_document_path());
  if ((n.has & 1) != 0) set(dst.mutable_name(), n.text[0]);
  if ((n.has & 2) != 0) set(dst.mutable_table_name(), n.text[1]);
  if ((n.has & 4) != 0) set(dst.mutable_schema_name(), n.text[2]);
  if (fresh) return;
  drop_unknown(dst);
  if ((n.has & 1) == 0) CLEAR(dst, name);
  if ((n.has & 2) == 0) CLEAR(dst, table_name);
  if ((n.has & 4) == 0) CLEAR(dst, schema_name);
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

// Clears the fields of a reused Expr that an Expr of `type` does not have.
void clear_other_than(Expr& dst, Expr::Type type) {
  drop_unknown(dst);
  if (type != Expr::IDENT) CLEAR(dst, identifier);
  CLEAR(dst, variable);
  if (type != Expr::LITERAL) CLEAR(dst, literal);
  if (type != Expr::FUNC_CALL) CLEAR(dst, function_call);
  if (type != Expr::OPERATOR) CLEAR(dst, operator_);
  if (type != Expr::PLACEHOLDER) CLEAR(dst, position);
  if (type != Expr::OBJECT) CLEAR(dst, object);
  if (type != Expr::ARRAY) CLEAR(dst, array);
}

void writer::expr(node_id id, Expr& dst, bool fresh) const {
  const node& n = m_tree[id];
  const Expr::Type type = expr_type(n.kind);
  if (!fresh) clear_other_than(dst, type);
  dst.set_type(type);
  switch (type) {
  case Expr::LITERAL: {
    const bool new_lit = fresh || !dst.has_literal();
    scalar(*this, n, *dst.mutable_literal(), new_lit);
    break;
  }
  case Expr::PLACEHOLDER:
    dst.set_position(static_cast<std::uint32_t>(n.v.u));
    break;
  case Expr::OPERATOR: {
    const bool new_op = fresh || !dst.has_operator_();
    Mysqlx::Expr::Operator& op = *dst.mutable_operator_();
    if (!new_op) drop_unknown(op);
    set(op.mutable_name(), n.v.name);
    list<&param>(n.first, *op.mutable_param());
    break;
  }
  case Expr::FUNC_CALL: {
    const bool new_call = fresh || !dst.has_function_call();
    Mysqlx::Expr::FunctionCall& call = *dst.mutable_function_call();
    const bool new_name = new_call || !call.has_name();
    Mysqlx::Expr::Identifier& name = *call.mutable_name();
    if ((n.has & 4) != 0) // a constant: JSON_UNQUOTE of ->>
      set(name.mutable_name(), n.v.name);
    else
      set(name.mutable_name(), n.text[0]);
    if ((n.has & 2) != 0) set(name.mutable_schema_name(), n.text[1]);
    if (!new_name) {
      drop_unknown(name);
      if ((n.has & 2) == 0) CLEAR(name, schema_name);
    }
    if (!new_call) drop_unknown(call);
    list<&param>(n.first, *call.mutable_param());
    break;
  }
  case Expr::OBJECT: {
    const bool new_obj = fresh || !dst.has_object();
    Mysqlx::Expr::Object& obj = *dst.mutable_object();
    if (!new_obj) drop_unknown(obj);
    list<&field>(n.first, *obj.mutable_fld());
    break;
  }
  case Expr::ARRAY: {
    const bool new_arr = fresh || !dst.has_array();
    Mysqlx::Expr::Array& arr = *dst.mutable_array();
    if (!new_arr) drop_unknown(arr);
    list<&param>(n.first, *arr.mutable_value());
    break;
  }
  default: {
    const bool new_id = fresh || !dst.has_identifier();
    column(n, *dst.mutable_identifier(), new_id);
    break;
  }
  }
}

} // namespace

void assign(Expr& dst, const tree& nodes, const parsed& src) {
  writer(nodes).expr(src.root, dst, false);
}

void assign(ColumnIdentifier& dst, const tree& nodes, const parsed& src) {
  writer(nodes).column(nodes[src.root], dst, false);
}

void assign(Mysqlx::Crud::Projection& dst, const tree& nodes, const parsed& src) {
  const writer w(nodes);
  drop_unknown(dst);
  w.expr(src.root, *dst.mutable_source(), false);
  if (src.has_alias)
    w.set(dst.mutable_alias(), src.alias);
  else
    CLEAR(dst, alias);
}

void assign(Mysqlx::Crud::Order& dst, const tree& nodes, const parsed& src) {
  drop_unknown(dst);
  writer(nodes).expr(src.root, *dst.mutable_expr(), false);
  if (src.direction != 0)
    dst.set_direction(static_cast<Mysqlx::Crud::Order::Direction>(src.direction));
  else
    CLEAR(dst, direction);
}

#undef CLEAR

} // namespace cdk::expr_detail
