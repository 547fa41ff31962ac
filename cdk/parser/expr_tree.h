// Private to cdk/parser: the parser's own tree, written into the protobuf
// messages once parsing succeeded (expr_assign.h).
//
// Why not build the Mysqlx.Expr messages directly: the parser builds bottom
// up ("a + b" parses `a` before it knows `a` is an operand), so it has to
// move sub-trees around. Done with protobuf messages, that needed a scratch
// arena and a final copy into the caller's message, which together cost more
// than all the rest of parsing. Here a node is a plain struct in a vector
// that is reused from parse to parse, names are slices of the input, and
// moving a sub-tree is changing an index.
//
// Nodes mirror the messages: an Expr node per Expr, plus path items and
// object fields. Children (operator and call parameters, path items, object
// fields, array values) form a singly linked list in source order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace cdk::expr_detail {

using node_id = std::int32_t;
inline constexpr node_id no_node = -1;

// Text of a node: a slice of the parsed input (str < 0) or of one of the
// tree's own strings (unquoted values with escapes, upper-cased cast types
// and units, the unquoted JSON path of col->'$.a').
struct text_ref {
  std::uint32_t pos = 0;
  std::uint32_t len = 0;
  std::int32_t str = -1;
};

enum class node_kind : std::uint8_t {
  literal,     // Scalar: `sub` is its type; value in v or text[0]
  placeholder, // Expr.position in v.u
  op,          // Operator: name in v.name, parameters are the children
  call,        // FunctionCall: text[0] name, text[1] schema (if has & 2);
               // with has & 4, the name is the constant v.name
  ident,       // ColumnIdentifier: text[0] name, [1] table, [2] schema
               // (bits 1, 2, 4 of has); path items are the children
  path_item,   // DocumentPathItem: `sub` is its type; text[0] (MEMBER) or v.u
  object,      // Object: fields are the children
  field,       // ObjectField: text[0] key; the one child is the value
  array,       // Array: values are the children
};

struct node {
  node_kind kind = node_kind::literal;
  std::uint8_t sub = 0;    // Scalar::Type or DocumentPathItem::Type
  std::uint8_t has = 0;    // which of text[] are set, one bit each
  node_id first = no_node; // first child
  node_id last = no_node;  // last child, for appending
  node_id next = no_node;  // next sibling
  union {
    std::uint64_t u;
    std::int64_t i;
    double d;
    bool b;
    const char* name;
  } v{};
  text_ref text[3];
};

class tree {
public:
  // Starts a new parse of `input`, keeping the memory of the last one.
  void reset(std::string_view input) noexcept {
    m_input = input;
    m_nodes.clear();
    m_strings_used = 0;
  }
  // Drops memory a very large input left behind, so a thread that once
  // parsed a megabyte does not keep it.
  void trim() noexcept;

  node_id add(node_kind kind) {
    m_nodes.emplace_back();
    m_nodes.back().kind = kind;
    return static_cast<node_id>(m_nodes.size() - 1);
  }
  node& operator[](node_id id) noexcept { return m_nodes[static_cast<std::size_t>(id)]; }
  const node& operator[](node_id id) const noexcept {
    return m_nodes[static_cast<std::size_t>(id)];
  }
  void append(node_id parent, node_id child) noexcept {
    node& p = (*this)[parent];
    if (p.last == no_node)
      p.first = child;
    else
      (*this)[p.last].next = child;
    p.last = child;
    (*this)[child].next = no_node;
  }

  // A fresh string owned by the tree, and the reference to all of it once
  // filled. Strings never move while the tree lives (a deque only appends).
  std::string& new_string(std::int32_t& index) {
    if (m_strings_used == m_strings.size()) m_strings.emplace_back();
    index = static_cast<std::int32_t>(m_strings_used++);
    std::string& s = m_strings[static_cast<std::size_t>(index)];
    s.clear();
    return s;
  }
  text_ref whole(std::int32_t index) const noexcept {
    return {0, static_cast<std::uint32_t>(m_strings[static_cast<std::size_t>(index)].size()),
            index};
  }

  std::string_view view(const text_ref& t) const noexcept {
    const std::string_view base =
        t.str < 0 ? m_input : std::string_view(m_strings[static_cast<std::size_t>(t.str)]);
    return base.substr(t.pos, t.len);
  }

private:
  std::string_view m_input;
  std::vector<node> m_nodes;
  std::deque<std::string> m_strings;
  std::size_t m_strings_used = 0;
};

} // namespace cdk::expr_detail
