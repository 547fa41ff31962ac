// The operators of Mysqlx.Expr, as the X Plugin of MySQL 8.0 accepts them
// (plugin/x/src/expr_generator.cc lists the names), with the precedence the
// expression language gives them. One table serves the parser (which names it
// emits), the printer (where it needs parentheses) and any Expr -> SQL
// renderer (the SQL keyword and the shape of each operator).
//
// Precedence follows MySQL's operator precedence, not the X DevAPI EBNF of
// the other connectors (which puts & | ^ on one level, IN/LIKE below the
// comparisons, and NOT next to '!'). See cdk/parser/README.md.
#pragma once

#include <cstdint>
#include <string_view>

namespace cdk::expr_ops {

// Binding strength, loosest first. Every binary level is left-associative.
enum class prec : std::uint8_t {
  none = 0,
  or_,       // OR ||
  xor_,      // XOR
  and_,      // AND &&
  not_,      // NOT (prefix)
  compare,   // = != < <= > >= IS [NOT]
  predicate, // [NOT] IN / LIKE / BETWEEN / REGEXP / OVERLAPS
  bit_or,    // |
  bit_and,   // &
  shift,     // << >>
  add,       // + -  and +/- INTERVAL
  mul,       // * / DIV %
  bit_xor,   // ^
  unary,     // - + ! ~ (prefix)
  atom,      // literals, names, calls, CAST(), (...), {...}, [...]
};

// How an operator is written in the expression language and in SQL.
enum class shape : std::uint8_t {
  infix,    // a OP b
  prefix,   // OP a
  is,       // a IS [NOT] NULL|TRUE|FALSE
  in_list,  // a [NOT] IN (b, c, ...)
  cont_in,  // a [NOT] IN b       (JSON containment)
  like,     // a [NOT] LIKE b [ESCAPE c]
  between,  // a [NOT] BETWEEN b AND c
  overlaps, // a [NOT] OVERLAPS b (JSON_OVERLAPS)
  cast,     // CAST(a AS type), type an octets literal
  interval, // a +/- INTERVAL b unit, unit an octets literal
  nullary,  // DEFAULT
  // Note: "*" is infix multiplication with two operands and the star of
  // count(*) and of projections with none.
};

struct op_info {
  std::string_view name;    // the wire name
  std::string_view keyword; // how it is written: "LIKE", "NOT LIKE", "+", "DATE_ADD"
  prec level;
  shape form;
  bool negated; // not_in, not_like, is_not, ...
};

// Looks up a wire name; nullptr for a name the X Plugin does not know.
const op_info* find_op(std::string_view name) noexcept;

// Interval units the X Plugin accepts, upper case (DAY, DAY_HOUR, ...).
bool is_interval_unit(std::string_view upper_name) noexcept;

} // namespace cdk::expr_ops
