#include "cdk/protocol/crud.h"

#include "cdk/protocol/message.h"
#include "cdk/protocol/value_pb.h"
#include "mysqlx_crud.pb.h"

namespace cdk::protocol {

namespace {

void fill_insert(Mysqlx::Crud::Insert& msg, const doc_insert& ins, std::size_t first,
                 std::size_t last) {
  msg.mutable_collection()->set_name(std::string(ins.collection));
  if (!ins.schema.empty()) msg.mutable_collection()->set_schema(std::string(ins.schema));
  msg.set_data_model(Mysqlx::Crud::DOCUMENT);
  for (std::size_t i = first; i < last; ++i) {
    auto* e = msg.add_row()->add_field();
    e->set_type(Mysqlx::Expr::Expr::LITERAL);
    auto* s = e->mutable_literal();
    s->set_type(Mysqlx::Datatypes::Scalar::V_STRING);
    s->mutable_v_string()->set_value(std::string(ins.docs[i]));
  }
  if (ins.upsert) msg.set_upsert(true);
  for (const value& a : ins.args) to_scalar(a, *msg.add_args());
}

} // namespace

status encode_doc_insert(std::string& out, const doc_insert& ins) {
  Mysqlx::Crud::Insert msg;
  fill_insert(msg, ins, 0, ins.docs.size());
  return append_message(out, client_msg::crud_insert, msg);
}

namespace {
std::size_t varint_size(std::size_t n) {
  std::size_t size = 1;
  for (; n >= 0x80; n >>= 7) ++size;
  return size;
}
// A length-delimited field with a one-byte tag.
std::size_t len_field(std::size_t n) {
  return 1 + varint_size(n) + n;
}
} // namespace

std::size_t doc_insert_row_size(std::size_t doc_size) {
  // Insert.row (4) -> TypedRow.field (1) -> Expr{type (1), literal (2)} ->
  // Scalar{type (1), v_string (8)} -> String.value (1): all one-byte tags.
  const std::size_t str = len_field(doc_size);
  const std::size_t scalar = 2 + len_field(str);
  const std::size_t expr = 2 + len_field(scalar);
  return len_field(len_field(expr));
}

std::size_t doc_insert_size(const doc_insert& ins, std::size_t first, std::size_t last) {
  Mysqlx::Crud::Insert head;
  doc_insert empty = ins;
  empty.docs.clear();
  fill_insert(head, empty, 0, 0);
  std::size_t size = frame_header_size + head.ByteSizeLong();
  for (std::size_t i = first; i < last; ++i) size += doc_insert_row_size(ins.docs[i].size());
  return size;
}

void to_scalar_message(const value& v, Mysqlx::Datatypes::Scalar& out) {
  to_scalar(v, out);
}

status encode_find(std::string& out, const Mysqlx::Crud::Find& msg) {
  return append_message(out, client_msg::crud_find, msg);
}

status encode_update(std::string& out, const Mysqlx::Crud::Update& msg) {
  return append_message(out, client_msg::crud_update, msg);
}

status encode_delete(std::string& out, const Mysqlx::Crud::Delete& msg) {
  return append_message(out, client_msg::crud_delete, msg);
}

status encode_insert(std::string& out, const Mysqlx::Crud::Insert& msg) {
  return append_message(out, client_msg::crud_insert, msg);
}

} // namespace cdk::protocol
