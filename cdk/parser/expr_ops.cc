#include "cdk/parser/expr_ops.h"

#include <algorithm>
#include <array>

namespace cdk::expr_ops {
namespace {

using p = prec;
using s = shape;

// Sorted by name for binary search. The names are exactly the X Plugin's.
constexpr std::array<op_info, 43> k_ops{{
    {"!", "!", p::unary, s::prefix, false},
    {"!=", "!=", p::compare, s::infix, false},
    {"%", "%", p::mul, s::infix, false},
    {"&", "&", p::bit_and, s::infix, false},
    {"&&", "AND", p::and_, s::infix, false},
    {"*", "*", p::mul, s::infix, false},
    {"+", "+", p::add, s::infix, false},
    {"-", "-", p::add, s::infix, false},
    {"/", "/", p::mul, s::infix, false},
    {"<", "<", p::compare, s::infix, false},
    {"<<", "<<", p::shift, s::infix, false},
    {"<=", "<=", p::compare, s::infix, false},
    {"==", "=", p::compare, s::infix, false},
    {">", ">", p::compare, s::infix, false},
    {">=", ">=", p::compare, s::infix, false},
    {">>", ">>", p::shift, s::infix, false},
    {"^", "^", p::bit_xor, s::infix, false},
    {"between", "BETWEEN", p::predicate, s::between, false},
    {"cast", "CAST", p::atom, s::cast, false},
    {"cont_in", "IN", p::predicate, s::cont_in, false},
    {"date_add", "+", p::add, s::interval, false},
    {"date_sub", "-", p::add, s::interval, false},
    {"default", "DEFAULT", p::atom, s::nullary, false},
    {"div", "DIV", p::mul, s::infix, false},
    {"in", "IN", p::predicate, s::in_list, false},
    {"is", "IS", p::compare, s::is, false},
    {"is_not", "IS NOT", p::compare, s::is, true},
    {"like", "LIKE", p::predicate, s::like, false},
    {"not", "NOT", p::not_, s::prefix, false},
    {"not_between", "NOT BETWEEN", p::predicate, s::between, true},
    {"not_cont_in", "NOT IN", p::predicate, s::cont_in, true},
    {"not_in", "NOT IN", p::predicate, s::in_list, true},
    {"not_like", "NOT LIKE", p::predicate, s::like, true},
    {"not_overlaps", "NOT OVERLAPS", p::predicate, s::overlaps, true},
    {"not_regexp", "NOT REGEXP", p::predicate, s::infix, true},
    {"overlaps", "OVERLAPS", p::predicate, s::overlaps, false},
    {"regexp", "REGEXP", p::predicate, s::infix, false},
    {"sign_minus", "-", p::unary, s::prefix, false},
    {"sign_plus", "+", p::unary, s::prefix, false},
    {"xor", "XOR", p::xor_, s::infix, false},
    {"|", "|", p::bit_or, s::infix, false},
    {"||", "OR", p::or_, s::infix, false},
    {"~", "~", p::unary, s::prefix, false},
}};

constexpr std::array<std::string_view, 20> k_units{"DAY",
                                                   "DAY_HOUR",
                                                   "DAY_MICROSECOND",
                                                   "DAY_MINUTE",
                                                   "DAY_SECOND",
                                                   "HOUR",
                                                   "HOUR_MICROSECOND",
                                                   "HOUR_MINUTE",
                                                   "HOUR_SECOND",
                                                   "MICROSECOND",
                                                   "MINUTE",
                                                   "MINUTE_MICROSECOND",
                                                   "MINUTE_SECOND",
                                                   "MONTH",
                                                   "QUARTER",
                                                   "SECOND",
                                                   "SECOND_MICROSECOND",
                                                   "WEEK",
                                                   "YEAR",
                                                   "YEAR_MONTH"};

} // namespace

const op_info* find_op(std::string_view name) noexcept {
  const auto* first = k_ops.data();
  const auto* last = first + k_ops.size();
  const auto* it = std::lower_bound(
      first, last, name, [](const op_info& o, std::string_view n) { return o.name < n; });
  return (it != last && it->name == name) ? it : nullptr;
}

bool is_interval_unit(std::string_view name) noexcept {
  return std::binary_search(k_units.begin(), k_units.end(), name);
}

} // namespace cdk::expr_ops
