// libFuzzer target for the expression parser: any input must give either a
// tree or a cdk::error with client_errc::parse; never a crash, a hang, an
// exception, or a tree the printer cannot write back and re-read.
//
// The first byte picks the entry point and the mode, the rest is the text.
#include "cdk/parser/expr_dump.h"
#include "cdk/parser/expr_parser.h"
#include "cdk/parser/expr_printer.h"
#include "mysqlx_crud.pb.h"
#include "mysqlx_expr.pb.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

void check_error(const cdk::status& st) {
  if (st.ok()) return;
  if (st.err().code != cdk::client_errc::parse || st.err().message.empty()) std::abort();
}

// Parsing the printed text must give the same tree back.
void check_round_trip(const Mysqlx::Expr::Expr& e, cdk::expr_mode mode,
                      const cdk::placeholder_map& ph) {
  const std::string printed = cdk::print_expr(e, &ph);
  cdk::placeholder_map ph2;
  Mysqlx::Expr::Expr again;
  if (!cdk::parse_expr(printed, mode, ph2, again).ok()) std::abort();
  // Only "INTERVAL n unit + d" is reordered, which may renumber placeholders.
  if (again.SerializeAsString() != e.SerializeAsString() && ph.empty()) std::abort();
  (void)cdk::dump_expr(again);
}

// Parsing into a message that still holds the previous input's tree must
// give the same bytes as a fresh message (the parser overwrites in place).
// One kept message per entry point, since each has its own writer.
template <typename Msg, typename Parse>
void check_reuse(const Msg& fresh, std::string_view text, cdk::expr_mode mode, Parse parse) {
  static Msg reused; // keeps the last input's tree
  if (!parse(text, mode, reused).ok()) std::abort();
  if (reused.SerializeAsString() != fresh.SerializeAsString()) std::abort();
}

cdk::status parse_expr(std::string_view text, cdk::expr_mode mode, Mysqlx::Expr::Expr& out) {
  cdk::placeholder_map ph;
  return cdk::parse_expr(text, mode, ph, out);
}
cdk::status parse_projection(std::string_view text, cdk::expr_mode mode,
                             Mysqlx::Crud::Projection& out) {
  cdk::placeholder_map ph;
  return cdk::parse_projection(text, mode, ph, out);
}
cdk::status parse_sort(std::string_view text, cdk::expr_mode mode, Mysqlx::Crud::Order& out) {
  cdk::placeholder_map ph;
  return cdk::parse_sort(text, mode, ph, out);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t selector = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const cdk::expr_mode mode =
      (selector & 1) != 0 ? cdk::expr_mode::table : cdk::expr_mode::document;
  cdk::placeholder_map ph;
  switch ((selector >> 1) % 4) {
  case 0: {
    Mysqlx::Expr::Expr e;
    const cdk::status st = cdk::parse_expr(text, mode, ph, e);
    check_error(st);
    if (st.ok()) {
      check_round_trip(e, mode, ph);
      check_reuse(e, text, mode, &parse_expr);
    }
    break;
  }
  case 1: {
    Mysqlx::Crud::Projection p;
    const cdk::status st = cdk::parse_projection(text, mode, ph, p);
    check_error(st);
    if (st.ok()) {
      (void)cdk::print_projection(p, &ph);
      check_reuse(p, text, mode, &parse_projection);
    }
    break;
  }
  case 2: {
    Mysqlx::Crud::Order o;
    const cdk::status st = cdk::parse_sort(text, mode, ph, o);
    check_error(st);
    if (st.ok()) {
      (void)cdk::print_sort(o, &ph);
      check_reuse(o, text, mode, &parse_sort);
    }
    break;
  }
  default: {
    Mysqlx::Expr::ColumnIdentifier id;
    const cdk::status st = cdk::parse_update_path(text, mode, id);
    check_error(st);
    if (st.ok()) {
      Mysqlx::Expr::ColumnIdentifier again;
      if (!cdk::parse_update_path(cdk::print_column(id), mode, again).ok()) std::abort();
      check_reuse(id, text, mode, &cdk::parse_update_path);
    }
    break;
  }
  }
  return 0;
}
