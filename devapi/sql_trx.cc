// Follows transaction state through the SQL text the application sends; see
// sql_trx.h for why. Deliberately small: leading keywords only, as the
// statements that matter are recognisable from their first words.
#include "devapi/sql_trx.h"

#include "devapi/session_impl.h"

#include <cctype>
#include <initializer_list>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

namespace {

// Reads words (letters, digits, _, @ and .) off the front of the statement,
// skipping whitespace, comments and the characters between words (`=`, `,`).
class words {
public:
  explicit words(std::string_view s) noexcept : m_s(s) {}

  std::string_view next() noexcept {
    skip();
    std::size_t n = 0;
    while (n < m_s.size() && is_word(m_s[n])) ++n;
    std::string_view w = m_s.substr(0, n);
    m_s.remove_prefix(n);
    return w;
  }

private:
  static bool is_word(char c) noexcept {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '@' || c == '.';
  }
  void skip() noexcept {
    while (!m_s.empty()) {
      const char c = m_s.front();
      if (m_s.substr(0, 3) == "/*!" || m_s.substr(0, 4) == "/*M!") {
        // An executable comment (MySQL `/*!50700 ...*/`, MariaDB `/*M!...`):
        // the server runs its text, so it is read as statement text; the
        // version number and the closing `*/` are skipped as separators.
        m_s.remove_prefix(m_s[2] == '!' ? 3 : 4);
        while (!m_s.empty() && std::isdigit(static_cast<unsigned char>(m_s.front())) != 0)
          m_s.remove_prefix(1);
      } else if (m_s.substr(0, 2) == "/*") {
        const auto end = m_s.find("*/", 2);
        m_s.remove_prefix(end == std::string_view::npos ? m_s.size() : end + 2);
      } else if (c == '#' ||
                 (m_s.substr(0, 2) == "--" &&
                  (m_s.size() == 2 || std::isspace(static_cast<unsigned char>(m_s[2])) != 0))) {
        const auto end = m_s.find('\n');
        m_s.remove_prefix(end == std::string_view::npos ? m_s.size() : end + 1);
      } else if (is_word(c)) {
        return;
      } else {
        m_s.remove_prefix(1);
      }
    }
  }

  std::string_view m_s;
};

bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::toupper(static_cast<unsigned char>(a[i])) != b[i]) return false;
  return true;
}

bool one_of(std::string_view w, std::initializer_list<std::string_view> upper) noexcept {
  for (std::string_view u : upper)
    if (iequals(w, u)) return true;
  return false;
}

// COMMIT / ROLLBACK [WORK] [AND [NO] CHAIN]: AND CHAIN opens the next
// transaction at once.
trx_effect commit_or_chain(words& in, std::string_view w) noexcept {
  if (iequals(w, "WORK")) w = in.next();
  if (!iequals(w, "AND")) return trx_effect::end;
  return iequals(in.next(), "CHAIN") ? trx_effect::begin : trx_effect::end;
}

// SET [SESSION | LOCAL] [@@session. | @@local. | @@]autocommit = value, possibly
// among other assignments; the last autocommit assignment wins. GLOBAL,
// PERSIST and PERSIST_ONLY leave this session's autocommit alone; as in
// MySQL, a scope keyword holds for the assignments after it until the next
// one, while an @@global. prefix names one variable only.
trx_effect set_statement(words& in) noexcept {
  trx_effect out = trx_effect::none;
  bool session_scope = true;
  for (std::string_view w = in.next(); !w.empty(); w = in.next()) {
    if (one_of(w, {"GLOBAL", "PERSIST", "PERSIST_ONLY"})) {
      session_scope = false;
      continue;
    }
    if (one_of(w, {"SESSION", "LOCAL"})) {
      session_scope = true;
      continue;
    }
    bool this_session = session_scope;
    for (std::string_view prefix :
         {"@@SESSION.", "@@LOCAL.", "@@GLOBAL.", "@@PERSIST.", "@@PERSIST_ONLY.", "@@"})
      if (w.size() > prefix.size() && iequals(w.substr(0, prefix.size()), prefix)) {
        this_session = prefix == "@@" ? session_scope : one_of(prefix, {"@@SESSION.", "@@LOCAL."});
        w.remove_prefix(prefix.size());
        break;
      }
    if (!iequals(w, "AUTOCOMMIT") || !this_session) continue;
    const std::string_view v = in.next();
    if (one_of(v, {"0", "OFF", "FALSE"}))
      out = trx_effect::autocommit_off;
    else if (one_of(v, {"1", "ON", "TRUE"}))
      out = trx_effect::autocommit_on;
  }
  return out;
}

} // namespace

trx_effect classify_sql_transaction(std::string_view sql) noexcept {
  words in(sql);
  const std::string_view first = in.next();
  if (iequals(first, "BEGIN")) return trx_effect::begin;
  if (iequals(first, "START")) {
    // START SLAVE / REPLICA / GROUP_REPLICATION commit implicitly too.
    const std::string_view what = in.next();
    if (iequals(what, "TRANSACTION")) return trx_effect::begin;
    return one_of(what, {"SLAVE", "REPLICA", "GROUP_REPLICATION"}) ? trx_effect::end
                                                                   : trx_effect::none;
  }
  if (iequals(first, "COMMIT")) return commit_or_chain(in, in.next());
  if (iequals(first, "ROLLBACK")) {
    std::string_view w = in.next();
    if (iequals(w, "WORK")) w = in.next();
    if (iequals(w, "TO")) return trx_effect::none; // to a savepoint: still open
    return commit_or_chain(in, w);
  }
  if (iequals(first, "SET")) {
    words rest = in;
    if (iequals(rest.next(), "PASSWORD")) return trx_effect::end; // commits implicitly
    return set_statement(in);
  }
  // Statements that commit implicitly (MySQL manual, "Statements That Cause
  // an Implicit Commit"), except on temporary tables.
  if (one_of(first, {"CREATE", "DROP"}))
    return iequals(in.next(), "TEMPORARY") ? trx_effect::none : trx_effect::end;
  if (one_of(first, {"ALTER", "RENAME", "TRUNCATE", "GRANT", "REVOKE", "LOCK", "ANALYZE", "CHECK",
                     "OPTIMIZE", "REPAIR", "FLUSH", "CACHE", "INSTALL", "UNINSTALL", "IMPORT",
                     "CHANGE", "STOP"}))
    return trx_effect::end;
  if (iequals(first, "RESET")) // except RESET PERSIST (MySQL 8.0)
    return iequals(in.next(), "PERSIST") ? trx_effect::none : trx_effect::end;
  if (iequals(first, "LOAD"))
    return iequals(in.next(), "INDEX") ? trx_effect::end : trx_effect::none;
  return trx_effect::none;
}

void track_transaction(session_impl& sess, std::string_view sql) noexcept {
  switch (classify_sql_transaction(sql)) {
  case trx_effect::none:
    break;
  case trx_effect::begin:
    sess.in_transaction = true;
    break;
  case trx_effect::end:
    sess.in_transaction = false;
    break;
  case trx_effect::autocommit_on:
    sess.autocommit_off = false;
    sess.in_transaction = false;
    break;
  case trx_effect::autocommit_off:
    sess.autocommit_off = true;
    break;
  }
}

} // namespace detail
MYSQLX_NAMESPACE_END
