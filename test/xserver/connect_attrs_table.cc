#include "test/xserver/connect_attrs_table.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

namespace xserver {

namespace {

constexpr std::string_view k_schema = "performance_schema";
constexpr std::array<std::string_view, 2> k_tables = {"session_connect_attrs",
                                                      "session_account_connect_attrs"};

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

bool ident_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  return std::isalnum(u) || c == '_' || c == '$' || u >= 0x80;
}

// Just enough of MariaDB's lexer to find table references: identifiers
// (plain or backquoted, value unquoted), strings, and single characters;
// comments and whitespace are dropped.
struct token {
  enum kind_t { ident, quoted_ident, string, punct } kind;
  std::size_t begin, end; // in the statement
  std::string value;      // identifiers: the name; punct: the character
};

std::vector<token> tokenize(std::string_view sql) {
  std::vector<token> out;
  std::size_t i = 0;
  const std::size_t n = sql.size();
  while (i < n) {
    const char c = sql[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '#' || (c == '-' && i + 1 < n && sql[i + 1] == '-' &&
                            (i + 2 == n || std::isspace(static_cast<unsigned char>(sql[i + 2]))))) {
      while (i < n && sql[i] != '\n') ++i;
    } else if (sql.substr(i, 2) == "/*") {
      const std::size_t e = sql.find("*/", i + 2);
      i = e == std::string_view::npos ? n : e + 2;
    } else if (c == '\'' || c == '"' || c == '`') {
      const std::size_t b = i++;
      std::string value;
      while (i < n) {
        if (sql[i] == '\\' && c != '`' && i + 1 < n) {
          value += sql.substr(i, 2);
          i += 2;
        } else if (sql[i] == c && i + 1 < n && sql[i + 1] == c) { // a doubled quote
          value += c;
          i += 2;
        } else if (sql[i] == c) {
          ++i;
          break;
        } else {
          value += sql[i++];
        }
      }
      out.push_back({c == '`' ? token::quoted_ident : token::string, b, i, std::move(value)});
    } else if (ident_char(c)) {
      const std::size_t b = i;
      while (i < n && ident_char(sql[i])) ++i;
      out.push_back({token::ident, b, i, std::string(sql.substr(b, i - b))});
    } else {
      out.push_back({token::punct, i, i + 1, std::string(1, c)});
      ++i;
    }
  }
  return out;
}

bool is_name(const token& t) {
  return t.kind == token::ident || t.kind == token::quoted_ident;
}
bool is_keyword(const token& t, std::string_view kw) {
  return t.kind == token::ident && iequals(t.value, kw);
}
bool is_punct(const token& t, char c) {
  return t.kind == token::punct && t.value[0] == c;
}

// Words that may follow a table reference that has no alias.
bool ends_table_reference(const token& t) {
  static constexpr std::string_view words[] = {
      "WHERE",  "GROUP", "HAVING",    "ORDER",   "LIMIT",     "JOIN",          "INNER",
      "CROSS",  "LEFT",  "RIGHT",     "NATURAL", "FULL",      "STRAIGHT_JOIN", "OUTER",
      "ON",     "USING", "UNION",     "EXCEPT",  "INTERSECT", "WINDOW",        "FOR",
      "LOCK",   "INTO",  "PROCEDURE", "USE",     "IGNORE",    "FORCE",         "PARTITION",
      "OFFSET", "FETCH", "RETURNING"};
  if (t.kind != token::ident) return t.kind != token::quoted_ident;
  return std::any_of(std::begin(words), std::end(words),
                     [&](std::string_view w) { return iequals(t.value, w); });
}

// Statements whose reads of the tables are answered now. Others (SHOW
// COLUMNS FROM, DESCRIBE, CREATE VIEW ... AS SELECT) are MariaDB's.
bool reading_statement(const std::vector<token>& toks) {
  if (toks.empty()) return false;
  if (is_punct(toks[0], '(')) return true;
  for (std::string_view w :
       {"SELECT", "WITH", "EXPLAIN", "ANALYZE", "INSERT", "REPLACE", "SET", "DO", "VALUES"})
    if (is_keyword(toks[0], w)) return true;
  return false;
}

int table_index(const token& t) {
  if (!is_name(t)) return -1;
  for (std::size_t i = 0; i < k_tables.size(); ++i)
    if (iequals(t.value, k_tables[i])) return static_cast<int>(i);
  return -1;
}

void append_json_string(std::string_view s, std::string& out) {
  out += '"';
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
}

} // namespace

