#include "cdk/protocol/crud.h"

#include "cdk/protocol/message.h"
#include "cdk/protocol/value_pb.h"
#include "mysqlx_crud.pb.h"

#include <algorithm>

namespace cdk::protocol {

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
// Writes n's varint (at most 10 bytes) at out; returns its end.
char* put_varint(char* out, std::size_t n) {
  for (; n >= 0x80; n >>= 7) *out++ = static_cast<char>((n & 0x7f) | 0x80);
  *out++ = static_cast<char>(n);
  return out;
}

// The Insert's fields before the rows (collection, data_model) and after
// them (args, upsert). Protobuf writes fields in number order, so head +
// rows + tail is byte for byte what it would write for the whole message.
// Written by hand but for args (placeholder values, rare in an add):
// building two protobuf messages per add cost more than the rest of its
// encoding (issue 13, callgrind of BM_TlsAddOne). The head goes straight
// into the output and its size is computed, not built twice.
// Insert.collection (1) -> Collection{name (1), schema (2)}; data_model (2);
// upsert (6).
constexpr char tag_insert_collection = 0x0a, tag_collection_name = 0x0a,
               tag_collection_schema = 0x12, tag_insert_data_model = 0x10, data_model_document = 1,
               tag_insert_upsert = 0x30;

// The Collection message's size.
std::size_t collection_size(const doc_insert& ins) {
  std::size_t collection = len_field(ins.collection.size());
  if (!ins.schema.empty()) collection += len_field(ins.schema.size());
  return collection;
}

std::size_t head_size(const doc_insert& ins) {
  return len_field(collection_size(ins)) + 2;
}

// Writes the head (head_size() bytes) at p; returns its end.
char* put_head(char* p, const doc_insert& ins) {
  *p++ = tag_insert_collection;
  p = put_varint(p, collection_size(ins));
  *p++ = tag_collection_name;
  p = put_varint(p, ins.collection.size());
  p = std::copy(ins.collection.begin(), ins.collection.end(), p);
  if (!ins.schema.empty()) {
    *p++ = tag_collection_schema;
    p = put_varint(p, ins.schema.size());
    p = std::copy(ins.schema.begin(), ins.schema.end(), p);
  }
  *p++ = tag_insert_data_model;
  *p++ = data_model_document;
  return p;
}

// Empty, with no allocation, unless the Insert has args or upsert.
std::string tail_of(const doc_insert& ins) {
  std::string tail;
  if (!ins.args.empty()) {
    Mysqlx::Crud::Insert args;
    for (const value& a : ins.args) to_scalar(a, *args.add_args());
    tail = args.SerializeAsString();
  }
  if (ins.upsert) {
    tail.push_back(tag_insert_upsert);
    tail.push_back(1);
  }
  return tail;
}

// Field tags (number << 3 | wire type) and enum values of the row path:
// Insert.row (4) -> TypedRow.field (1) -> Expr{type (1) = LITERAL (2),
// literal (4)} -> Scalar{type (1) = V_STRING (8), v_string (9)} -> String.value (1).
constexpr char tag_insert_row = 0x22, tag_typed_row_field = 0x0a, tag_expr_type = 0x08,
               expr_literal = 2, tag_expr_literal = 0x22, tag_scalar_type = 0x08,
               scalar_v_string = 8, tag_scalar_v_string = 0x4a, tag_string_value = 0x0a;

} // namespace

std::size_t doc_insert_row_size(std::size_t doc_size) {
  const std::size_t str = len_field(doc_size);
  const std::size_t scalar = 2 + len_field(str);
  const std::size_t expr = 2 + len_field(scalar);
  return len_field(len_field(expr));
}

// Written by hand rather than through protobuf: each document is copied
// once, straight into the output, with no intermediate message.
status encode_doc_insert(std::string& out, const doc_insert& ins) {
  const std::string tail = tail_of(ins);
  const std::size_t insert_head = head_size(ins);
  std::size_t size = insert_head + tail.size();
  for (std::string_view d : ins.docs) size += doc_insert_row_size(d.size());
  out.reserve(out.size() + frame_header_size + size);
  // The frame header and the Insert's head are sized in one step and
  // written in place: a dozen appends of a byte or two each cost a single
  // add more than the document's copy (issue 13).
  const std::size_t header = out.size();
  out.resize(header + frame_header_size + insert_head);
  out[header + frame_header_size - 1] = static_cast<char>(type_byte(client_msg::crud_insert));
  put_head(&out[header + frame_header_size], ins);
  for (std::string_view d : ins.docs) {
    const std::size_t str = len_field(d.size());
    const std::size_t scalar = 2 + len_field(str);
    const std::size_t expr = 2 + len_field(scalar);
    // The row's tags and lengths, at most 10 tags and fixed bytes and 5
    // varints of 10 bytes, assembled here and appended at once.
    char head[64];
    char* p = head;
    *p++ = tag_insert_row;
    p = put_varint(p, len_field(expr));
    *p++ = tag_typed_row_field;
    p = put_varint(p, expr);
    *p++ = tag_expr_type;
    *p++ = expr_literal;
    *p++ = tag_expr_literal;
    p = put_varint(p, scalar);
    *p++ = tag_scalar_type;
    *p++ = scalar_v_string;
    *p++ = tag_scalar_v_string;
    p = put_varint(p, str);
    *p++ = tag_string_value;
    p = put_varint(p, d.size());
    out.append(head, static_cast<std::size_t>(p - head));
    out.append(d);
  }
  out += tail;
  return end_frame(out, header);
}

std::size_t doc_insert_size(const doc_insert& ins, std::size_t first, std::size_t last) {
  std::size_t size = frame_header_size + head_size(ins) + tail_of(ins).size();
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
