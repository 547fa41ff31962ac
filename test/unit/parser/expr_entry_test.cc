// The entry points beside parse_expr(): projections, sort specifications,
// update paths, and the placeholder map that bind() relies on.
#include "cdk/parser/expr_dump.h"
#include "cdk/parser/expr_parser.h"
#include "cdk/parser/expr_printer.h"
#include "mysqlx_crud.pb.h"
#include "mysqlx_expr.pb.h"

#include <atomic>
#include <cstdlib>
#include <gtest/gtest.h>
#include <malloc.h>
#include <new>
#include <ostream>
#include <string>
#include <utility>

// Live heap blocks and bytes of this test binary, to see whether reusing an
// output message keeps memory bounded (expr_memory_test.cc reads the bytes).
// Bytes as glibc's malloc_usable_size() counts them, the same on both sides.
std::atomic<long> g_live_allocations{0};
std::atomic<long> g_live_bytes{0};

void* operator new(std::size_t n) {
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  ++g_live_allocations;
  g_live_bytes += static_cast<long>(malloc_usable_size(p));
  return p;
}
// Not inlined: GCC would then pair the free() with the new-expressions it
// sees and warn (-Wmismatched-new-delete).
[[gnu::noinline]] void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  --g_live_allocations;
  g_live_bytes -= static_cast<long>(malloc_usable_size(p));
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  operator delete(p);
}
// The nothrow forms too (std::stable_sort's temporary buffer uses them): left
// to the runtime, their blocks would come from another allocator than the
// one the deletes above give them back to (ASan: alloc-dealloc-mismatch).
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return operator new(n);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  operator delete(p);
}

