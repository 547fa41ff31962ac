#include "progress_log.h"

#include "printable.h"

#include <climits>
#include <cstdlib>
#include <memory>
#include <unistd.h>

namespace mysqlx_import {

namespace {

// FNV-1a, 64 bits: a job key and a digest, not a defence against anyone
// (the rows are the user's own, in the user's own schema).
std::uint64_t fnv1a(std::string_view text, std::uint64_t h = 14695981039346656037ull) {
  for (const unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string hex(std::uint64_t v) {
  static const char digits[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[static_cast<std::size_t>(i)] = digits[v & 15];
  return s;
}

std::string quote_name(const std::string& name) {
  std::string q = "`";
  for (const char c : name) {
    if (c == '`') q += '`';
    q += c;
  }
  return q + "`";
}

// A file as an absolute path, so that the job is the same from any
// directory; standard input ("-") stays as given. Its directory is resolved
// (realpath), its own name is not: the job must not change when a file
// missing at one run exists at the next (realpath() fails for it), which
// --resume after "cannot open" needs. A directory that does not exist
// either is made absolute without being resolved.
std::string absolute(const std::string& name) {
  if (name == "-") return name;
  const auto slash = name.find_last_of('/');
  std::string dir = slash == std::string::npos ? "." : name.substr(0, slash);
  const std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
  if (dir.empty()) dir = "/"; // "/name"
  std::unique_ptr<char, decltype(&std::free)> real(::realpath(dir.c_str(), nullptr), &std::free);
  if (real) {
    const std::string d = real.get();
    return d == "/" ? "/" + base : d + "/" + base;
  }
  if (name[0] == '/') return name;
  std::unique_ptr<char, decltype(&std::free)> cwd(::getcwd(nullptr, 0), &std::free);
  return cwd ? std::string(cwd.get()) + "/" + name : name;
}

// The `source` column's width, in characters.
constexpr std::size_t source_chars = 1024;

} // namespace

progress_log::progress_log(const std::string& schema, const std::string& collection,
                           const std::vector<std::string>& inputs)
    : m_table(quote_name(schema) + ".`mysqlx_import_progress`") {
  std::string key = schema + '\0' + collection;
  std::string source = schema + "." + collection + " <-";
  for (const auto& in : inputs) {
    const std::string path = absolute(in);
    key += '\0' + path;
    source += " " + path;
  }
  m_job = hex(fnv1a(key));
  // Any file name: a name that is not UTF-8 is escaped (the column is
  // utf8mb4), and a long list is cut between characters.
  m_source = printable_prefix(source, source_chars);
}

void progress_log::prepare(mysqlx::Session& s) const {
  s.sql("CREATE TABLE IF NOT EXISTS " + m_table +
        " (job CHAR(16) NOT NULL, first_entry BIGINT UNSIGNED NOT NULL,"
        " end_entry BIGINT UNSIGNED NOT NULL, documents BIGINT UNSIGNED NOT NULL,"
        " digest CHAR(16) NOT NULL, source VARCHAR(1024) NOT NULL,"
        " stored_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),"
        " PRIMARY KEY (job, first_entry)) ENGINE=InnoDB")
      .execute();
}

namespace {
// The first_entry of the row that says a job completed.
constexpr std::uint64_t completed_mark = UINT64_MAX;
} // namespace

progress_log::state progress_log::load(mysqlx::Session& s) const {
  state out;
  mysqlx::SqlResult res = s.sql("SELECT first_entry, end_entry, documents, digest FROM " + m_table +
                                " WHERE job = ? ORDER BY first_entry")
                              .bind(m_job)
                              .execute();
  for (mysqlx::Row row : res.fetchAll()) {
    range r;
    r.first = row[0].get<std::uint64_t>();
    r.end = row[1].get<std::uint64_t>();
    r.documents = row[2].get<std::uint64_t>();
    r.digest = row[3].get<std::string>();
    if (r.first == completed_mark)
      out.completed = true;
    else
      out.ranges.push_back(std::move(r));
  }
  return out;
}

void progress_log::record(mysqlx::Session& s, const range& r) const {
  s.sql("INSERT INTO " + m_table +
        " (job, first_entry, end_entry, documents, digest, source) VALUES (?, ?, ?, ?, ?, ?)")
      .bind(m_job, r.first, r.end, r.documents, r.digest, m_source)
      .execute();
}

bool progress_log::recorded(mysqlx::Session& s, std::uint64_t first) const {
  mysqlx::SqlResult res =
      s.sql("SELECT COUNT(*) FROM " + m_table + " WHERE job = ? AND first_entry = ?")
          .bind(m_job, first)
          .execute();
  mysqlx::Row row = res.fetchOne();
  return row && row[0].get<std::uint64_t>() > 0;
}

void progress_log::clear(mysqlx::Session& s) const {
  s.sql("DELETE FROM " + m_table + " WHERE job = ?").bind(m_job).execute();
}

void progress_log::complete(mysqlx::Session& s) const {
  s.startTransaction();
  try {
    clear(s);
    record(s, {completed_mark, 0, 0, "completed"});
    s.commit();
  } catch (const mysqlx::Error& e) {
    if (!e.isConnectionError()) {
      try {
        s.rollback();
      } catch (const mysqlx::Error&) {
        // The first error is the one to report.
      }
    }
    throw;
  }
}

std::string progress_log::digest(std::string_view first_text, std::string_view last_text) {
  return hex(fnv1a(last_text, fnv1a(first_text) ^ 0x9e3779b97f4a7c15ull));
}

} // namespace mysqlx_import
