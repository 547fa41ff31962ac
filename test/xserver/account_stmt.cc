#include "test/xserver/account_stmt.h"

#include <algorithm>
#include <cctype>

namespace xserver {

namespace {

struct token {
  enum kind_t { word, quoted, punct, end } kind = end;
  std::string text; // a word as written, a quoted name or string unquoted
  std::size_t begin = 0, end_pos = 0;
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Just enough of MySQL's lexer for account names and clauses: words,
// '...' "..." `...` (doubled quotes; backslash escapes in strings),
// single punctuation, and comments skipped.
class lexer {
public:
  explicit lexer(std::string_view s) : m_s(s) {}

  token next() {
    skip();
    token t;
    t.begin = m_pos;
    if (m_pos >= m_s.size()) {
      t.end_pos = m_pos;
      return t;
    }
    const char c = m_s[m_pos];
    if (c == '\'' || c == '"' || c == '`') {
      t.kind = token::quoted;
      ++m_pos;
      while (m_pos < m_s.size()) {
        const char d = m_s[m_pos++];
        if (d == '\\' && c != '`' && m_pos < m_s.size()) {
          t.text += m_s[m_pos++];
        } else if (d == c) {
          if (m_pos < m_s.size() && m_s[m_pos] == c) {
            t.text += c;
            ++m_pos;
          } else {
            break;
          }
        } else {
          t.text += d;
        }
      }
    } else if (is_word_char(c)) {
      t.kind = token::word;
      while (m_pos < m_s.size() && is_word_char(m_s[m_pos])) t.text += m_s[m_pos++];
    } else {
      t.kind = token::punct;
      t.text = std::string(1, c);
      ++m_pos;
    }
    t.end_pos = m_pos;
    return t;
  }

private:
  static bool is_word_char(char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || c == '_' || c == '$' || u >= 0x80;
  }
  void skip() {
    for (;;) {
      while (m_pos < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_pos]))) ++m_pos;
      const std::string_view rest = m_s.substr(m_pos);
      if (rest.rfind("#", 0) == 0 || rest.rfind("-- ", 0) == 0) {
        const auto eol = m_s.find('\n', m_pos);
        m_pos = eol == std::string_view::npos ? m_s.size() : eol + 1;
      } else if (rest.rfind("/*", 0) == 0) {
        const auto close = m_s.find("*/", m_pos + 2);
        m_pos = close == std::string_view::npos ? m_s.size() : close + 2;
      } else {
        return;
      }
    }
  }
  std::string_view m_s;
  std::size_t m_pos = 0;
};

bool is_word(const token& t, std::string_view w) {
  return t.kind == token::word && lower(t.text) == w;
}

bool is_name(const token& t) {
  return t.kind == token::word || t.kind == token::quoted;
}

bool is_mysql_plugin(const std::string& p) {
  return p == "caching_sha2_password" || p == "sha256_password" || p == "mysql_native_password";
}

struct edit {
  std::size_t begin, end;
  std::string text;
};

} // namespace

std::optional<account_statement> rewrite_account_statement(std::string_view sql) {
  lexer lx(sql);
  token t = lx.next();
  if (!is_word(t, "create") && !is_word(t, "alter")) return std::nullopt;
  if (!is_word(lx.next(), "user")) return std::nullopt;
  account_statement out;
  std::vector<edit> edits;
  t = lx.next();
  if (is_word(t, "if")) { // IF [NOT] EXISTS
    while (t.kind != token::end && !is_word(t, "exists")) t = lx.next();
    t = lx.next();
  }
  while (is_name(t)) {
    account_plugin acct{t.text, "%", ""};
    t = lx.next();
    if (t.kind == token::punct && t.text == "@") {
      t = lx.next();
      if (!is_name(t)) break;
      acct.host = t.text;
      t = lx.next();
    }
    if (is_word(t, "identified")) {
      t = lx.next();
      if (is_word(t, "with")) {
        const token with = t;
        const token plugin = lx.next();
        acct.plugin = lower(plugin.text);
        t = lx.next();
        if (is_mysql_plugin(acct.plugin)) {
          if (is_word(t, "by")) {
            edits.push_back({with.begin, t.begin, ""}); // IDENTIFIED BY 'pw'
          } else if (!is_word(t, "as")) {
            // No password: MySQL stores an empty one.
            edits.push_back({with.begin, plugin.end_pos, "BY ''"});
          }
          out.plugins.push_back(acct);
        }
      }
      if (is_word(t, "by") || is_word(t, "as")) {
        t = lx.next(); // the password or hash
        t = lx.next();
      }
    }
    if (!(t.kind == token::punct && t.text == ",")) break;
    t = lx.next();
  }
  out.sql = std::string(sql);
  for (auto it = edits.rbegin(); it != edits.rend(); ++it)
    out.sql.replace(it->begin, it->end - it->begin, it->text);
  return out;
}

cache_effect sha256_cache_effect(std::string_view sql) {
  lexer lx(sql);
  const token a = lx.next();
  const token b = lx.next();
  if (is_word(a, "flush") && is_word(b, "privileges")) return cache_effect::clear;
  if (is_word(a, "grant") ||
      ((is_word(a, "alter") || is_word(a, "rename") || is_word(a, "drop")) && is_word(b, "user")) ||
      (is_word(a, "set") && is_word(b, "password")))
    return cache_effect::check_accounts;
  return cache_effect::none;
}

} // namespace xserver