namespace {

using cdk::expr_mode;
constexpr expr_mode D = expr_mode::document;
constexpr expr_mode T = expr_mode::table;

// --- projections -----------------------------------------------------------

struct projection_case {
  expr_mode mode;
  const char* input;
  const char* tree;
  const char* alias; // nullptr: no alias
};

std::ostream& operator<<(std::ostream& os, const projection_case& c) {
  return os << c.input;
}

const projection_case k_projections[] = {
    {D, "a AS b", "(ident $.a)", "b"},
    {D, "a as b", "(ident $.a)", "b"},
    {D, "a.b[0] AS first", "(ident $.a.b[0])", "first"},
    {D, "a + 1 AS `the sum`", "(+ (ident $.a) (uint 1))", "the sum"},
    {D, "count(*) AS n", "(call count (*))", "n"},
    {D, "a AS desc", "(ident $.a)", "desc"},
    {D, "desc AS a", "(ident $.desc)", "a"},
    {D, "as AS as", "(ident $.as)", "as"},
    // Without AS, the document-mode alias is the expression's own text,
    // trimmed, as in Connector/Node.js.
    {D, "a.b", "(ident $.a.b)", "a.b"},
    {D, "  $.a[1]  ", "(ident $.a[1])", "$.a[1]"},
    {D, "a  +  1", "(+ (ident $.a) (uint 1))", "a  +  1"},
    {D, "{'x': a}", "(object ('x' (ident $.a)))", "{'x': a}"},
    {D, "a = :p AS is_p", "(== (ident $.a) (ph 0))", "is_p"},
    {T, "c", "(ident c)", nullptr},
    {T, "t.c AS x", "(ident t.c)", "x"},
    {T, "col->>'$.a' AS a", "(call JSON_UNQUOTE (ident col $.a))", "a"},
    {T, "*", "(*)", nullptr},
    {T, "a * 2 AS `double`", "(* (ident a) (uint 2))", "double"},
};

class ExprProjection : public testing::TestWithParam<projection_case> {};

TEST_P(ExprProjection, SourceAndAlias) {
  const projection_case& c = GetParam();
  cdk::placeholder_map ph;
  Mysqlx::Crud::Projection p;
  const cdk::status st = cdk::parse_projection(c.input, c.mode, ph, p);
  ASSERT_TRUE(st.ok()) << st.err().message;
  EXPECT_EQ(cdk::dump_expr(p.source()), c.tree);
  EXPECT_EQ(p.has_alias(), c.alias != nullptr);
  if (c.alias != nullptr) {
    EXPECT_EQ(p.alias(), c.alias);
  }
  // The printed projection reads back the same.
  Mysqlx::Crud::Projection again;
  cdk::placeholder_map ph2;
  const std::string printed = cdk::print_projection(p, &ph);
  ASSERT_TRUE(cdk::parse_projection(printed, c.mode, ph2, again).ok()) << printed;
  EXPECT_EQ(again.SerializeAsString(), p.SerializeAsString()) << printed;
}

INSTANTIATE_TEST_SUITE_P(Entry, ExprProjection, testing::ValuesIn(k_projections));

// --- sort specifications ---------------------------------------------------

struct sort_case {
  expr_mode mode;
  const char* input;
  const char* tree;
  int direction; // 0: unset, 1 ASC, 2 DESC
};

std::ostream& operator<<(std::ostream& os, const sort_case& c) {
  return os << c.input;
}

const sort_case k_sorts[] = {
    {D, "a", "(ident $.a)", 0},
    {D, "a ASC", "(ident $.a)", 1},
    {D, "a asc", "(ident $.a)", 1},
    {D, "a DESC", "(ident $.a)", 2},
    {D, "a.b[0] desc", "(ident $.a.b[0])", 2},
    {D, "desc", "(ident $.desc)", 0},
    {D, "desc DESC", "(ident $.desc)", 2},
    {D, "asc ASC", "(ident $.asc)", 1},
    {D, "a + b DESC", "(+ (ident $.a) (ident $.b))", 2},
    {D, "f(a) ASC", "(call f (ident $.a))", 1},
    {T, "t.c DESC", "(ident t.c)", 2},
    {T, "col->>'$.x' ASC", "(call JSON_UNQUOTE (ident col $.x))", 1},
};

class ExprSort : public testing::TestWithParam<sort_case> {};

TEST_P(ExprSort, ExpressionAndDirection) {
  const sort_case& c = GetParam();
  cdk::placeholder_map ph;
  Mysqlx::Crud::Order o;
  const cdk::status st = cdk::parse_sort(c.input, c.mode, ph, o);
  ASSERT_TRUE(st.ok()) << st.err().message;
  EXPECT_EQ(cdk::dump_expr(o.expr()), c.tree);
  EXPECT_EQ(o.has_direction(), c.direction != 0);
  if (c.direction != 0) {
    EXPECT_EQ(static_cast<int>(o.direction()), c.direction);
  }
  Mysqlx::Crud::Order again;
  const std::string printed = cdk::print_sort(o, &ph);
  ASSERT_TRUE(cdk::parse_sort(printed, c.mode, ph, again).ok()) << printed;
  EXPECT_EQ(again.SerializeAsString(), o.SerializeAsString()) << printed;
}

INSTANTIATE_TEST_SUITE_P(Entry, ExprSort, testing::ValuesIn(k_sorts));

// --- update paths ----------------------------------------------------------

struct path_case {
  expr_mode mode;
  const char* input;
  const char* ident; // dump of the ColumnIdentifier as an IDENT, or the error
  bool ok = true;
};

std::ostream& operator<<(std::ostream& os, const path_case& c) {
  return os << c.input;
}

const path_case k_paths[] = {
    {D, "a", "(ident $.a)"},
    {D, "a.b[0]", "(ident $.a.b[0])"},
    {D, "$.a.b", "(ident $.a.b)"},
    {D, "$[1]", "(ident $[1])"},
    {D, "`a b`.c", "(ident $.\"a b\".c)"},
    {D, "a.\"x y\"[2]", "(ident $.a.\"x y\"[2])"},
    {D, "$", "expected a document path after '$' at position 1", false},
    {D, "a.*", "wildcards are not allowed in an update path at position 2", false},
    {D, "a[*]", "wildcards are not allowed in an update path at position 2", false},
    {D, "**.a", "wildcards are not allowed in an update path at position 0", false},
    {D, "a**.b", "wildcards are not allowed in an update path at position 1", false},
    {D, "a = 1", "unexpected '=' at position 2", false},
    {D, "f(a)", "unexpected '(' at position 1", false},
    {D, "", "expected a document path at position 0", false},
    {D, "1", "expected a document path at position 0", false},
    {T, "c", "(ident c)"},
    {T, "t.c", "(ident t.c)"},
    {T, "c->'$.a[0]'", "(ident c $.a[0])"},
    {T, "c->>'$.a'", "'->>' cannot be the target of an update at position 0", false},
    {T, "c->'$.*'", "wildcards are not allowed in an update path at position 6", false},
    {T, "c + 1", "unexpected '+' at position 2", false},
    {T, "", "expected a column name at position 0", false},
};

class ExprUpdatePath : public testing::TestWithParam<path_case> {};

TEST_P(ExprUpdatePath, Target) {
  const path_case& c = GetParam();
  Mysqlx::Expr::ColumnIdentifier id;
  const cdk::status st = cdk::parse_update_path(c.input, c.mode, id);
  if (!c.ok) {
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.err().code, cdk::client_errc::parse);
    EXPECT_EQ(st.err().message.substr(0, st.err().message.find('\n')), c.ident);
    return;
  }
  ASSERT_TRUE(st.ok()) << st.err().message;
  Mysqlx::Expr::Expr e;
  e.set_type(Mysqlx::Expr::Expr::IDENT);
  *e.mutable_identifier() = id;
  EXPECT_EQ(cdk::dump_expr(e), c.ident);
  Mysqlx::Expr::ColumnIdentifier again;
  const std::string printed = cdk::print_column(id);
  ASSERT_TRUE(cdk::parse_update_path(printed, c.mode, again).ok()) << printed;
  EXPECT_EQ(again.SerializeAsString(), id.SerializeAsString()) << printed;
}