bool names_connect_attrs_table(std::string_view sql) {
  // Both names end so; any case.
  constexpr std::string_view tail = "connect_attrs";
  for (std::size_t i = 0; i + tail.size() <= sql.size(); ++i)
    if (iequals(sql.substr(i, tail.size()), tail)) return true;
  return false;
}

std::string connect_attrs_table_sql(const std::vector<attrs_session>& sessions,
                                    const std::function<std::string(std::string_view)>& quote) {
  std::string json = "[";
  for (const auto& s : sessions) {
    std::size_t ordinal = 0;
    for (const auto& [name, value] : s.attrs) {
      if (json.size() > 1) json += ',';
      json += '[' + std::to_string(s.processlist_id) + ',';
      append_json_string(name, json);
      json += ',';
      // MySQL's table reads an empty value as NULL.
      if (value.empty())
        json += "null";
      else
        append_json_string(value, json);
      json += ',' + std::to_string(ordinal++) + ']';
    }
  }
  json += ']';
  constexpr std::string_view text = " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin";
  return "JSON_TABLE(" + quote(json) +
         ", '$[*]' COLUMNS(PROCESSLIST_ID BIGINT UNSIGNED PATH '$[0]', ATTR_NAME VARCHAR(32)" +
         std::string(text) + " PATH '$[1]', ATTR_VALUE VARCHAR(1024)" + std::string(text) +
         " PATH '$[2]', ORDINAL_POSITION INT PATH '$[3]'))";
}

std::optional<std::string> rewrite_connect_attrs_tables(std::string_view sql,
                                                        const connect_attrs_source& source) {
  if (!names_connect_attrs_table(sql)) return std::nullopt;
  const std::vector<token> toks = tokenize(sql);
  if (!reading_statement(toks)) return std::nullopt;
  std::string out;
  std::size_t copied = 0; // sql[0, copied) is in out
  bool changed = false;
  std::optional<bool> in_perfschema;
  auto table_position = [&](std::size_t k) {
    if (k == 0) return false;
    const token& prev = toks[k - 1];
    return is_keyword(prev, "FROM") || is_keyword(prev, "JOIN") ||
           is_keyword(prev, "STRAIGHT_JOIN") || is_punct(prev, ',');
  };
  for (std::size_t k = 0; k < toks.size(); ++k) {
    std::size_t first = k, last; // the reference's tokens
    int table;
    if (is_name(toks[k]) && iequals(toks[k].value, k_schema) && k + 2 < toks.size() &&
        is_punct(toks[k + 1], '.') && (table = table_index(toks[k + 2])) >= 0) {
      last = k + 2;
      if (last + 1 < toks.size() && is_punct(toks[last + 1], '.')) {
        // performance_schema.<table>.col: the alias is the table's name.
        out += sql.substr(copied, toks[first].begin - copied);
        out += k_tables[static_cast<std::size_t>(table)];
        copied = toks[last].end;
        changed = true;
        k = last;
        continue;
      }
      if (!table_position(first)) continue;
    } else if ((table = table_index(toks[k])) >= 0 && table_position(k) &&
               !(k + 1 < toks.size() && is_punct(toks[k + 1], '.'))) {
      last = k;
      if (!in_perfschema) in_perfschema = source.default_db_is_performance_schema();
      if (!*in_perfschema) continue;
    } else {
      continue;
    }
    const bool aliased = last + 1 < toks.size() && !ends_table_reference(toks[last + 1]);
    out += sql.substr(copied, toks[first].begin - copied);
    out += source.table(table == 1);
    if (!aliased) out += " AS " + std::string(k_tables[static_cast<std::size_t>(table)]);
    copied = toks[last].end;
    changed = true;
    k = last;
  }
  if (!changed) return std::nullopt;
  out += sql.substr(copied);
  return out;
}

} // namespace xserver
