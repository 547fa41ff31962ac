// The expression grammar, one case per row: the input, the mode and the tree
// the parser must build, written as a structural dump (cdk/parser/expr_dump.h)
// that shows operator names, scalar types and path items exactly as sent on
// the wire. Every case also goes through the canonical printer and back.
#include "cdk/parser/expr_dump.h"
#include "cdk/parser/expr_parser.h"
#include "cdk/parser/expr_printer.h"
#include "mysqlx_expr.pb.h"

#include <gtest/gtest.h>
#include <ostream>
#include <string>

namespace {

using cdk::expr_mode;

struct parse_case {
  const char* input;
  const char* tree;
  expr_mode mode = expr_mode::document;
};

std::ostream& operator<<(std::ostream& os, const parse_case& c) {
  return os << (c.mode == expr_mode::table ? "[table] " : "[doc] ") << c.input;
}

constexpr expr_mode T = expr_mode::table;

const parse_case k_cases[] = {
    // Literals: integers are V_UINT, negative ones V_SINT; floats V_DOUBLE.
    {"0", "(uint 0)"},
    {"42", "(uint 42)"},
    {"18446744073709551615", "(uint 18446744073709551615)"},
    {"-1", "(sint -1)"},
    {"- 1", "(sint -1)"},
    {"-0", "(uint 0)"},
    {"+7", "(uint 7)"},
    {"-9223372036854775808", "(sint -9223372036854775808)"},
    {"0x1F", "(uint 31)"},
    {"X'1F'", "(uint 31)"}, // MySQL's hexadecimal literal, as Connector/C++ reads it
    {"x'65' + 1", "(+ (uint 101) (uint 1))"},
    {"0XfF", "(uint 255)"},
    {"-0x10", "(sint -16)"},
    {"1.5", "(double 1.5)"},
    {".5", "(double 0.5)"},
    {"1.", "(double 1.0)"},
    {"1e3", "(double 1000.0)"},
    {"1E+3", "(double 1000.0)"},
    {"1.5e-3", "(double 0.0015)"},
    {"-2.5", "(double -2.5)"},
    {"1e300", "(double 1e+300)"},
    {"'abc'", "(string 'abc')"},
    {"\"abc\"", "(string 'abc')"},
    {"''", "(string '')"},
    {"'it''s'", "(string 'it\\'s')"},
    {"\"say \"\"hi\"\"\"", "(string 'say \"hi\"')"},
    {"'a\\'b'", "(string 'a\\'b')"},
    {"\"a\\\"b\"", "(string 'a\"b')"},
    {"'\\n\\r\\t\\b\\0\\Z\\\\'", "(string '\\n\\r\\t\\b\\0\\Z\\\\')"},
    {"'\\%\\_'", "(string '\\\\%\\\\_')"}, // LIKE escapes keep the backslash
    {"'\\x\\q'", "(string 'xq')"},
    {"'é'", "(string 'é')"},
    {"TRUE", "(bool true)"},
    {"true", "(bool true)"},
    {"False", "(bool false)"},
    {"NULL", "(null)"},
    {"null", "(null)"},
    {"[]", "(array)"},
    {"[1, 'a', NULL]", "(array (uint 1) (string 'a') (null))"},
    {"[1, [2, [3]]]", "(array (uint 1) (array (uint 2) (array (uint 3))))"},
    {"{}", "(object)"},
    {"{\"a\": 1}", "(object ('a' (uint 1)))"},
    {"{'a': 1, \"b\": [true]}", "(object ('a' (uint 1)) ('b' (array (bool true))))"},
    {"{\"a\": {\"b\": a.b + 1}}", "(object ('a' (object ('b' (+ (ident $.a.b) (uint 1))))))"},
    {"{\"a\"::p}", "(object ('a' (ph 0)))"},
    // A plain word as a key, as Connector/C++ 8 takes it (Oracle's xapi projections_doc).
    {"{key2: a * 2, b_key: b}", "(object ('key2' (* (ident $.a) (uint 2))) ('b_key' (ident $.b)))"},

    // Document paths.
    {"a", "(ident $.a)"},
    {"a.b", "(ident $.a.b)"},
    {"a.b.c.d.e", "(ident $.a.b.c.d.e)"},
    {"$", "(ident $)"},
    {"$.a", "(ident $.a)"},
    {"$.a.b", "(ident $.a.b)"},
    {"$[0]", "(ident $[0])"},
    {"a[0]", "(ident $.a[0])"},
    {"a[12][3]", "(ident $.a[12][3])"},
    {"a[4294967295]", "(ident $.a[4294967295])"},
    {"a[*]", "(ident $.a[*])"},
    {"a[*].b", "(ident $.a[*].b)"},
    {"a.*", "(ident $.a.*)"},
    {"$.*", "(ident $.*)"},
    {"a.*.b", "(ident $.a.*.b)"},
    {"**.a", "(ident $**.a)"},
    {"$**.a", "(ident $**.a)"},
    {"a**.b", "(ident $.a**.b)"},
    {"a**[1]", "(ident $.a**[1])"},
    {"$.a**.b[*]", "(ident $.a**.b[*])"},
    {"a . b [ 0 ]", "(ident $.a.b[0])"},
    {"a.* **.b", "(ident $.a.***.b)"},
    {"`a b`.c", "(ident $.\"a b\".c)"},
    {"`a``b`", "(ident $.\"a`b\")"},
    {"$.\"a b\"", "(ident $.\"a b\")"},
    {"$.'x'", "(ident $.x)"},
    {"a.`b`", "(ident $.a.b)"},
    {"a.\"b.c\"", "(ident $.a.\"b.c\")"},
    {"a.not", "(ident $.a.not)"},
    {"a.in.like", "(ident $.a.in.like)"},
    {"`not`.b", "(ident $.not.b)"},
    {"date", "(ident $.date)"},
    {"desc", "(ident $.desc)"},
    {"year > 2000", "(> (ident $.year) (uint 2000))"},
    {"ümlaut", "(ident $.ümlaut)"},
    {"_id", "(ident $._id)"},
    {"a1_b2", "(ident $.a1_b2)"},

    // Table mode: columns and JSON paths.
    {"a", "(ident a)", T},
    {"t.c", "(ident t.c)", T},
    {"s.t.c", "(ident s.t.c)", T},
    {"`my col`", "(ident my col)", T},
    {"t.`select`", "(ident t.select)", T},
    {"t.select", "(ident t.select)", T},
    {"col->'$.a'", "(ident col $.a)", T},
    {"col -> '$.a'", "(ident col $.a)", T},
    {"col->\"$.a\"", "(ident col $.a)", T},
    {"col->$.a", "(ident col $.a)", T},
    {"col->'$'", "(ident col $)", T},
    {"col->'$[1]'", "(ident col $[1])", T},
    {"t.col->'$**.x'", "(ident t.col $**.x)", T},
    {"s.t.col->'$.a[*].b'", "(ident s.t.col $.a[*].b)", T},
    {"col->'$.`x y`'", "(ident col $.\"x y\")", T},
    {"col->>'$.a'", "(call JSON_UNQUOTE (ident col $.a))", T},
    {"col->>'$.a.b[0]'", "(call JSON_UNQUOTE (ident col $.a.b[0]))", T},
    {"col->>$.a", "(call JSON_UNQUOTE (ident col $.a))", T},
    {"col->'$.a' = col->>\"$.b\"", "(== (ident col $.a) (call JSON_UNQUOTE (ident col $.b)))", T},
    {"count(*) > 5", "(> (call count (*)) (uint 5))", T},
    {"a.b(1)", "(call a.b (uint 1))", T},
    {"a + b", "(+ (ident a) (ident b))", T},

    // Placeholders: positions in order of first use.
    {":a", "(ph 0)"},
    {":a = :b OR :a = :c", "(|| (== (ph 0) (ph 1)) (== (ph 0) (ph 2)))"},
    {":0 > :1", "(> (ph 0) (ph 1))"},
    {":1 > :0", "(> (ph 0) (ph 1))"},
    {"? = ?", "(== (ph 0) (ph 1))"},
    {":x + ? + :x", "(+ (+ (ph 0) (ph 1)) (ph 0))"},
    {":in", "(ph 0)"},
    {"f(:a, [:b])", "(call f (ph 0) (array (ph 1)))"},

    // Functions.
    {"f()", "(call f)"},
    {"f(1)", "(call f (uint 1))"},
    {"concat(a, 'x', 1)", "(call concat (ident $.a) (string 'x') (uint 1))"},
    {"s.f(a, b)", "(call s.f (ident $.a) (ident $.b))"},
    {"`s`.`f`(1)", "(call s.f (uint 1))"},
    {"count(*)", "(call count (*))"},
    {"f(g(h(1)))", "(call f (call g (call h (uint 1))))"},
    {"f(a OR b, c)", "(call f (|| (ident $.a) (ident $.b)) (ident $.c))"},
    {"date(d) = '2020-01-01'", "(== (call date (ident $.d)) (string '2020-01-01'))"},
    {"JSON_UNQUOTE(a)", "(call JSON_UNQUOTE (ident $.a))"},
    // POSITION(substr IN str): LOCATE(substr, str), as Connector/C++ sends
    // it; the IN separates the operands, it is not the IN operator.
    {"POSITION('bar' IN b)", "(call locate (string 'bar') (ident $.b))"},
    {"position('bar' in b) = 4", "(== (call locate (string 'bar') (ident $.b)) (uint 4))"},
    {"POSITION('bar' IN b)", "(call locate (string 'bar') (ident b))", T},
    {"POSITION(a | 1 IN b OR c)",
     "(call locate (| (ident $.a) (uint 1)) (|| (ident $.b) (ident $.c)))"},
    {"POSITION(a + 1 IN concat(b, 'x'))",
     "(call locate (+ (ident $.a) (uint 1)) (call concat (ident $.b) (string 'x')))"},
    {"POSITION(a IN b IN (1, 2))", "(call locate (ident $.a) (in (ident $.b) (uint 1) (uint 2)))"},
    {"POSITION(a, b)", "(call locate (ident $.a) (ident $.b))"},
    {"s.position(a, b)", "(call s.position (ident $.a) (ident $.b))"},
    {"f(a IN b)", "(call f (cont_in (ident $.a) (ident $.b)))"},
    // CASE, SOUNDS and MEMBER only mean MySQL's constructs where a name
    // cannot stand; elsewhere they are names as before.
    {"case = 1", "(== (ident $.case) (uint 1))"},
    {"case[0] > case.x", "(> (ident $.case[0]) (ident $.case.x))"},
    {"case NOT IN (1)", "(not_in (ident $.case) (uint 1))"},
    {"sounds LIKE 'x' AND member > of",
     "(&& (like (ident $.sounds) (string 'x')) (> (ident $.member) (ident $.of)))"},
    {"CHAR(77, 121)", "(call CHAR (uint 77) (uint 121))"},
    {"TRIM(a)", "(call TRIM (ident $.a))"},
    {"match(a) + 1", "(+ (call match (ident $.a)) (uint 1))"},
    {"*", "(*)"},

    // Logical operators and their precedence: OR < XOR < AND < NOT.
    {"a OR b", "(|| (ident $.a) (ident $.b))"},
    {"a || b", "(|| (ident $.a) (ident $.b))"},
    {"a or b", "(|| (ident $.a) (ident $.b))"},
    {"a AND b", "(&& (ident $.a) (ident $.b))"},
    {"a && b", "(&& (ident $.a) (ident $.b))"},
    {"a XOR b", "(xor (ident $.a) (ident $.b))"},
    {"a OR b OR c", "(|| (|| (ident $.a) (ident $.b)) (ident $.c))"},
    {"a OR b AND c", "(|| (ident $.a) (&& (ident $.b) (ident $.c)))"},
    {"a AND b OR c", "(|| (&& (ident $.a) (ident $.b)) (ident $.c))"},
    {"a XOR b OR c", "(|| (xor (ident $.a) (ident $.b)) (ident $.c))"},
    {"a OR b XOR c", "(|| (ident $.a) (xor (ident $.b) (ident $.c)))"},
    {"a XOR b AND c", "(xor (ident $.a) (&& (ident $.b) (ident $.c)))"},
    {"a XOR b XOR c", "(xor (xor (ident $.a) (ident $.b)) (ident $.c))"},
    {"(a OR b) AND c", "(&& (|| (ident $.a) (ident $.b)) (ident $.c))"},
    {"NOT a", "(not (ident $.a))"},
    {"not a", "(not (ident $.a))"},
    {"NOT NOT a", "(not (not (ident $.a)))"},
    {"NOT a AND b", "(&& (not (ident $.a)) (ident $.b))"},
    {"NOT a = b", "(not (== (ident $.a) (ident $.b)))"},
    {"NOT a IS NULL", "(not (is (ident $.a) (null)))"},
    {"NOT a LIKE 'x'", "(not (like (ident $.a) (string 'x')))"},
    {"a = NOT b", "(== (ident $.a) (not (ident $.b)))"},
    {"!a", "(! (ident $.a))"},
    {"!a = b", "(== (! (ident $.a)) (ident $.b))"},
    {"!!a", "(! (! (ident $.a)))"},
    {"!(a AND b)", "(! (&& (ident $.a) (ident $.b)))"},

    // Comparisons: one level, left-associative.
    {"a = b", "(== (ident $.a) (ident $.b))"},
    {"a == b", "(== (ident $.a) (ident $.b))"},
    {"a != b", "(!= (ident $.a) (ident $.b))"},
    {"a <> b", "(!= (ident $.a) (ident $.b))"},
    {"a < b", "(< (ident $.a) (ident $.b))"},
    {"a <= b", "(<= (ident $.a) (ident $.b))"},
    {"a > b", "(> (ident $.a) (ident $.b))"},
    {"a >= b", "(>= (ident $.a) (ident $.b))"},
    {"a = b = c", "(== (== (ident $.a) (ident $.b)) (ident $.c))"},
    {"a <= b >= c", "(>= (<= (ident $.a) (ident $.b)) (ident $.c))"},
    {"a = (b = c)", "(== (ident $.a) (== (ident $.b) (ident $.c)))"},
    {"a < b AND c > d", "(&& (< (ident $.a) (ident $.b)) (> (ident $.c) (ident $.d)))"},
    {"a=b", "(== (ident $.a) (ident $.b))"},
    {"a\t=\nb", "(== (ident $.a) (ident $.b))"},

    // IS [NOT] NULL | TRUE | FALSE.
    {"a IS NULL", "(is (ident $.a) (null))"},
    {"a is null", "(is (ident $.a) (null))"},
    {"a IS NOT NULL", "(is_not (ident $.a) (null))"},
    {"a IS TRUE", "(is (ident $.a) (bool true))"},
    {"a IS NOT TRUE", "(is_not (ident $.a) (bool true))"},
    {"a IS FALSE", "(is (ident $.a) (bool false))"},
    {"a IS NOT FALSE", "(is_not (ident $.a) (bool false))"},
    {"a < b IS TRUE", "(is (< (ident $.a) (ident $.b)) (bool true))"},
    {"a IS NULL = b", "(== (is (ident $.a) (null)) (ident $.b))"},
    {"a IS NOT NULL AND b IS NULL", "(&& (is_not (ident $.a) (null)) (is (ident $.b) (null)))"},

    // IN: a list is "in", anything else is JSON containment "cont_in".
    {"a IN (1, 2)", "(in (ident $.a) (uint 1) (uint 2))"},
    {"a IN (1)", "(in (ident $.a) (uint 1))"},
    {"a NOT IN (1, 2)", "(not_in (ident $.a) (uint 1) (uint 2))"},
    {"a IN ('x', b, :p)", "(in (ident $.a) (string 'x') (ident $.b) (ph 0))"},
    {"a IN (b OR c)", "(in (ident $.a) (|| (ident $.b) (ident $.c)))"},
    {"a IN b", "(cont_in (ident $.a) (ident $.b))"},
    {"a IN $.b", "(cont_in (ident $.a) (ident $.b))"},
    {"a NOT IN b", "(not_cont_in (ident $.a) (ident $.b))"},
    {"1 IN [1, 2]", "(cont_in (uint 1) (array (uint 1) (uint 2)))"},
    {"a NOT IN [1, 2]", "(not_cont_in (ident $.a) (array (uint 1) (uint 2)))"},
    {"{'a': 1} IN b", "(cont_in (object ('a' (uint 1))) (ident $.b))"},
    {"a IN b | c", "(cont_in (ident $.a) (| (ident $.b) (ident $.c)))"},
    {"a IN b = c", "(== (cont_in (ident $.a) (ident $.b)) (ident $.c))"},
    {"a IN b AND c", "(&& (cont_in (ident $.a) (ident $.b)) (ident $.c))"},
    {"a IN (1, 2) IS TRUE", "(is (in (ident $.a) (uint 1) (uint 2)) (bool true))"},
    {"w IN NOT NULL", "(cont_in (ident $.w) (not (null)))"},
    {"w NOT IN NOT (a = b)", "(not_cont_in (ident $.w) (not (== (ident $.a) (ident $.b))))"},

    // LIKE, REGEXP, OVERLAPS.
    {"a LIKE 'x%'", "(like (ident $.a) (string 'x%'))"},
    {"a NOT LIKE 'x'", "(not_like (ident $.a) (string 'x'))"},
    {"a LIKE 'x' ESCAPE '!'", "(like (ident $.a) (string 'x') (string '!'))"},
    {"a NOT LIKE 'x|%' ESCAPE '|'", "(not_like (ident $.a) (string 'x|%') (string '|'))"},
    {"a LIKE b ESCAPE c AND d", "(&& (like (ident $.a) (ident $.b) (ident $.c)) (ident $.d))"},
    {"a LIKE escape ESCAPE '!'", "(like (ident $.a) (ident $.escape) (string '!'))"},
    {"a = b LIKE c", "(== (ident $.a) (like (ident $.b) (ident $.c)))"},
    {"a LIKE b = c", "(== (like (ident $.a) (ident $.b)) (ident $.c))"},
    {"a LIKE b || c", "(|| (like (ident $.a) (ident $.b)) (ident $.c))"},
    {"a LIKE b | c", "(like (ident $.a) (| (ident $.b) (ident $.c)))"},
    {"a REGEXP 'x'", "(regexp (ident $.a) (string 'x'))"},
    {"a NOT REGEXP 'x'", "(not_regexp (ident $.a) (string 'x'))"},
    {"a RLIKE 'x'", "(regexp (ident $.a) (string 'x'))"},
    {"a NOT RLIKE 'x'", "(not_regexp (ident $.a) (string 'x'))"},
    {"a OVERLAPS [1]", "(overlaps (ident $.a) (array (uint 1)))"},
    {"a NOT OVERLAPS b", "(not_overlaps (ident $.a) (ident $.b))"},
    {"overlaps OVERLAPS overlaps", "(overlaps (ident $.overlaps) (ident $.overlaps))"},

    // BETWEEN: the upper bound may itself be a predicate, as in MySQL.
    {"a BETWEEN 1 AND 5", "(between (ident $.a) (uint 1) (uint 5))"},
    {"a NOT BETWEEN 1 AND 5", "(not_between (ident $.a) (uint 1) (uint 5))"},
    {"a BETWEEN 1 AND 5 AND c", "(&& (between (ident $.a) (uint 1) (uint 5)) (ident $.c))"},
    {"a BETWEEN b + 1 AND c * 2",
     "(between (ident $.a) (+ (ident $.b) (uint 1)) (* (ident $.c) (uint 2)))"},
    {"a BETWEEN b AND c LIKE d",
     "(between (ident $.a) (ident $.b) (like (ident $.c) (ident $.d)))"},
    {"a BETWEEN 1 AND 2 BETWEEN 3 AND 4",
     "(between (ident $.a) (uint 1) (between (uint 2) (uint 3) (uint 4)))"},
    {"(a BETWEEN b AND c) LIKE d",
     "(like (between (ident $.a) (ident $.b) (ident $.c)) (ident $.d))"},
    {"a BETWEEN 1 AND 5 = TRUE", "(== (between (ident $.a) (uint 1) (uint 5)) (bool true))"},

    // Bit operations: | < & < shifts < + - < * / < ^ (MySQL's order).
    {"a | b", "(| (ident $.a) (ident $.b))"},
    {"a & b", "(& (ident $.a) (ident $.b))"},
    {"a ^ b", "(^ (ident $.a) (ident $.b))"},
    {"a << 2", "(<< (ident $.a) (uint 2))"},
    {"a >> 2", "(>> (ident $.a) (uint 2))"},
    {"~a", "(~ (ident $.a))"},
    {"a | b & c", "(| (ident $.a) (& (ident $.b) (ident $.c)))"},
    {"a & b | c", "(| (& (ident $.a) (ident $.b)) (ident $.c))"},
    {"a & b << c", "(& (ident $.a) (<< (ident $.b) (ident $.c)))"},
    {"a << b + c", "(<< (ident $.a) (+ (ident $.b) (ident $.c)))"},
    {"a << 1 >> 2", "(>> (<< (ident $.a) (uint 1)) (uint 2))"},
    {"a & b | c ^ d", "(| (& (ident $.a) (ident $.b)) (^ (ident $.c) (ident $.d)))"},
    {"a * b ^ c", "(* (ident $.a) (^ (ident $.b) (ident $.c)))"},
    {"a ^ b * c", "(* (^ (ident $.a) (ident $.b)) (ident $.c))"},
    {"a ^ b ^ c", "(^ (^ (ident $.a) (ident $.b)) (ident $.c))"},
    {"a ^ (b ^ c)", "(^ (ident $.a) (^ (ident $.b) (ident $.c)))"},
    {"a | b = c", "(== (| (ident $.a) (ident $.b)) (ident $.c))"},
    {"a & b && c", "(&& (& (ident $.a) (ident $.b)) (ident $.c))"},
    {"a | b || c", "(|| (| (ident $.a) (ident $.b)) (ident $.c))"},
    {"~a & b", "(& (~ (ident $.a)) (ident $.b))"},
    {"~(a | b)", "(~ (| (ident $.a) (ident $.b)))"},

    // Arithmetic.
    {"1 + 2", "(+ (uint 1) (uint 2))"},
    {"1 + 2 * 3", "(+ (uint 1) (* (uint 2) (uint 3)))"},
    {"(1 + 2) * 3", "(* (+ (uint 1) (uint 2)) (uint 3))"},
    {"1 - 2 - 3", "(- (- (uint 1) (uint 2)) (uint 3))"},
    {"1 - (2 - 3)", "(- (uint 1) (- (uint 2) (uint 3)))"},
    {"a / b", "(/ (ident $.a) (ident $.b))"},
    {"a DIV b", "(div (ident $.a) (ident $.b))"},
    {"a div b", "(div (ident $.a) (ident $.b))"},
    {"a % b", "(% (ident $.a) (ident $.b))"},
    {"a MOD b", "(% (ident $.a) (ident $.b))"},
    {"a DIV 2 MOD 3 % 4 / 5", "(/ (% (% (div (ident $.a) (uint 2)) (uint 3)) (uint 4)) (uint 5))"},
    {"a * (b + c) / d", "(/ (* (ident $.a) (+ (ident $.b) (ident $.c))) (ident $.d))"},
    {"a*b", "(* (ident $.a) (ident $.b))"},
    {"a-1", "(- (ident $.a) (uint 1))"},
    {"a - -1", "(- (ident $.a) (sint -1))"},
    {"a--1", "(- (ident $.a) (sint -1))"},
    {"a + +1", "(+ (ident $.a) (uint 1))"},
    {"-a", "(sign_minus (ident $.a))"},
    {"+a", "(sign_plus (ident $.a))"},
    {"-(1)", "(sign_minus (uint 1))"},
    {"- -1", "(sign_minus (sint -1))"},
    {"-(a + b)", "(sign_minus (+ (ident $.a) (ident $.b)))"},
    {"-a ^ b", "(^ (sign_minus (ident $.a)) (ident $.b))"},
    {"-a * b", "(* (sign_minus (ident $.a)) (ident $.b))"},
    {"-2 * 3", "(* (sint -2) (uint 3))"},
    {"a * *", "(* (ident $.a) (*))"},
    {"1 + 2 = 3", "(== (+ (uint 1) (uint 2)) (uint 3))"},
    {"a.b * 2 > c[0]", "(> (* (ident $.a.b) (uint 2)) (ident $.c[0]))"},

    // INTERVAL arithmetic: date_add/date_sub with the unit as octets.
    {"d + INTERVAL 1 DAY", "(date_add (ident $.d) (uint 1) (octets 'DAY'))"},
    // MySQL's DATE_ADD(d, INTERVAL n unit) and synonyms: the same operator.
    {"DATE_ADD(d, INTERVAL 1 DAY)", "(date_add (ident $.d) (uint 1) (octets 'DAY'))"},
    {"adddate(d, interval n + 1 day)",
     "(date_add (ident $.d) (+ (ident $.n) (uint 1)) (octets 'DAY'))"},
    {"DATE_SUB(dt, INTERVAL 30 MINUTE) < d",
     "(< (date_sub (ident dt) (uint 30) (octets 'MINUTE')) (ident d))", T},
    {"SUBDATE(d, INTERVAL '1:2' HOUR_MINUTE)",
     "(date_sub (ident $.d) (string '1:2') (octets 'HOUR_MINUTE'))"},
    {"ADDDATE(d, 5)", "(call ADDDATE (ident $.d) (uint 5))"},
    {"s.DATE_ADD(d, 1)", "(call s.DATE_ADD (ident $.d) (uint 1))"},
    {"d - INTERVAL 2 HOUR", "(date_sub (ident $.d) (uint 2) (octets 'HOUR'))"},
    {"d + interval 3 microsecond", "(date_add (ident $.d) (uint 3) (octets 'MICROSECOND'))"},
    {"d + INTERVAL 1 SECOND", "(date_add (ident $.d) (uint 1) (octets 'SECOND'))"},
    {"d + INTERVAL 1 MINUTE", "(date_add (ident $.d) (uint 1) (octets 'MINUTE'))"},
    {"d + INTERVAL 1 WEEK", "(date_add (ident $.d) (uint 1) (octets 'WEEK'))"},
    {"d + INTERVAL 1 MONTH", "(date_add (ident $.d) (uint 1) (octets 'MONTH'))"},
    {"d + INTERVAL 1 QUARTER", "(date_add (ident $.d) (uint 1) (octets 'QUARTER'))"},
    {"d + INTERVAL 1 YEAR", "(date_add (ident $.d) (uint 1) (octets 'YEAR'))"},
    {"d + INTERVAL '1.5' SECOND_MICROSECOND",
     "(date_add (ident $.d) (string '1.5') (octets 'SECOND_MICROSECOND'))"},
    {"d + INTERVAL '1:2' MINUTE_SECOND",
     "(date_add (ident $.d) (string '1:2') (octets 'MINUTE_SECOND'))"},
    {"d - INTERVAL '1:2' hour_minute",
     "(date_sub (ident $.d) (string '1:2') (octets 'HOUR_MINUTE'))"},
    {"d + INTERVAL '1 2' DAY_HOUR", "(date_add (ident $.d) (string '1 2') (octets 'DAY_HOUR'))"},
    {"d + INTERVAL '1-2' YEAR_MONTH",
     "(date_add (ident $.d) (string '1-2') (octets 'YEAR_MONTH'))"},
    {"d + INTERVAL :n DAY", "(date_add (ident $.d) (ph 0) (octets 'DAY'))"},
    {"d + INTERVAL a + 1 DAY", "(date_add (ident $.d) (+ (ident $.a) (uint 1)) (octets 'DAY'))"},
    {"d + INTERVAL 1 DAY + INTERVAL 2 HOUR",
     "(date_add (date_add (ident $.d) (uint 1) (octets 'DAY')) (uint 2) (octets 'HOUR'))"},
    {"INTERVAL 1 DAY + d", "(date_add (ident $.d) (uint 1) (octets 'DAY'))"},
    {"d + INTERVAL 1 DAY > now()", "(> (date_add (ident $.d) (uint 1) (octets 'DAY')) (call now))"},
    {"a - (b + INTERVAL 1 DAY)", "(- (ident $.a) (date_add (ident $.b) (uint 1) (octets 'DAY')))"},

    // CAST with the type as an octets literal; BINARY is CAST AS BINARY.
    {"CAST(a AS SIGNED)", "(cast (ident $.a) (octets 'SIGNED'))"},
    {"CAST(a AS SIGNED INTEGER)", "(cast (ident $.a) (octets 'SIGNED INTEGER'))"},
    {"cast(a as unsigned int)", "(cast (ident $.a) (octets 'UNSIGNED INTEGER'))"},
    {"CAST(a AS UNSIGNED)", "(cast (ident $.a) (octets 'UNSIGNED'))"},
    {"CAST(a AS CHAR)", "(cast (ident $.a) (octets 'CHAR'))"},
    {"CAST(a AS char(5))", "(cast (ident $.a) (octets 'CHAR(5)'))"},
    {"CAST(a AS BINARY)", "(cast (ident $.a) (octets 'BINARY'))"},
    {"CAST(a AS BINARY(16))", "(cast (ident $.a) (octets 'BINARY(16)'))"},
    {"CAST(a AS DECIMAL)", "(cast (ident $.a) (octets 'DECIMAL'))"},
    {"CAST(a AS DECIMAL(10))", "(cast (ident $.a) (octets 'DECIMAL(10)'))"},
    {"CAST(a AS DECIMAL(10, 2))", "(cast (ident $.a) (octets 'DECIMAL(10,2)'))"},
    {"CAST(a AS DATE)", "(cast (ident $.a) (octets 'DATE'))"},
    {"CAST(a AS DATETIME)", "(cast (ident $.a) (octets 'DATETIME'))"},
    {"CAST(a AS TIME)", "(cast (ident $.a) (octets 'TIME'))"},
    {"CAST(a AS json)", "(cast (ident $.a) (octets 'JSON'))"},
    {"CAST(a + 1 AS JSON) IN b",
     "(cont_in (cast (+ (ident $.a) (uint 1)) (octets 'JSON')) (ident $.b))"},
    {"CAST(CAST(a AS CHAR) AS JSON)", "(cast (cast (ident $.a) (octets 'CHAR')) (octets 'JSON'))"},
    {"BINARY a", "(cast (ident $.a) (octets 'BINARY'))"},
    {"BINARY a = b", "(== (cast (ident $.a) (octets 'BINARY')) (ident $.b))"},

    // Mixed, as users write them.
    {"age > :min AND name LIKE 'a%'",
     "(&& (> (ident $.age) (ph 0)) (like (ident $.name) (string 'a%')))"},
    {"a.b[0] IN ('x', 'y') OR NOT c",
     "(|| (in (ident $.a.b[0]) (string 'x') (string 'y')) (not (ident $.c)))"},
    {"u = 'x' AND (p > 10 OR p IS NULL)",
     "(&& (== (ident $.u) (string 'x')) (|| (> (ident $.p) (uint 10)) (is (ident $.p) (null))))"},
    {"price * qty - discount >= 100.5",
     "(>= (- (* (ident $.price) (ident $.qty)) (ident $.discount)) (double 100.5))"},
    {"name = 'é' AND `ü` = 1", "(&& (== (ident $.name) (string 'é')) (== (ident $.ü) (uint 1)))"},
    {"t.a = s.t.b AND c->>'$.x' LIKE :p",
     "(&& (== (ident t.a) (ident s.t.b)) (like (call JSON_UNQUOTE (ident c $.x)) (ph 0)))", T},
};

class ExprParse : public testing::TestWithParam<parse_case> {};

TEST_P(ExprParse, BuildsTree) {
  const parse_case& c = GetParam();
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  const cdk::status st = cdk::parse_expr(c.input, c.mode, ph, e);
  ASSERT_TRUE(st.ok()) << st.err().message;
  EXPECT_EQ(cdk::dump_expr(e), c.tree);
}

TEST_P(ExprParse, PrintsTextThatParsesBack) {
  const parse_case& c = GetParam();
  cdk::placeholder_map ph;
  Mysqlx::Expr::Expr e;
  ASSERT_TRUE(cdk::parse_expr(c.input, c.mode, ph, e).ok());
  const std::string printed = cdk::print_expr(e, &ph);
  cdk::placeholder_map ph2;
  Mysqlx::Expr::Expr again;
  const cdk::status st = cdk::parse_expr(printed, c.mode, ph2, again);
  ASSERT_TRUE(st.ok()) << printed << "\n" << st.err().message;
  EXPECT_EQ(cdk::dump_expr(again), c.tree) << printed;
  EXPECT_EQ(again.SerializeAsString(), e.SerializeAsString()) << printed;
  // Printing is a fixed point.
  EXPECT_EQ(cdk::print_expr(again, &ph2), printed);
}

INSTANTIATE_TEST_SUITE_P(Grammar, ExprParse, testing::ValuesIn(k_cases));

} // namespace