INSTANTIATE_TEST_SUITE_P(Entry, ExprUpdatePath, testing::ValuesIn(k_paths));

// --- errors of projections and sorts ---------------------------------------

TEST(ExprEntryErrors, ProjectionAndSort) {
  cdk::placeholder_map ph;
  Mysqlx::Crud::Projection p;
  Mysqlx::Crud::Order o;
  auto first_line = [](const cdk::status& st) {
    return st.err().message.substr(0, st.err().message.find('\n'));
  };
  cdk::status st = cdk::parse_projection("a AS", D, ph, p);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(first_line(st), "expected an alias after AS at position 4");
  st = cdk::parse_projection("a AS b c", D, ph, p);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(first_line(st), "unexpected 'c' at position 7");
  st = cdk::parse_projection("a AS not", D, ph, p);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(first_line(st), "expected an alias after AS at position 5");
  st = cdk::parse_projection("", T, ph, p);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(first_line(st), "expected an expression at position 0");
  st = cdk::parse_sort("a UP", D, ph, o);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(first_line(st), "unexpected 'UP' at position 2");
  st = cdk::parse_sort("a ASC DESC", D, ph, o);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(first_line(st), "unexpected 'DESC' at position 6");
  st = cdk::parse_sort("", D, ph, o);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(first_line(st), "expected an expression at position 0");
}

// --- placeholders ----------------------------------------------------------

TEST(ExprPlaceholders, NamesMapToPositionsInOrderOfFirstUse) {
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  ASSERT_TRUE(cdk::parse_expr("b = :y OR a = :x OR c = :y", D, ph, e).ok());
  ASSERT_EQ(ph.size(), 2u);
  EXPECT_EQ(ph.find("y"), 0u);
  EXPECT_EQ(ph.find("x"), 1u);
  EXPECT_FALSE(ph.find("z").has_value());
  EXPECT_EQ(ph.name(0), "y");
  EXPECT_EQ(ph.name(1), "x");
}

