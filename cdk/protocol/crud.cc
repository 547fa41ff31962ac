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

std::size_t doc_insert_size(const doc_insert& ins, std::size_t first, std::size_t last) {
  Mysqlx::Crud::Insert msg;
  doc_insert head = ins;
  head.docs.clear();
  head.args.clear();
  fill_insert(msg, head, 0, 0);
  std::size_t size = frame_header_size + msg.ByteSizeLong();
  // Each row: TypedRow{field: Expr{type, literal: Scalar{type, v_string{value}}}};
  // computed per document rather than by building the whole message.
  for (std::size_t i = first; i < last; ++i) {
    Mysqlx::Crud::Insert one;
    auto* e = one.add_row()->add_field();
    e->set_type(Mysqlx::Expr::Expr::LITERAL);
    auto* s = e->mutable_literal();
    s->set_type(Mysqlx::Datatypes::Scalar::V_STRING);
    s->mutable_v_string()->set_value(std::string(ins.docs[i]));
    size += one.ByteSizeLong();
  }
  return size;
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

} // namespace cdk::protocol