TEST(ExprPlaceholders, OneMapSpansTheExpressionsOfAStatement) {
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr where;
  Mysqlx::Crud::Projection field;
  Mysqlx::Crud::Order order;
  ASSERT_TRUE(cdk::parse_expr("a > :min", D, ph, where).ok());
  ASSERT_TRUE(cdk::parse_projection("a * :k AS ak", D, ph, field).ok());
  ASSERT_TRUE(cdk::parse_sort("abs(a - :min) DESC", D, ph, order).ok());
  EXPECT_EQ(ph.size(), 2u);
  EXPECT_EQ(cdk::dump_expr(field.source()), "(* (ident $.a) (ph 1))");
  EXPECT_EQ(cdk::dump_expr(order.expr()), "(call abs (- (ident $.a) (ph 0)))");
}

TEST(ExprPlaceholders, NumberedAndAnonymous) {
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  ASSERT_TRUE(cdk::parse_expr(":1 = ? AND :0 = ? AND :1 = 1", D, ph, e).ok());
  EXPECT_EQ(cdk::dump_expr(e),
            "(&& (&& (== (ph 0) (ph 1)) (== (ph 2) (ph 3))) (== (ph 0) (uint 1)))");
  ASSERT_EQ(ph.size(), 4u);
  EXPECT_EQ(ph.find("1"), 0u);
  EXPECT_EQ(ph.find("0"), 2u);
  EXPECT_EQ(ph.name(1), "");
  EXPECT_EQ(ph.name(3), "");
  EXPECT_FALSE(ph.find("").has_value()); // '?' cannot be bound by name
}

TEST(ExprPlaceholders, AssignTruncateClear) {
  cdk::placeholder_map ph;
  EXPECT_EQ(ph.assign("a"), 0u);
  EXPECT_EQ(ph.add_anonymous(), 1u);
  EXPECT_EQ(ph.assign("b"), 2u);
  EXPECT_EQ(ph.assign("a"), 0u);
  ph.truncate(1);
  EXPECT_EQ(ph.size(), 1u);
  EXPECT_FALSE(ph.find("b").has_value());
  ph.truncate(5);
  EXPECT_EQ(ph.size(), 1u);
  ph.clear();
  EXPECT_TRUE(ph.empty());
  EXPECT_THROW(static_cast<void>(ph.name(0)), std::out_of_range);
}

TEST(ExprPlaceholders, PrinterUsesNames) {
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  ASSERT_TRUE(cdk::parse_expr("a = :name OR b = ? OR c = :1", D, ph, e).ok());
  EXPECT_EQ(cdk::print_expr(e, &ph), "a = :name OR b = ? OR c = :1");
  EXPECT_EQ(cdk::print_expr(e), "a = :0 OR b = :1 OR c = :2");
}

// --- reuse of output messages ----------------------------------------------

TEST(ExprReuse, OutputIsClearedBetweenParses) {
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  ASSERT_TRUE(cdk::parse_expr("f(a, b, c) AND d IN (1, 2, 3)", D, ph, e).ok());
  ASSERT_TRUE(cdk::parse_expr("x", D, ph, e).ok());
  EXPECT_EQ(cdk::dump_expr(e), "(ident $.x)");
  EXPECT_EQ(e.SerializeAsString(), [] {
    Mysqlx::Expr::Expr fresh;
    cdk::placeholder_map p;
    EXPECT_TRUE(cdk::parse_expr("x", D, p, fresh).ok());
    return fresh.SerializeAsString();
  }());
}

TEST(ExprReuse, RepeatedParsesIntoOneMessageDoNotGrowIt) {
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  long live_after_first = 0;
  for (int i = 0; i < 1000; ++i) {
    ph.clear();
    ASSERT_TRUE(cdk::parse_expr("a > :x AND b LIKE 'y' OR c IN (1, 2)", D, ph, e).ok());
    if (i == 0) live_after_first = g_live_allocations.load();
  }
  EXPECT_EQ(g_live_allocations.load(), live_after_first);
}

// Parsing into a message that held another tree must give exactly what a
// fresh message gets: every shape written over every other shape.
TEST(ExprReuse, ReusedMessageEqualsFreshForEveryPairOfShapes) {
  const std::pair<const char*, expr_mode> cases[] = {
      {"a", D},
      {"$", D},
      {"a.b[0].*[*]**.c", D},
      {"-5 + 1.5e3 - 0x1F * 7", D},
      {"'str' = \"x\" AND TRUE OR FALSE XOR NULL", D},
      {"{'k': [1, {'j': :p}], 'l': ?}", D},
      {"[]", D},
      {"{}", D},
      {"s.f(a, 'b', 3) IN (1, 2, 3)", D},
      {"count(*)", D},
      {"CAST(a AS DECIMAL(10,2)) + INTERVAL 1 DAY", D},
      {"x LIKE 'a%' ESCAPE '!' OR y NOT BETWEEN 1 AND 2", D},
      {"s.t.c->'$.a[1]' = t.c AND c->>'$.b' IS NOT NULL", T},
      {"`a b` + BINARY c", T},
  };
  for (const auto& [before, before_mode] : cases) {
    for (const auto& [text, mode] : cases) {
      cdk::placeholder_map ph;
      Mysqlx::Expr::Expr reused;
      ASSERT_TRUE(cdk::parse_expr(before, before_mode, ph, reused).ok()) << before;
      ph.clear();
      ASSERT_TRUE(cdk::parse_expr(text, mode, ph, reused).ok()) << text;
      cdk::placeholder_map ph2;
      Mysqlx::Expr::Expr fresh;
      ASSERT_TRUE(cdk::parse_expr(text, mode, ph2, fresh).ok()) << text;
      EXPECT_EQ(reused.SerializeAsString(), fresh.SerializeAsString())
          << before << " then " << text;
      EXPECT_EQ(cdk::dump_expr(reused), cdk::dump_expr(fresh)) << before << " then " << text;
    }
  }
}

TEST(ExprReuse, ReusedProjectionSortAndPathEqualFresh) {
  cdk::placeholder_map ph;
  Mysqlx::Crud::Projection p;
  ASSERT_TRUE(cdk::parse_projection("f(a, b) AS x", D, ph, p).ok());
  ASSERT_TRUE(cdk::parse_projection("c.d", T, ph, p).ok());
  EXPECT_FALSE(p.has_alias());
  EXPECT_EQ(cdk::dump_expr(p.source()), "(ident c.d)");
  Mysqlx::Crud::Order o;
  ASSERT_TRUE(cdk::parse_sort("a DESC", D, ph, o).ok());
  ASSERT_TRUE(cdk::parse_sort("b + 1", D, ph, o).ok());
  EXPECT_FALSE(o.has_direction());
  EXPECT_EQ(cdk::dump_expr(o.expr()), "(+ (ident $.b) (uint 1))");
  Mysqlx::Expr::ColumnIdentifier id;
  ASSERT_TRUE(cdk::parse_update_path("a.b[0].c", D, id).ok());
  ASSERT_TRUE(cdk::parse_update_path("x", D, id).ok());
  Mysqlx::Expr::ColumnIdentifier fresh;
  ASSERT_TRUE(cdk::parse_update_path("x", D, fresh).ok());
  EXPECT_EQ(id.SerializeAsString(), fresh.SerializeAsString());
}

TEST(ExprReuse, ArenaAllocatedOutput) {
  google::protobuf::Arena arena;
  auto* e = google::protobuf::Arena::CreateMessage<Mysqlx::Expr::Expr>(&arena);
  cdk::placeholder_map ph;
  ASSERT_TRUE(
      cdk::parse_expr("a + b * c - d > INTERVAL 1 DAY + e OR f->>'$.g' IS NULL", T, ph, *e).ok());
  EXPECT_EQ(cdk::dump_expr(*e), "(|| (> (- (+ (ident a) (* (ident b) (ident c))) (ident d)) "
                                "(date_add (ident e) (uint 1) (octets 'DAY'))) "
                                "(is (call JSON_UNQUOTE (ident f $.g)) (null)))");
}

} // namespace
